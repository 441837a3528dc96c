"""Lossless codec between the uint64 info-set keys and the spec's strings (abstraction.md).

`key_text(key)` rebuilds the string character for character from the bit layout of
`key_layout.py`; `text_key(text)` parses a string back into the same integer. Used at the
edges only (database, tests, debugging, replay); the trainer never builds a string.
Baseline keys (auction, establish, playout) are built in a 24-character buffer of `.` and
trimmed of every trailing dot; bootstrap keys are not trimmed.
"""

from __future__ import annotations

from games.setback.abstraction.follow_actions import FOLLOW_TOKENS
from games.setback.abstraction.hand_code import hand_text, parse_hand_text
from games.setback.abstraction.key_layout import (
    ACTIONS_BITS,
    AHEAD_SHIFT,
    BANG_SHIFT,
    BID_SHIFT,
    HAND_MASK,
    HIGH_BIDDER_SHIFT,
    HONOUR_SHIFT,
    JACK_SHIFT,
    KIND_AUCTION,
    KIND_BOOTSTRAP,
    KIND_ESTABLISH,
    KIND_PLAYOUT,
    KIND_SHIFT,
    LOW_SHIFT,
    N_BIDS_SHIFT,
    NEED_SHIFT,
    PLAY_BITS,
    TRICK_SHIFT,
    VOIDS_SHIFT,
    WINNING_SHIFT,
)
from games.setback.abstraction.lead_actions import LEAD_TOKENS

KEY_WIDTH = 24
RANK_CHARS = "23456789TJQKA"
AUCTION_BID_CHARS = "023D"
PLAY_RANK_CHARS = "x2345TJQKA"  # rank codes 0..9 of a play
HEX = "0123456789ABCDEF"
_U64 = (1 << 64) - 1


class KeyFormatError(ValueError):
    """A string that is not a key of the abstraction, or an integer that encodes none."""


def trim(buffer: str) -> str:
    """Pad to 24 characters with `.` and trim every trailing dot (abstraction.md, General rules)."""
    return buffer.ljust(KEY_WIDTH, ".").rstrip(".")


def action_tokens(following: bool, mask: int) -> list[str]:
    """The action tokens of a playout token mask, in canonical order."""
    table = FOLLOW_TOKENS if following else LEAD_TOKENS
    return [table[i] for i in range(len(table)) if mask >> i & 1]


# ---- integer -> string -----------------------------------------------------------------------

def key_text(key: int) -> str:
    """The spec string of a uint64 key (any kind)."""
    key = int(key) & _U64
    kind = key >> KIND_SHIFT
    if kind == KIND_PLAYOUT:
        return _playout_text(key)
    hand = hand_text(key & HAND_MASK)
    if kind == KIND_AUCTION:
        return trim(AUCTION_BID_CHARS[key >> BID_SHIFT & 3] + hand)
    if kind == KIND_ESTABLISH:
        return trim("E" + str((key >> BID_SHIFT & 3) + 2) + hand)
    if kind == KIND_BOOTSTRAP:
        need = key >> NEED_SHIFT & 7
        score = ("x" if need == 0 else str(need)) + ("!" if key >> BANG_SHIFT & 1 else ".")
        b = key >> BID_SHIFT & 3
        bid = 0 if b == 0 else b + 1
        bidder = (key >> HIGH_BIDDER_SHIFT & 7) - 1
        return f"{score}/{bid}/{bidder}/{key >> N_BIDS_SHIFT & 3}/{hand}"
    raise KeyFormatError(f"key {key:#x} has no kind")


def _playout_text(key: int) -> str:
    chars = ["H" if key >> HONOUR_SHIFT & 1 else "."]
    low = key >> LOW_SHIFT & 7
    chars.append("." if low == 0 else "x" if low == 1 else RANK_CHARS[low - 2])
    chars.append("J" if key >> JACK_SHIFT & 1 else ".")
    chars.append("+" if key >> AHEAD_SHIFT & 1 else "-")
    chars.append(HEX[(key >> VOIDS_SHIFT & 7) << 1])
    following = False
    for i in range(3):
        code = key >> (TRICK_SHIFT + PLAY_BITS * i) & 31
        if code == 0:
            chars.append("..")
        else:
            following = True
            code -= 1
            chars.append(PLAY_RANK_CHARS[code >> 1] + ("t" if code & 1 else "x"))
    winning = key >> WINNING_SHIFT & 3
    chars.append("." if winning == 0 else str(winning - 1))
    chars += action_tokens(following, key & ((1 << ACTIONS_BITS) - 1))
    return trim("".join(chars))


# ---- string -> integer -----------------------------------------------------------------------

def text_key(text: str) -> int:
    """The uint64 key of a spec string (inverse of `key_text`)."""
    try:
        key = _parse(text)
        if key >> KIND_SHIFT != KIND_PLAYOUT and key & 0x7FF == 0:
            raise ValueError("the top suit field is empty")
    except (ValueError, IndexError) as exc:
        raise KeyFormatError(f"not an info-set key: {text!r} ({exc})") from None
    if key_text(key) != text:
        raise KeyFormatError(f"not an info-set key: {text!r} (not in canonical form)")
    return key


