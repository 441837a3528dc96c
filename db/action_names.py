"""The names of a key's abstract actions, read back from the key string (for `db query`).

A database row holds only probabilities, in the key's canonical action order; the names follow
from the key itself (abstraction.md):
- baseline auction `[0]...`: the bids above the high bid in the order Pass, Two, Three, Four
  (`D`: the dealer facing Four, Pass and Four); Four is the last and may have been dropped by
  the Jack filter, which the action count tells;
- bootstrap `S/B/I/N/H`: Pass and every bid above B (with B = 4 only the dealer has a choice:
  Pass, Four);
- establish `E…`: `E0`, `E1`;
- playout: the tokens in positions 12-23, two characters each (the trim may have eaten the
  last token's dot).
"""

from __future__ import annotations

from db.key_kind import AUCTION, BOOTSTRAP, ESTABLISH, PLAYOUT, key_kind

BID_NAMES = {0: "Pass", 2: "Two", 3: "Three", 4: "Four"}


def _bids_above(high: int) -> list[str]:
    if high >= 4:  # only the dealer has a choice facing Four: Pass or steal
        return [BID_NAMES[0], BID_NAMES[4]]
    return [BID_NAMES[0]] + [BID_NAMES[b] for b in range(max(high + 1, 2), 5)]


def action_names(key: str, n_actions: int) -> list[str]:
    """The `n_actions` action names of `key`, in canonical order; `?i` where the key does not
    tell (a key of unknown shape)."""
    kind = key_kind(key)
    names: list[str] = []
    if kind == AUCTION:
        names = _bids_above({"0": 0, "2": 2, "3": 3, "D": 4}[key[0]])
    elif kind == BOOTSTRAP:
        fields = key.split("/")
        if len(fields) == 5 and fields[1] in ("0", "2", "3", "4"):
            names = _bids_above(int(fields[1]))
    elif kind == ESTABLISH:
        names = ["E0", "E1"]
    elif kind == PLAYOUT:
        tail = key[12:]
        if len(tail) % 2:
            tail += "."
        names = [tail[i:i + 2] for i in range(0, len(tail), 2)]
    names = names[:n_actions]
    return names + [f"?{i}" for i in range(len(names), n_actions)]
