"""The two ends of a trick that every four-seat game's `apply_card` shares, in numba: a card
leaves the hand for the trick, and a completed trick is cleared and its winner leads.

What lies between (the suit led, the void shown, which card wins, what the winner's side takes)
is each game's own rule; the state words are named by the game's `TRICK_WORDS`, a tuple of its
state layout's offsets in the order of `HAND, PLAYED, TRICK, N_IN_TRICK, WINNING, LEADER,
TO_ACT, TRICK_NUMBER`. The helpers inline into the game's compiled rules (numba
`inline="always"`), so the constant offsets fold as in a hand-written copy.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def put_in_trick(state, words, seat, card):
    """`seat` plays `card`: out of its hand, into the cards played and the trick under way; the
    first card of a trick is winning. Returns the card's position in the trick (0: led)."""
    hand, played, trick, n_in_trick, winning = words[0], words[1], words[2], words[3], words[4]
    bit = np.int64(1) << card
    state[hand + seat] &= ~bit
    state[played] |= bit
    position = state[n_in_trick]
    state[trick + position] = card
    if position == 0:
        state[winning] = 0
    return position


@njit(cache=True, inline="always")
def close_trick(state, words, winner):
    """The trick under way is complete: clear it, count it, and `winner` leads the next one.
    Returns the count of completed tricks."""
    trick, n_in_trick, winning, leader, to_act, trick_number = (
        words[2], words[3], words[4], words[5], words[6], words[7])
    for i in range(4):
        state[trick + i] = -1
    state[trick_number] += 1
    state[n_in_trick] = 0
    state[winning] = -1
    state[leader] = winner
    state[to_act] = winner
    return state[trick_number]
