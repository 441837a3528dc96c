"""The increment log: what one pass wants added to the table, and the merge that adds it.

A pass (`cfr.traversal.traverse`) reads the table frozen and appends one entry per update of
an info set, in visit (post-)order:
- `offset[e]`: the info set's value offset, or -1 if the frozen table did not hold its key;
- `key[e, :]`, `meta[e]` (`n_actions | player << 7`): to insert a missing key at merge time;
- `values[pos : pos + n]` the regret increments, `values[pos + n : pos + 2n]` the strategy-sum
  increments (float64), `pos` running over the entries in order.

`merge` adds the entries to the table in log order, so the sum at every info set is formed in
exactly the order a direct, in-place traversal would form it (OpenSpiel's order). Several logs
(workers, or iterations of a batch traversed against one frozen strategy) are merged one after
the other in a fixed order; the result then does not depend on how many workers produced them.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from cfr.table import ACTIONS_MASK, InfoSetTable, find_slot

# counts[] fields of a log
ENTRIES, VALUES, OVERFLOW = 0, 1, 2
# counts[OVERFLOW] after a pass that ran out of room: which capacity was short
OVERFLOW_ENTRIES, OVERFLOW_VALUES = 1, 2


class IncrementLog:
    """Preallocated arrays of one log; `clear()` before each pass, `grow()` on overflow."""

    def __init__(self, key_words: int = 1, entries: int = 4096, values: int = 32768):
        self.key_words = key_words
        self.offset = np.zeros(entries, dtype=np.int64)
        self.key = np.zeros((entries, key_words), dtype=np.uint64)
        self.meta = np.zeros(entries, dtype=np.uint8)
        self.values = np.zeros(values, dtype=np.float64)
        self.counts = np.zeros(3, dtype=np.int64)

    @classmethod
    def of(cls, offset, key, meta, values) -> "IncrementLog":
        """A log holding exactly these entries (writable copies of the arrays: Ray's, for
        one, are read-only)."""
        log = cls(key.shape[1], entries=1, values=1)
        log.offset = np.array(offset, dtype=np.int64)
        log.key = np.array(key, dtype=np.uint64)
        log.meta = np.array(meta, dtype=np.uint8)
        log.values = np.array(values, dtype=np.float64)
        log.counts[ENTRIES], log.counts[VALUES] = log.offset.shape[0], log.values.shape[0]
        return log

    def clear(self) -> None:
        """Forget every entry (keeps the arrays)."""
        self.counts[:] = 0

    @property
    def overflowed(self) -> bool:
        """True when the last pass ran out of room (its entries are incomplete)."""
        return bool(self.counts[OVERFLOW])

    def __len__(self) -> int:
        return int(self.counts[ENTRIES])

    def grow(self) -> None:
        """Double the capacity that ran out, entries or values (contents are dropped: the pass
        is simply run again). Growing only what overflowed keeps a log sized to its game."""
        if self.counts[OVERFLOW] == OVERFLOW_VALUES:
            self.values = np.zeros(2 * self.values.shape[0], dtype=np.float64)
        else:
            n = 2 * self.offset.shape[0]
            self.offset = np.zeros(n, dtype=np.int64)
            self.key = np.zeros((n, self.key_words), dtype=np.uint64)
            self.meta = np.zeros(n, dtype=np.uint8)
        self.clear()

    def memory_bytes(self) -> int:
        """Bytes held by the log's arrays."""
        return sum(a.nbytes for a in (self.offset, self.key, self.meta, self.values))


@njit(cache=True, inline="always", _nrt=False)
def log_has_room(lg_offset, lg_values, lg_counts, n):
    """Whether one more entry of n actions fits; if not, counts[OVERFLOW] says what is short."""
    if lg_counts[ENTRIES] >= lg_offset.shape[0]:
        lg_counts[OVERFLOW] = OVERFLOW_ENTRIES
        return False
    if lg_counts[VALUES] + 2 * n > lg_values.shape[0]:
        lg_counts[OVERFLOW] = OVERFLOW_VALUES
        return False
    return True


@njit(cache=True, inline="always", _nrt=False)
def log_entry(lg_offset, lg_key, lg_meta, lg_values, lg_counts, offset, key, meta, n):
    """Reserve one entry; return the position of its 2n values, or -1 when the log is full."""
    if not log_has_room(lg_offset, lg_values, lg_counts, n):
        return -1
    e = lg_counts[ENTRIES]
    pos = lg_counts[VALUES]
    lg_offset[e] = offset
    for w in range(lg_key.shape[1]):
        lg_key[e, w] = key[w]
    lg_meta[e] = meta
    lg_counts[ENTRIES] = e + 1
    lg_counts[VALUES] = pos + 2 * n
    return pos


