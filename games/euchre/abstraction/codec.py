"""Euchre keys as text, and back (lossless), with their kinds and action names (plain Python,
for the edges: export, the database, `db query`, tests; `keys.py` documents the fields).

| kind | text | example |
|--|--|--|
| order | `O` seat, upcard rank, `hand_summary` | `O1J RL-2a1v0` |
| name | `N` seat, `J` or `-` (upcard a jack), three `candidate_summary`s | `N3- RL3a1/--0a0/--1a2` |
| alone | `A` seat, round (1, 2), `hand_summary` | `A21 R-A2a1v1` |
| play | `P` role, `A`/`p` (alone or not), tricks us, them, position, led trump `T`/`-`, winner `-po` (none, partner, opponent), winning card trump `T`/`-`, unseen trumps (capped at 3), then the tokens, then `'` when my team is not the dealer's | `P0p102-o-3 S0+.T1-'` |

`hand_summary` text: right `R`/`-`, left `L`/`-`, trump ace `A`/`-`, the low trump count,
`a` other aces, `v` voids. `candidate_summary`: right, left, trumps held, `a` aces. A token: `T`
(trump) or `S` (side suit), the unseen higher cards (0..3), `+` if it beats the trick so far
else `-`. The actions of a key, in order (`action_names`): order `P`, `order`; name (`P` unless
the dealer is stuck) `next`, `cross1`, `cross2`; alone `alone`, `partner`; play: the tokens.
"""

from __future__ import annotations

from abstraction.key_codec import (KeyTextError, field as _field, header_check, key_codec,
                                   letter_kind, padded, strict_text_key, token_text)
from games.euchre.abstraction.version import ABSTRACTION_NAME, ABSTRACTION_VERSION

KIND_NAMES = ("order", "name", "alone", "play")
UNKNOWN = len(KIND_NAMES)
KIND_LETTERS = "ONAP"
KIND_SHIFT = 62
RANK_CHARS = "9TJQKA"
BODY = (1 << KIND_SHIFT) - 1


def _summary_text(s: int) -> str:
    return ("R" if s & 1 else "-") + ("L" if s >> 1 & 1 else "-") + ("A" if s >> 2 & 1 else "-") \
        + f"{_field(s, 3, 3)}a{_field(s, 6, 2)}v{_field(s, 8, 2)}"


def _summary_key(text: str) -> int:
    if len(text) != 8 or text[0] not in "R-" or text[1] not in "L-" or text[2] not in "A-" \
            or text[4] != "a" or text[6] != "v":
        raise KeyTextError(f"bad hand summary {text!r}")
    return ((text[0] == "R") | (text[1] == "L") << 1 | (text[2] == "A") << 2
            | int(text[3]) << 3 | int(text[5]) << 6 | int(text[7]) << 8)


def _candidate_text(s: int) -> str:
    return ("R" if s & 1 else "-") + ("L" if s >> 1 & 1 else "-") \
        + f"{_field(s, 2, 3)}a{_field(s, 5, 2)}"


def _candidate_key(text: str) -> int:
    if len(text) != 5 or text[0] not in "R-" or text[1] not in "L-" or text[3] != "a":
        raise KeyTextError(f"bad candidate summary {text!r}")
    return (text[0] == "R") | (text[1] == "L") << 1 | int(text[2]) << 2 | int(text[4]) << 5


def _token_key(text: str) -> int:
    if len(text) != 3 or text[0] not in "TS" or text[1] not in "0123" or text[2] not in "+-":
        raise KeyTextError(f"bad token {text!r}")
    return (text[0] == "T") << 3 | int(text[1]) << 1 | (text[2] == "+")


