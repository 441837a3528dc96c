"""Load on `setback-cfr serve`: many simulated people playing whole games through the API.

A server is started as its own process (`python -m cli.main serve --delay-ms 0`) on a free
loopback port with a fresh games file; --players simulated people, each on its own keep-alive
connection, start a game, play South with a seeded random legal move as soon as the reply
comes (after --think-ms), start the next game when one ends, and stop at --seconds (or after
--max-moves moves each: the run is bounded in time and count). The clients are asyncio
coroutines in this process with a minimal HTTP/1.1 client (little client CPU beside the
server, which has the other core).

It prints the error count (a non-2xx reply, a broken reply, or a reply about another game)
and the latency of a move request, from sending it to having read the whole reply, which
includes the bots' replies and the game's save: p50, p90, p99 and max. Targets (issue 12):
zero errors, p99 < 50 ms with `db:` bots. With no think time the server is saturated and a
request waits behind the others' (the event loop serves them one at a time, in arrival order:
`web.turns`), so the latency there is the queue, about players x server CPU per request;
--think-ms 1000 is closer to people.

    python bench/web_load.py [--bots heuristic|db:PATH|...] [--players 50] [--seconds 60]
                             [--think-ms 0] [--max-moves 100000] [--seed 0]
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

    async def open(self) -> None:
        """Connect to the server."""
        self.reader, self.writer = await asyncio.open_connection(HOST, self.port)

    async def request(self, method: str, path: str, body=None) -> tuple[int, dict]:
        """Send one request; return the reply's status and JSON body."""
        data = b"" if body is None else json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n")
        self.writer.write(head.encode() + data)
        await self.writer.drain()
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
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


async def person(index: int, port: int, args, deadline: float, totals: Totals) -> None:
    """One simulated person: whole games, one after another, until the deadline."""
    rng = random.Random(args.seed * 1000 + index)
    conn = Connection(port)
    moves = 0
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
         "--port", str(port), "--games", games, "--delay-ms", "0"],
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


async def warm_up(port: int) -> None:
    """One game's first moves, so numba's compiled code is loaded before the clock starts."""
    conn = Connection(port)
    await conn.open()
    _, body = await conn.request("POST", "/api/games", {"seed": 1})
    game, view, rng = body["game"], body["view"], random.Random(1)
    for _ in range(30):
        if view["status"] != "playing":
            break
        _, body = await conn.request("POST", f"/api/games/{game}/moves",
                                     {"move": rng.choice(view["legal"])})
        view = body["view"]
    conn.close()


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
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="setback-web-load-") as folder:
        port = free_port()
        server = start_server(args.bots, port, os.path.join(folder, "games.db"))
        try:
            asyncio.run(warm_up(port))  # numba's code loaded (or compiled) before the clock
            cpu0, wall0 = cpu_seconds(server.pid), time.monotonic()
            totals = asyncio.run(run(args, port))
            cpu1, wall1 = cpu_seconds(server.pid), time.monotonic()
        finally:
            server.terminate()
            server.wait(timeout=30)
    lat = sorted(1000 * x for x in totals.latencies)
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
    print(f"  errors        {len(totals.errors)}")
    for error in totals.errors[:5]:
        print(f"    {error[:200]}")
    print(f"  move latency  p50 {percentile(lat, 0.50):.1f} ms  p90 {percentile(lat, 0.90):.1f} ms"
          f"  p99 {percentile(lat, 0.99):.1f} ms  max {lat[-1] if lat else float('nan'):.1f} ms")
    print(f"  targets       zero errors: {'met' if not totals.errors else 'MISSED'}; "
          f"p99 < 50 ms: {'met' if lat and percentile(lat, 0.99) < 50 else 'MISSED'}")


if __name__ == "__main__":
    main()
