"""Load on `setback-cfr serve`: many simulated people playing whole games through the API,
or programs asking `/api/decide` for decisions at a fixed rate.

A server is started as its own process (`python -m cli.main serve --delay-ms 0`) on a free
loopback port with a fresh games file; --players simulated people, each on its own keep-alive
connection and with its own owner cookie (each is a browser of its own: it keeps the cookie
the server's first reply gives it, and sees only its own games), start a game, play South
with a seeded random legal move as soon as the reply comes (after --think-ms), start the next
game when one ends, and stop at --seconds (or after --max-moves moves each: the run is bounded
in time and count). A simulated person starts a game every few seconds, far more than a person
does, so the server runs with --games-per-minute 100000. The clients are asyncio coroutines
in this process with a minimal HTTP/1.1 client (little client CPU beside the server, which
has the other core).

With --decide RATE, programs instead send `POST /api/decide` at RATE requests a second (open
loop: request i is due at i / RATE s, whether or not the earlier ones were answered), spread
over --players connections, with positions of random deals played to random points (random
legal moves). Its latency runs from the time a request was due to the whole reply read, so a
server falling behind shows. Target (issue 30): p99 < 5 ms at 200 requests a second with
`db:` bots.

It prints the error count (a non-2xx reply, a broken reply, or a reply about another game)
and the latency of a move request, from sending it to having read the whole reply, which
includes the bots' replies and the game's save: p50, p90, p99 and max. Targets (issue 12):
zero errors, p99 < 50 ms with `db:` bots. With no think time the server is saturated and a
request waits behind the others' (the event loop serves them one at a time, in arrival order:
`web.turns`), so the latency there is the queue, about players x server CPU per request;
--think-ms 1000 is closer to people.

    python bench/web_load.py [--bots heuristic|db:PATH|...] [--players 50] [--seconds 60]
                             [--think-ms 0] [--max-moves 100000] [--seed 0]
    python bench/web_load.py --decide 200 [--bots db:PATH] [--players 20] [--seconds 60]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = "127.0.0.1"  # loopback only


class Connection:
    """One keep-alive HTTP/1.1 connection speaking just enough of the protocol for the API."""

    def __init__(self, port: int):
        self.port = port
        self.reader = self.writer = None
        self.cookie = b""  # the owner cookie the server gave this client, sent back

    async def open(self) -> None:
        """Connect to the server."""
        self.reader, self.writer = await asyncio.open_connection(HOST, self.port)

    async def request(self, method: str, path: str, body=None) -> tuple[int, dict]:
        """Send one request; return the reply's status and JSON body."""
        data = b"" if body is None else json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n")
        cookie = b"Cookie: " + self.cookie + b"\r\n" if self.cookie else b""
        self.writer.write(head.encode() + cookie + b"\r\n" + data)
        await self.writer.drain()
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            name = name.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "set-cookie":
                self.cookie = value.strip().split(";")[0].encode("latin-1")
        payload = await self.reader.readexactly(length)
        return status, json.loads(payload)

    def close(self) -> None:
        """Close the connection."""
        if self.writer is not None:
            self.writer.close()


class Totals:
    """What all the simulated people saw."""

    def __init__(self):
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.started = self.finished = 0
        self.foreign = 0  # another person's game seen in one's list (must stay 0)