def key_text(key: int) -> str:
    """The text of a uint64 key (module docstring)."""
    key = int(key)
    kind, body = key >> KIND_SHIFT, key & BODY
    if kind == 0:
        return f"O{_field(body, 0, 2)}{RANK_CHARS[_field(body, 2, 3)]} " \
            + _summary_text(_field(body, 5, 10))
    if kind == 1:
        return f"N{_field(body, 0, 2)}{'J' if body >> 2 & 1 else '-'} " + "/".join(
            _candidate_text(_field(body, 3 + 7 * i, 7)) for i in range(3))
    if kind == 2:
        return f"A{_field(body, 0, 2)}{_field(body, 2, 1) + 1} " \
            + _summary_text(_field(body, 3, 10))
    n = _field(body, 17, 3)
    head = (f"P{_field(body, 0, 2)}{'A' if body >> 2 & 1 else 'p'}{_field(body, 3, 3)}"
            f"{_field(body, 6, 3)}{_field(body, 9, 2)}{'T' if body >> 11 & 1 else '-'}"
            f"{'-po'[_field(body, 12, 2)]}{'T' if body >> 14 & 1 else '-'}"
            f"{_field(body, 15, 2)}")
    return head + " " + ".".join(token_text(_field(body, 20 + 4 * i, 4)) for i in range(n)) \
        + ("" if body >> 40 & 1 else "'")


def _text_key(text: str) -> int | None:
    head, sep, tail = text.partition(" ")
    if not sep or not head:
        return None
    kind = KIND_LETTERS.index(head[0]) if head[0] in KIND_LETTERS else -1
    if kind == 0 and len(head) == 3:
        body = int(head[1]) | RANK_CHARS.index(head[2]) << 2 | _summary_key(tail) << 5
    elif kind == 1 and len(head) == 3 and head[2] in "J-":
        parts = tail.split("/")
        if len(parts) != 3:
            return None
        body = int(head[1]) | (head[2] == "J") << 2
        for i, part in enumerate(parts):
            body |= _candidate_key(part) << (3 + 7 * i)
    elif kind == 2 and len(head) == 3 and head[2] in "12":
        body = int(head[1]) | (int(head[2]) - 1) << 2 | _summary_key(tail) << 3
    elif kind == 3 and len(head) == 10:
        dealers = not tail.endswith("'")
        tokens = tail.rstrip("'").split(".")
        if head[2] not in "Ap" or head[6] not in "T-" or head[7] not in "-po" \
                or head[8] not in "T-" or not 1 <= len(tokens) <= 5:
            return None
        body = (int(head[1]) | (head[2] == "A") << 2 | int(head[3]) << 3 | int(head[4]) << 6
                | int(head[5]) << 9 | (head[6] == "T") << 11 | "-po".index(head[7]) << 12
                | (head[8] == "T") << 14 | int(head[9]) << 15 | len(tokens) << 17
                | dealers << 40)
        for i, token in enumerate(tokens):
            body |= _token_key(token) << (20 + 4 * i)
    else:
        return None
    return kind << KIND_SHIFT | body


text_key = strict_text_key(_text_key, key_text, "Euchre")  # text -> key, canonical texts only
key_kind = letter_kind(KIND_LETTERS)  # a key text's kind (into KIND_NAMES), else UNKNOWN


def action_names(text: str, n_actions: int) -> list[str]:
    """The names of a key's `n_actions` actions, in order (`?i` where the key does not tell)."""
    kind = key_kind(text)
    names: list[str] = []
    if kind == 0:
        names = ["P", "order"]
    elif kind == 1:
        names = (["P"] if text[1:2] != "0" else []) + ["next", "cross1", "cross2"]
    elif kind == 2:
        names = ["alone", "partner"]
    elif kind == 3:
        names = text.partition(" ")[2].rstrip("'").split(".")
    return padded(names, n_actions)


STAGE_KINDS = {"baseline": (0, 1, 2, 3)}  # a Euchre baseline export holds every kind


check_header = header_check(ABSTRACTION_NAME, ABSTRACTION_VERSION, "Euchre")
KEY_CODEC = key_codec("euchre", KIND_NAMES, STAGE_KINDS, key_kind, key_text, action_names,
                      check_header)
