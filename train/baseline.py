"""The baseline stage: score-insensitive CFR on the abstract Setback deal.

Two CFR players (the teams), one seeded random deal per iteration (chance sampled), both teams
updated in one pass, the baseline payoff (team 0's deal score minus team 1's), each deal stopped
once exhausted, float32 tables. The game is `train.setback_game.GAME`, the same one the census
walks. The reported payoff is the running mean root value of the non-dealer team.
"""

from __future__ import annotations

from abstraction.setback.version import ABSTRACTION_NAME, ABSTRACTION_VERSION
from train.runner import Stage

STAGE = "baseline"
DEFAULTS = {"seed": 0, "batch": 1, "updates": "simultaneous"}


UPDATES = ("simultaneous", "reference")


def setback_settings(seed: int, batch: int, updates: str = "simultaneous", **more) -> dict:
    """The settings every Setback stage records (and a resume must match): seed, batch, the
    algorithm as run, and the abstraction; `more` adds the stage's own.

    `updates`: "simultaneous" (both teams' increments from one pass against the strategy
    frozen for the batch) or "reference" (the reference's walk, `cfr.threaded_pass`: the
    table updated in place during the deal, one worker)."""
    if updates not in UPDATES:
        raise ValueError(f"updates must be one of {', '.join(UPDATES)}")
    return {
        "seed": int(seed),
        "batch": int(batch),
        "dtype": "float32",
        "algorithm": "cfr",
        "updates": updates,
        "abstraction": ABSTRACTION_NAME,
        "abstraction_version": ABSTRACTION_VERSION,
        **more,
    }


def baseline_stage(seed: int, batch: int, updates: str = "simultaneous") -> Stage:
    """The baseline `Stage` for a seed, batch size and update rule (the settings that fix
    its results)."""
    from train.setback_game import GAME

    return Stage(STAGE, GAME, setback_settings(seed, batch, updates), payoff_sign=-1.0)
