"""The high bidder's first lead, establishing trump (abstraction.md, "First lead: establishing
trump").

Actions `E0` (lead from the top suit) and `E1` (from the kept second suit); with one top suit
the lead is forced. Key: `E` + the winning bid + the hand code, trimmed. Within the suit, with
L = min(the suit's lowest rank, Four), cards rank by group then rank: 3 = Q K A, 2 = below
Ten and above L, 1 = Ten, 0 = Jack, -1 = at or below L; the highest is led.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.setback.abstraction.card_masks import LOW_FIELD, QKA_FIELD, suit_field
from games.setback.abstraction.hand_code import hand_code
from games.setback.abstraction.key_layout import BID_SHIFT, KIND_ESTABLISH_TAG
from games.setback.abstraction.suits import top_suits
from games.bits import highest_bit, lowest_bit
from games.setback.state import HAND, HIGH_BID, TO_ACT

ESTABLISH_TOKENS = ("E0", "E1")


@njit(cache=True)
def establish_rank(field):
    """The rank (2..14) led from a non-empty suit field (the group rule above)."""
    low_rank = lowest_bit(field) + 2
    limit = min(low_rank, 4)  # L
    if field & QKA_FIELD:
        return highest_bit(field) + 2
    middle = field & LOW_FIELD & ~((1 << (limit - 1)) - 1)  # ranks L+1 .. 9
    if middle:
        return highest_bit(middle) + 2
    if field >> 8 & 1:
        return 10
    if field >> 9 & 1:
        return 11
    return highest_bit(field) + 2  # everything left is at or below L


@njit(cache=True)
def establish_actions(state, moves_out):
    """The first lead's actions into `moves_out` (E0, then E1 if the second suit is kept);
    returns (count, token mask)."""
    hand = state[HAND + state[TO_ACT]]
    top, second = top_suits(hand)
    moves_out[0] = top * 13 + establish_rank(suit_field(hand, top)) - 2
    if second < 0:
        return 1, 1
    moves_out[1] = second * 13 + establish_rank(suit_field(hand, second)) - 2
    return 2, 3


@njit(cache=True)
def establish_key(state):
    """The establish-trump key (kind 1 of `key_layout.py`): winning bid and hand code."""
    k = hand_code(state[HAND + state[TO_ACT]]) | ((state[HIGH_BID] - 2) << BID_SHIFT)
    return np.uint64(k) | KIND_ESTABLISH_TAG
