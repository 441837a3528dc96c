"""The abstract Euchre game bundled for the CFR core (`cfr.game.Game`), and its baseline stage.

The numba functions live in `games/euchre/abstraction/abstract_game.py` (which depends on `games`
only); this module, on the `train` side of the data flow, binds them into the `Game` the
runner trains, and builds the Euchre baseline `Stage` (`train.game_plugin.baseline_stage`): two
CFR players (the teams), one seeded random hand per iteration (chance sampled), the hand's
points as the payoff (team 0's minus team 1's, team 0 the dealer's), float32 tables, es-mccfr
by default. The settings record the game (`game: euchre`) and the abstraction's name and
version, so a run of one game or abstraction is never resumed under another.
"""

from __future__ import annotations

from games.euchre.abstraction import abstract_game as G
from games.euchre.abstraction.version import ABSTRACTION_NAME, ABSTRACTION_VERSION
from games.euchre.state import STATE_SIZE
from train.game_plugin import PLUGIN_DEFAULTS, abstract_game, baseline_stage

GAME = abstract_game("euchre-baseline", G, STATE_SIZE)
DEFAULTS = PLUGIN_DEFAULTS


def euchre_baseline_stage(seed: int, batch: int, algorithm: str = DEFAULTS["algorithm"],
                          sampling=None):
    """The Euchre baseline `Stage` for a seed, batch size and algorithm."""
    return baseline_stage(GAME, "euchre", ABSTRACTION_NAME, ABSTRACTION_VERSION, seed, batch,
                          algorithm, sampling)
