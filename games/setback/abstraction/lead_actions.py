"""Leading a trick after the first lead (abstraction.md, "Abstract actions after the first lead",
the Leading table).

Canonical order (token index = bit of the action mask):
| token | chars | cards | card played |
| 0 | `Tx` | trumps without game points, other than rank lowT | the highest |
| 1-13 | `T2`..`TA` (rank r = token + 1) | a trump with game points, or of rank lowT | that card |
| 14 | `S.` | non-trump J Q K A | the highest rank (ties: lowest suit) |
| 15 | `W.` | non-trump 2..T | the lowest rank (ties: lowest suit) |
"""

from __future__ import annotations

from numba import njit

from games.setback.abstraction.card_masks import ALL_HONOURS, ALL_LOW, HIGH_FIELD, RANK_MASKS, TENS
from games.bits import highest_bit, lowest_bit
from games.setback.cards import suit_mask

RANK_CHARS = "23456789TJQKA"
LEAD_TOKENS = ("Tx",) + tuple("T" + r for r in RANK_CHARS) + ("S.", "W.")
LEAD_OTHER_TRUMP = 0
LEAD_STRONG = 14
LEAD_WEAK = 15
SUIT_BIT0 = RANK_MASKS[2]  # bit 0 of every suit field


@njit(cache=True, inline="always")
def _ranks_held(mask):
    return (mask | (mask >> 13) | (mask >> 26) | (mask >> 39)) & 0x1FFF


@njit(cache=True, inline="always")
def highest_rank_card(mask):
    """The card of the highest rank in a non-empty `mask`; equal ranks go to the lowest suit."""
    return lowest_bit(mask & (SUIT_BIT0 << highest_bit(_ranks_held(mask))))


@njit(cache=True, inline="always")
def lowest_rank_card(mask):
    """The card of the lowest rank in a non-empty `mask`; equal ranks go to the lowest suit."""
    return lowest_bit(mask & (SUIT_BIT0 << lowest_bit(_ranks_held(mask))))


@njit(cache=True, inline="always")
def special_trumps(trumps, trump, low_t):
    """The trumps of `trumps` that are named by rank: game-point trumps and the trump of rank lowT."""
    named = (HIGH_FIELD << (13 * trump)) | (1 << (13 * trump + low_t - 2))
    return trumps & named


@njit(cache=True)
def lead_actions(hand, trump, low_t, moves_out):
    """The leading actions of `hand` into `moves_out` in canonical order; returns
    (count, token mask) (abstraction.md, the Leading table)."""
    trumps = hand & suit_mask(trump)
    special = special_trumps(trumps, trump, low_t)
    other = trumps & ~special
    n = 0
    tokens = 0
    if other:
        moves_out[n] = highest_bit(other)
        n += 1
        tokens |= 1 << LEAD_OTHER_TRUMP
    while special:
        card = lowest_bit(special)
        moves_out[n] = card
        n += 1
        tokens |= 1 << (card - 13 * trump + 1)
        special &= special - 1
    plain = hand & ~suit_mask(trump)
    strong = plain & ALL_HONOURS
    if strong:
        moves_out[n] = highest_rank_card(strong)
        n += 1
        tokens |= 1 << LEAD_STRONG
    weak = plain & (ALL_LOW | TENS)
    if weak:
        moves_out[n] = lowest_rank_card(weak)
        n += 1
        tokens |= 1 << LEAD_WEAK
    return n, tokens


@njit(cache=True)
def classify_lead(hand, trump, low_t, card):
    """The lead token of `card` (abstraction.md, the Leading table's "cards" column)."""
    if card // 13 == trump:
        if special_trumps(1 << card, trump, low_t):
            return card % 13 + 1
        return LEAD_OTHER_TRUMP
    if (1 << card) & ALL_HONOURS:
        return LEAD_STRONG
    return LEAD_WEAK
