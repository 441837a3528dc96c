"""The two ends of a trick in every game's `apply_card` (numba, inlined): a card from the hand
into the trick, and a completed trick cleared with its winner to lead. Who wins and what the
winner's side takes are the game's. `words` is the game's `state.TRICK_WORDS`, its offsets of
HAND, PLAYED, TRICK, N_IN_TRICK, WINNING, LEADER, TO_ACT, TRICK_NUMBER (constants that fold)."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def put_in_trick(state, words, seat, card):
    """`seat` plays `card`: out of its hand, into the cards played and the trick (the first
    card of a trick is winning); returns the card's position in the trick (0: led)."""
    hand, played, trick, n_in_trick, winning, _, _, _ = words
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
    """Clear the completed trick, count it, and `winner` leads next; returns the count of
    completed tricks."""
    _, _, trick, n_in_trick, winning, leader, to_act, trick_number = words
    for i in range(4):
        state[trick + i] = -1
    state[trick_number] += 1
    state[n_in_trick] = 0
    state[winning] = -1
    state[leader] = winner
    state[to_act] = winner
    return state[trick_number]
