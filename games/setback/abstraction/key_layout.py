"""The bit layout of the uint64 info-set keys (the one place it is documented).

Every key is one uint64. The top two bits (62-63) are the kind; the rest are per-field codes
from which the spec string is rebuilt character for character (`codec.py`). Keys are
collision-free by construction: each kind's fields are disjoint bit ranges and every field
code is an exact (invertible) code of the characters it stands for.

Hand field code (11 bits), one per 6-character field of the hand code (`hand_code.py`):
    bits 0-4   the ranks T J Q K A held (bit 0 = Ten ... bit 4 = Ace)
    bits 5-7   number of cards below Ten (0..6)
    bits 8-10  lowest rank below Ten minus 2 (0 when there is none)
    (0 for an empty field: a real suit always has a card)
Hand code (22 bits): top suit field in bits 0-10, second suit field in bits 11-21.

kind 0, baseline auction (`0AJx2`):
    bits 0-21  hand code
    bits 22-23 high bid character: 0 `0`, 1 `2`, 2 `3`, 3 `D`
kind 1, establish trump (`E3AJx2`):
    bits 0-21  hand code
    bits 22-23 winning bid minus 2
kind 2, playout (`Hx.+0.......TxT2TJS.W`):
    bits 0-29  the abstract actions, a mask over the canonical token set (bit i = token i of
               `lead_actions.LEAD_TOKENS` when leading, of `follow_actions.FOLLOW_TOKENS`
               when following; the two are told apart by the trick field: leading iff empty)
    bits 30-31 pos 11: 0 `.`, else winning position + 1
    bits 32-46 pos 5-10: three 5-bit play codes (play i at bits 32 + 5 i): 0 `..`, else
               1 + 2 * rank code + (1 if trump); rank code 0 `x`, 1-4 ranks 2-5, 5-9 T J Q K A
    bits 47-49 pos 4: the hex digit shifted right by one (its bit 0 is never set)
    bit  50    pos 3: 1 `+`, 0 `-`
    bit  51    pos 2: 1 `J`
    bits 52-54 pos 1: 0 `.`, 1 `x`, 2-5 that rank
    bit  55    pos 0: 1 `H`
kind 3, bootstrap auction (`x./0/-1/0/AJx2........`):
    bits 0-21  hand code
    bits 22-23 B: 0, 2, 3, 4 as 0, 1, 2, 3
    bits 24-26 I + 1 (0 = none)
    bits 27-28 N
    bits 29-31 S first character: 0 `x`, 1-4 that digit
    bit  32    S second character: 1 `!`
"""

from __future__ import annotations

import numpy as np

KIND_SHIFT = 62
KIND_AUCTION = 0
KIND_ESTABLISH = 1
KIND_PLAYOUT = 2
KIND_BOOTSTRAP = 3
KIND_NAMES = ("auction", "establish", "playout", "bootstrap")

FIELD_BITS = 11
HAND_BITS = 22
HAND_MASK = (1 << HAND_BITS) - 1

# kinds 0, 1, 3: the auction fields after the hand code
BID_SHIFT = 22
HIGH_BIDDER_SHIFT = 24
N_BIDS_SHIFT = 27
NEED_SHIFT = 29
BANG_SHIFT = 32

# kind 2: playout
ACTIONS_BITS = 30
WINNING_SHIFT = 30
TRICK_SHIFT = 32
PLAY_BITS = 5
VOIDS_SHIFT = 47
AHEAD_SHIFT = 50
JACK_SHIFT = 51
LOW_SHIFT = 52
HONOUR_SHIFT = 55

KIND_AUCTION_TAG = np.uint64(KIND_AUCTION) << np.uint64(KIND_SHIFT)
KIND_ESTABLISH_TAG = np.uint64(KIND_ESTABLISH) << np.uint64(KIND_SHIFT)
KIND_PLAYOUT_TAG = np.uint64(KIND_PLAYOUT) << np.uint64(KIND_SHIFT)
KIND_BOOTSTRAP_TAG = np.uint64(KIND_BOOTSTRAP) << np.uint64(KIND_SHIFT)


def key_kind(key: int) -> int:
    """The kind (KIND_AUCTION .. KIND_BOOTSTRAP) of a key (abstraction.md, all sections)."""
    return int(key) >> KIND_SHIFT
