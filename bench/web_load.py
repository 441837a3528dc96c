"""Load on `setback-cfr serve` (issue 48): simulated people playing whole games through the API,
or programs asking `/api/decide` at a fixed rate, against database bots and search bots side
by side in one run, with a cheap request timed throughout.

Each (scenario, bots) pair gets a server of its own (`python -m cli.main serve --delay-ms 0`)
on a free loopback port with a fresh games file; traffic goes to 127.0.0.1 only, and every run
is bounded in time (--seconds) and count (--max-moves a person). The scenarios (issue 48's):

- `saturated`: --saturated-players people (default 200) with no think time: the bots are
  saturated. Targets with search bots: a cheap request's p99 <= 100 ms; an accepted move's
  p99 <= 1 s, the rest 503 with Retry-After; no other error; every accepted move stored
  exactly once; moves a second at least the --baseline run's (the pool must not cost
  throughput).
- `thinking`: --thinking-players people (default 50) thinking --think-ms on average (default
  1000; uniform from half to one and a half times it). Target: the search bots' move p99 at
  most 2x the database bots'.
- `decide`: programs sending `POST /api/decide` at --decide-rate requests a second (default 20,
  open loop: request i is due at i / RATE s whether or not the earlier ones were answered,
  over --decide-connections connections), positions of random deals played to random points.
  Latency runs from a request's due time. Target with search bots: p99 <= think + 20 ms.

A simulated person has its own keep-alive connection and owner cookie (a browser of its own),
starts a game, plays South with a seeded random legal move when its reply comes (after its
think time), starts the next game when one ends, and on a 503 waits the Retry-After it was
given (0.8 to 1.2 times it, as the page does) and sends the same move again. A move's latency
runs from sending the request that was accepted to having read its whole reply (the bots'
replies and the save included; the earlier 503s are counted apart). Meanwhile a probe on a
connection of its own sends `GET /api/games` (a store query, as a person opening the page
does) and `GET /healthz` in turn, --probe-hz times a second: the cheap request's latency.

After each run the games file is read back (`web.store.GameStore`): every person's game must
hold exactly the South moves it was answered 200 for, in order (each stored once, none lost,
none doubled), and its version their count.

It prints one block per scenario, bots side by side, then a line per target: `met` or
`MISSED` with the figure and what bounds it. --json FILE writes the figures; --baseline FILE
(the --json of another run, e.g. of the server before issue 48: --server-root a checkout of
it) is the moves-a-second bar of the saturated scenario.

    python bench/web_load.py --db base.db                          # the full run (~8 min)
    python bench/web_load.py --db base.db --seconds 10 --saturated-players 40 \\
        --thinking-players 10 --scenarios saturated,decide           # a short check
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = "127.0.0.1"  # loopback only
SCENARIOS = ("saturated", "thinking", "decide")


class Connection:
    """One keep-alive HTTP/1.1 connection speaking just enough of the protocol for the API."""

    def __init__(self, port: int):
        self.port = port
        self.reader = self.writer = None
        self.cookie = b""  # the owner cookie the server gave this client, sent back

    async def open(self) -> None:
        """Connect to the server."""
        self.reader, self.writer = await asyncio.open_connection(HOST, self.port)

    async def request(self, method: str, path: str, body=None) -> tuple[int, dict, dict]:
        """Send one request; return the reply's status, JSON body and headers (lower-case)."""
        data = b"" if body is None else json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n")
        cookie = b"Cookie: " + self.cookie + b"\r\n" if self.cookie else b""
        self.writer.write(head.encode() + cookie + b"\r\n" + data)
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split()[1])
        headers, length = {}, 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip()
            headers[name] = value
            if name == "content-length":
                length = int(value)
            elif name == "set-cookie":
                self.cookie = value.split(";")[0].encode("latin-1")
        payload = await self.reader.readexactly(length)
        return status, json.loads(payload), headers

    def close(self) -> None:
        """Close the connection."""
        if self.writer is not None:
            self.writer.close()


