"""The baseline stage: score-insensitive CFR on the abstract Setback deal.

Two CFR players (the teams), one seeded random deal per iteration (chance sampled), both teams
updated in one pass, the baseline payoff (team 0's deal score minus team 1's), each deal stopped
once exhausted, float32 tables. The game is `games.setback.train.game.GAME`, the same one the census
walks. The reported payoff is the running mean root value of the non-dealer team.
"""

from __future__ import annotations

from games.setback.abstraction import layouts
from train.algorithms import ALGORITHMS, ES_MCCFR, UPDATES
from train.game_plugin import new_run_sampling
from train.runner import Stage

STAGE = "baseline"
# es-mccfr won bench/race.py (issue 11): the strongest player per CPU-minute from an empty
# table; cfr (the reference's algorithm) stays one --algorithm away.
DEFAULTS = {"seed": 0, "batch": 1, "updates": "simultaneous", "algorithm": "es-mccfr"}


def setback_settings(seed: int, batch: int, updates: str = "simultaneous",
                     algorithm: str = "cfr", sampling=None, abstraction: str = layouts.DEFAULT,
                     **more) -> dict:
    """The settings every Setback stage records (and a resume must match): seed, batch, the
    algorithm as run, and the abstraction; `more` adds the stage's own.

    `updates`: "simultaneous" (both teams' increments from one pass against the strategy
    frozen for the batch) or "reference" (the reference's walk, `cfr.threaded_pass`: the
    table updated in place during the deal, one worker). `algorithm`: one of
    `train.algorithms.ALGORITHMS`; `sampling` (es-mccfr only): its `SamplingOptions`, recorded
    with the run (default: `new_run_sampling()`). `abstraction`: the key layout's name
    (`games/setback/abstraction/layouts.py`), recorded as its abstraction name and version."""
    if updates not in UPDATES:
        raise ValueError(f"updates must be one of {', '.join(UPDATES)}")
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {', '.join(ALGORITHMS)}")
    if updates == "reference" and algorithm != "cfr":
        raise ValueError("--updates reference is the reference's cfr walk: only with cfr")
    if sampling is not None and algorithm != ES_MCCFR:
        raise ValueError("sampling options only apply to es-mccfr")
    layout = layouts.layout(abstraction)
    extra = {}
    if algorithm == ES_MCCFR:
        extra = (sampling or new_run_sampling()).settings()
    return {
        "seed": int(seed),
        "batch": int(batch),
        "dtype": "float32",
        "algorithm": algorithm,
        **extra,
        "updates": updates,
        "abstraction": layout.abstraction,
        "abstraction_version": layout.version,
        **more,
    }


def layout_game(abstraction: str = layouts.DEFAULT):
    """The abstract Setback game (`games.setback.train.game.GAME`) keyed by the layout
    `abstraction`: the same game but for its `decision`, named after the layout (the
    reference's keeps the name `setback-baseline`), so a checkpoint of one layout is never
    resumed under another (`cfr.binding.layout_game`, which `play/` calls too)."""
    from games.setback.abstraction import abstract_game
    from cfr.binding import layout_game as bind_layout

    return bind_layout(abstract_game, layouts, abstraction)


def baseline_stage(seed: int, batch: int, updates: str = "simultaneous",
                   algorithm: str = DEFAULTS["algorithm"], sampling=None,
                   abstraction: str = layouts.DEFAULT, warm=None) -> Stage:
    """The baseline `Stage` for a seed, batch size, update rule, algorithm and key layout (the
    settings that fix its results); `warm` (a `games.setback.train.warm_start.WarmStart`):
    warm-started from a coarser run, recorded with the settings."""
    more = {} if warm is None else warm.settings()
    return Stage(STAGE, layout_game(abstraction),
                 setback_settings(seed, batch, updates, algorithm, sampling, abstraction,
                                  **more),
                 payoff_sign=-1.0, warm=warm)
