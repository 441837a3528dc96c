"""`web.pool.BotPool` (issue 48): the bots' work runs on worker threads, a game's requests take
turns in the order they came, other games never wait for them, the backlog is bounded (Busy,
nothing done), and an admitted job finishes even if its caller goes away."""

import asyncio
import threading
import time

import pytest

from web.pool import BotPool, Busy


def test_a_games_requests_run_one_at_a_time_in_arrival_order_on_worker_threads():
    pool, served, running, threads = BotPool(workers=3), [], [], set()

    def work(i):
        assert not running, "two requests of one game ran at once"
        running.append(i)
        threads.add(threading.get_ident())
        time.sleep(0.002)  # long enough for a second worker to take a job if it could
        served.append(i)
        running.pop()
        return i * i

    async def main():
        async def job(i):
            return await pool.offload(work, i)

        return await asyncio.gather(*(pool.run("game", lambda i=i: job(i)) for i in range(12)))

    try:
        assert asyncio.run(main()) == [i * i for i in range(12)]
    finally:
        pool.close()
    assert served == list(range(12))
    assert threading.get_ident() not in threads  # never on the loop's thread
    assert pool.backlog == 0 and pool._turns == {}


def test_another_games_request_never_waits_for_a_game_blocked_on_a_worker():
    pool, release = BotPool(workers=2), threading.Event()

    async def main():
        async def blocked():
            return await pool.offload(release.wait, 30)

        async def quick():
            return await pool.offload(lambda: "quick")

        slow = asyncio.ensure_future(pool.run("A", blocked))
        behind = asyncio.ensure_future(pool.run("A", quick))  # A's next request: waits
        await asyncio.sleep(0.05)
        other = await asyncio.wait_for(pool.run("B", quick), 10)  # B: served meanwhile
        assert not behind.done()
        release.set()
        return other, await slow, await behind

    try:
        assert asyncio.run(main()) == ("quick", True, "quick")
    finally:
        pool.close()


def test_a_full_backlog_refuses_before_doing_anything_and_frees_once_served():
    pool, release, ran = BotPool(workers=1, max_backlog=2), threading.Event(), []

    async def main():
        async def job(name):
            ran.append(name)
            return await pool.offload(release.wait, 30)

        first = asyncio.ensure_future(pool.run("A", lambda: job("first")))
        second = asyncio.ensure_future(pool.run("B", lambda: job("second")))
        await asyncio.sleep(0.05)
        assert pool.backlog == 2
        with pytest.raises(Busy) as refused:
            await pool.run("C", lambda: job("refused"))
        release.set()
        await first and await second
        assert pool.backlog == 0
        await pool.run("C", lambda: job("later"))  # room again
        return refused.value

    try:
        refused = asyncio.run(main())
    finally:
        pool.close()
    assert refused.retry_after >= 1 and "busy" in str(refused)
    assert ran == ["first", "second", "later"]


def test_the_bound_is_seconds_of_work_ahead():
    """With the mean job at 0.2 s, two workers and a 0.5 s bound, a request is admitted
    while the jobs ahead beyond the free workers are worth at most 0.5 s: (n - 1) x 0.2 / 2."""
    pool = BotPool(workers=2, max_wait=0.5, max_backlog=100)
    pool.mean_job = 0.2  # as if measured
    try:
        admitted = 0
        with pytest.raises(Busy) as refused:
            while True:
                pool.admit()
                admitted += 1
        assert admitted == 7  # waits 0, 0, .1, .2, .3, .4, .5 s admitted; .6 s refused
        assert refused.value.retry_after == 1 and pool.backlog == 7
        # Once a saturated pool's answers are timed (0.25 s apart, the longest eighth left
        # out), the wait is counted in them: 6 ahead x 0.25 s = 1.5 s, refused, retry in 2 s.
        pool._intervals.extend([0.25] * 14 + [9.0, 9.0])
        with pytest.raises(Busy) as refused:
            pool.admit()
        assert pool.expected_wait() == 1.5 and refused.value.retry_after == 2
        pool.backlog = 3  # 2 ahead x 0.25 s: admitted
        pool.admit()
    finally:
        pool.close()


