"""The rollout game on the Spades heuristic in numba (`games/spades/heuristic.py`).

Search rolls every candidate move out to the end of the hand thousands of times a decision;
`heuristic_move(state)` (imported from `games.spades.heuristic`) is the heuristic player's
move, and may be asked at any seat of a full state.

The rollout game: `rollout_current_player`, `rollout_decision`, `rollout_apply` and
`rollout_utility` are the four functions of the CFR game interface that rollouts call
(`cfr/game.py`; compiled for its signatures where `games/spades/play/search_player.py` resolves
their addresses, since `search/` may not import `cfr/`), over the engine state itself. `rollout_decision` offers ONE action, the heuristic's move, so
`search/rollout.py`'s rollouts follow the heuristic as forced moves with no table at all; the
utility is team 0's hand score less team 1's (`scoring.team_score` of each).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.spades.heuristic import heuristic_move  # the tests and the oracle import it here
from games.spades.rules import apply_move
from games.spades.scoring import team_score
from games.spades.state import (BID, N_TRICKS, PHASE, PHASE_OVER, SCORE, TAKEN, TO_ACT,
                                TRICK_NUMBER)

TERMINAL = -2  # cfr/game.py's


@njit(cache=True, nogil=True, inline="always")
def team_difference(state):
    """Team 0's hand score less team 1's (`scoring.score_difference`, without its array)."""
    return (team_score(state[BID], state[BID + 2], state[TAKEN], state[TAKEN + 2], state[SCORE])
            - team_score(state[BID + 1], state[BID + 3], state[TAKEN + 1], state[TAKEN + 3],
                         state[SCORE + 1]))


@njit(cache=True, nogil=True, _nrt=False)
def rollout_current_player(state):
    """The team to act (seat % 2), or TERMINAL once the hand is over."""
    if state[PHASE] == PHASE_OVER:
        return TERMINAL
    return state[TO_ACT] % 2


@njit(cache=True, nogil=True, _nrt=False)
def rollout_decision(state, actions_out, key_out):
    """One action: the heuristic's move (a forced move to the rollouts)."""
    actions_out[0] = heuristic_move(state)
    key_out[0] = 0
    return 1


@njit(cache=True, nogil=True, _nrt=False)
def rollout_apply(state, action, child_out):
    """The state after `action` (a card or a bid) into `child_out`."""
    for i in range(state.shape[0]):
        child_out[i] = state[i]
    apply_move(child_out, action)
    return 0


@njit(cache=True, nogil=True, _nrt=False)
def rollout_utility(state):
    """Team 0's hand score less team 1's, at the end of the hand (`scoring.team_score` for
    each: `score_difference` allocates, which these functions may not)."""
    return np.float64(team_difference(state))


@njit(cache=True, nogil=True)
def play_heuristic(state, tricks_left):
    """Play `state` on with the heuristic at every seat (bids included) until at most
    `tricks_left` tricks remain, counting one under way (or the hand ends)."""
    while state[PHASE] != PHASE_OVER and N_TRICKS - state[TRICK_NUMBER] > tricks_left:
        apply_move(state, heuristic_move(state))
