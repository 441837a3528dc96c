"""The bots' work on a pool of worker threads, outside the event loop; each game's requests in
the order they came; a bounded backlog, beyond which the server says "busy, retry" (issue 48).

**What runs where.** The event loop parses and validates a request, finds its game and answers;
everything that asks the bots (a move and the bots' replies, a new game's first moves, a hint,
`/api/decide`) runs on one of `workers` threads (`offload`), and so does the saving of what
they changed (`web.app` says why). So a cheap request (`/healthz`, the list of games, a game's
view) never waits behind a bot's thinking.

**Why threads, not processes.** The bots' time goes to numba kernels compiled with `nogil=True`
(the rollouts of `search/rollout.py`, the worlds of `games/setback/search/worlds.py` and
`games/euchre/search/worlds.py`, the solver of `games/setback/search/world_search.py`): they
release the GIL, so two threads search on two cores at once (tests/test_web_pool.py checks every
such kernel is `nogil` and that a search decision spends most of its time inside them: 73 % of it
in the rollout kernels alone on a tiny table, more on a real one whose rollouts are longer). A
game's table is live Python state that a process pool would have to ship across (or rebuild from
the file) at every move, and each process would hold its own copy of the blueprint's arrays
(hundreds of MB for a real table; threads share one, `play.search_options.shared_arrays`). What
holds the GIL (a database bot's SQLite lookups and Python, the tables' bookkeeping) is short, and
the loop gets the GIL back at every switch interval.

**Cores.** `workers` defaults to the CPUs this process may use (`usable_cpus`): one decision in
flight a core. A search bot has its own rollout threads (`threads=`, default also every CPU),
so a saturated server runs workers x threads threads on as many cores. That is on purpose: a
lone person's decision uses every core (the best search within `think=`), and under load the
threads share the cores; since `think=` is a wall-clock budget counted from the moment a worker
starts the decision, a decision never takes longer, it only finishes fewer worlds. An operator
who wants the same search under any load sets `threads=1` and keeps `--bot-workers` at the core
count.

**Order and fairness.** A game's requests take turns (`turn`: a FIFO lock per game, held from
finding the game to storing its new state), so a game's moves are applied one at a time in the
order they came, none lost or doubled. The pool's queue is FIFO across games. A request thus
waits for the requests before it at its own table, then for a free worker; never for another
table's requests to finish.

**The backlog and shedding.** The backlog counts the requests admitted to the pool and not yet
answered (waiting for their turn, for a worker, or being worked on). A request is admitted
while the wait it would have, estimated as (requests ahead beyond the free workers) x (the time
between two answers), stays within `max_wait` seconds, and the backlog is below `max_backlog`
(a hard ceiling whatever the estimate); otherwise it is refused with `Busy` (the server's 503
with Retry-After) before anything is done: no partial move. The time between two answers is
measured while the pool is saturated (the mean of the last 64 such intervals, the longest
eighth left out): it holds everything that slows a busy server, the workers' contention for the
GIL and the cores, and the loop's own share of each request. Until 8 are measured it is the
recent jobs' mean time on a worker over the number of workers. The bound is in seconds, not in
requests, because a job of database bots takes a millisecond and one of search bots a hundred:
a count right for one is wrong for the other. Default 0.15 s, by measurement: the estimate
misses the tail (200 people with no think time against search bots, `bench/web_load.py`: with
0.3 s an accepted move's p99 was 1.25 s, past issue 48's 1 s; with 0.15 s, 0.27 s), and a long
job (a move that ends a deal and plays the next one's auction holds several decisions) needs
the room.

**Atomic under cancellation.** An admitted request's work (`run`) is a task of its own,
shielded: a client that hangs up does not cut a move between its bots' replies and its storing
(the move is then stored and simply not answered).
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager

from search.cpus import usable_cpus

DEFAULT_MAX_WAIT = 0.15  # seconds an admitted request may expect to wait for a worker
DEFAULT_MAX_BACKLOG = 256  # admitted requests at most, whatever the estimate
RECENT_JOBS = 64  # the jobs the mean job time is taken over
TRIMMED = 8  # one job in this many, the longest, left out (numba compiling, a stall)


class Busy(Exception):
    """The backlog is full: try again in `retry_after` seconds (a whole number, at least 1)."""

    def __init__(self, retry_after: int, message: str):
        super().__init__(message)
        self.retry_after = int(retry_after)


class BotPool:
    """`workers` threads for the bots' work (default the usable CPUs), a game-ordered,
    bounded backlog in front of them (module docstring). `on_job(wait, seconds)`, if given, is
    called from the worker after each job with its wait for a worker and its run time."""

    def __init__(self, workers: int | None = None, max_wait: float = DEFAULT_MAX_WAIT,
                 max_backlog: int = DEFAULT_MAX_BACKLOG, on_job=None):
        self.workers = usable_cpus() if workers is None else int(workers)
        if self.workers < 1:
            raise ValueError(f"bot workers must be at least 1, not {workers}")
        if max_wait <= 0 or int(max_backlog) < 1:
            raise ValueError(f"the backlog's bound must be above 0 (max wait {max_wait} s, "
                             f"max backlog {max_backlog})")
        self.max_wait = float(max_wait)
        self.max_backlog = int(max_backlog)
        self.executor = ThreadPoolExecutor(self.workers, thread_name_prefix="bots")
        self.backlog = 0  # admitted, not yet answered (read and written on the loop only)
        self.mean_job = 0.0  # seconds: the recent jobs' mean run time, their longest left out
        self._recent = deque(maxlen=RECENT_JOBS)
        self._intervals = deque(maxlen=RECENT_JOBS)  # seconds between answers, saturated
        self._last_answer = None  # perf_counter() of the last answer (the loop's)
        self.on_job = on_job
        self._turns: dict = {}  # game key -> [asyncio.Lock, requests holding or waiting]

    # --- admission ---------------------------------------------------------------------
    def service_interval(self) -> float:
        """Seconds between two answers of a busy pool (module docstring)."""
        if len(self._intervals) >= 8:
            return trimmed_mean(self._intervals)
        return self.mean_job / self.workers

    def expected_wait(self) -> float:
        """Seconds a request admitted now would wait for a worker (the estimate above)."""
        ahead = self.backlog - self.workers + 1
        return max(0, ahead) * self.service_interval()

    def admit(self) -> None:
        """Count one more request in the backlog, or raise `Busy` if it is full."""
        wait = self.expected_wait()
        if self.backlog >= self.max_backlog or wait > self.max_wait:
            retry = max(1, math.ceil(wait))
            raise Busy(retry, f"the server is busy ({self.backlog} requests for its "
                              f"{self.workers} bot workers, about {wait:.1f} s of work): "
                              f"retry in {retry} s")
        self.backlog += 1

    # --- running -------------------------------------------------------------------------
    async def run(self, key, job):
        """Admit a request (`Busy` if the backlog is full), then `await job()` in the turn of
        the game `key` (None: no game, e.g. `/api/decide`); the job offloads its bot work
        with `offload`. The job runs to its end even if the caller is cancelled."""
        self.admit()
        task = asyncio.get_running_loop().create_task(self._run(key, job))
        task.add_done_callback(_retrieve)  # a job whose caller left still ends quietly
        return await asyncio.shield(task)

    async def _run(self, key, job):
        try:
            async with self.turn(key):
                return await job()
        finally:
            now = time.perf_counter()
            if self.backlog >= self.workers and self._last_answer is not None:
                self._intervals.append(now - self._last_answer)  # every worker was busy
            self._last_answer = now
            self.backlog -= 1

    async def offload(self, function, *args):
        """`function(*args)` on a worker thread (FIFO among every game's requests)."""
        queued = time.perf_counter()
        return await asyncio.get_running_loop().run_in_executor(
            self.executor, self._timed, queued, function, args)

    def _timed(self, queued: float, function, args):
        started = time.perf_counter()
        try:
            return function(*args)
        finally:
            seconds = time.perf_counter() - started
            self._recent.append(seconds)  # a deque's append is atomic across threads
            self.mean_job = trimmed_mean(self._recent)  # one float, replaced whole
            if self.on_job is not None:
                self.on_job(started - queued, seconds)

    def warm(self, function, timeout: float = 600.0) -> None:
        """Call `function()` once on every worker thread, now (e.g. to make each thread's
        player before the first request, which would otherwise pay for it)."""
        meeting = threading.Barrier(self.workers, timeout=timeout)

        def once() -> None:
            function()
            meeting.wait()  # holds this thread until every other one has had its call

        for future in [self.executor.submit(once) for _ in range(self.workers)]:
            future.result()

    @asynccontextmanager
    async def turn(self, key):
        """`async with pool.turn(key):` the game `key`'s turn (FIFO among its requests);
        None: no turn to take."""
        if key is None:
            yield
            return
        entry = self._turns.get(key)
        if entry is None:
            entry = self._turns[key] = [asyncio.Lock(), 0]
        entry[1] += 1
        try:
            async with entry[0]:
                yield
        finally:
            entry[1] -= 1
            if entry[1] == 0:  # nobody holds or waits: forget the game's lock
                del self._turns[key]

    def close(self) -> None:
        """Stop the workers once their jobs are done; jobs not started are dropped."""
        self.executor.shutdown(wait=False, cancel_futures=True)


def trimmed_mean(values) -> float:
    """The mean of `values` without the longest eighth of them (at least the longest one when
    there are two or more)."""
    ordered = sorted(values)
    kept = ordered[:len(ordered) - max(1 if len(ordered) > 1 else 0, len(ordered) // TRIMMED)]
    return sum(kept) / len(kept)


def _retrieve(task: asyncio.Task) -> None:
    """Read a finished job's outcome, so asyncio never reports an error nobody awaited."""
    if not task.cancelled():
        task.exception()