def test_a_job_whose_caller_is_cancelled_still_runs_to_its_end():
    pool, release, finished = BotPool(workers=1), threading.Event(), []

    async def main():
        async def job():
            await pool.offload(release.wait, 30)
            finished.append("stored")  # what the server does on the loop after the bots

        caller = asyncio.ensure_future(pool.run("A", job))
        await asyncio.sleep(0.05)
        caller.cancel()
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await caller
        for _ in range(200):
            if finished:
                break
            await asyncio.sleep(0.01)
        return pool.backlog

    try:
        assert asyncio.run(main()) == 0
    finally:
        pool.close()
    assert finished == ["stored"]


def test_a_job_error_reaches_its_caller_and_the_next_request_goes_on():
    pool = BotPool(workers=1)

    def work(i):
        if i == 1:
            raise ValueError("refused")
        return i

    async def main():
        async def job(i):
            return await pool.offload(work, i)

        return await asyncio.gather(*(pool.run("A", lambda i=i: job(i)) for i in range(3)),
                                    return_exceptions=True)

    try:
        first, error, last = asyncio.run(main())
    finally:
        pool.close()
    assert (first, last) == (0, 2) and isinstance(error, ValueError)


def test_bad_bounds_are_refused_in_one_line():
    for kwargs in ({"workers": 0}, {"max_wait": 0}, {"max_backlog": 0}):
        with pytest.raises(ValueError, match="must be"):
            BotPool(**kwargs)


# --- why threads ---------------------------------------------------------------------------
def test_the_kernels_search_bots_spend_their_time_in_release_the_gil(tmp_path):
    """The pool runs the bots on threads because the numba kernels release the GIL: every
    kernel of the rollouts and of the worlds (both games) is compiled `nogil=True`, and in a
    search bot's decision most of the time is spent inside the rollout kernels."""
    import games.euchre.search.worlds
    import search.rollout
    import search.rollout_search as driver
    import games.setback.search.worlds
    from games.setback.api import Deal
    from games.setback.view import SeatView
    from web.game_tables import web_game
    from web_helpers import setback_blueprint

    Bots = web_game("setback").load("bots")  # the game's bots class

    for module in (search.rollout, games.setback.search.worlds, games.euchre.search.worlds):
        kernels = [f for f in vars(module).values()
                   if hasattr(f, "targetoptions") and f.__module__ == module.__name__]
        assert kernels and all(f.targetoptions.get("nogil") for f in kernels), module

    inside = [0.0]

    def timed(kernel):
        def call(*args):
            t0 = time.thread_time()
            kernel(*args)
            inside[0] += time.thread_time() - t0
        return call

    bots = Bots(f"search[worlds=100,threads=1]:db:{setback_blueprint(tmp_path, deals=10)}")
    views = []
    for d in range(12):
        deal = Deal.random(d)
        for _ in range(6):  # the auction bid up, so the play is searched
            deal.play(deal.legal_moves()[-1])
        views.append(SeatView.of(deal.state.copy(), deal.dealer))
    bots.decide(views[0], 1)  # numba's code loaded
    original = driver.world_move_values, driver.world_move_outcomes
    driver.world_move_values, driver.world_move_outcomes = map(timed, original)
    try:
        # this thread's CPU time, not the wall clock: on a loaded machine a preemption inside
        # a few-millisecond decision would land on either side; and enough decisions that the
        # clock's granularity does not matter
        t0 = time.thread_time()
        while time.thread_time() - t0 < 0.2:
            for view in views:
                bots.decide(view, 2)
        total = time.thread_time() - t0
    finally:
        driver.world_move_values, driver.world_move_outcomes = original
    assert inside[0] > 0.4 * total, (inside[0], total)  # CPU 0.53 on a tiny blueprint
