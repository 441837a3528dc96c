"""Masks over the 52-bit card masks used by the abstraction (rank classes across all suits).

A suit is a 13-bit field (bit r - 2 = rank r), so "all Tens" is bit 8 of each field, and a
game-point sum is a few popcounts.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import popcount

SUIT_FIELD = 0x1FFF
LOW_FIELD = 0xFF  # ranks 2..9 within a suit field
HIGH_FIELD = 0x1F00  # ranks T J Q K A within a suit field
HONOUR_FIELD = 0x1E00  # ranks J Q K A within a suit field
QKA_FIELD = 0x1C00  # ranks Q K A within a suit field
TEN_BIT = 8
JACK_BIT = 9


def _every_suit(field: int) -> np.int64:
    return np.int64(sum(field << (13 * s) for s in range(4)))


ALL_LOW = _every_suit(LOW_FIELD)
ALL_HONOURS = _every_suit(HONOUR_FIELD)
ALL_GAME_POINTS = _every_suit(HIGH_FIELD)
TENS = _every_suit(1 << 8)
JACKS = _every_suit(1 << 9)
QUEENS = _every_suit(1 << 10)
KINGS = _every_suit(1 << 11)
ACES = _every_suit(1 << 12)
# RANK_MASKS[r]: the four cards of rank r (r = 2..14; 0 and 1 unused)
RANK_MASKS = np.array([0, 0] + [int(_every_suit(1 << (r - 2))) for r in range(2, 15)],
                      dtype=np.int64)


@njit(cache=True, inline="always")
def game_points(mask):
    """Game points of the cards in `mask` (T 10, A 4, K 3, Q 2, J 1) by popcounts."""
    return (10 * popcount(mask & TENS) + popcount(mask & JACKS) + 2 * popcount(mask & QUEENS)
            + 3 * popcount(mask & KINGS) + 4 * popcount(mask & ACES))


@njit(cache=True, inline="always")
def suit_field(mask, suit):
    """The 13-bit field of `suit` in a card mask (bit r - 2 = rank r)."""
    return (mask >> (13 * suit)) & SUIT_FIELD
