"""Which kind of Setback key a key string is, read from its first characters.

abstraction.md: baseline auction keys start with the high bid character `0`, `2`, `3` or `D`;
establish-trump keys with `E`; playout keys with `H` or `.`; bootstrap (score-aware auction)
keys are `S/B/I/N/H` with the two-character `S` field, so their third character is `/`.
"""

from __future__ import annotations

import numpy as np

AUCTION, ESTABLISH, PLAYOUT, BOOTSTRAP, UNKNOWN = 0, 1, 2, 3, 4
KIND_NAMES = ("auction", "establish", "playout", "bootstrap")

# The kinds each training stage's export contributes to a database (issue 6): a baseline
# gives the playout, establish and baseline auction keys; a bootstrap its score-aware bids.
STAGE_KINDS = {
    "baseline": (AUCTION, ESTABLISH, PLAYOUT),
    "bootstrap": (BOOTSTRAP,),
}

_FIRST = np.full(256, UNKNOWN, dtype=np.uint8)
for _c in "023D":
    _FIRST[ord(_c)] = AUCTION
_FIRST[ord("E")] = ESTABLISH
_FIRST[ord("H")] = PLAYOUT
_FIRST[ord(".")] = PLAYOUT


def key_kind(key: str) -> int:
    """The kind (AUCTION, ESTABLISH, PLAYOUT, BOOTSTRAP or UNKNOWN) of one key string."""
    if len(key) > 2 and key[2] == "/":
        return BOOTSTRAP
    if not key or ord(key[0]) > 255:
        return UNKNOWN
    return int(_FIRST[ord(key[0])])


def key_kinds(keys: list[str]) -> np.ndarray:
    """The kinds of many keys at once (uint8), vectorized over the keys' joined bytes."""
    if not keys:
        return np.zeros(0, dtype=np.uint8)
    lengths = np.fromiter(map(len, keys), dtype=np.int64, count=len(keys))
    data = np.frombuffer("\n".join(keys).encode("utf-8", "replace") + b"\n\n\n", dtype=np.uint8)
    if data.size != int(lengths.sum()) + len(keys) + 2:  # non-ASCII text: go key by key
        return np.fromiter(map(key_kind, keys), dtype=np.uint8, count=len(keys))
    starts = np.zeros(len(keys), dtype=np.int64)
    np.cumsum(lengths[:-1] + 1, out=starts[1:])
    kinds = _FIRST[data[starts]]
    kinds[lengths == 0] = UNKNOWN
    kinds[(data[starts + 2] == ord("/")) & (lengths > 2)] = BOOTSTRAP
    return kinds
