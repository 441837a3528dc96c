"""The learned auction evaluator's input: one seat's hand, its seat and the bids before it,
as a flat float vector, with the suits put in a canonical order around a candidate trump.

Layout (`N_FEATURES` = 71 floats, each 0 or 1):
- 52 card bits, in 4 blocks of 13 ranks (2..A): block 0 is the candidate trump suit, blocks
  1..3 the other three suits sorted by (cards held, highest rank pattern), longest first.
  Setback's suits have no order of their own, so this puts every hand in one of its few
  equivalent forms and the network need not learn the same fact four times: the evaluator
  asks once per trump the seat holds, the trump always in block 0;
- 4: the seat relative to the dealer, one-hot (0 = dealer, 1 = dealer's left, bids first);
- 15: for the left-hand opponent, the partner and the right-hand opponent (in that order), one
  of {not bid yet, Pass, Two, Three, Four}. Only bids made BEFORE the seat's own first turn
  count (auction order is 1, 2, 3, 0), so the same features serve the seat's auction decision
  and, later, its pitch (the evaluator of the seat's own contract is conditioned on what was
  known when it bid).

All numba (`encode`), so a decision costs a few microseconds here.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import popcount

N_CARD_FEATURES = 52
SEAT_OFFSET = 52
BIDS_OFFSET = 56
N_FEATURES = 71
BID_SLOTS = 5  # not yet, Pass, Two, Three, Four


@njit(cache=True)
def suit_order(hand, trump, order):
    """Fill `order[0..3]` with the suits in canonical order: `trump` first, then the others
    by (cards held, rank pattern) descending (ties keep the lower suit first)."""
    order[0] = trump
    k = 1
    for s in range(4):
        if s != trump:
            order[k] = s
            k += 1
    # insertion sort of the three others, descending by (count, pattern)
    for i in range(2, 4):
        s = order[i]
        bits = (hand >> (13 * s)) & 0x1FFF
        key = popcount(bits) * 8192 + bits
        j = i - 1
        while j >= 1:
            other = (hand >> (13 * order[j])) & 0x1FFF
            if popcount(other) * 8192 + other >= key:
                break
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = s


@njit(cache=True)
def bid_before(seat, other):
    """True when `other` bids before `seat` in the auction (order 1, 2, 3, 0 from the dealer)."""
    return (other + 3) % 4 < (seat + 3) % 4


@njit(cache=True)
def encode(hand, seat, bids, trump, out):
    """Write the features of `hand` (52-bit mask) held by `seat` (relative to the dealer), the
    auction's `bids` (int[4] by seat: -1 not yet, 0 Pass, 2..4) and candidate `trump` into
    `out` (float64[N_FEATURES]); see the module docstring."""
    for i in range(N_FEATURES):
        out[i] = 0.0
    order = np.empty(4, np.int64)
    suit_order(hand, trump, order)
    for block in range(4):
        bits = (hand >> (13 * order[block])) & 0x1FFF
        for r in range(13):
            if bits >> r & 1:
                out[13 * block + r] = 1.0
    out[SEAT_OFFSET + seat] = 1.0
    for k in range(3):
        other = (seat + 1 + k) % 4
        slot = 0
        if bid_before(seat, other) and bids[other] >= 0:
            b = bids[other]
            slot = 1 if b == 0 else b  # Pass 1, Two 2, Three 3, Four 4
        out[BIDS_OFFSET + BID_SLOTS * k + slot] = 1.0


def encode_rows(hands, seats, bids, trumps) -> np.ndarray:
    """float32[n, N_FEATURES]: `encode` of each row (hands int64[n], seats int[n], bids
    int[n, 4], trumps int[n]); training's batch form."""
    n = len(hands)
    out = np.zeros((n, N_FEATURES), np.float64)
    _encode_rows(np.asarray(hands, np.int64), np.asarray(seats, np.int64),
                 np.asarray(bids, np.int64).reshape(n, 4), np.asarray(trumps, np.int64), out)
    return out.astype(np.float32)


@njit(cache=True)
def _encode_rows(hands, seats, bids, trumps, out):
    for i in range(hands.shape[0]):
        encode(hands[i], seats[i], bids[i], trumps[i], out[i])
