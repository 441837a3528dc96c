"""The abstract Setback game bundled for the CFR core (`cfr.game.Game`).

The numba functions live in `abstraction/setback/abstract_game.py` (which depends on `games`
only); this module, on the `train` side of the data flow, binds them into the `Game` the
solver, the census and the trainers run.
"""

from __future__ import annotations

from abstraction.setback import abstract_game as G
from cfr.game import Game
from games.setback.state import STATE_SIZE

GAME = Game(
    name="setback-baseline",
    state_size=STATE_SIZE,
    max_actions=G.MAX_ACTIONS,
    max_depth=G.MAX_DEPTH + 2,
    key_words=1,
    initial_state=G.initial_state,
    current_player=G.current_player,
    decision=G.decision,
    apply=G.apply_past_forced,  # forced cards need no pass frame of their own
    utility=G.utility,
    chance_outcomes=G.chance_outcomes,
    chance_sample=G.chance_sample,
)
