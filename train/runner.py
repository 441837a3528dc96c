"""The one training loop behind both stages: batches, workers, checkpoints, logs, signals.

An iteration is one sampled episode (a deal). Iterations are grouped in batches of `batch`
consecutive iterations on a fixed grid (iterations kB+1 .. (k+1)B). Every episode of a batch is
traversed against the table frozen at the start of the batch; the batch is split into `workers`
contiguous slices, each traversed by its own thread (the numba kernels release the GIL) into
its own increment log, and the logs are merged in slice order, so the merged sums are formed in
episode order whatever the number of workers: the same seed and batch size give the same table
for any `workers`. With batch 1 this is plain (chance-sampled, simultaneous) CFR.

Checkpoints are written between batches, every `checkpoint_every` seconds, at the end, and on
Ctrl-C / SIGTERM (the signal only sets a flag; the loop finishes its batch, saves and returns).
A `kill -9` loses at most the work since the last checkpoint. Resuming from a checkpoint taken
on the batch grid continues bit for bit as if never stopped.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable

import numpy as np

from cfr import checkpoint, rng
from cfr.errors import TableFullError
from cfr.game import Game
from cfr.increment_log import IncrementLog, merge
from cfr.table import InfoSetTable
from cfr.traversal import Scratch, traverse
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
    """

    name: str
    game: Game
    settings: dict
    root_for: Callable[[int], np.ndarray] | None = None
    payoff_sign: float = -1.0


