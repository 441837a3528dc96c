"""Following in a trick after the first lead (abstraction.md, "Abstract actions after the first
lead", the Following table). h = the card now winning the trick.

Canonical order (token index = bit of the action mask):
| token | chars | cards | card played |
| 0-12 | `T2`..`TA` (rank token + 2) | a trump with game points, or of rank lowT | that card |
| 13 | `Wx` | another trump that would win (h not trump, or above h) | the highest such |
| 14 | `Lx` | another trump that would not win | the lowest such |
| 15-20 | `w0` `w1` `w2` `w3` `w4` `wT` | a card of the suit led that beats h, worth g | the highest |
| 21-26 | `l0` .. `lT` | a card of the suit led that does not win, worth g | the lowest |
| 27 | `N.` | off-suit non-trump Ten | first Ten in suit order C D H S |
| 28 | `G.` | off-suit non-trump J Q K A | the highest (ties: lowest suit) |
| 29 | `D.` | off-suit non-trump 2..9 | the lowest rank (ties: lowest suit) |
When trump is led the suit led is trump, so its cards take the trump rows.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.setback.abstraction.card_masks import ALL_HONOURS, ALL_LOW, TENS, suit_field
from games.setback.abstraction.lead_actions import (
    highest_rank_card,
    lowest_rank_card,
    special_trumps,
)
from games.bits import highest_bit, lowest_bit
from games.setback.cards import suit_mask

RANK_CHARS = "23456789TJQKA"
G_CHARS = "01234T"
FOLLOW_TOKENS = (
    tuple("T" + r for r in RANK_CHARS)
    + ("Wx", "Lx")
    + tuple("w" + g for g in G_CHARS)
    + tuple("l" + g for g in G_CHARS)
    + ("N.", "G.", "D.")
)
TRUMP_TO_WIN = 13
TRUMP_TO_LOSE = 14
FOLLOW_TO_WIN = 15
FOLLOW_TO_LOSE = 21
CONTRIBUTE_TEN = 27
CONTRIBUTE_GAME = 28
DUCK = 29
# suit-field bits of the cards worth g, g in the canonical order 0 1 2 3 4 T
G_FIELDS = np.array([0xFF, 1 << 9, 1 << 10, 1 << 11, 1 << 12, 1 << 8], dtype=np.int64)


@njit(cache=True, inline="always")
def _above(card):
    """Mask of the card indices above `card` (in its suit: the higher ranks, then more)."""
    return ~((np.int64(2) << card) - 1)


@njit(cache=True, inline="always")
def _by_worth(field, base, highest, first_token, moves_out, n, tokens):
    """Emit one action per worth g present in a suit field (g order 0 1 2 3 4 T): the highest
    (or lowest) card worth g."""
    if field == 0:
        return n, tokens
    low = field & 0xFF
    if low:
        moves_out[n] = base + (highest_bit(low) if highest else lowest_bit(low))
        n += 1
        tokens |= 1 << first_token
    for g in range(1, 5):  # J Q K A: bits 9..12
        if field >> (8 + g) & 1:
            moves_out[n] = base + 8 + g
            n += 1
            tokens |= 1 << (first_token + g)
    if field >> 8 & 1:  # Ten
        moves_out[n] = base + 8
        n += 1
        tokens |= 1 << (first_token + 5)
    return n, tokens


@njit(cache=True)
def follow_actions(legal, trump, led, h, low_t, moves_out):
    """The following actions over the `legal` cards into `moves_out` in canonical order;
    returns (count, token mask) (abstraction.md, the Following table). `led` is the suit led,
    `h` the card now winning."""
    tm = suit_mask(trump)
    trumps = legal & tm
    special = special_trumps(trumps, trump, low_t)
    other = trumps & ~special
    n = 0
    tokens = 0
    while special:
        card = lowest_bit(special)
        moves_out[n] = card
        n += 1
        tokens |= 1 << (card - 13 * trump)
        special &= special - 1
    h_trump = h // 13 == trump
    win = other & _above(h) if h_trump else other
    lose = other & ~win
    if win:
        moves_out[n] = highest_bit(win)
        n += 1
        tokens |= 1 << TRUMP_TO_WIN
    if lose:
        moves_out[n] = lowest_bit(lose)
        n += 1
        tokens |= 1 << TRUMP_TO_LOSE
    if led != trump:
        of_led = legal & suit_mask(led)
        if of_led:
            winners = of_led & _above(h) if h // 13 == led else np.int64(0)
            base = 13 * led
            n, tokens = _by_worth(suit_field(winners, led), base, True, FOLLOW_TO_WIN,
                                  moves_out, n, tokens)
            n, tokens = _by_worth(suit_field(of_led & ~winners, led), base, False,
                                  FOLLOW_TO_LOSE, moves_out, n, tokens)
    off = legal & ~tm & ~suit_mask(led)
    if off:
        tens = off & TENS
        if tens:
            moves_out[n] = lowest_bit(tens)
            n += 1
            tokens |= 1 << CONTRIBUTE_TEN
        game = off & ALL_HONOURS
        if game:
            moves_out[n] = highest_rank_card(game)
            n += 1
            tokens |= 1 << CONTRIBUTE_GAME
        low = off & ALL_LOW
        if low:
            moves_out[n] = lowest_rank_card(low)
            n += 1
            tokens |= 1 << DUCK
    return n, tokens


@njit(cache=True)
def classify_follow(trump, led, h, low_t, card):
    """The follow token of a legal `card` (abstraction.md, the Following table's "cards" column)."""
    bit = np.int64(1) << card
    suit = card // 13
    if suit == trump:
        if special_trumps(bit, trump, low_t):
            return card % 13
        if h // 13 != trump or card > h:
            return TRUMP_TO_WIN
        return TRUMP_TO_LOSE
    rank_bit = np.int64(1) << (card % 13)
    g = 0
    for i in range(6):
        if G_FIELDS[i] & rank_bit:
            g = i
    if suit == led:
        if h // 13 == led and card > h:
            return FOLLOW_TO_WIN + g
        return FOLLOW_TO_LOSE + g
    if bit & TENS:
        return CONTRIBUTE_TEN
    if bit & ALL_HONOURS:
        return CONTRIBUTE_GAME
    return DUCK
