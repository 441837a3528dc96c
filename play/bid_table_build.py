"""Building bid tables, for every game: the deals counted in chunks over worker processes, and
the held-out figures' lines (what is counted is a game's: its tables module, named by
`games/<game>/bid_tables.py`; the smoothing is `search.bid_smoothing`'s)."""

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


def run_deal_chunks(work, head: tuple, first: int, count: int, chunk: int, workers: int = 1,
                    progress=None):
    """work((*head, start, n)) for each run of `chunk` deals of first..first+count-1, yielded
    in the deals' order (`run_chunks`); `progress(n)` after each."""
    tasks = [(*head, f, min(chunk, first + count - f)) for f in range(first, first + count, chunk)]
    for task, part in run_chunks(work, tasks, workers):
        if progress is not None:
            progress(task[-1])
        yield part


def heldout_lines(meta: dict) -> list[str]:
    """The held-out figures of a tables' `meta` (`meta["heldout"]`: "predictions" and, per
    feature, the log-loss a prediction under "uniform" and the "tables" and their "cut") as text
    lines; none when the build held nothing out."""
    figures = meta.get("heldout")
    if not figures:
        return []
    lines = [f"held out: {meta.get('heldout_deals', 0):,} deals, {figures['predictions']:,} "
             "predictions (observer, bidder); log-loss in nats a prediction:",
             f"  {'feature':14}{'uniform':>9}{'tables':>9}{'cut':>8}"]
    for name, row in figures.items():
        if isinstance(row, dict):
            lines.append(f"  {name:14}{row['uniform']:9.4f}{row['tables']:9.4f}"
                         f"{100 * row['cut']:7.1f}%")
    return lines
