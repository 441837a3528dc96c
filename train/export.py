"""`export`: a run's average strategy as a strategy file (`cfr/strategy_file.py`).

For every info set, the average strategy is the strategy sums normalised (uniform where they
are all zero); probabilities below the threshold (0.001 by default, as the reference does) are
zeroed and the rest renormalised. Keys are written in ascending integer-key order, chunk by
chunk, with their strings from the game's registered `key_codec` (of the run's key layout,
where the game lets a run choose one; the header records the game and the abstraction's name
and version): the same table always gives the same file, byte for byte (the header holds no
timestamp).
"""

from __future__ import annotations

import numpy as np

from cfr import checkpoint
from cfr.strategy_file import StrategyChunk, write_strategy
from cfr.table import ACTIONS_MASK, InfoSetTable
from games.registry import DEFAULT_GAME
from train.errors import RunError
from train.run_directory import RunDirectory

CHUNK_KEYS = 1 << 16
DEFAULT_THRESHOLD = 0.001
# The stage a strategy file records for a run's stage, where they differ: a best response's
# keys are baseline keys of the learner's layout (`db load` takes baseline and bootstrap
# files only), as `games.setback.train.best_response.export_best_response` writes them.
EXPORTED_STAGE = {"best-response": "baseline"}


def average_strategy(strategy_sums: np.ndarray, n_actions: np.ndarray,
                     threshold: float) -> np.ndarray:
    """Normalised, thresholded probabilities (float32) for info sets laid end to end.

    `strategy_sums` holds each info set's n_actions[i] sums in turn. Zero sums give uniform;
    entries below `threshold` become 0 and the rest are renormalised (an info set whose every
    entry would fall below the threshold keeps its unthresholded average).
    """
    sums = strategy_sums.astype(np.float64)
    starts = _starts(n_actions)
    counts = n_actions.astype(np.int64)
    per_set = np.repeat(np.add.reduceat(sums, starts) if sums.size else sums, counts)
    uniform = np.repeat(1.0 / counts, counts)
    probs = np.where(per_set > 0, sums / np.where(per_set > 0, per_set, 1.0), uniform)
    kept = np.where(probs >= threshold, probs, 0.0)
    kept_sum = np.repeat(np.add.reduceat(kept, starts) if kept.size else kept, counts)
    probs = np.where(kept_sum > 0, kept / np.where(kept_sum > 0, kept_sum, 1.0), probs)
    return probs.astype(np.float32)


def table_strategy_chunks(table: InfoSetTable, threshold: float, key_text,
                          min_weight: float = 0.0):
    """Yield `StrategyChunk`s of the table's average strategy in ascending key order; with
    `min_weight` > 0, only the info sets whose strategy sums total at least `min_weight`
    (less half a unit: a count of visits is whole, its float sums are not)."""
    slots = np.flatnonzero(table.meta)
    keys = table.keys[slots, 0]
    order = np.argsort(keys, kind="stable")
    slots, keys = slots[order], keys[order]
    for first in range(0, slots.size, CHUNK_KEYS):
        part = slots[first:first + CHUNK_KEYS]
        part_keys = keys[first:first + CHUNK_KEYS]
        n_actions = (table.meta[part] & ACTIONS_MASK).astype(np.uint8)
        offsets = table.offsets[part].astype(np.int64)
        index = np.repeat(offsets, n_actions) + _ranges(n_actions)
        sums = table.strategy[index]
        if min_weight > 0:
            # the float32 sums of ones drift from whole numbers: half a visit of tolerance
            kept = np.add.reduceat(sums.astype(np.float64), _starts(n_actions)) \
                >= min_weight - 0.5
            if not kept.all():
                sums = sums[np.repeat(kept, n_actions)]
                part_keys, n_actions = part_keys[kept], n_actions[kept]
            if not kept.any():
                continue
        probs = average_strategy(sums, n_actions, threshold)
        texts = [key_text(int(k)) for k in part_keys]
        yield StrategyChunk(texts, n_actions, probs)


