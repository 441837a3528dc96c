"""The shuffle and the deal every four-seat game draws a random hand with, in numba: a
Fisher-Yates shuffle of just the cards dealt, then the hands in blocks (deck cards
`hand_size * s` .. `hand_size * s + hand_size - 1` to seat s, relative to the dealer). Written
once so that the random draws of every game's deal are the same few lines."""

from __future__ import annotations

import numpy as np
from numba import njit

from games.rng import below


@njit(cache=True)
def shuffle_top(rng, deck, n_top):
    """Fill `deck` with its cards 0..len-1 and shuffle it with `rng` just enough to fix its
    first `n_top` cards (Fisher-Yates, one draw a card)."""
    n = deck.shape[0]
    for i in range(n):
        deck[i] = i
    for i in range(n_top):
        j = i + below(rng, n - i)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp


@njit(cache=True)
def deal_blocks(deck, hand_size, hands):
    """The four hands (masks, into `hands`) of `hand_size` cards each, in blocks off `deck`."""
    for seat in range(4):
        hands[seat] = 0
    for k in range(4 * hand_size):
        hands[k // hand_size] |= np.int64(1) << deck[k]