class Totals:
    """What one run saw."""

    def __init__(self):
        self.latencies: list[float] = []  # seconds, accepted moves (or decisions)
        self.shed = 0  # 503s with Retry-After
        self.errors: list[str] = []
        self.started = self.finished = 0
        self.foreign = 0  # another person's game seen in one's list (must stay 0)
        self.games: dict[str, list[str]] = {}  # game id -> the South moves answered 200
        self.probe = {"/api/games": [], "/healthz": []}  # seconds
        self.decisions = 0  # /api/decide requests sent


def retry_after(headers: dict, rng: random.Random) -> float:
    """Seconds to wait after a 503: its Retry-After, 0.8 to 1.2 times (as the page waits)."""
    return max(1.0, float(headers.get("retry-after", 1))) * (0.8 + 0.4 * rng.random())


async def person(index: int, port: int, args, think_ms: float, deadline: float,
                 totals: Totals) -> None:
    """One simulated person: whole games, one after another, until the deadline."""
    rng = random.Random(args.seed * 1000 + index)
    conn, moves, mine = Connection(port), 0, set()

    async def ask(method, path, body=None):
        """The request sent until it is not shed (waiting out each 503), or the deadline."""
        while True:
            t0 = time.perf_counter()
            status, reply, headers = await conn.request(method, path, body)
            if status != 503 or "retry-after" not in headers:
                return status, reply, time.perf_counter() - t0
            totals.shed += 1
            wait = retry_after(headers, rng)
            if time.monotonic() + wait >= deadline:
                return None, None, None
            await asyncio.sleep(wait)

    try:
        await conn.open()
        while time.monotonic() < deadline and moves < args.max_moves:
            status, body, _ = await ask("POST", "/api/games", {"seed": rng.randrange(2**62)})
            if status is None:
                return
            if status != 201:
                totals.errors.append(f"new game: {status} {body}")
                return
            totals.started += 1
            game, view = body["game"], body["view"]
            mine.add(game)
            accepted = totals.games.setdefault(game, [])
            while view["status"] == "playing":
                if think_ms:
                    await asyncio.sleep(think_ms * rng.uniform(0.5, 1.5) / 1000)
                if time.monotonic() >= deadline or moves >= args.max_moves:
                    return
                move = rng.choice(view["legal"])
                status, body, seconds = await ask("POST", f"/api/games/{game}/moves",
                                                  {"move": move, "version": view["version"]})
                if status is None:
                    return
                if status != 200:
                    totals.errors.append(f"move: {status} {body}")
                    return
                totals.latencies.append(seconds)
                accepted.append(move)
                moves += 1
                if body["view"]["game"] != game or any(e["view"]["game"] != game
                                                       for e in body["events"]):
                    totals.errors.append(f"game {game} got another game's events")
                    return
                view = body["view"]
            totals.finished += 1
            status, body, _ = await ask("GET", "/api/games")
            if status is None:
                return
            if status != 200:
                totals.errors.append(f"list: {status} {body}")
                return
            totals.foreign += sum(1 for g in body["games"] if g["id"] not in mine)
    except (OSError, ValueError, KeyError, asyncio.IncompleteReadError) as exc:
        totals.errors.append(f"person {index}: {type(exc).__name__}: {exc}")
    finally:
        conn.close()


async def probe(port: int, hz: float, deadline: float, totals: Totals) -> None:
    """The cheap requests, `GET /api/games` and `GET /healthz` in turn, `hz` a second."""
    conn = Connection(port)
    try:
        await conn.open()
        paths, i = list(totals.probe), 0
        while time.monotonic() < deadline:
            path = paths[i % len(paths)]
            t0 = time.perf_counter()
            status, body, _ = await conn.request("GET", path)
            if status == 404 and path == "/healthz" and len(paths) > 1:
                paths.remove(path)  # a server from before issue 48: no /healthz
                continue
            totals.probe[path].append(time.perf_counter() - t0)
            if status != 200:
                totals.errors.append(f"probe {path}: {status} {body}")
            i += 1
            await asyncio.sleep(max(0.0, 1 / hz - (time.perf_counter() - t0)))
    except (OSError, ValueError, asyncio.IncompleteReadError) as exc:
        totals.errors.append(f"probe: {type(exc).__name__}: {exc}")
    finally:
        conn.close()


