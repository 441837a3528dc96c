"""The abstract Euchre game bundled for the CFR core (`cfr.game.Game`), and its baseline stage.

The numba functions live in `games/euchre/abstraction/abstract_game.py` (which depends on `games`
only); this module, on the `train` side of the data flow, binds them into the `Game` the
runner trains, and builds the Euchre baseline `Stage`: two CFR players (the teams), one seeded
random hand per iteration (chance sampled), the hand's points as the payoff (team 0's minus
team 1's, team 0 the dealer's), float32 tables, es-mccfr by default. The settings record the
game (`game: euchre`) and the abstraction's name and version, so a run of one game or
abstraction is never resumed under another.
"""

from __future__ import annotations

from games.euchre.abstraction import abstract_game as G
from games.euchre.abstraction.version import ABSTRACTION_NAME, ABSTRACTION_VERSION
from games.euchre.state import STATE_SIZE
from train.game_plugin import abstract_game

GAME = abstract_game("euchre-baseline", G, STATE_SIZE)

STAGE = "baseline"
DEFAULTS = {"seed": 0, "batch": 1, "updates": "simultaneous", "algorithm": "es-mccfr"}


def euchre_settings(seed: int, batch: int, algorithm: str = "es-mccfr", sampling=None) -> dict:
    """The settings a Euchre baseline run records (and a resume must match): the game, seed,
    batch, the algorithm as run (es-mccfr's sampling options), the abstraction and version."""
    from train.baseline import new_run_sampling
    from train.runner import ALGORITHMS, ES_MCCFR

    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {', '.join(ALGORITHMS)}")
    if sampling is not None and algorithm != ES_MCCFR:
        raise ValueError("sampling options only apply to es-mccfr")
    extra = {}
    if algorithm == ES_MCCFR:
        extra = (sampling or new_run_sampling()).settings()
    return {
        "game": "euchre",
        "seed": int(seed),
        "batch": int(batch),
        "dtype": "float32",
        "algorithm": algorithm,
        **extra,
        "updates": "simultaneous",
        "abstraction": ABSTRACTION_NAME,
        "abstraction_version": ABSTRACTION_VERSION,
    }


def euchre_baseline_stage(seed: int, batch: int, algorithm: str = DEFAULTS["algorithm"],
                          sampling=None):
    """The Euchre baseline `Stage` for a seed, batch size and algorithm. The reported payoff
    is the running mean root value of the non-dealer team (as Setback's)."""
    from train.runner import Stage

    return Stage(STAGE, GAME, euchre_settings(seed, batch, algorithm, sampling),
                 payoff_sign=-1.0)
