"""The abstract Setback game bundled for the CFR core (`cfr.game.Game`).

The numba functions live in `games/setback/abstraction/abstract_game.py` (which depends on `games`
only); this module, on the `train` side of the data flow, binds them into the `Game` the
solver, the census and the trainers run.
"""

from __future__ import annotations

from games.setback.abstraction import abstract_game as G
from games.setback.state import STATE_SIZE
from train.game_plugin import abstract_game

GAME = abstract_game("setback-baseline", G, STATE_SIZE)
