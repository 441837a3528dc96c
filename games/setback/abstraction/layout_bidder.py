"""The `bidder` layout: the reference keys, with the contract's side and bid in the playout key.

Why: in the reference playout key a defender trying to set a Four and a bidder protecting a
Two read the same key. Over 10,000 heuristic self-play deals (`bench/abstraction_spread.py`,
120,480 keyed playout decisions) the side and the bid were the refinement that cut most of
the spread of the exact solver's action advantages (an action's value minus the mean of the
situation's actions: what decides between them) among situations sharing a reference key,
0.833 -> 0.810 points; the side alone 0.825, the trumps still out 0.828.

Auction, establish-trump and bootstrap keys, every abstract action and every card choice are
the reference's (`decision.py`). The playout key (24 + 2 characters, then trimmed):

| pos | meaning |
|--|--|
| 0-11 | the reference playout key's positions 0-11 (abstraction.md, "Playout key") |
| 12 | `B` if my team won the auction (the bidder's side), `D` if it defends |
| 13 | the winning bid: `2`, `3` or `4` |
| 14-25 | up to six legal abstract actions, two characters each, in canonical order |

The worked deal (P1 bids Three): P3, P1's partner, in trick 1 after AS 4S reads
`...+0At4t..0B3TTTQ`; P1 leading trick 2 reads `Hx.+0.......B3TxT2TJS.W`; P2, a defender,
after KH reads `H4.-0Kx....0D3l2lT`. Positions 12-13 are never dots, so trimming
only ever eats the actions' dots, as in the reference.

Encoding: kind 2 of `key_layout.py` (bits 0-55 the reference fields and actions) plus
    bit  56    pos 12: 1 `B`
    bits 57-58 pos 13: the bid minus 2
(bits 56-61 are unused by the reference's playout key, so a reference key is this layout's
key with the side and bid cleared).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.setback.abstraction import codec as reference_codec
from games.setback.abstraction.abstract_game import DECISION_SIG, layout_decision
from games.setback.abstraction.decision import SIT_LEAD, abstract_decision as reference_decision
from games.setback.abstraction.key_layout import KIND_PLAYOUT, KIND_SHIFT
from games.setback.abstraction.layouts import LAYOUTS
from games.setback.state import HIGH_BID, HIGH_BIDDER, TO_ACT

LAYOUT = LAYOUTS["bidder"]
SIDE_SHIFT = 56
CONTRACT_BID_SHIFT = 57
FIELDS_AT = 12  # the characters this layout inserts start at pos 12
EXTRA_MASK = np.uint64(((1 << 6) - 1) << SIDE_SHIFT)  # bits 56-61: every layout's own fields
KeyFormatError = reference_codec.KeyFormatError


@njit(cache=True, inline="always")
def side_bits(state):
    """Bits 56-58 of the seat to act: its team is the bidder's (56), the bid minus 2 (57-58)."""
    mine = 1 if state[TO_ACT] % 2 == state[HIGH_BIDDER] % 2 else 0
    return np.uint64(mine << SIDE_SHIFT | (state[HIGH_BID] - 2) << CONTRACT_BID_SHIFT)


@njit(cache=True, inline="always")
def refined_decision(playout_bits, state, moves_out):
    """The reference's decision (actions, situation, tokens, key) with `playout_bits(state)`
    (a layout's own fields, bits 56-61) added to a playout key: every layout but the
    reference's refines only the playout key."""
    n, situation, tokens, key = reference_decision(state, moves_out)
    if n >= 2 and situation >= SIT_LEAD:
        key |= playout_bits(state)
    return n, situation, tokens, key


@njit(cache=True)
def abstract_decision(state, moves_out):
    """The reference's decision (actions, situation, tokens), with the side and the bid added
    to a playout key (module docstring)."""
    return refined_decision(side_bits, state, moves_out)


@njit(DECISION_SIG, cache=True, _nrt=False)
def decision(state, actions_out, key_out):
    """The abstract game's decision (`abstract_game.layout_decision`) with this layout's
    keys."""
    return layout_decision(abstract_decision, state, actions_out, key_out)


# ---- codec: the reference's, with the inserted characters -----------------------------------

