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
DEFAULTS = {"seed": 0, "batch": 1}


def setback_settings(seed: int, batch: int, **more) -> dict:
    """The settings every Setback stage records (and a resume must match): seed, batch, the
    algorithm as run, and the abstraction; `more` adds the stage's own."""
    return {
        "seed": int(seed),
        "batch": int(batch),
        "dtype": "float32",
        "algorithm": "cfr",
        "updates": "simultaneous",
        "abstraction": ABSTRACTION_NAME,
        "abstraction_version": ABSTRACTION_VERSION,
        **more,
    }


def baseline_stage(seed: int, batch: int) -> Stage:
    """The baseline `Stage` for a seed and batch size (the settings that fix its results)."""
    from train.setback_game import GAME

    return Stage(STAGE, GAME, setback_settings(seed, batch), payoff_sign=-1.0)
