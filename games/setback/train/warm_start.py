"""Warm start across layouts (issue 38): a baseline run of a fine key layout that starts where
a run of a coarser layout stopped.

`train baseline --run DIR --abstraction FINE --warm-start COARSE_RUN`: every FINE key refines
exactly one key of the coarse run's layout (`games/setback/abstraction/layouts.refines`; the map is
`games/setback/abstraction/refinement.coarse_key`). Fine keys are created lazily, as in any run, and
a fine key is seeded from its coarse key's regret and strategy sums when it is first inserted:
before an episode's increments are merged, every key of the episode that the table lacks is
inserted holding the seed (`WarmStart.seed`), then the merge adds the episode's increments to
it. So the table only ever holds keys the training met, and each holds its coarse key's
history plus what the finer information has taught it since.

The seeding rule (`--warm-start-rule`):
- `copy` (default): the coarse key's regret and strategy sums as they are;
- `sums:F`: the regrets copied, the strategy sums times F (0 < F <= 1): the average strategy
  forgets the coarse history faster, the current strategy starts where the coarse one is;
- `discount:F`: regrets and strategy sums times F: the coarse history weighs as F of itself,
  so the fine key's own visits move it 1/F times sooner.
Any rule keeps the seeded key's current and average strategy equal to the coarse key's (a
positive factor cancels in the normalisations; up to the float rounding of the product), so a
warm-started table plays as its source (`tests/test_warm_start.py`). A coarse key the source
never met seeds nothing (zero sums: uniform, as a new key of any run). The default is `copy`,
chosen by measurement (issue 38, docs/training.md): bidder warm-started from a 60-minute
reference run and trained 20 CPU-minutes more, `sums:0.1` and `discount:0.1` won 0.4 and 0.7
points less than `copy` on the same 1,000 pairs, neither interval clear of zero.

One limit: the pass that first meets a fine key traverses against the table frozen at the
batch's start, which does not hold it yet, so that one episode plays the key uniformly, as
every run plays a new key (seeding it inside the pass needs the pass to read the coarse table:
`cfr/` code). From the next episode on (batch 1) the key plays its seeded strategy.

The run continues the coarse run: its iteration count, running payoff and training time start
at the coarse checkpoint's (the same seed continues the same deal stream; `--iterations` and
`--for` are totals including the coarse run's), and seed, batch, algorithm and sampling
options default to the coarse run's. The coarse checkpoint is kept in DIR/warm_start.ckpt (a
hard link when the file system allows, else a copy: the coarse run replaces its checkpoint by
renaming a new file over it, so the link keeps the checkpoint as it was), and run.json records
the source, its layout, iteration and checksum and the rule (`settings`), so a resume seeds
from exactly the same table, bit for bit, even when the coarse run has trained on since.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from dataclasses import dataclass

import numpy as np
from numba import njit

from games.setback.abstraction import layouts
from games.setback.abstraction.refinement import clear_mask, coarse_key
from cfr.errors import CfrFileError
from cfr.table import ACTIONS_MASK, InfoSetTable, find_slot
from train.errors import RunError
from train.run_directory import WARM_START_FILE, RunDirectory

DEFAULT_RULE = "copy"
# the settings a warm-started run records (and a resume must match)
SETTING_NAMES = ("warm_start", "warm_start_abstraction", "warm_start_iteration",
                 "warm_start_checksum", "warm_start_rule")


def parse_rule(text: str) -> tuple[str, float, float]:
    """(canonical text, regret factor, strategy-sum factor) of a seeding rule: `copy`,
    `sums:F` or `discount:F` with 0 < F <= 1; RunError (one line) for anything else."""
    name, _, factor_text = text.partition(":")
    if name == "copy" and not factor_text:
        return "copy", 1.0, 1.0
    if name in ("sums", "discount") and factor_text:
        try:
            factor = float(factor_text)
        except ValueError:
            factor = float("nan")
        if 0.0 < factor <= 1.0:
            canonical = f"{name}:{factor!r}"
            return canonical, (factor if name == "discount" else 1.0), factor
    raise RunError(f"--warm-start-rule {text!r}: expected copy, sums:F or discount:F with "
                   "0 < F <= 1")


@njit(cache=True, _nrt=False)
def seed_kernel(keys, meta, offsets, regrets, strategy, tcounts, lg_offset, lg_key, lg_meta,
                cursor, end, c_keys, c_meta, c_offsets, c_regrets, c_strategy, mask,
                regret_factor, strategy_factor, row):
    """Insert every key of log entries cursor[0]..end-1 that the table lacks, holding its
    coarse key's sums times the factors (zeros when the coarse table lacks it).

    Only entries whose key the frozen table lacked (offset -1) are looked up: a key the pass
    found is already seeded. Stops with cursor[2] = 1 when an insert needs more slots or values
    (the caller grows the table and calls again), 2 when the coarse key holds another action
    count (the layouts would not refine), 0 when done. `tcounts`: [info sets, used values,
    max info sets], as `cfr.increment_log.merge_kernel` takes them; `row`: scratch for a key."""
    e = cursor[0]
    cursor[2] = 0
    while e < end:
        if lg_offset[e] < 0:
            slot = find_slot(keys, meta, lg_key[e])
            if meta[slot] == 0:
                n = np.int64(lg_meta[e] & ACTIONS_MASK)
                if tcounts[0] + 1 > tcounts[2] or tcounts[1] + n > regrets.shape[0]:
                    cursor[2] = 1
                    break
                for w in range(keys.shape[1]):
                    row[w] = lg_key[e, w]
                row[0] = coarse_key(lg_key[e, 0], mask)
                c_slot = find_slot(c_keys, c_meta, row)
                if c_meta[c_slot] != 0 and np.int64(c_meta[c_slot] & ACTIONS_MASK) != n:
                    cursor[2] = 2
                    break
                o = tcounts[1]
                for w in range(keys.shape[1]):
                    keys[slot, w] = lg_key[e, w]
                meta[slot] = lg_meta[e]
                offsets[slot] = o
                if c_meta[c_slot] != 0:
                    co = np.int64(c_offsets[c_slot])
                    for a in range(n):
                        regrets[o + a] = regret_factor * c_regrets[co + a]
                        strategy[o + a] = strategy_factor * c_strategy[co + a]
                else:
                    for a in range(n):
                        regrets[o + a] = 0.0
                        strategy[o + a] = 0.0
                tcounts[0] += 1
                tcounts[1] += n
        e += 1
    cursor[0] = e


@dataclass
class WarmStart:
    """A warm start's source (the coarse table and counters) and rule; `seed` is what the
    trainer calls before each merge."""

    source: str  # the coarse run's directory, as recorded
    coarse: str  # the coarse layout's name
    rule: str  # canonical rule text
    table: InfoSetTable  # the coarse table (read only)
    iteration: int
    payoff_sum: float
    seconds: float
    cpu_seconds: float
    checksum: str
    mask: np.uint64  # `refinement.clear_mask(fine, coarse)`

    def __post_init__(self):
        # asked once per merged episode: the rule parsed and the kernel's scratch made once
        _, self.regret_factor, self.strategy_factor = parse_rule(self.rule)
        self._cursor = np.zeros(3, dtype=np.int64)
        self._tcounts = np.zeros(3, dtype=np.int64)
        self._row = np.zeros(self.table.key_words, dtype=np.uint64)

    def settings(self) -> dict:
        """What run.json records of the warm start (`SETTING_NAMES`)."""
        return dict(zip(SETTING_NAMES, (self.source, self.coarse, self.iteration,
                                        self.checksum, self.rule)))

    def counters(self) -> tuple[int, float, float, float]:
        """(iteration, payoff sum, seconds, CPU seconds) a new warm-started run starts from:
        the coarse run's."""
        return self.iteration, self.payoff_sum, self.seconds, self.cpu_seconds

    def seed(self, table: InfoSetTable, log, segment: tuple[int, int]) -> None:
        """Insert, seeded, every key of the log entries segment[0]..segment[1]-1 that `table`
        lacks (growing it as needed), so that merging them adds their increments to the seed."""
        cursor, tcounts, coarse = self._cursor, self._tcounts, self.table
        cursor[0] = segment[0]
        while True:
            tcounts[0], tcounts[1], tcounts[2] = table.count, table.n_values, table.max_count
            seed_kernel(table.keys, table.meta, table.offsets, table.regrets, table.strategy,
                        tcounts, log.offset, log.key, log.meta, cursor, int(segment[1]),
                        coarse.keys, coarse.meta, coarse.offsets, coarse.regrets,
                        coarse.strategy, self.mask, self.regret_factor, self.strategy_factor,
                        self._row)
            table.count, table.n_values = int(tcounts[0]), int(tcounts[1])
            if cursor[2] == 0:
                return
            e = int(cursor[0])
            if cursor[2] == 2:
                raise RunError(f"warm start: the {self.coarse} key of {log.key[e].tolist()} "
                               "holds another number of actions: the layouts do not refine")
            n = int(log.meta[e] & ACTIONS_MASK)
            if table.count + 1 > table.max_count:
                table.grow_slots()
            if table.n_values + n > table.value_capacity:
                table.grow_values(table.n_values + n)


