"""The one training loop behind both stages: batches, workers, checkpoints, logs, signals.

An iteration is one sampled episode (a deal). Iterations are grouped in batches of `batch`
consecutive iterations on a fixed grid (iterations kB+1 .. (k+1)B). Every episode of a batch is
traversed against the table frozen at the start of the batch (`cfr.episode_pass`: each
episode's repeated info sets summed into one log entry per key; or, with the `es-mccfr`
algorithm, `cfr.external_sampling`: one traverser per episode, alternating with the episode's
parity). The variants cfr+, lcfr and dcfr take one CFR iteration to be one batch: once
batch k is merged, `cfr.variants.end_iteration(table, variant, k)` clamps or discounts the
regrets and discounts the strategy sums over the whole table (a sweep of the table per batch,
which a batch of a few deals or more makes small). The `workers` threads (the
numba kernel releases the GIL) take the batch's episodes one at a time, whichever is free
next, so a few huge young deals do not leave a thread idle; each episode's entries are a
segment of its thread's log, and the segments are merged in episode order. An episode's
increments depend only on the episode and the frozen table, so the same seed and batch size
give the same table for any `workers`. With batch 1 this is plain (chance-sampled,
simultaneous) CFR.

Checkpoints are written between batches, every `checkpoint_every` seconds, at the end, and on
Ctrl-C / SIGTERM: the signal stops the batch in flight within a fraction of a second (the
passes poll a stop flag), the batch is abandoned (nothing of it was merged, so the table is
still the state at its start), the checkpoint is written and the loop returns; a second
signal exits at once without writing. A `kill -9` loses at most the work since the last
checkpoint. Resuming from a checkpoint taken on the batch grid continues bit for bit as if
never stopped.

Training time: `seconds` is the batches' wall time and `cpu_seconds` their CPU time (the
process's CPU from a batch's start to its merge and the loop's bookkeeping, every thread's;
with Ray, whose workers are other processes, the batches' wall time). Both are recorded in the checkpoint and the log.
Neither counts start-up (loading; numba's compiled pass and merge are loaded or compiled
before the clock starts, `Trainer._warm`), checkpoint writes or evaluation, so they are the
run's training time however it was interrupted, resumed or evaluated. A time
budget (`run(..., cpu_budget=S)`, `--for`) is on `cpu_seconds`, for the run in total: the
loop stops at the first batch boundary at or past it (on the batch grid, so a run resumed to
a larger budget is bit for bit the one trained in one go). An evaluation
(`train.evaluation`) is played between two batches when due; it only reads the table.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import threading
import time
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Callable

import numpy as np

from cfr import checkpoint, rng
from cfr.errors import TableFullError
from cfr.game import Game
from cfr.episode_pass import STOP, VISITS, EpisodeLog, EpisodeMap, EpisodeStopped, run_episode
from cfr.increment_log import ENTRIES, VALUES, merge
from cfr.stop_signals import stop_signals
from cfr.table import InfoSetTable
from cfr.traversal import Scratch
from cfr.variants import Variant, end_iteration, make_variant
from train.algorithms import ALGORITHMS, ES_MCCFR
from train.errors import RunError
from train.run_directory import RunDirectory


@dataclass
class Stage:
    """What one training stage brings to the loop.

    `settings` holds every setting that determines the results (seed, batch, dtype, ...); they
    are recorded with the run and a resume must agree with them. `root_for(word)` (optional)
    builds the root state of the episode drawn from `word` outside the traversal (the bootstrap
    stage prepares its playouts this way); without it the game's own root is used and its chance
    node is sampled from the word. `payoff_sign` turns player 0's root value into the figure
    the run reports (the non-dealer team's value, -v0, for Setback).

    `frozen` (es-mccfr only; a best response, `games.setback.train.best_response`): a
    `cfr.frozen_policy.FrozenPolicy` that player `frozen_player(t)` plays in episode t
    instead of learning; the reported payoff is then the learner's value.

    `warm` (a baseline warm-started across layouts, `games.setback.train.warm_start.WarmStart`):
    seeds each key the table lacks from the coarse table before an episode is merged, and gives a
    new run its starting counters (the coarse run's).
    """

    name: str
    game: Game
    settings: dict
    root_for: Callable[[int], np.ndarray] | None = None
    payoff_sign: float = -1.0
    frozen: object | None = None
    frozen_player: Callable[[int], int] | None = None
    warm: object | None = None

    def episode_payoff(self, t: int, v0: float) -> float:
        """The reported figure of episode t whose root value (player 0's) is v0."""
        if self.frozen is not None:
            return -v0 if self.frozen_player(t) == 0 else v0  # the learner's value
        return self.payoff_sign * v0


@dataclass
class Progress:
    """Where a run stands: its table and counters (all restored from a checkpoint)."""

    table: InfoSetTable
    iteration: int = 0
    payoff_sum: float = 0.0
    seconds: float = 0.0  # wall time of the batches
    cpu_seconds: float = 0.0  # training CPU time: the batches' CPU (module docstring)

    @property
    def payoff(self) -> float:
        """Running mean of the reported payoff over every iteration so far."""
        return self.payoff_sum / self.iteration if self.iteration else 0.0


# The stream of an es-mccfr episode's draws when its root was built from the episode's word
# (so that the pass's draws do not repeat the ones that built the root).
_ES_STREAM = np.uint64(1 << 62)


# what a setting newer than a run meant for that run (a run records every setting it had)
SETTINGS_BEFORE_THEY_EXISTED = {"sum_visits": False}


def recorded_setting(settings: dict, name: str):
    """A run's recorded setting `name`; for a run older than the setting, what it ran with."""
    return settings.get(name, SETTINGS_BEFORE_THEY_EXISTED.get(name))


def stage_variant(stage: Stage) -> Variant | None:
    """The CFR variant of a stage's `algorithm` setting, None for cfr and es-mccfr (no
    end-of-iteration step)."""
    algorithm = stage.settings.get("algorithm", "cfr")
    if algorithm not in ALGORITHMS:
        raise RunError(f"unknown algorithm {algorithm!r} (expected one of "
                       f"{', '.join(ALGORITHMS)})")
    return None if algorithm in ("cfr", ES_MCCFR) else make_variant(algorithm)


def stage_sampling(stage: Stage):
    """The `SamplingOptions` of an es-mccfr stage (from its settings), else None."""
    if stage.settings.get("algorithm", "cfr") != ES_MCCFR:
        return None
    from cfr.external_sampling import SamplingOptions

    return SamplingOptions.from_settings(stage.settings)


def es_episode(stage: Stage, t: int) -> tuple[np.ndarray, int, int, float]:
    """An es-mccfr episode t: its root, word, traverser ((t - 1) mod 2: deal 1 updates
    player 0) and weight (t with linear weighting, else 1). With the game's own root the word
    is the episode's, so its first draw deals what the cfr pass deals."""
    word = rng.word(np.uint64(stage.settings["seed"]), np.uint64(t))
    if stage.root_for is None:
        root = np.ascontiguousarray(stage.game.initial_state(), dtype=np.int64)
    else:
        root = np.ascontiguousarray(stage.root_for(int(word)), dtype=np.int64)
        word = rng.mix_word(np.uint64(word), _ES_STREAM)
    return root, int(word), (t - 1) % 2, stage_sampling(stage).weight(t)


def end_batch(stage: Stage, table: InfoSetTable, last: int, variant: Variant | None = None
              ) -> None:
    """The stage's variant step once the batch ending with iteration `last` is merged into
    `table` (the trainer's, or a Ray replica's): CFR iteration k is batch k, so the step comes
    when batch k of the grid is complete (a batch cut by --iterations gets it when a resumed
    run completes it). `variant`: `stage_variant(stage)`, when the caller has it."""
    variant = variant if variant is not None else stage_variant(stage)
    batch = int(stage.settings["batch"])
    if variant is not None and last % batch == 0:
        end_iteration(table, variant, last // batch)


def episode_root(stage: Stage, t: int) -> tuple[np.ndarray, bool, int]:
    """Episode t's root, whether its chance is sampled, and its word (wherever it runs)."""
    word = int(rng.word(np.uint64(stage.settings["seed"]), np.uint64(t)))
    if stage.root_for is None:
        return np.ascontiguousarray(stage.game.initial_state(), dtype=np.int64), True, word
    return np.ascontiguousarray(stage.root_for(word), dtype=np.int64), False, 0


class EpisodeWorker:
    """What one traversing thread (or Ray worker) holds, and the stage's pass it runs: the
    episode pass (`cfr.episode_pass`) or, for es-mccfr, the external-sampling pass."""

    def __init__(self, stage: Stage):
        kw = stage.game.key_words
        self.stage = stage
        self.log, self.map = EpisodeLog(kw), EpisodeMap(kw)
        self.scratch = Scratch(stage.game)
        self.sampling = stage_sampling(stage)
        self.es_scratch = None
        if self.sampling is not None:
            from cfr.external_sampling import EsScratch

            self.es_scratch = EsScratch(stage.game)

    def traverse(self, table: InfoSetTable, t: int) -> float:
        """Episode t against `table` (read only), appended to the log; returns player 0's
        root value. Raises `EpisodeStopped` when `map.control[STOP]` is set (an
        external-sampling pass is short: it is asked before the pass, not during)."""
        if self.sampling is None:
            root, sampled, word = episode_root(self.stage, t)
            return run_episode(self.stage.game, table, self.log, self.map, self.scratch, root,
                               sampled, word)
        from cfr.external_sampling import run_sampled_episode

        if self.map.control[STOP]:
            raise EpisodeStopped()
        root, word, traverser, weight = es_episode(self.stage, t)
        frozen, frozen_player = self.stage.frozen, -1
        if frozen is not None:
            frozen_player = self.stage.frozen_player(t)
        return run_sampled_episode(self.stage.game, table, self.log, self.es_scratch, root,
                                   word, traverser, weight, self.sampling, self.map,
                                   frozen, frozen_player)

    def memory_bytes(self) -> int:
        """Bytes of its log and episode map (what the pass holds beside the table)."""
        return self.log.memory_bytes() + self.map.memory_bytes()


class ThreadBatches:
    """The local batch executor: the trainer's `workers` threads (`Trainer._run_batch`).

    A batch executor has `open(trainer)`, `run_batch(first, last)` (the batch's root values
    in episode order, merged into the trainer's table; or None when a stop abandoned it and
    nothing was merged), `request_stop()` (from the signal handler), `close()` and
    `figures()` (added to the run's summary). `train.ray_backend.RayBatches` is the other."""

    def open(self, trainer: "Trainer") -> None:
        """Start the threads."""
        self.trainer = trainer
        self.pool = ThreadPoolExecutor(trainer.workers)

    def run_batch(self, first: int, last: int) -> list | None:
        """One batch on the threads."""
        return self.trainer._run_batch(self.pool, first, last)

    def request_stop(self) -> None:
        """The passes poll the maps' stop flag, which the trainer sets itself."""

    def close(self) -> None:
        """Stop the threads."""
        self.pool.shutdown()

    def figures(self) -> dict:
        """Nothing beyond the trainer's own figures."""
        return {}


def rss_bytes() -> int:
    """This process's resident memory now (Linux /proc), else its peak."""
    try:
        with open("/proc/self/statm", encoding="ascii") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


class Trainer:
    """Runs a `Stage` in a run directory (create or resume), see the module docstring."""

    def __init__(self, run: RunDirectory, stage: Stage, *, workers: int = 1,
                 checkpoint_every: float = 600.0, memory_limit_bytes: int | None = None,
                 show_progress: bool = True, executor=None):
        batch = int(stage.settings["batch"])
        if batch < 1:
            raise RunError("the batch size must be at least 1")
        if workers < 1:
            raise RunError("--workers must be at least 1")
        self.threaded = stage.settings.get("updates") == "reference"
        self.variant = stage_variant(stage)
        if self.threaded and stage.settings.get("algorithm", "cfr") != "cfr":
            raise RunError("--updates reference is the reference's cfr walk: only with "
                           "--algorithm cfr")
        if self.threaded and workers > 1:
            raise RunError("--updates reference updates the table as it walks: one worker "
                           "only (drop --workers)")
        if stage.warm is not None and (self.threaded or (executor is not None and not
                                                          isinstance(executor, ThreadBatches))):
            # both insert keys where the trainer cannot seed them first (the walk itself,
            # the Ray driver's ordered merge)
            raise RunError("a warm-started run trains with threads (--workers), not "
                           "--updates reference or --ray")
        if workers > batch:
            raise RunError(f"--workers {workers} exceeds the batch size {batch}: every worker "
                           "needs at least one deal per batch (raise --batch)")
        self.run_dir = run
        self.stage = stage
        self.batch = batch
        self.workers = workers
        self.checkpoint_every = float(checkpoint_every)
        self.show_progress = show_progress
        self.executor = executor if executor is not None else ThreadBatches()
        self.progress = self._open(memory_limit_bytes)
        self.episode_workers = [EpisodeWorker(stage) for _ in range(workers)]
        self.logs = [x.log for x in self.episode_workers]
        self.maps = [x.map for x in self.episode_workers]
        self._stop_signal: int | None = None
        self.target = self.progress.iteration  # the --iterations of the current `run`
        self.cpu_budget: float | None = None  # the --for of the current `run` (CPU seconds)
        # threads of this process: their CPU is the process's; Ray workers are elsewhere, so
        # a Ray run counts its batches' wall time instead
        self.cpu_is_local = isinstance(self.executor, ThreadBatches)
        self.keyed_visits = 0
        self.merge_seconds = 0.0  # wall time of the serial merges of this process
        self._threaded_scratch = None

    # ---- create / resume ---------------------------------------------------------------
    def _open(self, memory_limit_bytes: int | None) -> Progress:
        run, stage = self.run_dir, self.stage
        if run.has_checkpoint():
            recorded = run.read_settings()
            if recorded["stage"] != stage.name:
                raise RunError(f"{run.path} is a {recorded['stage']} run, not {stage.name}")
            conflicts = [
                f"{name} {recorded_setting(recorded['settings'], name)!r} (asked {value!r})"
                for name, value in stage.settings.items()
                if recorded_setting(recorded["settings"], name) != value
            ]
            if conflicts:
                raise RunError(f"{run.path} was created with other settings: "
                               + "; ".join(conflicts))
            ckpt = checkpoint.load(run.checkpoint_path)
            if ckpt.game != stage.game.name:
                raise RunError(f"{run.checkpoint_path} holds game {ckpt.game!r}, "
                               f"not {stage.game.name!r}")
            ckpt.table.max_bytes = memory_limit_bytes
            extra = ckpt.extra
            seconds = float(extra.get("seconds", 0.0))
            # a run from before the CPU count: its batches' wall time stands in for it
            return Progress(ckpt.table, ckpt.iteration, float(extra.get("payoff_sum", 0.0)),
                            seconds, float(extra.get("cpu_seconds", seconds)))
        run.write_settings(stage.name, stage.settings)
        dtype = np.dtype(stage.settings.get("dtype", "float32"))
        table = InfoSetTable(key_words=stage.game.key_words, dtype=dtype,
                             capacity=1 << 16, max_bytes=memory_limit_bytes)
        if stage.warm is not None:  # the coarse run continued in finer keys
            return Progress(table, *stage.warm.counters())
        return Progress(table)

    # ---- one batch ---------------------------------------------------------------------
    def _episode_root(self, t: int) -> tuple[np.ndarray, bool, int]:
        """Episode t's root, whether its chance is sampled, and its word."""
        return episode_root(self.stage, t)

    def _worker(self, w: int, episodes, lock: threading.Lock) -> list:
        """Traverse episodes taken from `episodes` until none is left or a stop is asked.

        Returns the segments of thread w's log: (episode, first entry, end entry, first value
        position, root value), or None when the batch was stopped."""
        worker = self.episode_workers[w]
        log = worker.log
        log.clear()
        segments = []
        while True:
            with lock:
                t = next(episodes, None)
            if t is None:
                return segments
            e0, v0 = int(log.counts[ENTRIES]), int(log.counts[VALUES])
            try:
                value = worker.traverse(self.progress.table, t)
            except EpisodeStopped:
                return None
            segments.append((t, e0, int(log.counts[ENTRIES]), v0, value))

    def _run_threaded(self, first: int, last: int) -> list:
        """`--updates reference`: iterations first..last one after the other, each updating
        the table as it walks (a stop signal takes effect after the deal in flight, since a
        deal part-way through has already changed the table)."""
        from cfr.threaded_pass import ThreadedScratch, threaded_traverse

        if self._threaded_scratch is None:
            self._threaded_scratch = ThreadedScratch(self.stage.game)
        values = []
        for t in range(first, last + 1):
            root, sampled, word = self._episode_root(t)
            out = np.zeros(1)
            threaded_traverse(self.stage.game, self.progress.table, -1, 1.0, sampled, (word,),
                              scratch=self._threaded_scratch, root=root, word_values=out)
            values.append(float(out[0]))
        return values

    def _run_batch(self, pool: ThreadPoolExecutor, first: int, last: int) -> list | None:
        """Traverse iterations first..last against the frozen table, then merge them in
        order; return each episode's root value for player 0, or None if a stop signal
        abandoned the batch (the table is then untouched)."""
        if self.threaded:
            return self._run_threaded(first, last)
        k = min(self.workers, last - first + 1)
        episodes, lock = iter(range(first, last + 1)), threading.Lock()
        futures = [pool.submit(self._worker, w, episodes, lock) for w in range(k)]
        pending = futures
        while pending:  # short waits, so the main thread keeps answering signals
            done, pending = wait(pending, timeout=0.25, return_when=FIRST_EXCEPTION)
            if any(f.exception() is not None for f in done):
                self._request_stop_of_passes()
                wait(pending)
                for f in done:
                    f.result()  # re-raise the worker's error
        results = [f.result() for f in futures]
        if any(r is None for r in results):
            return None
        ordered = sorted((seg + (w,)) for w, segments in enumerate(results) for seg in segments)
        merge_start = time.perf_counter()
        warm = self.stage.warm
        for t, e0, e1, v0, _, w in ordered:
            if warm is not None:  # the episode's new keys inserted holding their seed first
                warm.seed(self.progress.table, self.logs[w], (e0, e1))
            merge(self.progress.table, self.logs[w], (e0, e1, v0))
        self.end_batch(self.progress.table, last)
        self.merge_seconds += time.perf_counter() - merge_start
        self.keyed_visits = sum(int(m.control[VISITS]) for m in self.maps)
        return [seg[4] for seg in ordered]

    def _warm(self) -> None:
        """Load the compiled pass and merge (numba's cache, or compile them) before the clock
        starts, so that training time never holds start-up: an external-sampling episode
        (milliseconds) merged into a throwaway table, or a CFR episode stopped after its first
        few thousand nodes (`train.ray_backend.Replica.warm`). The run's table, counters and
        episodes are untouched: every episode's draws come from its own word."""
        if self.threaded or not self.cpu_is_local:
            return  # the reference walk warms on its first deal; Ray workers warm themselves
        worker = self.episode_workers[0]
        scratch_table = InfoSetTable(key_words=self.stage.game.key_words,
                                     dtype=self.progress.table.dtype)
        # The log may still hold the last batch's entries (a trainer run again): their value
        # offsets point into the run's table, and merged into the scratch table they would
        # write past its arrays. Only the warm episode's own entries are merged.
        worker.log.clear()
        try:
            if worker.sampling is None:
                worker.map.control[STOP] = 1
                try:
                    worker.traverse(scratch_table, 1)
                except EpisodeStopped:
                    pass
                finally:
                    worker.map.control[STOP] = 0
                merge(scratch_table, worker.log, (0, 0, 0))
            else:
                worker.traverse(scratch_table, 1)
                merge(scratch_table, worker.log, (0, int(worker.log.counts[ENTRIES]), 0))
        finally:
            worker.log.clear()

    def end_batch(self, table: InfoSetTable, last: int) -> None:
        """`end_batch(stage, table, last)` for this trainer's stage."""
        end_batch(self.stage, table, last, self.variant)

    def _request_stop_of_passes(self) -> None:
        for episode_map in self.maps:
            episode_map.control[STOP] = 1
        self.executor.request_stop()

    # ---- checkpoints -------------------------------------------------------------------
    def save(self) -> None:
        """Write the checkpoint, then its log row."""
        p = self.progress
        checkpoint.save(self.run_dir.checkpoint_path, self.stage.game.name,
                        self.stage.settings.get("algorithm", "cfr"),
                        self.stage.settings, p.iteration, p.table,
                        extra={"stage": self.stage.name, "payoff_sum": p.payoff_sum,
                               "seconds": p.seconds, "cpu_seconds": p.cpu_seconds})
        self.run_dir.append_log({
            "iteration": p.iteration,
            "payoff": f"{p.payoff:.6f}",
            "infosets": p.table.count,
            "seconds": f"{p.seconds:.1f}",
            "rss_bytes": rss_bytes(),
            "target": "" if self.target is None else self.target,
            "cpu_seconds": f"{p.cpu_seconds:.2f}",
            "cpu_budget": "" if self.cpu_budget is None else f"{self.cpu_budget:.1f}",
        })

    @contextlib.contextmanager
    def _signals_stop_the_batch(self):
        """First SIGINT/SIGTERM: stop the passes in flight, save, return. Second: exit now."""
        def handler(signum, frame):
            if self._stop_signal is not None:
                os._exit(128 + signum)  # the user insists: leave without writing anything
            self._stop_signal = signum
            self._request_stop_of_passes()

        with stop_signals(handler):
            yield

    def _checkpointed_iteration(self) -> str:
        if not self.run_dir.has_checkpoint():
            return "none written yet"
        rows = self.run_dir.read_log()
        return f"iteration {int(rows[-1]['iteration'])}" if rows else "see its log"

    # ---- the loop ----------------------------------------------------------------------
    def run(self, target_iterations: int | None, until: Callable[[], bool] | None = None,
            cpu_budget: float | None = None, evaluation=None) -> dict:
        """Train until the run has `target_iterations` iterations (None: no such limit) or,
        with `cpu_budget`, until its training CPU seconds (in total, over every invocation)
        reach it, whichever comes first (or a signal / memory limit stops it, or `until()`,
        asked after every batch, says so); checkpoint; return a summary. `evaluation` (a
        `train.evaluation.Evaluation`) is played at the batch boundaries where it is due;
        its CPU is never training CPU."""
        from tqdm import tqdm

        if target_iterations is None and cpu_budget is None:
            raise RunError("give an iteration target or a training time budget")
        p = self.progress
        self.target = None if target_iterations is None else int(target_iterations)
        self.cpu_budget = None if cpu_budget is None else float(cpu_budget)
        limit = 2**63 - 1 if self.target is None else self.target
        budget = math.inf if self.cpu_budget is None else self.cpu_budget
        stopped = None
        executor = self.executor
        if evaluation is not None:
            evaluation.start(p.cpu_seconds)
        executor.open(self)
        if p.iteration < limit and p.cpu_seconds < budget:
            self._warm()
        last_save = time.monotonic()
        if self.target is not None:
            bar = tqdm(total=limit, initial=min(p.iteration, limit), unit="deal",
                       disable=not self.show_progress, dynamic_ncols=True)
        else:  # a time budget alone: the bar counts training CPU seconds
            bar = tqdm(total=round(budget), initial=min(round(p.cpu_seconds), round(budget)),
                       unit="cpu-s", disable=not self.show_progress, dynamic_ncols=True)
        # Even one worker runs in a thread (or elsewhere): the main thread stays free to
        # answer signals while the kernel runs.
        try:
            with self._signals_stop_the_batch():
                while p.iteration < limit and p.cpu_seconds < budget \
                        and self._stop_signal is None:
                    cpu_start = time.process_time()
                    first = p.iteration + 1
                    grid_end = (p.iteration // self.batch + 1) * self.batch
                    last = min(grid_end, limit)
                    start = time.perf_counter()
                    try:
                        root_values = executor.run_batch(first, last)
                    except TableFullError as exc:
                        # The merge stopped part-way: the table in memory is no longer a
                        # state of the run, so it is dropped; the last checkpoint stands.
                        raise RunError(f"{exc}; the run stays at its last checkpoint "
                                       f"({self._checkpointed_iteration()}); raise "
                                       "--memory-limit to go on") from None
                    if root_values is None:  # stopped: the batch is abandoned, not merged
                        break
                    wall = time.perf_counter() - start
                    p.seconds += wall
                    for t, v in enumerate(root_values, first):  # exact whatever the workers
                        p.payoff_sum += self.stage.episode_payoff(t, float(v))
                    p.iteration = last
                    cpu_before = p.cpu_seconds  # the batch and its bookkeeping, all threads
                    p.cpu_seconds += (time.process_time() - cpu_start) if self.cpu_is_local \
                        else wall
                    bar.set_postfix(infosets=f"{p.table.count:,}",
                                    mem=f"{p.table.memory_bytes() / 2**20:.0f}MiB",
                                    payoff=f"{p.payoff:.5f}", refresh=False)
                    if self.target is not None:
                        bar.update(last - first + 1)
                    else:
                        bar.update(min(round(p.cpu_seconds), round(budget))
                                   - min(round(cpu_before), round(budget)))
                    if evaluation is not None and evaluation.due(p.cpu_seconds):
                        # between batches: the table is a state of the run, read only
                        evaluation.run(p.table, p.iteration, p.cpu_seconds,
                                       stop=lambda: self._stop_signal is not None)
                    if until is not None and until():
                        break
                    if self._stop_signal is None and \
                            time.monotonic() - last_save >= self.checkpoint_every:
                        self.save()
                        last_save = time.monotonic()
                if self._stop_signal is not None:
                    stopped = signal.Signals(self._stop_signal).name
                self.save()
        finally:
            bar.close()
            executor.close()
        return {
            "iteration": p.iteration,
            "payoff": p.payoff,
            "infosets": p.table.count,
            "memory_bytes": p.table.memory_bytes(),
            # the workers' logs and episode maps: what the pass holds beside the table
            "work_bytes": sum(x.memory_bytes() for x in self.episode_workers),
            "seconds": p.seconds,
            "cpu_seconds": p.cpu_seconds,
            "merge_seconds": self.merge_seconds,
            "eval_rows": [] if evaluation is None else list(evaluation.rows),
            "eval_cpu_seconds": 0.0 if evaluation is None else evaluation.cpu_seconds,
            "stopped": stopped,
            **executor.figures(),
        }
