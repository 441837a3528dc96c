"""A strategy as flat arrays that numba kernels read: the blueprint of rollouts and best responses.

A database player looks keys up one string at a time, which is right for one decision and far
too slow for the thousands of decisions a search plays out per move. Here a whole strategy (a
database or strategy files, any key layout) is read once into

- `keys`: uint64, ascending: the layout's integer info-set keys, exactly as the trainer and the
  layout's `decision` kernel build them (parsed from the stored strings by the layout's codec);
- `offsets`: int64[n + 1]: key i's probabilities are `probs[offsets[i]:offsets[i + 1]]`;
- `probs`: float32, each key's vector in the layout's canonical action order;
- `best`: uint8, the index of each key's most probable action (the first on ties).

Keys the abstract game's `decision` never builds (Setback's bootstrap, score-aware auction keys)
are kept apart (`bootstrap_*`). `games.policy_table.find_key` finds a key, `pick_action` an
action. `read_arrays` reads any game's store, the game handing it its key parser: a game whose
keys an abstraction's codec reads through `db/codec_policy_arrays.py`, Setback (its key layouts)
through `games/setback/db/policy_arrays.py`.

Parsing is the slow part: a few microseconds a key with a layout's bulk parser (the
reference's), 20 us key by key; a progress bar shows it for large tables.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass

import numpy as np

from db.errors import DatabaseError

PROGRESS_ABOVE = 200_000  # keys: show a progress bar when reading more
BATCH = 200_000  # database rows read at a time


@dataclass(frozen=True)
class PolicyArrays:
    """A strategy as sorted arrays (module docstring); `layout` is the key layout's name (the
    game's abstraction), `source` where it was read from, `game` the game."""

    keys: np.ndarray
    offsets: np.ndarray
    probs: np.ndarray
    best: np.ndarray
    bootstrap_keys: np.ndarray
    bootstrap_offsets: np.ndarray
    bootstrap_probs: np.ndarray
    layout: str
    source: str
    game: str

    @property
    def n_keys(self) -> int:
        """The number of baseline keys (auction, establish, playout)."""
        return int(self.keys.shape[0])


def store_rows(store, batch: int = BATCH):
    """Every key of a database player's store, in batches: (key strings, int64 action counts,
    float32 probabilities end to end) per batch, from a `StrategyDatabase` (read straight from
    its file, read-only, `batch` rows at a time so a large table never sits in memory as Python
    objects) or an in-memory store of strategy files (a `table` dict: key -> (probabilities,
    best); one batch)."""
    table = getattr(store, "table", None)
    if isinstance(table, dict):
        texts = list(table)
        vectors = [table[key][0] for key in texts]
        sizes = np.fromiter((v.size for v in vectors), dtype=np.int64, count=len(vectors))
        probs = (np.concatenate(vectors).astype(np.float32) if vectors
                 else np.zeros(0, np.float32))
        yield texts, sizes, probs
        return
    uri = "file:" + os.path.abspath(store.path) + "?mode=ro"
    try:
        with contextlib.closing(sqlite3.connect(uri, uri=True)) as conn:
            cursor = conn.execute("SELECT key, probs FROM strategy")
            while rows := cursor.fetchmany(batch):
                texts = [key for key, _ in rows]
                sizes = np.fromiter((len(blob) // 4 for _, blob in rows), dtype=np.int64,
                                    count=len(rows))
                probs = np.frombuffer(b"".join(blob for _, blob in rows), dtype="<f4")
                yield texts, sizes, probs.astype(np.float32)
    except sqlite3.Error as exc:
        raise DatabaseError(f"{store.path}: corrupt strategy database ({exc})") from None


def _pack(keys: np.ndarray, sizes: np.ndarray, probs: np.ndarray, offsets: np.ndarray):
    """The keys sorted, with their offsets, probabilities and best actions; `offsets` are the
    unsorted rows' starts into `probs`."""
    order = np.argsort(keys, kind="stable")
    keys, sizes, starts = keys[order], sizes[order], offsets[order]
    if keys.size > 1 and np.any(keys[1:] == keys[:-1]):
        raise DatabaseError("two stored keys read as the same integer key (a corrupt table)")
    new_offsets = np.zeros(keys.size + 1, dtype=np.int64)
    np.cumsum(sizes, out=new_offsets[1:])
    # gather each row's probabilities into its sorted place: index = start + position in row
    within = np.arange(int(new_offsets[-1]), dtype=np.int64) - np.repeat(new_offsets[:-1], sizes)
    sorted_probs = probs[np.repeat(starts, sizes) + within]
    best = np.zeros(keys.size, dtype=np.uint8)
    if keys.size:
        # the first most probable action of each row: reduceat max, then the first index equal
        top = np.maximum.reduceat(sorted_probs, new_offsets[:-1])
        hit = sorted_probs == np.repeat(top, sizes)
        first = np.where(hit, within, np.iinfo(np.int64).max)
        best = np.minimum.reduceat(first, new_offsets[:-1]).astype(np.uint8)
    return keys, new_offsets, sorted_probs, best


def read_arrays(store, parse, name: str, game: str, bootstrap=None,
                progress: bool = True) -> PolicyArrays:
    """The `PolicyArrays` of any game's store: its rows read in batches (`store_rows`), each
    batch's key strings turned into integer keys by `parse(texts, memo) -> list[int]` (`memo`
    a dict kept across batches; a ValueError is a key it cannot read, refused in one line),
    with a progress bar for large tables. `bootstrap(texts) -> bool array`, when given, marks
    the keys kept apart as `bootstrap_*`. `name` is the layout's, `game` the store's."""
    n_keys = int(getattr(store, "n_keys", 0) or 0)
    bar = None
    if progress and n_keys > PROGRESS_ABOVE:
        from tqdm import tqdm

        bar = tqdm(total=n_keys, desc=f"reading {os.path.basename(store.path)}", unit="key",
                   unit_scale=True, leave=False, disable=None)  # None: shown on a terminal only
    parts, memo = [], {}
    try:
        for texts, sizes, probs in store_rows(store):
            try:
                ints = np.array(parse(texts, memo), dtype=np.uint64)
            except ValueError as exc:
                raise DatabaseError(f"{store.path}: a key is not a {name} key ({exc})") \
                    from None
            apart = bootstrap(texts) if bootstrap else np.zeros(len(texts), dtype=bool)
            parts.append((ints, sizes, probs, apart))
            if bar is not None:
                bar.update(len(texts))
    finally:
        if bar is not None:
            bar.close()
    ints, sizes, probs, boot = (np.concatenate([p[i] for p in parts]) if parts else empty
                                for i, empty in enumerate((np.zeros(0, np.uint64),
                                                           np.zeros(0, np.int64),
                                                           np.zeros(0, np.float32),
                                                           np.zeros(0, bool))))
    starts = np.zeros(ints.size, dtype=np.int64)
    if ints.size > 1:
        np.cumsum(sizes[:-1], out=starts[1:])
    keys, offsets, sorted_probs, best = _pack(ints[~boot], sizes[~boot], probs, starts[~boot])
    b_keys, b_offsets, b_probs, _ = _pack(ints[boot], sizes[boot], probs, starts[boot])
    return PolicyArrays(keys, offsets, sorted_probs, best, b_keys, b_offsets, b_probs, name,
                        store.path, game=game)
