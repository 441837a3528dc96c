"""Spades keys as text, and back (lossless), with their kinds and action names (plain Python,
for the edges: export, the database, `db query`, tests; `keys.py` documents the fields).

| kind | text | example |
|--|--|--|
| bid | `B` place, partner's bid (`-` none yet, `N` Nil, `1`..`9`, `a`..`d` for 10..13), `n`/`-` (an opponent bid Nil), opponents' bids bucket (0..3), then the hand: `e` the expected tricks, spade ace, king, queen (`A` `K` `Q` or `-`), spades held (5: 5 or more) | `B2N-1 e4AK-5` |
| play | `P` position, tricks done, `S`/`-` (a spade led), winner `-po` (none, partner, opponent), `S`/`-` (a spade winning), tricks we need, they need, `n`/`-` three times (my, my partner's, an opponent's Nil alive), `s`/`-` (a spade played), unseen spades bucket (0..3), then the tokens, then `'` when my team is not the dealer's | `P21-oS30---s2 S0-.T2+'` |

A token: `T` (a spade) or `S` (a side suit), the unseen higher cards (0..3), `+` if it beats
the trick so far else `-`. The actions of a key, in order (`action_names`): bid `Nil` and the
bids (`keys.bid_decision`);
play: the tokens.
"""

from __future__ import annotations

from abstraction.key_codec import (KeyTextError, field as _field, header_check, key_codec,
                                   letter_kind, padded, strict_text_key, token_text)
from games.spades.abstraction.version import ABSTRACTION_NAME, ABSTRACTION_VERSION

KIND_NAMES = ("bid", "play")
UNKNOWN = len(KIND_NAMES)
KIND_LETTERS = "BP"
KIND_SHIFT = 62
BODY = (1 << KIND_SHIFT) - 1
PARTNER_CHARS = "-N123456789abcd"  # none yet, Nil, 1..9, a..d for 10..13
STAGE_KINDS = {"baseline": (0, 1)}  # a Spades baseline export holds every kind


def _flag(value: int, shift: int, char: str) -> str:
    return char if value >> shift & 1 else "-"


def key_text(key: int) -> str:
    """The text of a uint64 key (module docstring)."""
    key = int(key)
    kind, body = key >> KIND_SHIFT, key & BODY
    if kind == 0:
        return (f"B{_field(body, 0, 2)}{PARTNER_CHARS[_field(body, 2, 4)]}{_flag(body, 6, 'n')}"
                f"{_field(body, 7, 2)} e{_field(body, 9, 4)}{_flag(body, 13, 'A')}"
                f"{_flag(body, 14, 'K')}{_flag(body, 15, 'Q')}{_field(body, 16, 3)}")
    head = (f"P{_field(body, 0, 2)}{_field(body, 2, 2)}{_flag(body, 4, 'S')}"
            f"{'-po'[_field(body, 5, 2)]}{_flag(body, 7, 'S')}{_field(body, 8, 3)}"
            f"{_field(body, 11, 3)}{_flag(body, 14, 'n')}{_flag(body, 15, 'n')}"
            f"{_flag(body, 16, 'n')}{_flag(body, 17, 's')}{_field(body, 18, 2)}")
    tokens = [token_text(t) for t in range(16) if body >> (20 + t) & 1]
    return head + " " + ".".join(tokens) + ("" if body >> 36 & 1 else "'")


def _text_key(text: str) -> int | None:
    head, _, tail = text.partition(" ")
    if head[:1] == "B" and len(head) == 5 and tail[:1] == "e" and len(tail) >= 6:
        return (int(head[1]) | PARTNER_CHARS.index(head[2]) << 2 | (head[3] == "n") << 6
                | int(head[4]) << 7 | int(tail[1:-4]) << 9 | (tail[-4] == "A") << 13
                | (tail[-3] == "K") << 14 | (tail[-2] == "Q") << 15 | int(tail[-1]) << 16)
    if head[:1] == "P" and len(head) == 13:
        body = (int(head[1]) | int(head[2]) << 2 | (head[3] == "S") << 4
                | "-po".index(head[4]) << 5 | (head[5] == "S") << 7 | int(head[6]) << 8
                | int(head[7]) << 11 | (head[8] == "n") << 14 | (head[9] == "n") << 15
                | (head[10] == "n") << 16 | (head[11] == "s") << 17 | int(head[12]) << 18
                | (not tail.endswith("'")) << 36)
        for token in tail.rstrip("'").split("."):
            if len(token) != 3 or token[0] not in "TS" or token[2] not in "+-":
                return None
            body |= 1 << (20 + ((token[0] == "T") << 3 | int(token[1]) << 1
                                | (token[2] == "+")))
        return 1 << KIND_SHIFT | body
    return None


text_key = strict_text_key(_text_key, key_text, "Spades")  # text -> key, canonical texts only
key_kind = letter_kind(KIND_LETTERS)  # a key text's kind (into KIND_NAMES), else UNKNOWN


def _bid_names(text: str) -> list[str]:
    body = text_key(text) & BODY
    highest = 13 - max(0, _field(body, 2, 4) - 1)
    low = max(1, min(_field(body, 9, 4) - 1, highest - 3))
    return ["Nil"] + [str(low + i) for i in range(min(4, highest))]


def action_names(text: str, n_actions: int) -> list[str]:
    """The names of a key's `n_actions` actions, in order (`?i` where the key does not tell)."""
    kind = key_kind(text)
    names: list[str] = []
    if kind == 0:
        names = _bid_names(text)
    elif kind == 1:
        names = text.partition(" ")[2].rstrip("'").split(".")
    return padded(names, n_actions)


check_header = header_check(ABSTRACTION_NAME, ABSTRACTION_VERSION, "Spades")
KEY_CODEC = key_codec("spades", KIND_NAMES, STAGE_KINDS, key_kind, key_text, action_names,
                      check_header)