def start_probe(port: int, args, seconds: float) -> subprocess.Popen:
    """The probe (`probe`) in a process of its own, so that its timings are the server's and
    not this process's loop, busy with the people's replies."""
    return subprocess.Popen([sys.executable, os.path.abspath(__file__), "--probe-port",
                             str(port), "--seconds", str(seconds), "--probe-hz",
                             str(args.probe_hz)], stdout=subprocess.PIPE, text=True)


def probe_main(args) -> None:
    """The probe process: probe for --seconds, then print what it saw as JSON."""
    totals = Totals()
    asyncio.run(probe(args.probe_port, args.probe_hz, time.monotonic() + args.seconds, totals))
    print(json.dumps({"probe": totals.probe, "errors": totals.errors}))


def read_probe(process: subprocess.Popen, totals: Totals) -> None:
    """The probe process's timings and errors, into `totals`."""
    out, _ = process.communicate(timeout=600)
    seen = json.loads(out.strip().splitlines()[-1])
    totals.probe = seen["probe"]
    totals.errors += seen["errors"]


async def people_load(port: int, args, players: int, think_ms: float) -> Totals:
    """`players` people (and the probe, in its own process) until the deadline."""
    totals = Totals()
    deadline = time.monotonic() + args.seconds
    prober = start_probe(port, args, args.seconds)
    await asyncio.gather(*(person(i, port, args, think_ms, deadline, totals)
                           for i in range(players)))
    read_probe(prober, totals)
    return totals


async def decide_load(port: int, args, work: list[dict]) -> Totals:
    """`POST /api/decide` at `args.decide_rate` requests a second for `args.seconds`, over
    `args.decide_connections` connections, and the probe; latency from each request's due
    time. A 503 is counted and not sent again (the program would come back later)."""
    totals = Totals()
    total = int(args.decide_rate * args.seconds)
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
                due = start + i / args.decide_rate
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                status, body, headers = await conn.request("POST", "/api/decide",
                                                           work[i % len(work)])
                totals.decisions += 1
                if status == 503 and "retry-after" in headers:
                    totals.shed += 1
                elif status != 200 or "move" not in body:
                    totals.errors.append(f"decide: {status} {body}")
                else:
                    totals.latencies.append(time.monotonic() - due)
        except (OSError, ValueError, KeyError, asyncio.IncompleteReadError) as exc:
            totals.errors.append(f"client {index}: {type(exc).__name__}: {exc}")
        finally:
            conn.close()

    prober = start_probe(port, args, args.seconds)
    await asyncio.gather(*(client(i) for i in range(args.decide_connections)))
    read_probe(prober, totals)
    totals.started = total
    return totals


def bot_decisions(port: int) -> tuple[float, float] | None:
    """(decisions, mean seconds) of the server's bots so far, from its /metrics (None: a
    server without them, e.g. one from before issue 48)."""
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://{HOST}:{port}/metrics", timeout=30) as reply:
            text = reply.read().decode()
    except OSError:
        return None
    found = dict(re.findall(r"^setback_web_bot_decision_seconds_(count|sum) (\S+)$", text,
                            re.MULTILINE))
    if "count" not in found:
        return None
    return float(found["count"]), float(found["sum"])


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