async def person(index: int, port: int, args, deadline: float, totals: Totals) -> None:
    """One simulated person: whole games, one after another, until the deadline."""
    rng = random.Random(args.seed * 1000 + index)
    conn = Connection(port)
    moves, mine = 0, set()
    try:
        await conn.open()
        while time.monotonic() < deadline and moves < args.max_moves:
            status, body = await conn.request("POST", "/api/games",
                                              {"seed": rng.randrange(2**62)})
            if status != 201:
                totals.errors.append(f"new game: {status} {body}")
                return
            totals.started += 1
            game, view = body["game"], body["view"]
            mine.add(game)
            while view["status"] == "playing":
                if time.monotonic() >= deadline or moves >= args.max_moves:
                    return
                if args.think_ms:
                    await asyncio.sleep(args.think_ms / 1000)
                move = {"move": rng.choice(view["legal"]), "version": view["version"]}
                t0 = time.perf_counter()
                status, body = await conn.request("POST", f"/api/games/{game}/moves", move)
                totals.latencies.append(time.perf_counter() - t0)
                moves += 1
                if status != 200:
                    totals.errors.append(f"move: {status} {body}")
                    return
                if body["view"]["game"] != game or any(e["view"]["game"] != game
                                                       for e in body["events"]):
                    totals.errors.append(f"game {game} got another game's events")
                    return
                view = body["view"]
            totals.finished += 1
            status, body = await conn.request("GET", "/api/games")
            if status != 200:
                totals.errors.append(f"list: {status} {body}")
                return
            totals.foreign += sum(1 for g in body["games"] if g["id"] not in mine)
    except (OSError, ValueError, KeyError, asyncio.IncompleteReadError) as exc:
        totals.errors.append(f"person {index}: {type(exc).__name__}: {exc}")
    finally:
        conn.close()


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process `pid` (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(bots: str, port: int, games: str) -> subprocess.Popen:
    """Start `setback-cfr serve` on `port` and wait until it accepts connections."""
    server = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--bots", bots, "--host", HOST,
         "--port", str(port), "--games", games, "--delay-ms", "0",
         "--games-per-minute", "100000"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server did not start:\n{server.stdout.read()}")
        try:
            with socket.create_connection((HOST, port), timeout=1):
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start in 120 s")


async def warm_up(port: int, position: dict | None = None) -> None:
    """One game's first moves (and a decision), so numba's compiled code is loaded before the
    clock starts."""
    conn = Connection(port)
    await conn.open()
    if position is not None:
        await conn.request("POST", "/api/decide", position)
    _, body = await conn.request("POST", "/api/games", {"seed": 1})
    game, view, rng = body["game"], body["view"], random.Random(1)
    for _ in range(30):
        if view["status"] != "playing":
            break
        _, body = await conn.request("POST", f"/api/games/{game}/moves",
                                     {"move": rng.choice(view["legal"])})
        view = body["view"]
    conn.close()


def positions(n: int, seed: int) -> list[dict]:
    """`n` positions for `/api/decide` (tests/decide_positions.py: random deals played by
    random legal moves to a random point, from the side of the seat to act)."""
    sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]
    from decide_positions import random_positions

    return [position for position, _, _ in random_positions(n, seed)]


async def decide_load(args, port: int, work: list[dict]) -> Totals:
    """`POST /api/decide` at `args.decide` requests a second for `args.seconds`, over
    `args.players` connections; latency from each request's due time."""
    totals = Totals()
    total = int(args.decide * args.seconds)
    start = time.monotonic() + 0.1
    queue: asyncio.Queue = asyncio.Queue()
    for i in range(total):
        queue.put_nowait(i)

    async def client(index: int) -> None:
        conn = Connection(port)
        try:
            await conn.open()
            while True:
                try:
                    i = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                due = start + i / args.decide
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                status, body = await conn.request("POST", "/api/decide", work[i % len(work)])
                totals.latencies.append(time.monotonic() - due)
                if status != 200 or "move" not in body:
                    totals.errors.append(f"decide: {status} {body}")
        except (OSError, ValueError, KeyError, asyncio.IncompleteReadError) as exc:
            totals.errors.append(f"client {index}: {type(exc).__name__}: {exc}")
        finally:
            conn.close()

    await asyncio.gather(*(client(i) for i in range(args.players)))
    totals.started = total
    return totals


async def run(args, port: int) -> Totals:
    """Let every person play until the deadline."""
    totals = Totals()
    deadline = time.monotonic() + args.seconds
    await asyncio.gather(*(person(i, port, args, deadline, totals)
                           for i in range(args.players)))
    return totals


