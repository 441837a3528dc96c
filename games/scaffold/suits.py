"""The four suits of a 52-card deck numbered suit * 13 + rank (Setback's, Spades'), as card masks:
the suits a void is shown in, which the world sampler reads (`search/world_sampler.py`)."""

from __future__ import annotations

import numpy as np
from numba import njit

SUITS_52 = np.array([((1 << 13) - 1) << (13 * s) for s in range(4)], np.int64)


@njit(cache=True, nogil=True)
def printed_suits(view_state, out):
    """The `suit_masks` hook of a game whose suits never change (no bower): the four 13-card
    suits, whatever the state."""
    out[:] = SUITS_52
