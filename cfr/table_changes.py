"""What merging increment logs changed in a table, as a compact update for a replica.

A replica of the table (a Ray worker's) that was equal to the table before some merges
becomes equal to it after, bit for bit, by `apply_changes(replica, changes)`, `changes` being
what a `BatchChanges` recorded of the merges: the keys they inserted, in insertion order (so
the replica's slots, offsets and capacities grow exactly as the table's did), and the new
values of every info set the logs touched (assigned, not added: no hash lookup and no float
addition on the replica's side). An info set touched by many entries travels once, which is
what makes this smaller than the logs once deals share most of their tree.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cfr.increment_log import ENTRIES, IncrementLog, merge
from cfr.table import ACTIONS_MASK, InfoSetTable


@njit(cache=True)
def mark_touched(lg_offset, lg_meta, n_entries, seen, indices, n_idx):
    """Append to `indices` (from `n_idx`) the value positions of every info set the log
    touched that the table held before the merge (`offset >= 0`), each once; return the
    new count."""
    for e in range(n_entries):
        o = lg_offset[e]
        if o >= 0 and seen[o] == 0:
            seen[o] = 1
            for a in range(np.int64(lg_meta[e] & ACTIONS_MASK)):
                indices[n_idx] = o + a
                n_idx += 1
    return n_idx


class BatchChanges:
    """What merging a batch's logs into a table changes, recorded as the logs are merged (no
    scan of the table afterwards): `merge(table, log)` for each log in order, then
    `changes(table)` for the replicas.

    For each log it keeps the value indices of the info sets the table held at the batch
    start that the log touches and no earlier log did (the log's entries carry their offsets,
    so this needs no lookup), and the keys and meta of the entries that inserted a key (the
    merge reports them), in insertion order."""

    def __init__(self, table: InfoSetTable):
        self.n_values0 = table.n_values
        self._seen = np.zeros(self.n_values0, dtype=np.uint8)
        self._touched: list = []  # value indices, per log
        self._new: list = []  # (keys, meta) of the inserted info sets, per log

    def merge(self, table: InfoSetTable, log: IncrementLog, keep_old: bool = False):
        """Merge `log` into `table`, recording what it changes. With `keep_old`, return the
        values it overwrites that the table held at the batch start (value indices, their
        regrets, their strategy sums: what an undo puts back); else None."""
        e = int(log.counts[ENTRIES])
        indices = np.empty(int(np.sum(log.meta[:e] & ACTIONS_MASK, dtype=np.int64)),
                           dtype=np.int64)
        idx = indices[:mark_touched(log.offset, log.meta, e, self._seen, indices, 0)]
        old = (idx, table.regrets[idx], table.strategy[idx]) if keep_old else None
        inserted = np.zeros(e + 1, dtype=np.int64)
        merge(table, log, inserted=inserted)
        rows = inserted[1:1 + inserted[0]]
        self._touched.append(idx)
        self._new.append((log.key[rows], log.meta[rows]))
        return old

    def reset(self) -> None:
        """Forget every log recorded (the table went back to the batch start)."""
        self._seen[:] = 0
        self._touched, self._new = [], []

    def changes(self, table: InfoSetTable) -> tuple:
        """The changes, taken right after the last merge: (new keys and their meta, in
        insertion order; value indices of the touched info sets the table already held, their
        regrets and strategy sums; the regrets and strategy sums of the new info sets)."""
        idx = np.concatenate(self._touched or [np.zeros(0, np.int64)]).astype(np.uint32)
        new_keys = np.concatenate([k for k, _ in self._new] or
                                  [np.zeros((0, table.key_words), np.uint64)])
        new_meta = np.concatenate([m for _, m in self._new] or [np.zeros(0, np.uint8)])
        end = table.n_values
        return (new_keys, new_meta, idx, table.regrets[idx], table.strategy[idx],
                table.regrets[self.n_values0:end].copy(),
                table.strategy[self.n_values0:end].copy())


def apply_changes(table: InfoSetTable, changes: tuple) -> None:
    """Make a replica equal to the table `changes` was taken from (it was equal before)."""
    new_keys, new_meta, idx, regrets, strategy, new_regrets, new_strategy = changes
    start = table.n_values
    if new_keys.shape[0]:
        # inserted through the merge itself (zero increments), so slots grow as the table's did
        merge(table, IncrementLog.of(np.full(new_keys.shape[0], -1), new_keys, new_meta,
                                     np.zeros(2 * new_regrets.shape[0])))
    if table.n_values - start != new_regrets.shape[0]:
        raise RuntimeError("replica out of step: the new info sets' values do not fit")
    table.regrets[start:table.n_values] = new_regrets
    table.strategy[start:table.n_values] = new_strategy
    table.regrets[idx] = regrets
    table.strategy[idx] = strategy