def start_server(args, bots: str, port: int, games: str) -> subprocess.Popen:
    """Start `setback-cfr serve` (from --server-root) on `port`; wait until it accepts
    connections."""
    command = [sys.executable, "-m", "cli.main", "serve", "--bots", bots, "--host", HOST,
               "--port", str(port), "--games", games, "--delay-ms", "0",
               "--games-per-minute", "100000"]
    for flag in ("bot_workers", "max_wait_ms", "max_backlog"):
        if getattr(args, flag) is not None:
            command += [f"--{flag.replace('_', '-')}", str(getattr(args, flag))]
    server = subprocess.Popen(command, cwd=args.server_root, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server did not start:\n{server.stdout.read()}")
        try:
            with socket.create_connection((HOST, port), timeout=1):
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start in 300 s")


async def warm_up(port: int, positions: list[dict] | None = None) -> None:
    """Three whole games (and a few decisions), so numba's compiled code is loaded before the
    clock starts: a kernel's first call in a process loads it from the cache, 0.1 to several
    seconds on a busy machine, and a path the warm-up missed costs that in the run."""
    conn = Connection(port)
    await conn.open()
    for position in (positions or [])[:20]:
        await conn.request("POST", "/api/decide", position)
    for seed in range(3):
        _, body, _ = await conn.request("POST", "/api/games", {"seed": seed})
        game, view, rng = body["game"], body["view"], random.Random(seed)
        for _ in range(500):
            if view["status"] != "playing":
                break
            _, body, _ = await conn.request("POST", f"/api/games/{game}/moves",
                                            {"move": rng.choice(view["legal"])})
            view = body["view"]
    conn.close()


def positions(n: int, seed: int) -> list[dict]:
    """`n` positions for `/api/decide` (tests/decide_positions.py: random deals played by
    random legal moves to a random point, from the side of the seat to act)."""
    sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]
    from decide_positions import random_positions

    return [position for position, _, _ in random_positions(n, seed)]


def stored_south_moves(games_file: str) -> dict[str, tuple[int, list[str]]]:
    """{game id: (version, South's moves in order)} of every Setback game in the file: each
    deal's moves replayed through the rules (as `Table.restore` does), keeping the seat of
    each."""
    sys.path.insert(0, ROOT)
    from web.game_tables import web_game
    from web.store import GameStore
    from web.table_base import HUMAN

    Table = web_game("setback").load("table")

    store = GameStore(games_file)
    try:
        with store.engine.connect() as conn:
            ids = [row[0] for row in conn.exec_driver_sql("SELECT id FROM games").all()]
        out = {}
        for game_id in ids:
            stored = store.load(game_id)
            table, south = Table(game_id, stored["seed"], None), []
            for deal in stored["deals"]:
                table._open_deal(deal["dealer"], deal["hands"], deal.get("setup"))
                for token in deal["moves"]:
                    if table.deal.to_act == HUMAN:
                        south.append(token)
                    table._apply(token)
                if table.deal.is_over:
                    table._finish_deal(None)
            out[game_id] = (stored["version"], south)
        return out
    finally:
        store.close()


def check_store(totals: Totals, games_file: str) -> list[str]:
    """The games whose stored South moves are not exactly the moves answered 200."""
    stored = stored_south_moves(games_file)
    wrong = []
    for game, accepted in totals.games.items():
        version, south = stored.get(game, (None, None))
        if south != accepted or version != len(accepted):
            wrong.append(f"game {game}: {len(accepted)} moves answered, stored version "
                         f"{version} with {None if south is None else len(south)} moves")
    return wrong


