"""Merging a batch's logs as they arrive (`cfr.ordered_merge`): the table of merging them all
in order at the end, bit for bit, whatever the arrival order and through table growth; and an
undo that restores the batch-start table exactly, after which the batch merges again."""

from __future__ import annotations

import numpy as np
import pytest

from cfr import rng
from cfr.external_sampling import external_sampling_pass
from cfr.increment_log import IncrementLog, merge
from cfr.ordered_merge import OrderedMerge
from cfr.solver import Solver
from cfr.table_changes import apply_changes
from cfr.table import InfoSetTable
from games.leduc import GAME as LEDUC


def batch_logs(table: InfoSetTable, n: int, seed: int = 7) -> list:
    """n logs of 1-3 consecutive es-mccfr passes each against `table`: (first, last, log)."""
    out, t = [], 1
    for k in range(n):
        size = 1 + k % 3
        words = [int(rng.word(np.uint64(seed), np.uint64(j))) for j in range(t, t + size)]
        log = IncrementLog(LEDUC.key_words)
        external_sampling_pass(LEDUC, table, log, [j % 2 for j in range(t, t + size)], words)
        out.append((t, t + size - 1, log))
        t += size
    return out


def young_table(iterations: int, capacity: int = 1 << 12) -> InfoSetTable:
    """A Leduc table that knows some info sets, in a table of `capacity` slots."""
    solver = Solver(LEDUC, "es-mccfr", seed=3)
    solver.iterate(iterations)
    table = InfoSetTable(LEDUC.key_words, capacity=capacity)
    merge(table, _as_log(solver.table))
    return table


def _as_log(source: InfoSetTable) -> IncrementLog:
    """A log that inserts every info set of `source` with its values."""
    rows = list(source.entries())
    values = []
    for _, _, n, o in rows:
        values += source.regrets[o:o + n].tolist() + source.strategy[o:o + n].tolist()
    return IncrementLog.of(np.full(len(rows), -1), np.array([r[0] for r in rows], np.uint64),
                           np.array([(r[1] << 7) | r[2] for r in rows], np.uint8), values)


def in_order(table: InfoSetTable, logs: list) -> InfoSetTable:
    out = table.copy()
    for _, _, log in logs:
        merge(out, log)
    return out


@pytest.mark.parametrize("capacity", [1 << 12, 64])  # 64 slots: the batch must grow the table
def test_logs_merged_as_they_arrive_equal_the_batch_merged_in_order(capacity):
    table = young_table(5, capacity)
    logs = batch_logs(table, 12)
    want = in_order(table, logs)
    order = np.random.default_rng(1).permutation(len(logs))
    merger = OrderedMerge(table, 1)
    for i in order:
        merger.offer(*logs[i])
    assert merger.finish() == [log for _, _, log in logs]
    assert table.same_contents(want)


def test_undo_after_the_batch_grew_the_table_restores_its_arrays_and_capacities():
    table = young_table(5, 64)
    start = table.copy()
    logs = batch_logs(table, 12)
    merger = OrderedMerge(table, 1)
    for entry in logs:
        merger.offer(*entry)
    assert table.capacity > start.capacity or table.value_capacity > start.value_capacity
    merger.undo()
    assert table.same_contents(start)
    assert (table.capacity, table.value_capacity) == (start.capacity, start.value_capacity)
    assert np.array_equal(table.regrets, start.regrets)  # beyond n_values too: zeros
    merger.finish()
    assert table.same_contents(in_order(start, logs))


@pytest.mark.parametrize("capacity", [1 << 12, 64])
def test_undo_restores_the_batch_start_table_and_the_batch_merges_again(capacity):
    table = young_table(20, capacity)
    start = table.copy()
    logs = batch_logs(table, 10)
    merger = OrderedMerge(table, 1)
    for entry in logs[:6]:
        merger.offer(*entry)
    assert len(merger.merged) == 6 and table.count > start.count
    merger.undo()
    assert table.same_contents(start)
    assert np.array_equal(table.keys, start.keys) and np.array_equal(table.offsets, start.offsets)
    for entry in reversed(logs[6:]):  # the undone logs wait again: only the rest arrive
        merger.offer(*entry)
    with pytest.raises(ValueError, match="merged already"):
        merger.offer(*logs[0])
    merger.finish()
    assert table.same_contents(in_order(start, logs))
    replica = start.copy()  # what the merges recorded survives the undo, once each
    apply_changes(replica, merger.changes())
    assert replica.same_contents(table) and replica.capacity == table.capacity


def test_undo_after_merging_new_info_sets_empties_their_slots():
    table = InfoSetTable(LEDUC.key_words)  # empty: every info set of the batch is new
    start = table.copy()
    logs = batch_logs(table, 4)
    merger = OrderedMerge(table, 1)
    for entry in logs:
        merger.offer(*entry)
    assert table.count > 0 and not merger.pending
    merger.undo()
    assert table.same_contents(start) and not table.regrets.any() and not table.strategy.any()


def test_a_missing_log_and_a_late_undo_are_refused():
    table = young_table(5)
    logs = batch_logs(table, 3)
    merger = OrderedMerge(table, 1)
    merger.offer(*logs[0])
    merger.offer(*logs[2])
    with pytest.raises(ValueError, match="without the log of episode"):
        merger.finish()
    with pytest.raises(RuntimeError, match="cannot be undone"):
        merger.undo()
