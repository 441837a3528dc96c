"""Building bid tables, for every game: the deals counted in chunks over worker processes (what
is counted is a game's: its tables module, named by `games/<game>/bid_tables.py`; the smoothing
is `search.bid_smoothing`'s)."""

from __future__ import annotations


def _ignore_sigint() -> None:
    # the workers leave Ctrl-C to the parent, which stops the pool
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_chunks(work, tasks: list, workers: int = 1):
    """(task, work(task)) for each task, in the tasks' order: in this process when `workers`
    <= 1 or there is one task, else in that many forked processes (`work` a module-level
    function, so the figures never depend on the workers)."""
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield task, work(task)
        return
    import multiprocessing

    context = multiprocessing.get_context("fork")
    with context.Pool(min(workers, len(tasks)), initializer=_ignore_sigint) as pool:
        yield from zip(tasks, pool.imap(work, tasks))
