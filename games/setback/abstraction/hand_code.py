"""The 12-character hand code (abstraction.md, "Hand code (12 characters)").

Two 6-slot fields, the top suit then the second suit. A field shows the suit's ranks high to
low, the rank character for a Ten or higher or for the suit's lowest card, `x` for the others,
`.` for unused slots. Inside numba a field is an 11-bit code (layout in `key_layout.py`):
the T-A ranks held, the number of cards below Ten, and the lowest of them.
"""

from __future__ import annotations

from numba import njit

from games.setback.abstraction.card_masks import LOW_FIELD, suit_field
from games.setback.abstraction.key_layout import FIELD_BITS
from games.setback.abstraction.suits import top_suits
from games.bits import lowest_bit, popcount

RANK_CHARS = "23456789TJQKA"
FIELD_WIDTH = 6


@njit(cache=True, inline="always")
def field_code(field):
    """11-bit code of one suit field: T-A bits, count below Ten << 5, lowest below Ten << 8."""
    low = field & LOW_FIELD
    code = (field >> 8) | (popcount(low) << 5)
    if low:
        code |= lowest_bit(low) << 8
    return code


@njit(cache=True)
def hand_code(hand):
    """22-bit code of the hand code of `hand`: top suit field | second suit field << 11."""
    top, second = top_suits(hand)
    code = field_code(suit_field(hand, top))
    if second >= 0:
        code |= field_code(suit_field(hand, second)) << FIELD_BITS
    return code


def field_text(code: int) -> str:
    """The 6 characters of one field code (`AJx2..`; six dots for 0)."""
    chars = [RANK_CHARS[8 + i] for i in range(4, -1, -1) if code >> i & 1]
    n_low = code >> 5 & 7
    if n_low:
        chars += ["x"] * (n_low - 1) + [RANK_CHARS[code >> 8 & 7]]
    if len(chars) > FIELD_WIDTH:
        raise ValueError(f"hand field code {code} holds more than six cards")
    return "".join(chars).ljust(FIELD_WIDTH, ".")


def parse_field(text: str) -> int:
    """The field code of 6 characters of a hand code (inverse of `field_text`)."""
    if len(text) != FIELD_WIDTH:
        raise ValueError(f"hand field {text!r} is not 6 characters")
    body = text.rstrip(".")
    code, n_low, seen_low, last = 0, 0, False, 15
    for ch in body:
        if seen_low:
            raise ValueError(f"hand field {text!r}: nothing may follow the lowest card")
        if ch == "x":
            n_low += 1
            continue
        if ch not in RANK_CHARS:
            raise ValueError(f"hand field {text!r}: bad character {ch!r}")
        rank = RANK_CHARS.index(ch) + 2
        if rank >= 10:
            if n_low or rank >= last:
                raise ValueError(f"hand field {text!r}: ranks not high to low")
            code |= 1 << (rank - 10)
            last = rank
        else:
            n_low += 1
            seen_low = True
            code |= (rank - 2) << 8
    if n_low and not seen_low:
        raise ValueError(f"hand field {text!r}: `x` without a lowest card")
    return code | n_low << 5


def hand_text(code: int) -> str:
    """The 12-character hand code of a 22-bit hand code."""
    return field_text(code & 0x7FF) + field_text(code >> FIELD_BITS & 0x7FF)


def parse_hand_text(text: str) -> int:
    """The 22-bit hand code of 12 characters (inverse of `hand_text`)."""
    if len(text) != 2 * FIELD_WIDTH:
        raise ValueError(f"hand code {text!r} is not 12 characters")
    return parse_field(text[:6]) | parse_field(text[6:]) << FIELD_BITS
