"""Euchre's 24 cards, suits, ranks, bowers and seats, and their text forms.

A card is an integer 0..23: `suit * 6 + rank`, suits C=0 < D=1 < H=2 < S=3 and ranks
9 T J Q K A = 0..5. A set of cards is a 24-bit mask in an int64 (bit `card` set), so a suit is
a 6-bit field and "the cards of suit s in hand" is one AND. (OpenSpiel numbers the same card
`rank * 4 + suit`; `openspiel_card` and `from_openspiel_card` convert.)

Once trump is named the jack of trump (right bower) and the jack of the other suit of the same
colour (left bower) are the two highest trumps, and the left bower belongs to the trump suit
for following suit too: `effective_suit` and `power` encode that, and are the only place it is
written. Colours pair C with S and D with H, so the same-colour suit of `s` is `3 - s`.

Seats are written W, N, E, S (clockwise, West first), as in Setback; inside a hand the engine
works with seats relative to the dealer (0 = dealer, 1 = dealer's left, ...).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.scaffold import table
from games.scaffold.table import (  # noqa: F401 (SEAT_CHARS, TEAM_NAMES: re-exported)
    SEAT_CHARS,
    TEAM_NAMES,
    card_words,
    mask_cards,
    parse_letter,
)
from games.euchre.errors import EuchreError

N_CARDS = 24
N_SUITS = 4
N_RANKS = 6
N_SEATS = 4
RANK_CHARS = "9TJQKA"
SUIT_CHARS = "CDHS"
JACK = 2  # rank index of the jack

SUIT_BITS = np.int64(0x3F)
ALL_CARDS = np.int64((1 << N_CARDS) - 1)


@njit(cache=True, inline="always")
def card_suit(card):
    """Printed suit (0..3, C D H S) of a card index."""
    return card // N_RANKS


@njit(cache=True, inline="always")
def card_rank(card):
    """Rank index (0..5 for 9 T J Q K A) of a card index."""
    return card % N_RANKS


@njit(cache=True, inline="always")
def make_card(rank, suit):
    """Card index of rank index `rank` (0..5) in `suit` (0..3)."""
    return suit * N_RANKS + rank


@njit(cache=True, inline="always")
def suit_mask(suit):
    """Mask of the six printed cards of `suit`."""
    return SUIT_BITS << (N_RANKS * suit)


@njit(cache=True, inline="always")
def same_colour(suit):
    """The other suit of the same colour (C<->S, D<->H)."""
    return 3 - suit


@njit(cache=True, inline="always")
def left_bower(trump):
    """Card index of the left bower: the jack of the suit of trump's colour."""
    return make_card(JACK, same_colour(trump))


@njit(cache=True, inline="always")
def effective_suit(card, trump):
    """The suit a card belongs to with `trump` named: its printed suit, except that the left
    bower is a trump."""
    if card == left_bower(trump):
        return trump
    return card_suit(card)


@njit(cache=True, inline="always")
def effective_suit_mask(suit, trump):
    """Mask of the cards that belong to `suit` with `trump` named: trump gains the left
    bower, the left bower's printed suit loses it."""
    lb = np.int64(1) << left_bower(trump)
    if suit == trump:
        return suit_mask(suit) | lb
    return suit_mask(suit) & ~lb


@njit(cache=True, inline="always")
def power(card, trump, led):
    """How strongly `card` contends for a trick led in (effective) suit `led`: 0 for a card
    that can never win it, 10 + rank for the suit led, 20 + rank for a trump, 26 for the left
    bower and 27 for the right bower. The highest power present wins the trick."""
    if card == make_card(JACK, trump):
        return 27
    if card == left_bower(trump):
        return 26
    suit = card_suit(card)
    if suit == trump:
        return 20 + card_rank(card)
    if suit == led:
        return 10 + card_rank(card)
    return 0


def openspiel_card(card: int) -> int:
    """OpenSpiel's index (`rank * 4 + suit`) of our card index."""
    return card % N_RANKS * N_SUITS + card // N_RANKS


def from_openspiel_card(index: int) -> int:
    """Our card index of OpenSpiel's card index `rank * 4 + suit`."""
    return index % N_SUITS * N_RANKS + index // N_SUITS


# `JD`, `th`, `10H` <-> a card index; a mask's cards as texts
parse_card, format_card, format_cards = card_words(RANK_CHARS, SUIT_CHARS, EuchreError,
                                                   "'JD' or '9H'", "9, T (or 10), J, Q, K, A")


def parse_suit(token) -> int:
    """Parse a suit letter C, D, H or S (case-insensitive) into 0..3."""
    return parse_letter(token, SUIT_CHARS, "suit", EuchreError)


def parse_seat(token) -> int:
    """Parse an absolute seat letter W, N, E or S (case-insensitive) into 0..3."""
    return table.parse_seat(token, EuchreError)


def mask_to_cards(mask: int) -> list[int]:
    """Card indices in `mask`, ascending (by suit, then rank)."""
    return mask_cards(mask, N_CARDS)
