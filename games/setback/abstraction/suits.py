"""Suit strength and the top suits (abstraction.md, "Suit strength and the top suits").

strength(suit) = sum of (rank - 1) over the hand's cards of the suit. Suits are ordered by
strength, then by their rank lists high to low compared lexicographically (a proper prefix
counting as smaller), then by suit (C first). The lexicographic comparison of two rank lists
is exactly the integer comparison of their 13-bit suit fields (the highest differing bit
decides; a prefix lacks only lower bits), so a suit's sort key is (strength, field, -suit).
"""

from __future__ import annotations

from numba import njit

from games.setback.abstraction.card_masks import suit_field
from games.bits import lowest_bit


@njit(cache=True, inline="always")
def field_strength(field):
    """Strength of one suit field: sum of (rank - 1) = sum of (bit index + 1) over its bits."""
    total = 0
    while field:
        total += lowest_bit(field) + 1
        field &= field - 1
    return total


@njit(cache=True)
def suit_strength(hand, suit):
    """strength(suit) of `hand` (abstraction.md, "Suit strength and the top suits")."""
    return field_strength(suit_field(hand, suit))


@njit(cache=True)
def top_suits(hand):
    """(top suit, second suit or -1) of `hand` (abstraction.md, "Suit strength and the top suits").

    The second suit is kept iff strength0 - strength1 < 2 and its rank list differs from the
    top suit's. A hand with no cards gives (-1, -1).
    """
    best, second = -1, -1
    best_s, best_f, second_s, second_f = -1, -1, -1, -1
    for suit in range(4):  # suits in order C D H S: a later suit must be strictly better
        f = suit_field(hand, suit)
        if f == 0:
            continue
        s = field_strength(f)
        if s > best_s or (s == best_s and f > best_f):
            second, second_s, second_f = best, best_s, best_f
            best, best_s, best_f = suit, s, f
        elif s > second_s or (s == second_s and f > second_f):
            second, second_s, second_f = suit, s, f
    if second >= 0 and (best_s - second_s >= 2 or second_f == best_f):
        second = -1
    return best, second
