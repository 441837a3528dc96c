"""`web.turns.Turns`: the API's handlers run one at a time, in the order their requests arrived,
and a request that arrives while others wait is served after them, never before."""

import asyncio

import pytest

from web.turns import Turns


def test_a_burst_is_served_in_arrival_order_one_at_a_time():
    turns, served, running = Turns(), [], []

    def handler(i):
        assert not running, "two handlers ran at once"
        running.append(i)
        served.append(i)
        running.pop()
        return i * i

    async def main():
        return await asyncio.gather(*(turns.run(handler, i) for i in range(20)))

    assert asyncio.run(main()) == [i * i for i in range(20)]
    assert served == list(range(20))


def test_a_request_arriving_while_others_wait_is_served_after_them():
    turns, served, late = Turns(), [], []

    async def main():
        loop = asyncio.get_running_loop()

        def handler(name):
            served.append(name)
            if name == "first":  # a request comes in while the first is being served
                late.append(loop.create_task(turns.run(handler, "late")))
            return name

        burst = [loop.create_task(turns.run(handler, n)) for n in ("first", "a", "b", "c")]
        await asyncio.gather(*burst)
        await asyncio.gather(*late)

    asyncio.run(main())
    assert served == ["first", "a", "b", "c", "late"]


def test_the_turns_interleave_with_other_work_on_the_loop():
    """Between two turns the loop runs other callbacks (in the server: reading sockets)."""
    turns, log = Turns(), []

    async def main():
        loop = asyncio.get_running_loop()

        def handler(i):
            log.append(f"turn {i}")
            loop.call_soon(log.append, f"after {i}")  # what the loop does next

        await asyncio.gather(*(turns.run(handler, i) for i in range(3)))

    asyncio.run(main())
    assert log == ["turn 0", "after 0", "turn 1", "after 1", "turn 2", "after 2"]


def test_an_error_reaches_its_caller_and_the_next_turn_goes_on():
    turns = Turns()

    def handler(i):
        if i == 1:
            raise ValueError("refused")
        return i

    async def main():
        return await asyncio.gather(*(turns.run(handler, i) for i in range(3)),
                                    return_exceptions=True)

    first, error, last = asyncio.run(main())
    assert (first, last) == (0, 2) and isinstance(error, ValueError)


def test_one_turns_object_serves_one_event_loop_after_another():
    turns = Turns()
    for _ in range(2):  # each asyncio.run is a new loop (as each test client is)
        assert asyncio.run(turns.run(lambda: "ok")) == "ok"


def test_a_cancelled_request_is_not_served():
    turns, served = Turns(), []

    async def main():
        loop = asyncio.get_running_loop()
        tasks = [loop.create_task(turns.run(served.append, i)) for i in range(3)]
        await asyncio.sleep(0)  # all three are waiting for their turn
        tasks[1].cancel()
        done = await asyncio.gather(*tasks, return_exceptions=True)
        return done

    done = asyncio.run(main())
    assert served == [0, 2] and isinstance(done[1], asyncio.CancelledError)
