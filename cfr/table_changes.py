"""What merging increment logs changed in a table, as a compact update for a replica.

A replica of the table (a Ray worker's) that was equal to the table before some merges
becomes equal to it after, bit for bit, by `apply_changes(replica, changes_of(...))`: the keys
the merges inserted, in insertion order (so the replica's slots, offsets and capacities grow
exactly as the table's did), and the new values of every info set the logs touched (assigned,
not added: no hash lookup and no float addition on the replica's side). An info set touched
by many entries travels once, which is what makes this smaller than the logs once deals
share most of their tree.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cfr.increment_log import ENTRIES, VALUES, IncrementLog, merge
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


@njit(cache=True)
def slots_from(meta, offsets, n_before, out):
    """The slots whose info sets start at or after value `n_before` (inserted by the merge)
    into `out`; returns their count."""
    n = 0
    for slot in range(meta.shape[0]):
        if meta[slot] != 0 and offsets[slot] >= n_before:
            out[n] = slot
            n += 1
    return n


def changes_of(table: InfoSetTable, logs: list, n_values_before: int) -> tuple:
    """The changes that merging every log of `logs` into `table` made, taken right after the
    merges; `n_values_before` is `table.n_values` before them. Returns (new keys and their
    meta, in insertion order; value indices of the touched info sets the table already held,
    their regrets and strategy sums; the regrets and strategy sums of the new info sets)."""
    seen = np.zeros(n_values_before, dtype=np.uint8)
    indices = np.empty(sum(int(log.counts[VALUES]) for log in logs), dtype=np.int64)
    n_idx = 0
    for log in logs:
        n_idx = mark_touched(log.offset, log.meta, int(log.counts[ENTRIES]), seen, indices,
                              n_idx)
    idx = indices[:n_idx].astype(np.uint32)
    slots = np.empty(table.count, dtype=np.int64)
    slots = slots[:slots_from(table.meta, table.offsets, n_values_before, slots)]
    # values are handed out in insertion order, so the offsets sort the keys into it
    slots = slots[np.argsort(table.offsets[slots], kind="stable")]
    end = table.n_values
    return (table.keys[slots], table.meta[slots], idx, table.regrets[idx],
            table.strategy[idx], table.regrets[n_values_before:end].copy(),
            table.strategy[n_values_before:end].copy())


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