@dataclass
class Progress:
    """Where a run stands: its table and counters (all restored from a checkpoint)."""

    table: InfoSetTable
    iteration: int = 0
    payoff_sum: float = 0.0
    seconds: float = 0.0

    @property
    def payoff(self) -> float:
        """Running mean of the reported payoff over every iteration so far."""
        return self.payoff_sum / self.iteration if self.iteration else 0.0


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
                 show_progress: bool = True):
        batch = int(stage.settings["batch"])
        if batch < 1:
            raise RunError("the batch size must be at least 1")
        if workers < 1:
            raise RunError("--workers must be at least 1")
        if workers > batch:
            raise RunError(f"--workers {workers} exceeds the batch size {batch}: every worker "
                           "needs at least one deal per batch (raise --batch)")
        self.run_dir = run
        self.stage = stage
        self.batch = batch
        self.workers = workers
        self.checkpoint_every = float(checkpoint_every)
        self.show_progress = show_progress
        self.progress = self._open(memory_limit_bytes)
        # Sized for a Setback deal (~10^5..10^6 decisions), so most batches never regrow.
        self.logs = [IncrementLog(stage.game.key_words, entries=1 << 18, values=1 << 21)
                     for _ in range(workers)]
        self.scratch = [Scratch(stage.game) for _ in range(workers)]
        self._stop_signal: int | None = None

    # ---- create / resume ---------------------------------------------------------------
    def _open(self, memory_limit_bytes: int | None) -> Progress:
        run, stage = self.run_dir, self.stage
        if run.has_checkpoint():
            recorded = run.read_settings()
            if recorded["stage"] != stage.name:
                raise RunError(f"{run.path} is a {recorded['stage']} run, not {stage.name}")
            conflicts = [
                f"{name} {recorded['settings'].get(name)!r} (asked {value!r})"
                for name, value in stage.settings.items()
                if recorded["settings"].get(name) != value
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
            return Progress(ckpt.table, ckpt.iteration, float(extra.get("payoff_sum", 0.0)),
                            float(extra.get("seconds", 0.0)))
        run.write_settings(stage.name, stage.settings)
        dtype = np.dtype(stage.settings.get("dtype", "float32"))
        table = InfoSetTable(key_words=stage.game.key_words, dtype=dtype,
                             capacity=1 << 16, max_bytes=memory_limit_bytes)
        return Progress(table)

    # ---- one batch ---------------------------------------------------------------------
    def _traverse_slice(self, worker: int, first: int, last: int):
        """Traverse iterations first..last (1-based, inclusive) for `worker`.

        Returns (player 0's root value of each episode, the logs to merge, in episode order)."""
        stage, table = self.stage, self.progress.table
        scratch = self.scratch[worker]
        seed = np.uint64(stage.settings["seed"])
        words = [rng.word(seed, np.uint64(t)) for t in range(first, last + 1)]
        values = np.zeros(len(words), dtype=np.float64)
        if stage.root_for is None:
            log = self.logs[worker]
            traverse(stage.game, table, log, -1, 1.0, True, words, scratch=scratch,
                     word_values=values)
            return values, [log]
        # Episodes with prepared roots: one pass (and one small log) per episode.
        logs = []
        for i, w in enumerate(words):
            log = IncrementLog(stage.game.key_words, entries=256, values=2048)
            values[i] = traverse(stage.game, table, log, -1, 1.0, False, (0,),
                                 scratch=scratch, root=stage.root_for(int(w)))
            logs.append(log)
        return values, logs

    def _run_batch(self, pool: ThreadPoolExecutor | None, first: int, last: int) -> list:
        n = last - first + 1
        k = min(self.workers, n)
        bounds = [first + (n * i) // k for i in range(k + 1)]
        slices = [(i, bounds[i], bounds[i + 1] - 1) for i in range(k)]
        if pool is None or k == 1:
            results = [self._traverse_slice(*s) for s in slices]
        else:
            results = list(pool.map(lambda s: self._traverse_slice(*s), slices))
        logs = [log for _, worker_logs in results for log in worker_logs]
        for log in logs:
            merge(self.progress.table, log)
        return [v for values, _ in results for v in values]

    # ---- checkpoints -------------------------------------------------------------------
    def save(self) -> None:
        """Write the checkpoint, then its log row."""
        p = self.progress
        checkpoint.save(self.run_dir.checkpoint_path, self.stage.game.name, "cfr",
                        self.stage.settings, p.iteration, p.table,
                        extra={"stage": self.stage.name, "payoff_sum": p.payoff_sum,
                               "seconds": p.seconds})
        self.run_dir.append_log({
            "iteration": p.iteration,
            "payoff": f"{p.payoff:.6f}",
            "infosets": p.table.count,
            "seconds": f"{p.seconds:.1f}",
            "rss_bytes": rss_bytes(),
        })

    @contextlib.contextmanager
    def _signals_stop_between_batches(self):
        def handler(signum, frame):
            self._stop_signal = signum

        previous = {}
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(ValueError):  # not the main thread: leave signals alone
                previous[sig] = signal.signal(sig, handler)
        try:
            yield
        finally:
            for sig, old in previous.items():
                signal.signal(sig, old)

    def _checkpointed_iteration(self) -> str:
        if not self.run_dir.has_checkpoint():
            return "none written yet"
        rows = self.run_dir.read_log()
        return f"iteration {int(rows[-1]['iteration'])}" if rows else "see its log"

    # ---- the loop ----------------------------------------------------------------------
    def run(self, target_iterations: int) -> dict:
        """Train until the run has `target_iterations` iterations (or a signal / memory limit
        stops it); checkpoint; return a summary."""
        from tqdm import tqdm

        p = self.progress
        stopped = None
        last_save = time.monotonic()
        bar = tqdm(total=target_iterations, initial=min(p.iteration, target_iterations),
                   unit="deal", disable=not self.show_progress, dynamic_ncols=True)
        pool = ThreadPoolExecutor(self.workers) if self.workers > 1 else None
        try:
            with self._signals_stop_between_batches():
                while p.iteration < target_iterations:
                    first = p.iteration + 1
                    grid_end = (p.iteration // self.batch + 1) * self.batch
                    last = min(grid_end, target_iterations)
                    start = time.perf_counter()
                    try:
                        root_values = self._run_batch(pool, first, last)
                    except TableFullError as exc:
                        # The merge stopped part-way: the table in memory is no longer a
                        # state of the run, so it is dropped; the last checkpoint stands.
                        raise RunError(f"{exc}; the run stays at its last checkpoint "
                                       f"({self._checkpointed_iteration()}); raise "
                                       "--memory-limit to go on") from None
                    p.seconds += time.perf_counter() - start
                    for v in root_values:  # episode by episode: exact whatever the workers
                        p.payoff_sum += self.stage.payoff_sign * float(v)
                    p.iteration = last
                    bar.set_postfix(infosets=f"{p.table.count:,}",
                                    mem=f"{p.table.memory_bytes() / 2**20:.0f}MiB",
                                    payoff=f"{p.payoff:.5f}", refresh=False)
                    bar.update(last - first + 1)
                    if self._stop_signal is not None:
                        stopped = signal.Signals(self._stop_signal).name
                        break
                    if time.monotonic() - last_save >= self.checkpoint_every:
                        self.save()
                        last_save = time.monotonic()
            self.save()
        finally:
            bar.close()
            if pool is not None:
                pool.shutdown()
        return {
            "iteration": p.iteration,
            "payoff": p.payoff,
            "infosets": p.table.count,
            "memory_bytes": p.table.memory_bytes(),
            "seconds": p.seconds,
            "stopped": stopped,
        }