def _checksum(path: str) -> str:
    """The checkpoint's own checksum of its arrays (hex), or for an old format without one,
    the BLAKE2b-128 of the whole file."""
    from cfr import checkpoint

    header, _ = checkpoint.read_header(path)
    if isinstance(header.get("checksum"), (bytes, bytearray)):
        return bytes(header["checksum"]).hex()
    digest = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def source_settings(source: str) -> dict:
    """The settings of the coarse run `source` (a baseline Setback run with a checkpoint);
    RunError (one line) for anything else."""
    run = RunDirectory(source)
    recorded = run.read_settings()
    if recorded["stage"] != "baseline":
        raise RunError(f"--warm-start {source}: a {recorded['stage']} run; a warm start "
                       "starts from a baseline run")
    settings = recorded["settings"]
    if settings.get("game", "setback") != "setback":
        raise RunError(f"--warm-start {source}: a {settings['game']} run; warm starts are "
                       "Setback's (its key layouts)")
    if not run.has_checkpoint():
        raise RunError(f"--warm-start {source} has no checkpoint yet: train it first")
    return settings


def _layout_name(settings: dict, where: str) -> str:
    try:
        return layouts.of_header(settings).name
    except layouts.LayoutError as exc:
        raise RunError(f"{where}: {exc}") from None


