"""The batch's episodes traversed on a Ray cluster, with the same table as one local thread.

`RayBatches` is a batch executor for `train.runner.Trainer` (the local one is
`runner.ThreadBatches`). Each Ray worker is an actor that holds a replica of the table, sent
once (one `ray.put` of its arrays, whatever the number of actors on a node) when the actor
starts. Every batch:

1. the driver hands the batch's episodes out to whichever actor is free next (one task each
   at a time), so a few huge deals do not leave the others idle; a task holds as many
   episodes as fill about `task_seconds` at the speed measured so far (one huge young CFR
   deal; dozens of millisecond es-mccfr deals, whose round trips would otherwise cost more
   than their traversal), never more than a share of what is left of the batch (guided
   self-scheduling: the tasks shrink towards the batch's end, so no actor is left last with
   a long task);
2. an actor traverses its task's episodes (consecutive ones) against its replica, which is
   the table frozen at the batch start, into one log, and returns the log's entries
   (`cfr.episode_pass`: per info set and episode its offset, key, meta and the 2n float64
   increments);
3. the driver merges the episodes in episode order into its own table, exactly as
   `Trainer._run_batch` does (so the table equals `--workers 1`'s bit for bit), each task's
   log as soon as every earlier one is merged (`cfr.ordered_merge`: the merge overlaps the
   traversal of the rest of the batch rather than idling the workers at its end), and once
   the batch is complete keeps its changes as one update bundle (one `ray.put`): the keys it
   inserted and the new values of every info set it touched (`cfr.table_changes`; recorded
   while the logs merge, so the batch's end gathers only the new values);
4. the next task given to an actor carries the bundles it has not applied yet; the actor
   applies them in order (assigning the values: no lookups, no additions), so every replica
   stays bit-identical to the driver's table (`checksum_every` compares them in tests and
   debugging).

The table thus travels once; per batch the episodes' increments travel once back from the
actors to the driver, and the batch's changed entries once to each node (the object store
shares one copy between the actors of a node). `figures()` counts those bytes.

Faults: an actor lost mid-batch (its process killed, its node gone) loses only its episodes in
flight: they go back to the queue, the driver puts its table back as it was at the batch
start (`OrderedMerge.undo`: what the batch merged so far is merged again later, in order),
and a fresh actor started from that table takes its place. A stop (Ctrl-C) kills the actors
and abandons the batch, undoing what of it was merged.
"""

from __future__ import annotations

import hashlib
import os
import socket
import time
from collections import deque

import numpy as np

from cfr.episode_pass import VISITS, EpisodeStopped
from cfr.increment_log import ENTRIES, VALUES, IncrementLog
from cfr.ordered_merge import OrderedMerge
from cfr.table import InfoSetTable
from games.registry import PROGRAM
from cfr.table_changes import apply_changes
from train.errors import RunError

#: tasks an actor may have queued or running at once. Two when deals are short (es-mccfr):
#: the next task waits at the actor, which then does not idle through a result's trip to the
#: driver and the next task's trip back. One when deals are long (young cfr deals differ
#: ~100x in size: a deal queued behind a huge one would idle the others at the batch's end).
IN_FLIGHT = 2
#: a task's target length: long beside its round trip (~1 ms), short beside a batch
TASK_SECONDS = 0.05


def table_arrays(table: InfoSetTable) -> dict:
    """Everything that defines a table, as arrays and numbers (what a replica is made of)."""
    return {"key_words": table.key_words, "dtype": table.dtype.str, "count": table.count,
            "n_values": table.n_values, "keys": table.keys, "meta": table.meta,
            "offsets": table.offsets, "regrets": table.regrets, "strategy": table.strategy}


def table_from_arrays(arrays: dict) -> InfoSetTable:
    """A writable table with the same contents and capacities as `table_arrays`' source."""
    table = InfoSetTable.__new__(InfoSetTable)
    table.key_words = int(arrays["key_words"])
    table.dtype = np.dtype(arrays["dtype"])
    table.max_bytes = None  # the driver enforces --memory-limit; a replica only follows it
    table.count = int(arrays["count"])
    table.n_values = int(arrays["n_values"])
    for name in ("keys", "meta", "offsets", "regrets", "strategy"):
        setattr(table, name, np.array(arrays[name], copy=True))  # ray.put arrays are read-only
    return table


