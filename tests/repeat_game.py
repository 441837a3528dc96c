"""A three-node test game where one info-set key repeats inside its own subtree.

Player 0 acts at the root with key K; action 0 leads to player 0 again, with the same key K
(it forgot it has already acted), whose actions 0 and 1 end the game with payoffs
`INNER_PAYOFFS`; action 1 at the root ends the game with `OUTER_PAYOFF`. No chance, player 1
never acts. State (`int64[3]`): actions taken, first action, second action.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cfr.game import (
    APPLY_SIG,
    CHANCE_OUTCOMES_SIG,
    CHANCE_SAMPLE_SIG,
    CURRENT_PLAYER_SIG,
    DECISION_SIG,
    TERMINAL,
    UTILITY_SIG,
    Game,
)
from games.interface import functions_of

KEY = 7
INNER_PAYOFFS = (2.0, 0.0)
OUTER_PAYOFF = 0.0


def initial_state() -> np.ndarray:
    """The root: no action taken."""
    return np.zeros(3, dtype=np.int64)


@njit(CURRENT_PLAYER_SIG, cache=True, _nrt=False)
def current_player(state):
    """Player 0 at the root and after its action 0; terminal otherwise."""
    if state[0] == 0 or (state[0] == 1 and state[1] == 0):
        return 0
    return TERMINAL


@njit(DECISION_SIG, cache=True, _nrt=False)
def decision(state, actions_out, key_out):
    """Two actions, and the same key at both of player 0's nodes."""
    actions_out[0] = 0
    actions_out[1] = 1
    key_out[0] = np.uint64(KEY)
    return 2


@njit(APPLY_SIG, cache=True, _nrt=False)
def apply(state, action, child_out):
    """Record the action."""
    for i in range(state.shape[0]):
        child_out[i] = state[i]
    child_out[1 + state[0]] = action
    child_out[0] = state[0] + 1
    return 0


@njit(UTILITY_SIG, cache=True, _nrt=False)
def utility(state):
    """Player 0's payoff."""
    if state[1] == 1:
        return OUTER_PAYOFF
    return INNER_PAYOFFS[0] if state[2] == 0 else INNER_PAYOFFS[1]


@njit(CHANCE_OUTCOMES_SIG, cache=True, _nrt=False)
def chance_outcomes(state, outcomes_out, probs_out):
    """No chance node."""
    return 0


@njit(CHANCE_SAMPLE_SIG, cache=True, _nrt=False)
def chance_sample(state, u, child_out):
    """No chance node."""
    return -1


GAME = Game(name="repeat", state_size=3, max_actions=2, max_depth=3, key_words=1,
            **functions_of(globals()))
