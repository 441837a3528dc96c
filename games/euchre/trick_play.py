"""Euchre's card play as plain trick play: the hooks the one double-dummy solver is driven by
(`search/trick_values.py`, for the oracle).

Once trump is named a Euchre card becomes a plain card of its effective suit, ranked by its
power in that suit (`cards.power`): the right bower is the top trump (rank 12), the left bower
the next (11), then the trump A K Q T 9 (10, 9, 8, 6, 5); a plain suit's A K Q J T 9 are 12 down
to 7. Following suit and the trick's winner are then the plain ones. A lone maker's partner
sits out: it gets as many cards as tricks left of a plain suit below every Euchre card (ranks
0..4), which follow or are thrown and never win, so the tricks are the three seats'. The value
is the hand's points (`scoring.score_difference`) for every count of tricks the teams end with.
The oracle's (`play/trick_oracle.py`) pieces close the module: five tricks are solved exactly
from the first, in a small table.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.euchre.cards import N_CARDS, effective_suit, power
from games.euchre.scoring import score_difference
from games.euchre.state import (HAND, LEADER, N_TRICKS, OUT, PHASE, PHASE_PLAY, TO_ACT, TRICK,
                                TRICK_NUMBER, TRICKS_WON, TRUMP)

PLAIN_RANKS = 13  # ranks of a plain suit (the solver's cards: suit * 13 + rank)


@njit(cache=True)
def solver_card(card, trump):
    """The plain card of a Euchre card with `trump` named (module docstring)."""
    suit = effective_suit(card, trump)
    strength = power(card, trump, suit)
    return suit * PLAIN_RANKS + (strength - 15 if suit == trump else strength - 3)


@njit(cache=True)
def game_card(state, card):
    """The Euchre card of a plain card of the hand of `state` (-1 for a sitting-out seat's)."""
    for euchre in range(N_CARDS):
        if solver_card(euchre, state[TRUMP]) == card:
            return euchre
    return -1


@njit(cache=True)
def solver_position(state, hands, trick):
    """Fill `hands` and `trick` with the plain position of `state` (a hand in its card play);
    return (trump, 0: any card may be led, the trick's leader, its cards so far)."""
    trump = state[TRUMP]
    out = state[OUT]
    blanks = (trump + 1) % 4  # the sitting-out seat's suit (never trump)
    left = N_TRICKS - state[TRICK_NUMBER]
    for seat in range(4):
        mask = np.int64(0)
        rest = state[HAND + seat] if seat != out else np.int64(0)
        for card in range(N_CARDS):
            if rest >> card & 1:
                mask |= np.int64(1) << solver_card(card, trump)
        hands[seat] = mask
    if out >= 0:
        hands[out] = ((np.int64(1) << left) - 1) << (PLAIN_RANKS * blanks)
    n = 0
    played = 0
    while (state[LEADER] + n) % 4 != state[TO_ACT]:
        seat = (state[LEADER] + n) % 4
        if seat == out:
            trick[n] = blanks * PLAIN_RANKS + left - 1  # its blank for this trick
            hands[out] ^= np.int64(1) << trick[n]
        else:
            trick[n] = solver_card(state[TRICK + played], trump)
            played += 1
        n += 1
    return trump, 0, state[LEADER], n


@njit(cache=True)
def final_values(state, splits, table):
    """Team 0's points less team 1's (`score_difference`) for each split of the tricks left (a
    row of `splits`: the tricks seats 0..3 take, then the split's index in `table`)."""
    scratch = state.copy()
    for row in splits:
        scratch[TRICKS_WON] = state[TRICKS_WON] + row[0] + row[2]  # a team's tricks count
        scratch[TRICKS_WON + 1] = state[TRICKS_WON + 1] + row[1] + row[3]
        table[row[4]] = score_difference(scratch)


# The oracle's pieces (`play/trick_oracle.py`); it also reads the state fields imported above:
# PHASE, PHASE_PLAY, N_TRICKS, TRICK_NUMBER, TO_ACT
ORACLE_TT_BITS = 14  # five tricks: a small table
NOT_IN_CARD_PLAY = ("the Euchre solver needs a hand in its card play (trump named, cards left "
                    "to play)")

