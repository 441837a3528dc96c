"""Baseline auction key and actions (abstraction.md, "Baseline auction key").

Key: `[0]` the high bid so far (`0`, `2`, `3`, or `D` when the high bid is Four and the dealer
is to act), then the 12-character hand code, trimmed. Actions: the legal bids in the order
Pass, Two, Three, Four, dropping Four unless the hand holds the Jack of one of its top suits.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.setback.abstraction.card_masks import JACK_BIT, suit_field
from games.setback.abstraction.hand_code import hand_code
from games.setback.abstraction.key_layout import BID_SHIFT, KIND_AUCTION_TAG
from games.setback.abstraction.suits import top_suits
from games.setback.rules import bid_moves, legal_bids
from games.setback.state import HAND, HIGH_BID, TO_ACT

BID_TOKENS = ("P", "", "2", "3", "4")  # token i = bid i (bit i of the action mask)


@njit(cache=True, inline="always")
def holds_top_jack(hand):
    """Whether `hand` holds the Jack of its top suit or of its kept second suit."""
    top, second = top_suits(hand)
    if suit_field(hand, top) >> JACK_BIT & 1:
        return True
    return second >= 0 and (suit_field(hand, second) >> JACK_BIT & 1) == 1


@njit(cache=True)
def auction_actions(state, moves_out):
    """The baseline bids (Four filter applied) into `moves_out`; returns (count, bid mask).

    abstraction.md, "Baseline auction key": legal bids Pass, Two, Three, Four in that order,
    Four dropped unless the hand holds the Jack of one of its top suits.
    """
    bids = legal_bids(state)
    if bids >> 4 & 1 and not holds_top_jack(state[HAND + state[TO_ACT]]):
        bids &= ~(1 << 4)
    return bid_moves(bids, moves_out), bids


@njit(cache=True)
def auction_key(state):
    """The baseline auction key (kind 0 of `key_layout.py`) of the seat to act.

    abstraction.md, "Baseline auction key": high bid code (0, 2, 3, or D: Four with the dealer
    to act) and the hand code.
    """
    high = state[HIGH_BID]
    code = 0
    if high == 2:
        code = 1
    elif high == 3:
        code = 2
    elif high == 4:
        code = 3
    k = hand_code(state[HAND + state[TO_ACT]]) | (code << BID_SHIFT)
    return np.uint64(k) | KIND_AUCTION_TAG