def _parse(text: str) -> int:
    if "/" in text:
        return _parse_bootstrap(text)
    first = text[:1]
    buffer = text.ljust(KEY_WIDTH, ".")
    if first in AUCTION_BID_CHARS and first:
        return (KIND_AUCTION << KIND_SHIFT | AUCTION_BID_CHARS.index(first) << BID_SHIFT
                | parse_hand_text(buffer[1:13]))
    if first == "E":
        bid = int(buffer[1])
        if bid not in (2, 3, 4):
            raise ValueError("bad winning bid")
        return KIND_ESTABLISH << KIND_SHIFT | (bid - 2) << BID_SHIFT | parse_hand_text(buffer[2:14])
    if first in ("H", "."):
        return _parse_playout(buffer)
    raise ValueError("unknown key kind")


def _parse_bootstrap(text: str) -> int:
    score, bid, bidder, n_bids, hand = text.split("/")
    if len(score) != 2 or score[0] not in "x1234" or score[1] not in ".!":
        raise ValueError("bad score field")
    need = 0 if score[0] == "x" else int(score[0])
    bid_i, bidder_i, n_i = int(bid), int(bidder), int(n_bids)
    if bid_i not in (0, 2, 3, 4) or not -1 <= bidder_i <= 3 or not 0 <= n_i <= 3:
        raise ValueError("bad auction field")
    return (KIND_BOOTSTRAP << KIND_SHIFT | (0 if bid_i == 0 else bid_i - 1) << BID_SHIFT
            | (bidder_i + 1) << HIGH_BIDDER_SHIFT | n_i << N_BIDS_SHIFT | need << NEED_SHIFT
            | (score[1] == "!") << BANG_SHIFT | parse_hand_text(hand))


def _parse_playout(buffer: str) -> int:
    key = KIND_PLAYOUT << KIND_SHIFT
    key |= (buffer[0] == "H") << HONOUR_SHIFT
    low = buffer[1]
    key |= (0 if low == "." else 1 if low == "x" else RANK_CHARS.index(low) + 2) << LOW_SHIFT
    key |= (buffer[2] == "J") << JACK_SHIFT
    key |= (buffer[3] == "+") << AHEAD_SHIFT
    key |= (HEX.index(buffer[4]) >> 1) << VOIDS_SHIFT
    following = buffer[5] != "."
    for i in range(3):
        play = buffer[5 + 2 * i: 7 + 2 * i]
        if play != "..":
            code = 1 + 2 * PLAY_RANK_CHARS.index(play[0]) + (play[1] == "t")
            key |= code << (TRICK_SHIFT + PLAY_BITS * i)
    if buffer[11] != ".":
        key |= (int(buffer[11]) + 1) << WINNING_SHIFT
    table = FOLLOW_TOKENS if following else LEAD_TOKENS
    actions = buffer[12:]
    for i in range(0, 12, 2):
        token = actions[i: i + 2]
        if token == "..":
            break
        key |= 1 << table.index(token)
    return key


# ---- many strings -> integers, fast -----------------------------------------------------------

def text_keys(texts, memo: dict | None = None) -> list[int]:
    """The keys of many stored strings at once (a whole database's, for `db.policy_arrays`).

    A playout key is its first 12 characters (the trick fields) and its action tokens; a
    database's millions of keys share far fewer of either, so each part is parsed once and
    remembered (about 1 us a key instead of `text_key`'s 20). Auction, establish and bootstrap
    keys, a minority, go through `text_key`. The parts skip `text_key`'s canonical-form round
    trip; the caller checks a sample with `text_key` (`db.policy_arrays`). `memo`, a dict kept
    between calls, carries the parts parsed so far from one batch of strings to the next."""
    memo = {} if memo is None else memo
    prefixes: dict[str, int] = memo.setdefault("prefixes", {})
    actions: dict[tuple[bool, str], int] = memo.setdefault("actions", {})
    out = []
    for text in texts:
        if text[:1] in ("H", ".") and "/" not in text and len(text) > 12:
            head, tail = text[:12], text[12:]
            bits = prefixes.get(head)
            if bits is None:
                bits = prefixes[head] = _parse_playout(head + "." * 12)
            following = head[5] != "."
            more = actions.get((following, tail))
            if more is None:
                more = actions[(following, tail)] = _action_bits(following, tail)
            out.append(bits | more)
        else:
            out.append(text_key(text))
    return out


def _action_bits(following: bool, tokens: str) -> int:
    """The action mask of a playout key's action tokens (two characters each, in order)."""
    table = FOLLOW_TOKENS if following else LEAD_TOKENS
    if len(tokens) % 2:  # the last token's trailing dot was trimmed (`S.`, `W.`, `N.` ...)
        tokens += "."
    if len(tokens) > 12:
        raise KeyFormatError(f"bad action tokens {tokens!r}")
    bits = 0
    for i in range(0, len(tokens), 2):
        try:
            bits |= 1 << table.index(tokens[i:i + 2])
        except ValueError:
            raise KeyFormatError(f"bad action token {tokens[i:i + 2]!r}") from None
    return bits