def percentile(values: list[float], q: float) -> float:
    """The q-quantile of `values` in ms (nan when empty)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def think_of(spec: str) -> float | None:
    """The `think=` of a search spec, in ms (None: not a search with a time budget)."""
    found = re.search(r"think=([0-9.]+)", spec)
    return float(found.group(1)) if found else None


def run_one(args, scenario: str, bots: str, work) -> dict:
    """One scenario against one kind of bots on a server of its own; its figures."""
    with tempfile.TemporaryDirectory(prefix="setback-web-load-") as folder:
        games = os.path.join(folder, "games.db")
        port = free_port()
        server = start_server(args, bots, port, games)
        try:
            asyncio.run(warm_up(port, work))
            before = bot_decisions(port)
            cpu0, wall0 = cpu_seconds(server.pid), time.monotonic()
            if scenario == "decide":
                totals = asyncio.run(decide_load(port, args, work))
            else:
                players = (args.saturated_players if scenario == "saturated"
                           else args.thinking_players)
                think = 0.0 if scenario == "saturated" else args.think_ms
                totals = asyncio.run(people_load(port, args, players, think))
            cpu1, wall1 = cpu_seconds(server.pid), time.monotonic()
            after = bot_decisions(port)
        finally:
            server.terminate()
            server.wait(timeout=60)
        wrong = check_store(totals, games) if scenario != "decide" else []
    wall = wall1 - wall0
    decisions = mean_decision = None
    if before is not None and after is not None and after[0] > before[0]:
        decisions = after[0] - before[0]
        mean_decision = 1000 * (after[1] - before[1]) / decisions
    return {"decisions": decisions, "mean_decision": mean_decision, "scenario": scenario,
            "bots": bots, "seconds": wall, "cpu": cpu1 - cpu0,
            "answered": len(totals.latencies), "per_second": len(totals.latencies) / wall,
            "p50": percentile(totals.latencies, 0.50), "p90": percentile(totals.latencies, 0.90),
            "p99": percentile(totals.latencies, 0.99),
            "max": percentile(totals.latencies, 1.0), "shed": totals.shed,
            "errors": len(totals.errors), "error_examples": totals.errors[:5],
            "foreign": totals.foreign, "games": totals.started, "finished": totals.finished,
            "store_wrong": wrong,
            "cheap_p99": percentile(totals.probe["/api/games"], 0.99),
            "health_p99": percentile(totals.probe["/healthz"], 0.99),
            "cheap_n": len(totals.probe["/api/games"]), "think": think_of(bots),
            "sent": totals.decisions}


def report(scenario: str, rows: list[dict], args) -> None:
    """One scenario's figures, bots side by side."""
    what = {"saturated": f"{args.saturated_players} people, no think time",
            "thinking": f"{args.thinking_players} people thinking ~{args.think_ms:g} ms",
            "decide": f"POST /api/decide at {args.decide_rate:g}/s over "
                      f"{args.decide_connections} connections"}[scenario]
    print(f"\n{scenario}: {what}, {args.seconds:g} s each")
    unit = "decision" if scenario == "decide" else "move"
    lines = [("bots", lambda r: r["bots"]),
             (f"{unit}s answered", lambda r: f"{r['answered']} ({r['per_second']:.1f}/s)"),
             (f"{unit} p50 / p99", lambda r: f"{r['p50']:.1f} / {r['p99']:.1f} ms"),
             (f"{unit} max", lambda r: f"{r['max']:.1f} ms"),
             ("503 (Retry-After)", lambda r: f"{r['shed']}"),
             ("other errors", lambda r: f"{r['errors']}"),
             ("cheap p99", lambda r: f"{r['cheap_p99']:.1f} ms /api/games, " + (
                 "no /healthz" if math.isnan(r["health_p99"]) else
                 f"{r['health_p99']:.1f} ms /healthz") + f" ({r['cheap_n']} probes)"),
             ("bot decisions", lambda r: "not measured" if r["decisions"] is None else
              f"{r['decisions'] / max(r['answered'], 1):.1f} a {unit}, mean "
              f"{r['mean_decision']:.1f} ms"),
             ("server CPU", lambda r: f"{r['cpu']:.1f} s of {r['seconds']:.1f} s")]
    if scenario != "decide":
        lines.insert(5, ("stored exactly once", lambda r: "yes" if not r["store_wrong"]
                         else f"NO ({len(r['store_wrong'])} games)"))
    width = max(len(r["bots"]) for r in rows) + 2
    for name, cell in lines:
        print(f"  {name:<20}" + "".join(f"{cell(r):<{max(width, 50)}}" for r in rows))
    for r in rows:
        for error in r["error_examples"] + r["store_wrong"][:3]:
            print(f"    {r['bots']}: {error[:200]}")


