"""The API's requests served one at a time, in the order they arrived.

The server's work is CPU-bound Python on one event loop. Left to itself, the loop reads every
request that arrived while it was busy, then serves them all before it reads again. A person
whose reply goes out last in such a round sends the next move just after the loop looked: that
move waits out the whole next round unread, and is served late in the round after. Under load
some people then wait two rounds for every move while the others wait one.

`Turns` makes the handlers take turns through a FIFO lock (asyncio's locks wake their waiters
in order, each in a later pass of the loop, after it has read the sockets again). A request
that finds the lock free holds it across one pass before it is served, so the requests read
with it queue behind it. Every request then waits for exactly those that arrived before it.
"""

from __future__ import annotations

import asyncio


class Turns:
    """`await turns.run(handler, *args)`: `handler(*args)` when every request that arrived
    earlier has had its turn. The handlers themselves never await, so a turn is atomic."""

    def __init__(self):
        self._loop = None
        self._lock: asyncio.Lock | None = None

    async def run(self, handler, *args):
        """The result of `handler(*args)` (or its exception), in turn."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # an asyncio lock belongs to one loop; tests run several
            self._loop, self._lock = loop, asyncio.Lock()
        waited = self._lock.locked()
        async with self._lock:
            if not waited:  # the requests read with this one take their places behind it
                await asyncio.sleep(0)
            return handler(*args)