def _check_min_visits(run_path: str, settings: dict, stage: str, min_visits: int) -> None:
    """Refuse (one line) --min-visits where a key's strategy sums do not count its visits.

    With es-mccfr's simple averaging every sampled visit of a key (at the decisions of the
    player not updating in that pass) adds the key's current strategy, whose entries sum to 1,
    so the sums' total is the key's visit count; linear weighting adds t instead of 1, the full
    traversals add reach probabilities, a warm start seeds the coarse key's sums, and a best
    response's export plays its current strategy."""
    if min_visits < 0:
        raise RunError("--min-visits must be at least 0")
    if min_visits == 0:
        return
    why = None
    if settings.get("algorithm", "cfr") != "es-mccfr":
        why = f"its algorithm is {settings.get('algorithm', 'cfr')}, not es-mccfr"
    elif settings.get("linear_weighting"):
        why = "linear weighting adds t, not 1, a visit"
    elif settings.get("warm_start"):
        why = "a warm start seeded its sums with the coarse keys' visits"
    elif stage == "best-response":
        why = "a best response exports with train best-response --export"
    if why:
        raise RunError(f"{run_path}: --min-visits counts a key's visits by its strategy sums, "
                       f"which this run cannot: {why}")


def _starts(n_actions: np.ndarray) -> np.ndarray:
    """Where each info set's entries start when info sets of `n_actions` lie end to end."""
    starts = np.zeros(n_actions.size, dtype=np.int64)
    np.cumsum(n_actions[:-1], out=starts[1:])
    return starts


def _ranges(counts: np.ndarray) -> np.ndarray:
    """0..c-1 for every count c, laid end to end."""
    counts = counts.astype(np.int64)
    ends = np.cumsum(counts)
    return np.arange(int(ends[-1]) if counts.size else 0) - np.repeat(ends - counts, counts)


def _key_text(run_path: str, game: str, settings: dict):
    """(abstraction, version, key_text) of a run of `game`, from its registered key codec
    (`games/registry.py`): its `key_text`, or, where the text depends on the key layout the run
    chose (the codec's `key_text` is None), the codec's `header_key_text(settings)`."""
    from games import registry

    codec = registry.get(game).load("key_codec")
    try:
        abstraction, version = codec.check_header(settings)
    except ValueError as exc:
        raise RunError(f"{run_path}: {exc}") from None
    key_text = codec.key_text or codec.header_key_text(settings)
    return abstraction, version, key_text


def export_run(run_path: str, out: str, threshold: float = DEFAULT_THRESHOLD,
               game: str | None = None, min_visits: int = 0) -> dict:
    """Export the run at `run_path` to the strategy file `out`; return its header. The game is
    the run's (its settings' `game`, the default game when it records none); `game`, when given,
    must be it (`RunError` otherwise). `min_visits` > 0 writes only the keys training visited at
    least that often (an es-mccfr run's; `_check_min_visits`), so that a player backing off to a
    coarser database (`db:FINE,backoff=db:COARSE`) plays the coarse key where the fine one is
    rarer; the header records it."""
    if not 0.0 <= threshold < 1.0:
        raise RunError("--threshold must be in [0, 1)")
    run = RunDirectory(run_path)
    recorded = run.read_settings()
    if not run.has_checkpoint():
        raise RunError(f"{run_path} has no checkpoint yet: train it first")
    settings = recorded["settings"]
    run_game = settings.get("game", DEFAULT_GAME)
    if game is not None and game != run_game:
        raise RunError(f"{run_path} is a {run_game} run, not {game}")
    _check_min_visits(run_path, settings, recorded["stage"], int(min_visits))
    abstraction, version, key_text = _key_text(run_path, run_game, settings)
    ckpt = checkpoint.load(run.checkpoint_path)
    stage = EXPORTED_STAGE.get(recorded["stage"], recorded["stage"])
    if stage != recorded["stage"]:  # what `export_best_response` marks, for its average
        settings = {**settings, "best_response": True, "filled_from_target": False,
                    "strategy_played": "average"}
    header = {
        "game": run_game,
        "abstraction": abstraction,
        "abstraction_version": version,
        "stage": stage,
        "iterations": ckpt.iteration,
        "seed": settings.get("seed"),
        "threshold": float(threshold),
        "settings": settings,
    }
    if min_visits:
        header["min_visits"] = int(min_visits)
    n = write_strategy(out, header, table_strategy_chunks(ckpt.table, threshold, key_text,
                                                          float(min_visits)))
    return {**header, "n_keys": n}
