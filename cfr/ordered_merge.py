"""A batch's logs merged into the table in episode order as they arrive, with an undo.

A distributed batch (`train.ray_backend`) gets its logs back in whatever order its workers
finish. Merging each one as soon as every log before it is merged overlaps the merge with the
traversal of the rest, instead of leaving the workers idle while the driver merges the whole
batch at its end. The table is the same as merging all the logs at the end, bit for bit: the
same logs in the same order.

A partly merged batch stays recoverable (a lost worker's replacement must start from the
table of the batch's start; a stop must leave the batch unmerged): before a log is merged, the
values it is about to change that the table held at the batch start are saved, once each; the
info sets it inserts take value offsets after every older one; and the table's arrays of the
batch start are kept, since growing the table replaces its arrays by larger copies (and
rehashes the keys into new slots) rather than changing them. `undo` takes those arrays back,
puts the saved values back into them, empties the slots of the inserted info sets and zeroes
their values: the table of the batch's start exactly, slot layout and capacities included
(with linear probing, a key inserted after all the others sits on no older key's probe path).
While the batch grows the table, both generations of arrays are held until it finishes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cfr.increment_log import IncrementLog
from cfr.table import InfoSetTable
from cfr.table_changes import BatchChanges


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


class OrderedMerge:
    """Merges the logs of the batch starting at episode `first` into `table` in order."""

    def __init__(self, table: InfoSetTable, first: int):
        self.table = table
        self.first = first
        self.next = first  # the first episode not merged yet
        self.count0, self.n_values0 = table.count, table.n_values
        self._arrays0 = _arrays(table)  # the batch start's (growth replaces, never changes)
        self.pending: dict = {}  # first episode -> (last episode, log), not merged yet
        self.merged: list = []  # (first, last, log), merged, in order
        self.recorded = BatchChanges(table)  # what the merges change, for the replicas
        self._saved: list = []  # (value indices, their regrets, their strategy sums)
        self.finishing = False  # set by `finish`: from then on no undo

    @property
    def logs(self) -> list:
        """The merged logs, in episode order."""
        return [log for _, _, log in self.merged]

    def offer(self, first: int, last: int, log: IncrementLog) -> None:
        """The log of episodes first..last: merged now if every earlier one is, else kept
        until then. Raises ValueError for episodes merged already."""
        if first < self.next:
            raise ValueError(f"the log of episode {first} is merged already")
        self.pending[first] = (last, log)
        self._advance()

    def finish(self) -> list:
        """Merge what is left; return every log in order. Raises ValueError when an episode's
        log is missing. No undo after this: the batch is complete."""
        self.finishing = True
        self._advance()
        if self.pending:
            raise ValueError(f"logs from episode {min(self.pending)} arrived without the log "
                             f"of episode {self.next}")
        return self.logs

    def undo(self) -> None:
        """Put the table back as it was at the batch start; the merged logs wait again."""
        if self.finishing:
            raise RuntimeError("the batch's merge is finishing or finished: it cannot be undone")
        table = self.table
        table.keys, table.meta, table.offsets, table.regrets, table.strategy = self._arrays0
        for idx, regrets, strategy in self._saved:
            table.regrets[idx] = regrets
            table.strategy[idx] = strategy
        # the info sets the batch inserted into these arrays before any growth
        slots = np.empty(table.count - self.count0 + 1, dtype=np.int64)
        slots = slots[:slots_from(table.meta, table.offsets, self.n_values0, slots)]
        table.keys[slots] = 0
        table.meta[slots] = 0
        table.offsets[slots] = 0
        table.regrets[self.n_values0:] = 0
        table.strategy[self.n_values0:] = 0
        table.count, table.n_values = self.count0, self.n_values0
        for first, last, log in self.merged:
            self.pending[first] = (last, log)
        self.merged, self._saved, self.next = [], [], self.first
        self.recorded.reset()

    def changes(self) -> tuple:
        """What the batch's merges changed, for the replicas (`cfr.table_changes`)."""
        return self.recorded.changes(self.table)

    def _advance(self) -> None:
        while self.next in self.pending:
            last, log = self.pending.pop(self.next)
            old = self.recorded.merge(self.table, log, keep_old=not self.finishing)
            if old is not None:
                self._saved.append(old)
            self.merged.append((self.next, last, log))
            self.next = last + 1


def _arrays(table: InfoSetTable) -> tuple:
    return table.keys, table.meta, table.offsets, table.regrets, table.strategy
