"""Spades' 52 cards and their text forms.

A card is an integer 0..51, `suit * 13 + rank`, suits C=0 < D=1 < H=2 < S=3 and ranks
2 3 4 5 6 7 8 9 T J Q K A = 0..12: OpenSpiel's own numbering, so a card is the same number in
both engines. A set of cards is a 52-bit mask in an int64 (bit `card` set); a suit is a 13-bit
field. Spades (suit 3) are always trump.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.scaffold.table import card_words
from games.spades.errors import SpadesError

N_CARDS = 52
N_RANKS = 13
RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "CDHS"
SPADES = 3
SUIT_BITS = np.int64((1 << N_RANKS) - 1)
SPADE_MASK = SUIT_BITS << (N_RANKS * SPADES)


@njit(cache=True, inline="always")
def suit_mask(suit):
    """Mask of the thirteen cards of `suit`."""
    return SUIT_BITS << (N_RANKS * suit)


@njit(cache=True, inline="always")
def power(card, led):
    """How strongly `card` contends for a trick led in suit `led`: 0 for a card of another
    suit that is not a spade, 1 + rank in the suit led, 20 + rank for a spade (trump). The
    highest power present wins the trick."""
    suit = card // N_RANKS
    if suit == SPADES:
        return 20 + card % N_RANKS
    if suit == led:
        return 1 + card % N_RANKS
    return 0


# `TS`, `ah`, `10H` <-> a card index; a mask's cards as texts
parse_card, format_card, format_cards = card_words(RANK_CHARS, SUIT_CHARS, SpadesError,
                                                   "'TS' or '2C'", "2..9, T (or 10), J, Q, K, A")
