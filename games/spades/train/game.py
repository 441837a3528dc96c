"""The abstract Spades game bundled for the CFR core (`cfr.game.Game`), and its baseline stage.

The numba functions live in `games/spades/abstraction/abstract_game.py`; this module binds them
(`train.game_plugin.abstract_game`) and builds the Spades baseline `Stage` as every plug-in
game's (`train.game_plugin.baseline_stage`): two CFR players (the teams), one seeded random hand
per iteration, the hand's points from 0 to 0 as the payoff (team 0's minus team 1's in tens
of points), float32 tables, es-mccfr by default; the settings record `game: spades` and the
abstraction's name and version, so a run is never resumed under another game or abstraction.
"""

from __future__ import annotations

from games.spades.abstraction import abstract_game as G
from games.spades.abstraction.version import ABSTRACTION_NAME, ABSTRACTION_VERSION
from games.spades.state import STATE_SIZE
from train.game_plugin import PLUGIN_DEFAULTS, abstract_game, baseline_stage

GAME = abstract_game("spades-baseline", G, STATE_SIZE)
DEFAULTS = PLUGIN_DEFAULTS


def spades_baseline_stage(seed: int, batch: int, algorithm: str = DEFAULTS["algorithm"],
                          sampling=None):
    """The Spades baseline `Stage` for a seed, batch size and algorithm."""
    return baseline_stage(GAME, "spades", ABSTRACTION_NAME, ABSTRACTION_VERSION, seed, batch,
                          algorithm, sampling)