def verdicts(results: list[dict], baseline: list[dict] | None) -> list[str]:
    """A line per target of issue 48: met or MISSED, the figure and what bounds it."""
    def find(scenario, search):
        rows = [r for r in results if r["scenario"] == scenario
                and (r["think"] is not None) == search]
        return rows[0] if rows else None

    def line(ok, text):
        return f"  {'met   ' if ok else 'MISSED'} {text}"

    out = []
    sat = find("saturated", True)
    if sat:
        out.append(line(sat["cheap_p99"] <= 100, f"saturated, search bots: cheap request p99 "
                        f"{sat['cheap_p99']:.1f} ms <= 100 ms (GET /api/games; /healthz "
                        f"{sat['health_p99']:.1f} ms)"))
        out.append(line(sat["p99"] <= 1000, f"saturated, search bots: accepted move p99 "
                        f"{sat['p99']:.1f} ms <= 1000 ms ({sat['shed']} answered 503)"))
        out.append(line(sat["errors"] == 0 and sat["foreign"] == 0,
                        f"saturated, search bots: no other error ({sat['errors']}; another "
                        f"person's game in a list: {sat['foreign']})"))
        out.append(line(not sat["store_wrong"], f"saturated, search bots: every accepted move "
                        f"stored exactly once ({sat['answered']} moves in {sat['games']} "
                        f"games replayed from the store; {len(sat['store_wrong'])} wrong)"))
        old = None
        for row in baseline or ():
            if row["scenario"] == "saturated" and row["bots"] == sat["bots"]:
                old = row
        if old is None:
            out.append(f"  ?      saturated, search bots: {sat['per_second']:.1f} moves/s; no "
                       "--baseline run of the same bots to hold it against")
        else:
            out.append(line(sat["per_second"] >= old["per_second"],
                            f"saturated, search bots: {sat['per_second']:.1f} moves/s >= the "
                            f"baseline's {old['per_second']:.1f}"))
    think_search, think_db = find("thinking", True), find("thinking", False)
    if think_search and think_db:
        bound = 2 * think_db["p99"]
        why = ""
        if think_search["decisions"]:  # a move's bot decisions run one after another
            why = (f"; a move holds {think_search['decisions'] / think_search['answered']:.1f}"
                   f" bot decisions of {think_search['mean_decision']:.1f} ms on average, one "
                   "after another")
        out.append(line(think_search["p99"] <= bound, f"thinking: search bots' move p99 "
                        f"{think_search['p99']:.1f} ms <= 2 x the database bots' "
                        f"{think_db['p99']:.1f} ms = {bound:.1f} ms{why}"))
    decide = find("decide", True)
    if decide:
        bound = decide["think"] + 20
        out.append(line(decide["p99"] <= bound and decide["shed"] == 0 and not decide["errors"],
                        f"decide at {decide['answered'] / max(decide['seconds'], 1e-9):.1f}/s, "
                        f"search bots: p99 {decide['p99']:.1f} ms <= think {decide['think']:g} + "
                        f"20 ms = {bound:g} ms ({decide['shed']} answered 503, "
                        f"{decide['errors']} errors)"))
    return out


