"""Spades' card play as plain trick play: the hooks the one double-dummy solver is driven by
(`search/trick_values.py`, for the oracle).

Spades' cards are the solver's own (`suit * 13 + rank`), spades always trump, and a spade may
be led only from a hand of spades alone (this game never breaks spades: `rules.legal_cards`).
The value is the hand's score (`scoring.score_difference`: contracts, Nil bids, bags and their
penalty) for every count of tricks each seat ends with: a Nil bidder's own count matters.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.spades.cards import SPADES
from games.spades.scoring import score_difference
from games.spades.state import HAND, LEADER, N_IN_TRICK, STATE_SIZE, TAKEN, TRICK


@njit(cache=True)
def game_card(state, card):
    """The Spades card of a plain card: the same number."""
    return card


@njit(cache=True)
def solver_position(state, hands, trick):
    """Fill `hands` and `trick` with the position of `state` (a hand in its card play); return
    (spades, 1: a spade led last, the trick's leader, its cards so far)."""
    for seat in range(4):
        hands[seat] = state[HAND + seat]
    for i in range(state[N_IN_TRICK]):
        trick[i] = state[TRICK + i]
    return SPADES, 1, state[LEADER], state[N_IN_TRICK]


@njit(cache=True)
def final_values(state, left, table):
    """Team 0's score less team 1's (`score_difference`) when seat i takes r_i more of the
    `left` tricks still to play, at `table[r0 | r1 << 4 | r2 << 8 | r3 << 12]`."""
    scratch = np.empty(STATE_SIZE, np.int64)
    for i in range(STATE_SIZE):
        scratch[i] = state[i]
    for r0 in range(left + 1):
        for r1 in range(left - r0 + 1):
            for r2 in range(left - r0 - r1 + 1):
                split = (r0, r1, r2, left - r0 - r1 - r2)
                for seat in range(4):
                    scratch[TAKEN + seat] = state[TAKEN + seat] + split[seat]
                table[r0 | r1 << 4 | r2 << 8 | split[3] << 12] = score_difference(scratch)
