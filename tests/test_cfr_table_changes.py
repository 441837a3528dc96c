"""`cfr.table_changes`: a replica that applies what a merge changed equals the merged table,
bit for bit, however the merges grew the table; and what `BatchChanges` records as the logs
merge equals what a scan of the merged table finds."""

import numpy as np
import pytest

from cfr.increment_log import ENTRIES, VALUES, IncrementLog, merge
from cfr.table import InfoSetTable
from cfr.table_changes import BatchChanges, apply_changes, mark_touched


def random_log(rng, table: InfoSetTable, keys: np.ndarray, entries: int) -> IncrementLog:
    """A log against `table` as it stands: entries on keys drawn from `keys` (one action
    count per key: key % 3 + 2), a known key by its offset, an unknown one by its key."""
    log = IncrementLog(table.key_words, entries=entries, values=entries * 8)
    pos = 0
    for e in range(entries):
        key = int(rng.choice(keys))
        n = key % 3 + 2
        log.offset[e] = table.offset(key)
        log.key[e, 0] = key
        log.meta[e] = n | ((key & 1) << 7)
        log.values[pos:pos + 2 * n] = rng.normal(size=2 * n)
        pos += 2 * n
    log.counts[ENTRIES], log.counts[VALUES] = entries, pos
    return log


def merged_changes(table: InfoSetTable, logs: list) -> tuple:
    """Merge `logs` into `table` in order; what `BatchChanges` recorded of it."""
    recorder = BatchChanges(table)
    for log in logs:
        assert recorder.merge(table, log) is None
    return recorder.changes(table)


def changes_by_scan(table: InfoSetTable, logs: list, before: int) -> tuple:
    """The changes found by scanning the merged table: the slots whose values start at or
    after `before` hold the new info sets (ordered by offset: values are handed out in
    insertion order), and every known offset an entry carries is a touched info set."""
    seen = np.zeros(before, np.uint8)
    idx = np.zeros(sum(int(log.counts[VALUES]) for log in logs), np.int64)
    n = 0
    for log in logs:
        n = mark_touched(log.offset, log.meta, int(log.counts[ENTRIES]), seen, idx, n)
    idx = idx[:n].astype(np.uint32)
    slots = np.flatnonzero((table.meta != 0) & (table.offsets >= before))
    slots = slots[np.argsort(table.offsets[slots], kind="stable")]
    end = table.n_values
    return (table.keys[slots], table.meta[slots], idx, table.regrets[idx],
            table.strategy[idx], table.regrets[before:end], table.strategy[before:end])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_replica_follows_the_table_through_growth(dtype):
    rng = np.random.default_rng(7)
    table = InfoSetTable(dtype=dtype, capacity=16, value_capacity=16)
    replica = table.copy()
    keys = rng.integers(1, 2**60, size=3000, dtype=np.uint64)
    for batch in range(6):
        pool = keys[: 500 * (batch + 1)]  # new keys every batch: the slots and values grow
        logs = [random_log(rng, table, pool, 400) for _ in range(3)]
        before = table.n_values
        changes = merged_changes(table, logs)
        for got, want in zip(changes, changes_by_scan(table, logs, before), strict=True):
            assert got.dtype == want.dtype and np.array_equal(got, want), batch
        apply_changes(replica, changes)
        assert replica.same_contents(table), batch
        assert replica.capacity == table.capacity


def test_the_changes_hold_each_touched_info_set_once():
    rng = np.random.default_rng(3)
    table = InfoSetTable()
    keys = np.arange(1, 41, dtype=np.uint64)
    merge(table, random_log(rng, table, keys, 200))  # every key now known
    log = random_log(rng, table, keys[:10], 300)  # 300 entries on 10 info sets
    new_keys, _, idx, regrets, _, new_regrets, _ = merged_changes(table, [log])
    assert new_keys.shape[0] == 0 and new_regrets.shape[0] == 0
    assert idx.shape[0] == sum(int(k) % 3 + 2 for k in keys[:10])
    assert np.unique(idx).shape[0] == idx.shape[0]
    assert np.array_equal(regrets, table.regrets[idx])


def test_a_replica_out_of_step_is_refused():
    rng = np.random.default_rng(5)
    table = InfoSetTable()
    keys = np.arange(1, 100, dtype=np.uint64)
    changes = merged_changes(table, [random_log(rng, table, keys, 50)])
    stale = table.copy()  # already holds the new keys: their values do not fit
    with pytest.raises(RuntimeError, match="out of step"):
        apply_changes(stale, changes)