def table_checksum(table: InfoSetTable) -> str:
    """A digest of the table's keys, layout and used values (equal digests: equal tables)."""
    n = table.n_values
    digest = hashlib.blake2b(digest_size=16)
    digest.update(np.array([table.count, n], dtype=np.int64).tobytes())
    for array in (table.keys, table.meta, table.offsets, table.regrets[:n], table.strategy[:n]):
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()


def log_arrays(log: IncrementLog) -> tuple:
    """The entries of a log as arrays (offset, key, meta, values), for the trip to the
    driver."""
    e, v = int(log.counts[ENTRIES]), int(log.counts[VALUES])
    return log.offset[:e], log.key[:e], log.meta[:e], log.values[:v]


def arrays_nbytes(arrays) -> int:
    """Bytes of a tuple of arrays."""
    return sum(a.nbytes for a in arrays)


class Replica:
    """A Ray worker: a replica of the table and the arrays of one traversing thread.

    Made a Ray actor by `RayBatches` (`ray.remote(Replica)`), so this module imports without
    Ray. `stage_factory()` rebuilds the stage in the worker's process (a Stage holds compiled
    functions that do not travel)."""

    def __init__(self, stage_factory, arrays: dict, version: int, niceness: int = 0):
        from train.runner import EpisodeWorker

        if niceness > os.nice(0):  # a driver run with `nice` keeps its workers as polite
            os.nice(niceness - os.nice(0))
        self.stage = stage_factory()
        self.table = table_from_arrays(arrays)
        self.version = version  # batches merged into the replica
        self.worker = EpisodeWorker(self.stage)
        self.log, self.map = self.worker.log, self.worker.map

    def warm(self) -> None:
        """Load the compiled pass (numba's cache) by starting an episode and stopping it after
        its first few thousand nodes, against an empty table (benchmarks start the clock
        after this)."""
        from cfr.episode_pass import STOP

        table = InfoSetTable(key_words=self.table.key_words, dtype=self.table.dtype)
        self.map.control[STOP] = 1
        try:
            self.worker.traverse(table, 1)
        except EpisodeStopped:
            pass
        finally:
            self.map.control[STOP] = 0
            self.log.clear()

    def pid(self) -> int:
        """The worker's process id (tests kill it)."""
        return os.getpid()

    def _apply(self, updates) -> None:
        from train.runner import end_batch

        for version, last, changes in updates:  # oldest first; those already applied skipped
            if version == self.version + 1:
                apply_changes(self.table, changes)
                end_batch(self.stage, self.table, last)  # as the driver does after its merge
                self.version = version

    def traverse(self, version: int, episodes: list[int], *updates) -> tuple:
        """Bring the replica to `version` with `updates`, traverse `episodes` (consecutive)
        against it into one log; return the root values, the log's entries as arrays
        (`log_arrays`), the keyed visits, the seconds the traversals took and the seconds
        applying `updates` took."""
        start = time.perf_counter()
        self._apply(updates)
        applied = time.perf_counter() - start
        if self.version != version:
            raise RuntimeError(f"replica at batch {self.version}, the task needs {version}")
        start = time.perf_counter()
        visits0 = int(self.map.control[VISITS])
        self.log.clear()
        values = [self.worker.traverse(self.table, t) for t in episodes]
        return (values, log_arrays(self.log), int(self.map.control[VISITS]) - visits0,
                time.perf_counter() - start, applied)

    def checksum(self, *updates) -> tuple[int, str]:
        """The replica's version and `table_checksum` (after applying `updates`)."""
        self._apply(updates)
        return self.version, table_checksum(self.table)


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Raise RunError in one line when nothing answers at a HOST:PORT Ray address."""
    if address in ("auto", "local") or address.startswith(("ray://", "http")):
        return
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise RunError(f"--ray {address}: expected HOST:PORT (the head's `ray start --head` "
                       "address) or auto")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        raise RunError(f"cannot reach the Ray cluster at {address} ({exc.strerror or exc}); "
                       "start it with `ray start --head` or check the address") from None


class RayBatches:
    """A `Trainer` batch executor on Ray actors (see the module docstring).

    `address` None starts a local Ray with the machine's cores; `workers` None takes one actor
    per CPU of the cluster (at most the batch size). `fault_hook(executor)` (tests) is called
    while the driver waits for results."""

    def __init__(self, stage_factory, address: str | None = None, workers: int | None = None,
                 task_seconds: float = TASK_SECONDS, checksum_every: int = 0,
                 ray_init: dict | None = None):
        self.stage_factory = stage_factory
        self.address = address
        self.workers = workers
        self.task_seconds = float(task_seconds)
        self.episode_seconds = None  # measured traversal seconds per episode (a moving mean)
        self.checksum_every = int(checksum_every)
        self.ray_init = ray_init or {}
        self.fault_hook = None
        self.merging = None  # the OrderedMerge of the batch in flight
        self.trainer = None
        self.actors: list = []  # live actor handles
        self.pids: dict = {}  # actor index -> process id
        self.version = 0  # batches merged by the driver during this run
        self.bundles: dict = {}  # version -> ObjectRef of that batch's merged entries
        self.acked: dict = {}  # actor index -> the version its replica is known to be at
        self.sent: dict = {}  # actor index -> the newest version a task has carried to it
        self.bundle_nbytes: dict = {}  # version -> bytes of its bundle
        self.started_ray = False
        self._stop = False
        self._next_id = 0
        self.bytes_table = 0  # replicas sent (each node fetches once; counted per actor)
        self.bytes_updates = 0  # update bundles sent to actors (counted once per task)
        self.bytes_returned = 0  # packed entries from the actors to the driver
        self.batches = 0
        self.deals = 0
        self.retried_episodes = 0
        self.replaced_actors = 0
        self.checksums_ok = 0
        self.apply_seconds = 0.0  # the replicas' time applying update bundles, all actors

    # ---- life cycle --------------------------------------------------------------------
    def open(self, trainer) -> None:
        """Connect to (or start) Ray and start the actors from the trainer's table (nothing
        to do when they are already up, e.g. after `warm`)."""
        if self.actors and all(a is not None for a in self.actors) and self.trainer is trainer:
            return
        try:
            import ray
        except ImportError:
            raise RunError(f"--ray needs Ray: pip install '{PROGRAM}[ray]'") from None
        self.ray, self.trainer = ray, trainer
        if self.address is not None:
            check_reachable(self.address)
        if not ray.is_initialized():  # else: the session this process already joined
            try:
                # "local": a new Ray of this machine's cores, even if one already runs here
                ray.init(address=self.address or "local", include_dashboard=False,
                         log_to_driver=False, configure_logging=False, **self.ray_init)
            except Exception as exc:  # Ray raises bare Exception on a start timeout
                where = self.address or "a new local cluster"
                raise RunError(f"cannot start or join Ray at {where}: "
                               f"{str(exc).splitlines()[0]}") from None
            self.started_ray = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        n = self.workers or max(1, min(cpus, trainer.batch))
        if n > trainer.batch:
            raise RunError(f"{n} Ray workers exceed the batch size {trainer.batch}: every "
                           "worker needs at least one deal per batch (raise --batch)")
        self.workers = n
        self.remote = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(Replica)
        self._stop = False
        self.actors = [None] * n
        self.factory_ref = ray.put(self.stage_factory)  # e.g. a baseline policy: sent once
        table_ref = self._put_table()
        for i in range(n):
            self._start_actor(i, table_ref)

    def _put_table(self):
        arrays = table_arrays(self.trainer.progress.table)
        self._table_nbytes = sum(a.nbytes for a in arrays.values() if isinstance(a, np.ndarray))
        return self.ray.put(arrays)

    def _start_actor(self, i: int, table_ref) -> None:
        actor = self.remote.remote(self.factory_ref, table_ref, self.version, os.nice(0))
        self.actors[i] = actor
        self.acked[i] = self.sent[i] = self.version
        self.bytes_table += self._table_nbytes
        try:
            self.pids[i] = self.ray.get(actor.pid.remote())
        except self.ray.exceptions.RayActorError as exc:
            raise RunError(f"a Ray worker could not start: {str(exc).splitlines()[0]}") from None

    def warm(self, trainer) -> None:
        """Open, and have every actor load the compiled pass (see `Replica.warm`)."""
        self.open(trainer)
        self.ray.get([actor.warm.remote() for actor in self.actors])

    def request_stop(self) -> None:
        """Abandon the batch in flight (called from the signal handler)."""
        self._stop = True

    def close(self) -> None:
        """Kill the actors; shut Ray down if this executor started it."""
        for actor in self.actors:
            if actor is not None:
                self.ray.kill(actor)
        self.actors = []
        if self.started_ray:
            self.ray.shutdown()
            self.started_ray = False

    def figures(self) -> dict:
        """Bytes sent and received, per batch and per deal; retries."""
        sent = self.bytes_updates
        return {
            "ray_workers": self.workers,
            "ray_table_bytes": self.bytes_table,
            "ray_update_bytes": sent,
            "ray_returned_bytes": self.bytes_returned,
            "ray_bytes_per_batch": (sent + self.bytes_returned) / max(self.batches, 1),
            "ray_bytes_per_deal": (sent + self.bytes_returned) / max(self.deals, 1),
            "ray_retried_episodes": self.retried_episodes,
            "ray_replaced_actors": self.replaced_actors,
            "ray_checksums_ok": self.checksums_ok,
            "ray_apply_seconds": self.apply_seconds,
        }

    # ---- one batch ---------------------------------------------------------------------
    def _updates_for(self, i: int) -> list:
        return [self.bundles[v] for v in range(self.acked[i] + 1, self.version + 1)]

    def _submit(self, i: int, episodes: list[int], in_flight: dict) -> None:
        updates = self._updates_for(i)
        # a bundle reaches an actor once (a second task carrying it is resolved locally)
        self.bytes_updates += sum(self.bundle_nbytes[v]
                                  for v in range(self.sent[i] + 1, self.version + 1))
        self.sent[i] = self.version
        ref = self.actors[i].traverse.remote(self.version, episodes, *updates)
        in_flight[ref] = (i, episodes)

    def _task_size(self, left: int) -> int:
        """Episodes for the next task (module docstring, item 1)."""
        if self.episode_seconds is None:
            return 1  # nothing measured yet: a young deal may take seconds
        want = int(self.task_seconds / max(self.episode_seconds, 1e-6))
        return max(1, min(want, left // (2 * self.workers)))

    def _replace(self, i: int) -> None:
        self.ray.kill(self.actors[i])
        self.replaced_actors += 1
        self._start_actor(i, self._put_table())

    def run_batch(self, first: int, last: int) -> list | None:
        """Traverse episodes first..last on the actors, merge them in order into the driver's
        table; their root values, or None when a stop abandoned the batch."""
        ray = self.ray
        if any(actor is None for actor in self.actors):  # after a stop: start afresh
            table_ref = self._put_table()
            for i, actor in enumerate(self.actors):
                if actor is None:
                    self._start_actor(i, table_ref)
        merger = self.merging = OrderedMerge(self.trainer.progress.table, first)
        try:
            return self._run_batch(first, last, merger)
        except BaseException:
            if not merger.finishing:
                merger.undo()  # nothing of an unfinished batch stays merged
            raise
        finally:
            self.merging = None

    def _run_batch(self, first: int, last: int, merger: OrderedMerge) -> list | None:
        ray = self.ray
        queue = deque(range(first, last + 1))
        in_flight: dict = {}  # ObjectRef -> (actor index, episodes)
        results: dict = {}  # a task's first episode -> (its episodes, root values)
        visits = 0
        while queue or in_flight:
            if self._stop:
                for actor in self.actors:  # running numba code cannot be cancelled: kill
                    if actor is not None:
                        ray.kill(actor)
                self.actors = [None] * self.workers
                merger.undo()
                return None
            busy = {}
            for i, _ in in_flight.values():
                busy[i] = busy.get(i, 0) + 1
            # Fill idle actors first, then a second task each while enough work remains and
            # deals are short (a long deal's round trip is nothing beside it)
            short = self.episode_seconds is not None and self.episode_seconds < self.task_seconds
            for depth in range(1, IN_FLIGHT + 1):
                for i in range(self.workers):
                    if not queue:
                        break
                    if busy.get(i, 0) < depth and (depth == 1 or (short and len(queue) >
                                                                  self.workers)):
                        take = [queue.popleft()]
                        size = self._task_size(len(queue) + 1)
                        while queue and len(take) < size and queue[0] == take[-1] + 1:
                            take.append(queue.popleft())  # consecutive: one log, in order
                        self._submit(i, take, in_flight)
                        busy[i] = busy.get(i, 0) + 1
            if self.fault_hook is not None:
                self.fault_hook(self)
            ready, _ = ray.wait(list(in_flight), num_returns=1, timeout=0.25)
            for ref in ready:
                i, episodes = in_flight.pop(ref)
                try:
                    values, arrays, v, seconds, applied = ray.get(ref)
                except ray.exceptions.RayActorError:
                    # The actor is gone: every task it held is lost; retry them on a fresh one
                    lost = [episodes] + [eps for r, (j, eps) in list(in_flight.items())
                                         if j == i]
                    for r in [r for r, (j, _) in in_flight.items() if j == i]:
                        del in_flight[r]
                    for t in sorted((t for eps in lost for t in eps), reverse=True):
                        queue.appendleft(t)
                    self.retried_episodes += sum(len(eps) for eps in lost)
                    merger.undo()  # its replacement starts from the batch's start
                    self._replace(i)
                    continue
                self.acked[i] = self.version
                self.apply_seconds += applied
                visits += v
                per_episode = seconds / len(episodes)
                self.episode_seconds = per_episode if self.episode_seconds is None \
                    else 0.8 * self.episode_seconds + 0.2 * per_episode
                results[episodes[0]] = (episodes, values)
                self.bytes_returned += arrays_nbytes(arrays)
                start = time.perf_counter()  # merged now if every earlier task is
                merger.offer(episodes[0], episodes[-1], IncrementLog.of(*arrays))
                self.trainer.merge_seconds += time.perf_counter() - start
        return self._merge(last, [results[t] for t in sorted(results)], visits, merger)

    def _merge(self, last: int, tasks: list, visits: int, merger: OrderedMerge) -> list:
        """Merge what is left of the batch (in episode order) into the driver's table, then
        publish the batch's changes for the replicas; the root values in episode order."""
        trainer = self.trainer
        start = time.perf_counter()
        table = trainer.progress.table
        merger.finish()
        changes = merger.changes()
        trainer.end_batch(table, last)
        trainer.merge_seconds += time.perf_counter() - start
        trainer.keyed_visits += visits
        self.version += 1
        self.bundles[self.version] = self.ray.put((self.version, last, changes))
        self.bundle_nbytes[self.version] = arrays_nbytes(changes)
        oldest = min(self.acked.values())  # bundles every replica has applied are dropped
        for v in [v for v in self.bundles if v <= oldest]:
            del self.bundles[v], self.bundle_nbytes[v]
        self.batches += 1
        self.deals += sum(len(episodes) for episodes, _ in tasks)
        if self.checksum_every and self.batches % self.checksum_every == 0:
            self.verify_replicas()
        return [value for _, values in tasks for value in values]

    def verify_replicas(self) -> None:
        """Bring every replica up to date and check it equals the driver's table bit for bit."""
        want = table_checksum(self.trainer.progress.table)
        refs = [a.checksum.remote(*self._updates_for(i)) for i, a in enumerate(self.actors)]
        for i, (version, digest) in enumerate(self.ray.get(refs)):
            self.acked[i] = version
            if version != self.version or digest != want:
                raise RuntimeError(f"Ray worker {i}'s replica differs from the driver's table "
                                   f"after batch {self.version}")
        self.checksums_ok += 1
