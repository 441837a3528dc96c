"""Spades' card play as plain trick play: the hooks the one double-dummy solver is driven by
(`search/trick_values.py`, for the oracle).

Spades' cards are the solver's own (`suit * 13 + rank`), spades always trump, and a spade may
be led only from a hand of spades alone (this game never breaks spades: `rules.legal_cards`).
The value is the hand's score (`scoring.score_difference`: contracts, Nil bids, bags and their
penalty) for every count of tricks each seat ends with: a Nil bidder's own count matters.
The oracle's (`play/trick_oracle.py`) pieces close the module.
"""

from __future__ import annotations

from numba import njit

from games.spades.cards import SPADES
from games.spades.scoring import score_difference
from games.spades.state import (HAND, LEADER, N_IN_TRICK, N_TRICKS, PHASE, PHASE_PLAY,
                                TAKEN, TO_ACT, TRICK, TRICK_NUMBER)


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
def final_values(state, splits, table):
    """Team 0's score less team 1's (`score_difference`) for each split of the tricks left (a
    row of `splits`: the tricks seats 0..3 take, then the split's index in `table`): every
    seat's own count, a Nil bidder's matters."""
    scratch = state.copy()
    for row in splits:
        for seat in range(4):
            scratch[TAKEN + seat] = state[TAKEN + seat] + row[seat]
        table[row[4]] = score_difference(scratch)


# The oracle's pieces (`play/trick_oracle.py`); it also reads the state fields imported above:
# PHASE, PHASE_PLAY, N_TRICKS, TRICK_NUMBER, TO_ACT
NOT_IN_CARD_PLAY = ("the Spades solver needs a hand in its card play (every bid made, cards left "
                    "to play)")
