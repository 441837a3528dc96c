"""Uniformly random legal play, the part every game's `random_play.py` shares (numba): a hand
played out to its end, and a game's score kept by absolute team.

A game passes its own numba functions (`random_move(rng, state)`, `apply_move(state, move)`)
as arguments; the helpers inline (`inline="always"`), so the calls are direct.
"""

from __future__ import annotations

from numba import njit

from games.bits import nth_bit, popcount
from games.rng import below
from games.scaffold.table import absolute_team


@njit(cache=True, inline="always")
def random_member(rng, mask):
    """A uniformly random set bit of `mask` (one of a legal-move mask's moves)."""
    return nth_bit(mask, below(rng, popcount(mask)))


@njit(cache=True, inline="always")
def play_out(random_move, apply_move, phase, over, rng, state, moves):
    """Play the hand in `state` to its end (`state[phase] == over`) with `random_move`,
    recording the moves in `moves`; return the move count."""
    n = 0
    while state[phase] != over:
        move = random_move(rng, state)
        apply_move(state, move)
        moves[n] = move
        n += 1
    return n


@njit(cache=True, inline="always")
def add_hand(scores, dealer, score0, score1):
    """Add a hand's scores (by team relative to `dealer`) to the game's `scores` (by absolute
    team: 0 EW, 1 NS)."""
    scores[absolute_team(0, dealer)] += score0
    scores[absolute_team(1, dealer)] += score1