def main() -> None:
    """Run the scenarios for every kind of bots and print the figures and the verdicts."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default=None, metavar="PATH",
                        help="a Setback strategy database: the bots are then db:PATH and "
                        "--search-spec on it, side by side")
    parser.add_argument("--search-spec", default="search[think=20]:db:{db}", metavar="SPEC",
                        help="the search bots, {db} standing for --db (default "
                        "search[think=20]:db:{db})")
    parser.add_argument("--bots", nargs="+", default=None, metavar="PLAYER",
                        help="the kinds of bots instead (any serve --bots; one with think=MS "
                        "counts as the search bots of the targets)")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS),
                        help="which of saturated,thinking,decide to run (default all)")
    parser.add_argument("--seconds", type=float, default=60, help="each run's length (default 60)")
    parser.add_argument("--saturated-players", type=int, default=200,
                        help="people of the saturated scenario (default 200)")
    parser.add_argument("--thinking-players", type=int, default=50,
                        help="people of the thinking scenario (default 50)")
    parser.add_argument("--think-ms", type=float, default=1000,
                        help="their mean think time, ms (default 1000: 500 to 1500)")
    parser.add_argument("--decide-rate", type=float, default=20,
                        help="/api/decide requests a second (default 20)")
    parser.add_argument("--decide-connections", type=int, default=20,
                        help="connections they are spread over (default 20)")
    parser.add_argument("--probe-hz", type=float, default=10,
                        help="cheap requests a second (default 10)")
    parser.add_argument("--max-moves", type=int, default=100_000,
                        help="moves per person at most (default 100000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the people's choices")
    parser.add_argument("--bot-workers", type=int, default=None,
                        help="the servers' --bot-workers (default theirs)")
    parser.add_argument("--max-wait-ms", type=int, default=None,
                        help="the servers' --max-wait-ms (default theirs)")
    parser.add_argument("--max-backlog", type=int, default=None,
                        help="the servers' --max-backlog (default theirs)")
    parser.add_argument("--server-root", default=ROOT,
                        help="the checkout whose `cli.main serve` is run (default this one)")
    parser.add_argument("--json", default=None, metavar="FILE",
                        help="write every run's figures here")
    parser.add_argument("--baseline", default=None, metavar="FILE",
                        help="the --json of an earlier run: its moves a second are the bar")
    parser.add_argument("--probe-port", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe_port is not None:  # this process is a run's probe (start_probe)
        probe_main(args)
        return
    scenarios = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    if not scenarios or any(s not in SCENARIOS for s in scenarios):
        parser.error(f"--scenarios takes a comma-separated list of {', '.join(SCENARIOS)}")
    if (args.db is None) == (args.bots is None):
        parser.error("give --db PATH (database and search bots on it) or --bots PLAYER ...")
    if min(args.saturated_players, args.thinking_players, args.decide_connections) < 1 \
            or min(args.seconds, args.decide_rate, args.probe_hz) <= 0 or args.think_ms < 0:
        parser.error("the players and connections must be at least 1, --seconds, "
                     "--decide-rate and --probe-hz above 0, --think-ms at least 0")
    if args.db is not None and not os.path.isfile(args.db):
        parser.error(f"--db {args.db}: no such file")
    if args.server_root != ROOT and any(getattr(args, f) is not None for f in
                                        ("bot_workers", "max_wait_ms", "max_backlog")):
        print("note: an older server may not know --bot-workers, --max-wait-ms, --max-backlog")
    bots = args.bots or [f"db:{args.db}", args.search_spec.format(db=args.db)]
    baseline = None
    if args.baseline:
        with open(args.baseline) as handle:
            baseline = json.load(handle)["results"]

    work = positions(2000, args.seed) if "decide" in scenarios else None
    results = []
    for scenario in scenarios:
        rows = []
        for spec in bots:
            print(f"[{scenario}] {spec} ...", flush=True)
            rows.append(run_one(args, scenario, spec, work if scenario == "decide" else None))
        report(scenario, rows, args)
        results += rows
    print("\ntargets (issue 48):")
    for text in verdicts(results, baseline):
        print(text)
    if args.json:
        with open(args.json + ".tmp", "w") as handle:
            json.dump({"format": "setback-cfr-web-load", "format_version": 1,
                       "args": vars(args), "results": results}, handle, indent=1)
        os.replace(args.json + ".tmp", args.json)


if __name__ == "__main__":
    main()
