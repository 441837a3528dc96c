"""Scoring a Euchre hand, as OpenSpiel scores it.

The makers (the maker's team) score 1 for three or four tricks, 2 for all five, 4 for all five
when the maker went alone; with fewer than three tricks they are euchred and the defenders
score 2 (alone or not: OpenSpiel's 4 for a euchre belongs to the lone-defender variant, which
is off). Teams are relative to the dealer (0 = dealer's team); exactly one team scores.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.euchre.state import ALONE, MAKER, PHASE, PHASE_OVER, TRICKS_WON


@njit(cache=True)
def makers_score(state):
    """The makers' score of a finished hand as OpenSpiel's returns have it: 1, 2 or 4, or -2
    when euchred; 0 when nobody named trump."""
    if state[MAKER] < 0:
        return np.int64(0)
    tricks = state[TRICKS_WON + state[MAKER] % 2]
    if tricks <= 2:
        return np.int64(-2)
    if tricks <= 4:
        return np.int64(1)
    if state[ALONE] == 1:
        return np.int64(4)
    return np.int64(2)


@njit(cache=True)
def hand_score(state):
    """Each team's points for a finished hand, as the tuple (team 0, team 1): the side that
    scores gets 1, 2 or 4, the other 0."""
    score = makers_score(state)
    if state[MAKER] < 0 or score == 0:
        return np.int64(0), np.int64(0)
    makers = state[MAKER] % 2
    points = np.zeros(2, np.int64)
    if score > 0:
        points[makers] = score
    else:
        points[1 - makers] = -score
    return points[0], points[1]


@njit(cache=True)
def score_difference(state):
    """Team 0's points minus team 1's for a finished hand (a zero-sum payoff)."""
    score0, score1 = hand_score(state)
    return score0 - score1


@njit(cache=True, inline="always")
def is_over(state):
    """Whether the hand is over (five tricks played, or everybody passed twice)."""
    return state[PHASE] == PHASE_OVER
