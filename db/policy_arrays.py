"""A strategy as flat arrays that numba kernels read: the blueprint of rollouts and best responses.

The database player looks keys up one string at a time (`db.player`), which is right for one
decision and far too slow for the thousands of decisions a search plays out per move. Here a
whole strategy (a database or strategy files, any key layout) is read once into

- `keys`: uint64, ascending: the layout's integer info-set keys, exactly as the trainer and the
  layout's `decision` kernel build them (parsed from the stored strings by the layout's codec);
- `offsets`: int64[n + 1]: key i's probabilities are `probs[offsets[i]:offsets[i + 1]]`;
- `probs`: float32, each key's vector in the layout's canonical action order;
- `best`: uint8, the index of each key's most probable action (the first on ties).

Bootstrap (score-aware auction) keys are kept apart (`bootstrap_*`), since the abstract game's
`decision` never builds them. `games.policy_table.find_key` finds a key, `pick_action` an
action.
Parsing is the slow part (a few microseconds a key in Python); a progress bar shows it for large
tables.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass

import numpy as np

from db.errors import DatabaseError
from db.key_kind import BOOTSTRAP, key_kinds

PROGRESS_ABOVE = 200_000  # keys: show a progress bar when parsing more


@dataclass(frozen=True)
class PolicyArrays:
    """A Setback strategy as sorted arrays (module docstring); `layout` is the layout's name
    (`abstraction/setback/layouts.py`), `source` where it was read from."""

    keys: np.ndarray
    offsets: np.ndarray
    probs: np.ndarray
    best: np.ndarray
    bootstrap_keys: np.ndarray
    bootstrap_offsets: np.ndarray
    bootstrap_probs: np.ndarray
    layout: str
    source: str
    game: str = "setback"

    @property
    def n_keys(self) -> int:
        """The number of baseline keys (auction, establish, playout)."""
        return int(self.keys.shape[0])


def _database_rows(path: str):
    """(key, float32 probabilities) of every row of a strategy database, read-only."""
    uri = "file:" + os.path.abspath(path) + "?mode=ro"
    try:
        with sqlite3.connect(uri, uri=True) as conn:
            rows = conn.execute("SELECT key, probs FROM strategy").fetchall()
    except sqlite3.Error as exc:
        raise DatabaseError(f"{path}: corrupt strategy database ({exc})") from None
    return [(key, np.frombuffer(blob, dtype="<f4")) for key, blob in rows]


def store_rows(store) -> list[tuple[str, np.ndarray]]:
    """Every (key string, probabilities) of a database player's store: a `StrategyDatabase`
    (read straight from its file) or an in-memory `StrategyStore` of strategy files."""
    table = getattr(store, "table", None)
    if isinstance(table, dict):
        return [(key, value[0]) for key, value in table.items()]
    return _database_rows(store.path)


def _pack(pairs: list[tuple[int, np.ndarray]]):
    """Sorted keys, offsets, probabilities and best actions of (integer key, probs) pairs."""
    pairs.sort(key=lambda pair: pair[0])
    keys = np.fromiter((k for k, _ in pairs), dtype=np.uint64, count=len(pairs))
    sizes = np.fromiter((p.size for _, p in pairs), dtype=np.int64, count=len(pairs))
    offsets = np.zeros(len(pairs) + 1, dtype=np.int64)
    np.cumsum(sizes, out=offsets[1:])
    probs = (np.concatenate([p for _, p in pairs]).astype(np.float32) if pairs
             else np.zeros(0, np.float32))
    best = np.fromiter((int(np.argmax(p)) for _, p in pairs), dtype=np.uint8, count=len(pairs))
    if keys.size > 1 and np.any(keys[1:] == keys[:-1]):
        raise DatabaseError("two stored keys parse to the same integer key (a corrupt table)")
    return keys, offsets, probs, best


def arrays_of_store(store, layout) -> PolicyArrays:
    """The `PolicyArrays` of a database player's store whose keys are of `layout` (a
    `layouts.Layout`). Keys the layout's codec cannot parse are refused in one line."""
    from abstraction.setback import layouts

    text_key = layouts.load(layout.name).text_key
    rows = store_rows(store)
    kinds = key_kinds([key for key, _ in rows])
    baseline, bootstrap = [], []
    iterator = rows
    if len(rows) > PROGRESS_ABOVE:
        from tqdm import tqdm

        iterator = tqdm(rows, desc=f"reading {os.path.basename(store.path)}", unit="key",
                        unit_scale=True, leave=False)
    for (text, probs), kind in zip(iterator, kinds):
        try:
            key = int(text_key(text))
        except ValueError as exc:
            raise DatabaseError(f"{store.path}: key {text!r} is not a {layout.name} key "
                                f"({exc})") from None
        (bootstrap if kind == BOOTSTRAP else baseline).append((key, probs))
    keys, offsets, probs, best = _pack(baseline)
    b_keys, b_offsets, b_probs, _ = _pack(bootstrap)
    return PolicyArrays(keys, offsets, probs, best, b_keys, b_offsets, b_probs, layout.name,
                        store.path)


def load_policy_arrays(spec: str) -> PolicyArrays:
    """The `PolicyArrays` of a policy named as a player is: `db:PATH`, `strategy:PATH[,PATH]`,
    or a bare path (a database, else a strategy file). Anything else, a missing file, or a
    strategy of another game is refused in one line (`DatabaseError`)."""
    text = str(spec).strip()
    lower = text.lower()
    if lower.startswith("db:"):
        kind, rest = "db", text[3:]
    elif lower.startswith("strategy:"):
        kind, rest = "strategy", text[9:]
    elif os.path.isfile(text):
        kind, rest = ("strategy" if text.endswith((".msgpack", ".strategy")) else "db"), text
    else:
        raise DatabaseError(f"{text!r}: a policy is db:PATH or strategy:PATH[,PATH...]")
    if kind == "db":
        from abstraction.setback import layouts
        from db.database import StrategyDatabase

        if not os.path.isfile(rest.strip()):
            raise DatabaseError(f"{rest.strip()}: no such strategy database")
        store = StrategyDatabase(rest.strip())
        if store.metadata.get("game") != "setback":
            store.close()
            raise DatabaseError(f"{store.path}: a strategy database for game "
                                f"{store.metadata.get('game')!r}, not 'setback'")
        layout = layouts.of_header(store.metadata)
    else:
        from db.strategy_store import StrategyStore

        store = StrategyStore([p.strip() for p in rest.split(",") if p.strip()])
        layout = store.layout
    try:
        return arrays_of_store(store, layout)
    finally:
        store.close()


def arrays_of_player(player) -> PolicyArrays:
    """The `PolicyArrays` of a `DatabasePlayer` (a database or strategy files), in its layout."""
    return arrays_of_store(player.db, player.layout)
