"""Overload (issue 48): a full backlog answers 503 with Retry-After and does nothing (no partial
move, no game started, no start counted against the owner's limit); cheap requests are
answered meanwhile; and a server killed with SIGKILL in the middle of a load, then restarted on
its games file, has every move it answered 200 stored, each game where its last accepted move
left it (or one move further, a move in flight when it died), and goes on."""

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("fastapi")
import httpx  # noqa: E402

from web.app import create_app  # noqa: E402
from web.guard import COOKIE, new_owner  # noqa: E402
from test_web_pool_games import asgi_client, serial_replay, without_id  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_a_full_backlog_gives_503_with_retry_after_and_changes_nothing(tmp_path):
    app = create_app("heuristic", str(tmp_path / "g.db"), delay_ms=0, bot_workers=1,
                     max_backlog=1, games_per_minute=3)
    pool, owner, release = app.state.pool, new_owner(), threading.Event()

    async def main():
        async with asgi_client(app, owner) as c:
            games = [(await c.post("/api/games", json={"seed": s})).json() for s in (1, 2)]
            before = [(await c.get(f"/api/games/{g['game']}")).json() for g in games]
            listed = (await c.get("/api/games")).json()
            pool.executor.submit(release.wait, 30)  # the only worker is busy elsewhere
            view = before[0]["view"]
            first = asyncio.ensure_future(c.post(f"/api/games/{games[0]['game']}/moves", json={
                "move": view["legal"][0], "version": view["version"]}))
            while pool.backlog < 1:  # the first move is admitted, waiting for the worker
                await asyncio.sleep(0.01)
            view = before[1]["view"]
            shed = {
                "move": await c.post(f"/api/games/{games[1]['game']}/moves",
                                     json={"move": view["legal"][0], "version": view["version"]}),
                "new game": await c.post("/api/games", json={"seed": 3}),
                "hint": await c.get(f"/api/games/{games[1]['game']}/hint"),
                "decide": await c.post("/api/decide", json={}),
            }
            t0 = time.perf_counter()
            cheap = [await c.get(path) for path in ("/healthz", "/api/games", "/api/config",
                                                    f"/api/games/{games[1]['game']}")]
            cheap_seconds = time.perf_counter() - t0
            metrics = (await c.get("/metrics")).text
            release.set()
            answered = await first
            after = [(await c.get(f"/api/games/{g['game']}")).json() for g in games]
            listed_after = (await c.get("/api/games")).json()
            started = await c.post("/api/games", json={"seed": 3})  # the limit still has room
            return (shed, cheap, cheap_seconds, metrics, answered, before, after, listed,
                    listed_after, started)

    try:
        (shed, cheap, cheap_seconds, metrics, answered, before, after, listed, listed_after,
         started) = asyncio.run(main())
    finally:
        pool.close()
    for name, r in shed.items():
        assert r.status_code == 503, (name, r.text)
        assert int(r.headers["Retry-After"]) >= 1, name
        assert list(r.json()) == ["error"] and "busy" in r.json()["error"], name
    assert all(r.status_code == 200 for r in cheap)
    assert cheap_seconds < 5  # answered while the bots were blocked (generous: a busy CI)
    assert cheap[0].json()["backlog"] == 1
    assert answered.status_code == 200 and after[0]["view"]["version"] == 1
    assert after[1] == before[1]  # the shed move did nothing
    ids = [sorted(g["id"] for g in games["games"]) for games in (listed, listed_after)]
    assert ids[0] == ids[1] and len(ids[0]) == 2  # the shed new game started nothing
    assert started.status_code == 201  # and was not counted against the owner's 3 a minute
    assert 'setback_web_shed_total{route="/api/games/{game_id}/moves"} 1.0' in metrics
    assert 'setback_web_shed_total{route="/api/decide"} 1.0' in metrics
    assert "setback_web_backlog 1.0" in metrics


# --- killed mid-load and restarted ------------------------------------------------------
def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(games: str, port: int) -> subprocess.Popen:
    """`setback-cfr serve` on `port` and `games`, once it answers /healthz."""
    server = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--bots", "heuristic", "--port", str(port),
         "--games", games, "--delay-ms", "0", "--games-per-minute", "1000",
         "--bot-workers", "2"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert server.poll() is None, server.stderr.read().decode()
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    raise AssertionError("the server did not start in 120 s")


def person(url, seed, record, stop):
    """Play the game `seed` with seeded random moves until `stop` or an error (the server's
    death); `record`: the owner, game, accepted moves and the move in flight when it ended."""
    rng, owner = random.Random(seed), new_owner()
    record.update(owner=owner, accepted=[], in_flight=None)
    try:
        with httpx.Client(base_url=url, cookies={COOKIE: owner}, timeout=30) as c:
            r = c.post("/api/games", json={"seed": seed})
            if r.status_code != 201:
                return
            record["game"], view = r.json()["game"], r.json()["view"]
            while view["status"] == "playing" and not stop.is_set():
                move = rng.choice(view["legal"])
                record["in_flight"] = move
                r = c.post(f"/api/games/{record['game']}/moves",
                           json={"move": move, "version": view["version"]})
                if r.status_code == 503:
                    record["in_flight"] = None
                    time.sleep(0.05)
                    continue
                assert r.status_code == 200, r.text
                record["accepted"].append(move)
                record["in_flight"] = None
                view = r.json()["view"]
    except httpx.HTTPError:
        pass  # the server died under this person: the move in flight stays recorded


def test_a_server_killed_mid_load_and_restarted_loses_no_accepted_move(tmp_path):
    games, port = str(tmp_path / "games.db"), free_port()
    url = f"http://127.0.0.1:{port}"
    server = start_server(games, port)
    records, stop = [{} for _ in range(8)], threading.Event()
    people = [threading.Thread(target=person, args=(url, 500 + i, records[i], stop))
              for i in range(len(records))]
    try:
        for p in people:
            p.start()
        deadline = time.monotonic() + 60
        while sum(len(r.get("accepted", ())) for r in records) < 40:  # well into the load
            assert time.monotonic() < deadline and any(p.is_alive() for p in people)
            time.sleep(0.02)
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=30)
        stop.set()
        for p in people:
            p.join(timeout=60)
        server = start_server(games, port)
        played = [r for r in records if r.get("game")]
        assert len(played) == len(records)
        for r in played:
            with httpx.Client(base_url=url, cookies={COOKIE: r["owner"]}, timeout=30) as c:
                reply = c.get(f"/api/games/{r['game']}")
                assert reply.status_code == 200, reply.text
                stored = without_id(reply.json()["view"])
                expected = serial_replay(tmp_path, 500 + played.index(r), r["accepted"])
                if stored != expected:  # only a move the server took but never answered
                    assert r["in_flight"] is not None, r
                    expected = serial_replay(tmp_path, 500 + played.index(r),
                                             r["accepted"] + [r["in_flight"]])
                assert stored == expected
                if stored["status"] == "playing":  # and the game goes on
                    move = {"move": stored["legal"][0], "version": stored["version"]}
                    assert c.post(f"/api/games/{r['game']}/moves", json=move).status_code == 200
    finally:
        stop.set()
        server.kill()
        server.wait(timeout=30)