def side_text(key: int) -> str:
    """Positions 12-13 of a playout key: `B`/`D` and the bid."""
    return ("B" if key >> SIDE_SHIFT & 1 else "D") + str((key >> CONTRACT_BID_SHIFT & 3) + 2)


def parse_side(text: str) -> int:
    """The bits of positions 12-13 (`B3`, `D2`, ...); ValueError if they are not a side and
    a bid."""
    if len(text) != 2 or text[0] not in "BD" or text[1] not in "234":
        raise ValueError(f"bad side and bid {text!r}")
    return (text[0] == "B") << SIDE_SHIFT | (int(text[1]) - 2) << CONTRACT_BID_SHIFT


def refined_text(key: int, fields_text) -> str:
    """The text of a playout key whose layout inserts `fields_text(key)` at pos 12 of the
    reference's string (any other kind: the reference's text)."""
    key = int(key) & ((1 << 64) - 1)
    if key >> KIND_SHIFT != KIND_PLAYOUT:
        return reference_codec.key_text(key)
    base = reference_codec.key_text(key & ~int(EXTRA_MASK))
    return base[:FIELDS_AT] + fields_text(key) + base[FIELDS_AT:]


def refined_key(text: str, width: int, parse_fields, key_text) -> int:
    """The key of `text` for a layout inserting `width` characters at pos 12 of playout keys
    (parsed by `parse_fields`); KeyFormatError (one line) for a string that is not one of
    its keys."""
    if text[:1] not in ("H", ".") or "/" in text:
        key = reference_codec.text_key(text)
        if key >> KIND_SHIFT == KIND_PLAYOUT:  # pragma: no cover - guarded by the first char
            raise KeyFormatError(f"not an info-set key: {text!r}")
        return key
    try:
        if len(text) < FIELDS_AT + width:
            raise ValueError("too short")
        fields = parse_fields(text[FIELDS_AT:FIELDS_AT + width])
    except ValueError as exc:
        raise KeyFormatError(f"not an info-set key: {text!r} ({exc})") from None
    key = reference_codec.text_key(text[:FIELDS_AT] + text[FIELDS_AT + width:]) | fields
    if key_text(key) != text:
        raise KeyFormatError(f"not an info-set key: {text!r} (not in canonical form)")
    return key


def refined_text_keys(texts, memo: dict | None, width: int, parse_fields) -> list[int]:
    """The keys of many stored strings at once for a layout inserting `width` characters at
    pos 12 of playout keys (a whole database's, for `db.policy_arrays`): the inserted fields
    are parsed once per distinct value and the rest goes through the reference's bulk
    `text_keys`, so a refined table reads about as fast as the reference's (key by key, 22 us a
    key: 20 minutes for a 54 M-key `bidder` table; in bulk 2 us). Like the reference's it
    skips the canonical-form round trip, which the caller checks on a sample; a string too
    short to hold the fields is handed to `text_key` whole (KeyFormatError). `memo` is kept
    between calls."""
    memo = {} if memo is None else memo
    known: dict[str, int] = memo.setdefault(("fields", width), {})
    bases, fields = [], []
    for text in texts:
        if text[:1] in ("H", ".") and "/" not in text:
            if len(text) < FIELDS_AT + width:
                refined_key(text, width, parse_fields, None)  # raises KeyFormatError
            part = text[FIELDS_AT:FIELDS_AT + width]
            bits = known.get(part)
            if bits is None:
                try:
                    bits = known[part] = parse_fields(part)
                except ValueError as exc:
                    raise KeyFormatError(f"not an info-set key: {text!r} ({exc})") from None
            bases.append(text[:FIELDS_AT] + text[FIELDS_AT + width:])
            fields.append(bits)
        else:
            bases.append(text)
            fields.append(0)
    return [key | bits for key, bits in zip(reference_codec.text_keys(bases, memo), fields)]


def key_text(key: int) -> str:
    """The string of a `bidder` key (any kind; module docstring)."""
    return refined_text(key, side_text)


def text_key(text: str) -> int:
    """The `bidder` key of a string (inverse of `key_text`)."""
    return refined_key(text, 2, parse_side, key_text)


def text_keys(texts, memo: dict | None = None) -> list[int]:
    """The `bidder` keys of many stored strings at once (`refined_text_keys`)."""
    return refined_text_keys(texts, memo, 2, parse_side)