def percentile(sorted_values: list[float], q: float) -> float:
    """The q-quantile of ascending `sorted_values` (nan when empty)."""
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def main() -> None:
    """Run the load and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="heuristic",
                        help="the server's --bots (default heuristic)")
    parser.add_argument("--players", type=int, default=50, help="simulated people (default 50)")
    parser.add_argument("--seconds", type=float, default=60, help="how long they play (default 60)")
    parser.add_argument("--think-ms", type=float, default=0,
                        help="pause before each move, in ms (default 0: as fast as replies come)")
    parser.add_argument("--max-moves", type=int, default=100_000,
                        help="moves per person at most (default 100000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the people's choices")
    parser.add_argument("--decide", type=float, default=None, metavar="RATE",
                        help="instead of people, POST /api/decide at RATE requests a second")
    args = parser.parse_args()
    if args.players < 1 or args.seconds <= 0 or (args.decide is not None and args.decide <= 0):
        parser.error("--players must be at least 1, --seconds and --decide above 0")

    work = positions(2000, args.seed) if args.decide else None
    with tempfile.TemporaryDirectory(prefix="setback-web-load-") as folder:
        port = free_port()
        server = start_server(args.bots, port, os.path.join(folder, "games.db"))
        try:
            # numba's code loaded (or compiled) before the clock
            asyncio.run(warm_up(port, work[0] if work else None))
            cpu0, wall0 = cpu_seconds(server.pid), time.monotonic()
            if work:
                totals = asyncio.run(decide_load(args, port, work))
            else:
                totals = asyncio.run(run(args, port))
            cpu1, wall1 = cpu_seconds(server.pid), time.monotonic()
        finally:
            server.terminate()
            server.wait(timeout=30)
    lat = sorted(1000 * x for x in totals.latencies)
    if work:
        report_decide(args, totals, lat, cpu1 - cpu0, wall1 - wall0)
        return
    print(f"bots {args.bots}: {args.players} players, {args.seconds:g} s, "
          f"think {args.think_ms:g} ms")
    print(f"  games         {totals.started} started, {totals.finished} finished")
    print(f"  move requests {len(lat)} ({len(lat) / (wall1 - wall0):.0f}/s), "
          f"server CPU {cpu1 - cpu0:.1f} s of {wall1 - wall0:.1f} s")
    requests = len(lat) + totals.started
    print(f"  server CPU    {1000 * (cpu1 - cpu0) / max(requests, 1):.2f} ms per request "
          f"(moves and new games; the load-independent figure: one event loop serves "
          f"{1000 / max(1000 * (cpu1 - cpu0) / max(requests, 1), 1e-9):.0f} requests/s "
          "on a core of its own)")
    print(f"  errors        {len(totals.errors)}; another person's game in a list: "
          f"{totals.foreign}")
    for error in totals.errors[:5]:
        print(f"    {error[:200]}")
    print(f"  move latency  p50 {percentile(lat, 0.50):.1f} ms  p90 {percentile(lat, 0.90):.1f} ms"
          f"  p99 {percentile(lat, 0.99):.1f} ms  max {lat[-1] if lat else float('nan'):.1f} ms")
    print(f"  targets       zero errors: {'met' if not totals.errors else 'MISSED'}; "
          f"p99 < 50 ms: {'met' if lat and percentile(lat, 0.99) < 50 else 'MISSED'}")


def report_decide(args, totals: Totals, lat: list[float], cpu: float, wall: float) -> None:
    """The figures of a --decide run."""
    print(f"bots {args.bots}: POST /api/decide at {args.decide:g}/s over {args.players} "
          f"connections, {args.seconds:g} s")
    print(f"  requests      {len(lat)} of {totals.started} ({len(lat) / wall:.0f}/s), server "
          f"CPU {cpu:.1f} s of {wall:.1f} s ({1000 * cpu / max(len(lat), 1):.2f} ms a request)")
    print(f"  errors        {len(totals.errors)}")
    for error in totals.errors[:5]:
        print(f"    {error[:200]}")
    print(f"  latency       p50 {percentile(lat, 0.50):.2f} ms  p90 {percentile(lat, 0.90):.2f} ms"
          f"  p99 {percentile(lat, 0.99):.2f} ms  max {lat[-1] if lat else float('nan'):.2f} ms")
    print(f"  targets       zero errors: {'met' if not totals.errors else 'MISSED'}; "
          f"p99 < 5 ms: {'met' if lat and percentile(lat, 0.99) < 5 else 'MISSED'}")


if __name__ == "__main__":
    main()
