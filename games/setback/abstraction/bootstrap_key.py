"""Bootstrap (score-aware) auction key (abstraction.md, "Bootstrap (score-aware) auction key").

`S/B/I/N/H`: S two characters from the game score seen from the bidder's team, B the high
bid, I the high bidder (dealer-relative, -1 if none), N the bids made so far, H the hand code
untrimmed. Actions: every legal bid, Pass, Two, Three, Four (no Jack filter).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.setback.abstraction.hand_code import hand_code
from games.setback.abstraction.key_layout import (
    BANG_SHIFT,
    BID_SHIFT,
    HIGH_BIDDER_SHIFT,
    KIND_BOOTSTRAP_TAG,
    N_BIDS_SHIFT,
    NEED_SHIFT,
)
from games.setback.rules import bid_moves, legal_bids
from games.setback.state import HAND, HIGH_BID, HIGH_BIDDER, N_BIDS, TO_ACT


@njit(cache=True)
def score_code(us, them):
    """(first character code, bang) of S: 0 for `x` or need_them 1..4; bang 1 for `!`.

    T = max(us + 1, them + 1, 11), need_us = T - us, need_them = T - them; the first
    character is need_them if <= 4 else `x`; `!` iff it is a digit and need_us > need_them.
    """
    target = max(us + 1, them + 1, 11)
    need_us = target - us
    need_them = target - them
    if need_them > 4:
        return 0, 0
    return need_them, 1 if need_us > need_them else 0


def score_text(us: int, them: int) -> str:
    """The two characters of S (`3.`, `2!`, `x.`) for game scores `us`, `them`."""
    first, bang = score_code(int(us), int(them))
    return ("x" if first == 0 else str(first)) + ("!" if bang else ".")


@njit(cache=True)
def bootstrap_actions(state, moves_out):
    """Every legal bid into `moves_out` (Pass, Two, Three, Four); returns (count, bid mask)."""
    bids = legal_bids(state)
    return bid_moves(bids, moves_out), bids


@njit(cache=True)
def bootstrap_key(state, us, them):
    """The bootstrap key (kind 3 of `key_layout.py`) of the seat to act, whose team has game
    score `us` against `them`."""
    first, bang = score_code(us, them)
    high = state[HIGH_BID]
    b = 0 if high == 0 else high - 1
    k = (hand_code(state[HAND + state[TO_ACT]]) | (b << BID_SHIFT)
         | ((state[HIGH_BIDDER] + 1) << HIGH_BIDDER_SHIFT) | (state[N_BIDS] << N_BIDS_SHIFT)
         | (first << NEED_SHIFT) | (bang << BANG_SHIFT))
    return np.uint64(k) | KIND_BOOTSTRAP_TAG