def _merge_sig(val):
    return types.void(
        types.uint64[:, ::1], types.uint8[::1], types.uint32[::1], val[::1], val[::1],
        types.int64[::1],  # table counts: [info sets, used values, max info sets]
        types.int64[::1], types.uint64[:, ::1], types.uint8[::1], types.float64[::1],
        types.int64[::1],  # log counts
        types.int64[::1],  # cursor: [entry, value position, status]
        types.int64[::1],  # inserted: [count, entry indices...], or empty (not recorded)
    )


@njit([_merge_sig(types.float64), _merge_sig(types.float32)], cache=True, _nrt=False)
def merge_kernel(keys, meta, offsets, regrets, strategy, tcounts,
                 lg_offset, lg_key, lg_meta, lg_values, lg_counts, cursor, inserted):
    """Apply log entries from `cursor` on: R[o + a] += dR(a), S[o + a] += dS(a), in log order.

    A missing key is inserted at the end of the value arrays (and, when `inserted` is not
    empty, its entry's index appended: `inserted[0]` counts them, from `inserted[1]` on).
    Stops with cursor[2] = 1 when an insert needs more slots or values (the caller grows the
    table and calls again), 2 when a key arrives with another action count than the table
    holds, 0 when every entry is applied.
    """
    e = cursor[0]
    pos = cursor[1]
    n_entries = lg_counts[ENTRIES]
    cursor[2] = 0
    while e < n_entries:
        n = np.int64(lg_meta[e] & ACTIONS_MASK)
        o = lg_offset[e]
        if o < 0:
            slot = find_slot(keys, meta, lg_key[e])
            if meta[slot] == 0:
                if tcounts[0] + 1 > tcounts[2] or tcounts[1] + n > regrets.shape[0]:
                    cursor[2] = 1
                    break
                for w in range(keys.shape[1]):
                    keys[slot, w] = lg_key[e, w]
                meta[slot] = lg_meta[e]
                offsets[slot] = tcounts[1]
                if inserted.shape[0] > 0:
                    inserted[0] += 1
                    inserted[inserted[0]] = e
                tcounts[0] += 1
                tcounts[1] += n
            elif np.int64(meta[slot] & ACTIONS_MASK) != n:
                cursor[2] = 2
                break
            o = np.int64(offsets[slot])
        for a in range(n):
            regrets[o + a] += lg_values[pos + a]
            strategy[o + a] += lg_values[pos + n + a]
        pos += 2 * n
        e += 1
    cursor[0] = e
    cursor[1] = pos


_NOT_RECORDED = np.zeros(0, dtype=np.int64)


def merge(table: InfoSetTable, log: IncrementLog, segment: tuple[int, int, int] | None = None,
          inserted: np.ndarray | None = None) -> None:
    """Add every entry of `log` to `table` in order, inserting new keys and growing as needed.

    `segment` = (first entry, end entry, first entry's value position) merges only those
    entries (one episode of a log that holds several). `inserted` (int64, at least one more
    than the log's entries, `inserted[0]` = 0 on the first call) receives the indices of the
    entries that inserted a key, in order, after their count."""
    if log.overflowed:
        raise ValueError("cannot merge an overflowed increment log")
    cursor = np.zeros(3, dtype=np.int64)
    end = log.counts
    if segment is not None:
        cursor[0], cursor[1] = segment[0], segment[2]
        end = np.array([segment[1], 0, 0], dtype=np.int64)
    tcounts = np.zeros(3, dtype=np.int64)
    while True:
        tcounts[0], tcounts[1], tcounts[2] = table.count, table.n_values, table.max_count
        merge_kernel(table.keys, table.meta, table.offsets, table.regrets, table.strategy,
                     tcounts, log.offset, log.key, log.meta, log.values, end, cursor,
                     _NOT_RECORDED if inserted is None else inserted)
        table.count, table.n_values = int(tcounts[0]), int(tcounts[1])
        if cursor[2] == 0:
            return
        if cursor[2] == 2:
            e = int(cursor[0])
            raise ValueError(f"info-set key {log.key[e].tolist()} arrived with "
                             f"{log.meta[e] & ACTIONS_MASK} actions, the table holds another count")
        n = int(log.meta[cursor[0]] & ACTIONS_MASK)
        if table.count + 1 > table.max_count:
            table.grow_slots()
        if table.n_values + n > table.value_capacity:
            table.grow_values(table.n_values + n)
