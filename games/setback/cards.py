"""Cards, suits, ranks and seats, and their text forms.

A card is an integer 0..51: `suit * 13 + (rank - 2)`, suits C=0 < D=1 < H=2 < S=3 and ranks
2..14 (Ace high). A set of cards is a 52-bit mask in an int64 (bit `card` set), so a suit is a
13-bit field of the mask and "the cards of suit s in hand" is one AND.

Seats are written W, N, E, S (clockwise, West first). Inside a deal the engine works with seats
relative to the dealer (0 = dealer, 1 = dealer's left, ...); `absolute_seat` converts.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import popcount
from games.scaffold import table
from games.scaffold.table import (  # noqa: F401 (SEAT_CHARS, TEAM_NAMES: re-exported)
    SEAT_CHARS,
    TEAM_NAMES,
    card_text,
    mask_cards,
    parse_card_text,
)
from games.setback.errors import SetbackError

N_CARDS = 52
N_SUITS = 4
N_SEATS = 4
RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "CDHS"

SUIT_BITS = np.int64(0x1FFF)
TEN, JACK, QUEEN, KING, ACE = 10, 11, 12, 13, 14

# Game points of each rank (index = rank): Ten 10, Ace 4, King 3, Queen 2, Jack 1.
GAME_POINTS_BY_RANK = np.array([0] * 10 + [10, 1, 2, 3, 4], dtype=np.int64)


@njit(cache=True, inline="always")
def card_suit(card):
    """Suit (0..3, C D H S) of a card index."""
    return card // 13


@njit(cache=True, inline="always")
def card_rank(card):
    """Rank (2..14) of a card index."""
    return card % 13 + 2


@njit(cache=True, inline="always")
def make_card(rank, suit):
    """Card index of `rank` (2..14) in `suit` (0..3)."""
    return suit * 13 + rank - 2


@njit(cache=True, inline="always")
def suit_mask(suit):
    """Mask of all 13 cards of `suit`."""
    return SUIT_BITS << (13 * suit)


@njit(cache=True, inline="always")
def card_bit(card):
    """Mask holding just `card`."""
    return np.int64(1) << card


@njit(cache=True, inline="always")
def game_points_of(card):
    """Game points of a card: Ten 10, Ace 4, King 3, Queen 2, Jack 1, others 0."""
    return GAME_POINTS_BY_RANK[card % 13 + 2]


def _rank_in_every_suit(rank_bit: int) -> np.int64:
    return np.int64(sum(1 << (13 * suit + rank_bit) for suit in range(4)))


# Ranks T J Q K A are bits 8..12 of a suit field: each rank's bit in all four suits
_TENS, _JACKS, _QUEENS, _KINGS, _ACES = (_rank_in_every_suit(b) for b in range(8, 13))


@njit(cache=True, inline="always")
def mask_game_points(mask):
    """Sum of the game points of the cards in `mask` (five bit counts: the solver asks this
    at every trick)."""
    return (10 * popcount(mask & _TENS) + popcount(mask & _JACKS) + 2 * popcount(mask & _QUEENS)
            + 3 * popcount(mask & _KINGS) + 4 * popcount(mask & _ACES))


def parse_card(token: str) -> int:
    """Parse `AS`, `th`, `10H` (case-insensitive) into a card index; a bad token is an error."""
    rank, suit = parse_card_text(token, RANK_CHARS, SUIT_CHARS, SetbackError, "'AS' or '10H'",
                                 "2-9, T (or 10), J, Q, K, A")
    return make_card(rank + 2, suit)


def format_card(card: int) -> str:
    """The two-character text of a card index, e.g. `AS`, `TH`."""
    return card_text(card, RANK_CHARS, SUIT_CHARS, SetbackError)


def parse_hand(tokens, expected_size: int | None = None) -> int:
    """Parse a list of card tokens into a mask; duplicates and wrong sizes are errors."""
    mask = 0
    for token in tokens:
        card = parse_card(token)
        if mask >> card & 1:
            raise SetbackError(f"duplicate card {format_card(card)}")
        mask |= 1 << card
    if expected_size is not None and len(tokens) != expected_size:
        raise SetbackError(f"a hand must hold {expected_size} cards, got {len(tokens)}")
    return mask


def mask_to_cards(mask: int) -> list[int]:
    """Card indices in `mask`, ascending."""
    return mask_cards(mask, N_CARDS)


def format_cards(mask: int) -> list[str]:
    """Text of the cards in `mask`, ascending by index (suit, then rank)."""
    return [format_card(card) for card in mask_to_cards(mask)]


def parse_seat(token: str) -> int:
    """Parse an absolute seat letter W, N, E or S (case-insensitive) into 0..3."""
    return table.parse_seat(token, SetbackError)


def absolute_seat(relative: int, dealer: int) -> int:
    """Absolute seat (0..3, W N E S) of the seat `relative` to the dealer."""
    return (dealer + relative) % N_SEATS


def team_name(relative_team: int, dealer: int) -> str:
    """`EW` or `NS` for a team given relative to the dealer (0 = dealer's team)."""
    return TEAM_NAMES[(dealer + relative_team) % 2]