def _snapshot(source_checkpoint: str, target: str) -> None:
    """Make `target` hold the checkpoint `source_checkpoint` holds now: a hard link (the
    source's writer renames new files over its path, never writes into this one), else a
    copy; atomically either way."""
    from cfr.atomic_file import atomic_path

    with atomic_path(target, suffix=".ckpt") as tmp:
        os.unlink(tmp)
        try:
            os.link(source_checkpoint, tmp)
        except OSError:
            shutil.copyfile(source_checkpoint, tmp)


def _load(path: str, source: str, coarse: str, fine: str, rule: str) -> WarmStart:
    """The WarmStart of the snapshot at `path`."""
    from cfr import checkpoint

    try:
        ckpt = checkpoint.load(path)
        checksum = _checksum(path)
    except (CfrFileError, OSError) as exc:
        raise RunError(f"warm start: {exc}") from None
    extra = ckpt.extra
    seconds = float(extra.get("seconds", 0.0))
    try:
        mask = clear_mask(fine, coarse)
    except layouts.LayoutError as exc:
        raise RunError(str(exc)) from None
    return WarmStart(source, coarse, rule, ckpt.table, int(ckpt.iteration),
                     float(extra.get("payoff_sum", 0.0)), seconds,
                     float(extra.get("cpu_seconds", seconds)), checksum, mask)


def check_pair(source: str, fine: str) -> str:
    """The coarse run's layout name, once it is known that the layout `fine` refines it;
    RunError (one line) otherwise (before anything is written)."""
    coarse = _layout_name(source_settings(source), f"--warm-start {source}")
    try:
        layouts.check_refines(fine, coarse, f"--warm-start {source}")
    except layouts.LayoutError as exc:
        raise RunError(str(exc)) from None
    return coarse


def start(run_path: str, source: str, fine: str, rule: str = DEFAULT_RULE) -> WarmStart:
    """A new warm-started run in `run_path` (whose writer lock the caller holds) from the
    coarse run `source`: checks the pair, keeps the coarse checkpoint as DIR/warm_start.ckpt
    and loads it."""
    rule = parse_rule(rule)[0]
    coarse = check_pair(source, fine)
    snapshot = os.path.join(run_path, WARM_START_FILE)
    try:
        _snapshot(RunDirectory(source).checkpoint_path, snapshot)
    except OSError as exc:
        raise RunError(f"warm start: cannot keep {source}'s checkpoint in {run_path} "
                       f"({exc})") from None
    return _load(snapshot, os.path.abspath(source), coarse, fine, rule)


def resume(run_path: str, settings: dict, fine: str) -> WarmStart:
    """The warm start a run recorded (`settings`), from its DIR/warm_start.ckpt, which must be
    the checkpoint it recorded (RunError otherwise)."""
    snapshot = os.path.join(run_path, WARM_START_FILE)
    if not os.path.exists(snapshot):
        raise RunError(f"{run_path} was warm-started from {settings['warm_start']} but its "
                       f"{WARM_START_FILE} is missing: the run cannot resume bit for bit")
    warm = _load(snapshot, settings["warm_start"], settings["warm_start_abstraction"], fine,
                 settings["warm_start_rule"])
    if warm.checksum != settings.get("warm_start_checksum"):
        raise RunError(f"{snapshot} is not the checkpoint the run was warm-started from "
                       "(another checksum): the run cannot resume bit for bit")
    return warm


def is_warm(settings: dict) -> bool:
    """Whether a run's recorded settings say it was warm-started."""
    return bool(settings.get("warm_start"))
