"""The trump thresholds of the playout (abstraction.md, "Playout key" and "Abstract actions
after the first lead").

"My lowest dealt trump": the lowest trump among the six cards the seat was dealt (15, above
every rank, when it was dealt none). lowT: the lower of that and the lowest trump played so far
this deal, the current trick included.
"""

from __future__ import annotations

from numba import njit

from games.setback.abstraction.card_masks import suit_field
from games.bits import lowest_bit
from games.setback.state import DEALT, PLAYED

NO_TRUMP = 15  # "my lowest dealt trump" when the seat was dealt no trump


@njit(cache=True, inline="always")
def lowest_dealt_trump(state, seat, trump):
    """Rank of the lowest trump `seat` was dealt, or NO_TRUMP (15)."""
    f = suit_field(state[DEALT + seat], trump)
    if f == 0:
        return NO_TRUMP
    return lowest_bit(f) + 2


@njit(cache=True, inline="always")
def lowest_played_trump(state, trump):
    """Rank of the lowest trump played so far this deal (the current trick included), or 15."""
    f = suit_field(state[PLAYED], trump)
    if f == 0:
        return NO_TRUMP
    return lowest_bit(f) + 2
