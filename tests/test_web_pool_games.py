"""Concurrent requests on the bot pool (issue 48), through the app itself (httpx's ASGI
transport: every request a coroutine on one event loop, the bots on the pool's threads).

A stateful property test sends bursts of concurrent moves (some on one game at one version,
some without a version, some on other games) and reads of the games: every reply is a 200, a
409 (stale version, game over) or a 422 (a move no longer legal), a read never sees a move
half done, and at the end each stored game (read back by a new server from the file) equals a
serial replay of the moves that got 200, in the order of the versions they made. Then: the
same seeds give the same bot moves and explanations whatever the number of bot workers, for
search bots (Setback) and Euchre's bots."""

import asyncio
import random
import shutil
import tempfile

import pytest

pytest.importorskip("fastapi")
import httpx  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.stateful import (RuleBasedStateMachine, precondition, rule,  # noqa: E402
                                 run_state_machine_as_test)

from fastapi.testclient import TestClient  # noqa: E402

from web.app import create_app  # noqa: E402
from web.guard import COOKIE, new_owner  # noqa: E402
from web_helpers import client, new_game, setback_blueprint  # noqa: E402


def asgi_client(app, owner):
    """An async client of `app` in-process, as the browser holding `owner`'s cookie."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test",
                             cookies={COOKIE: owner}, timeout=120)


async def send_all(app, owner, requests):
    """Send `requests` ((method, path, body)) all at once; their (status, JSON) in order."""
    async with asgi_client(app, owner) as c:
        replies = await asyncio.gather(*(c.request(m, p, json=b) for m, p, b in requests))
    return [(r.status_code, r.json()) for r in replies]


def without_id(view):
    """A view without its game ID (two servers give the same game different IDs)."""
    return {k: v for k, v in view.items() if k != "game"}


def serial_replay(folder, seed, moves, game="setback", bots="heuristic"):
    """The final view of the game `seed` with `moves` played one after another on a server of
    its own (every one must be accepted)."""
    with client(f"{folder}/serial-{seed}.db", bots, game=game) as c:
        game_id = new_game(c, seed)["game"]
        view = c.get(f"/api/games/{game_id}").json()["view"]
        for move in moves:
            r = c.post(f"/api/games/{game_id}/moves", json={"move": move,
                                                            "version": view["version"]})
            assert r.status_code == 200, r.text
            view = r.json()["view"]
    return without_id(view)


class ConcurrentMoves(RuleBasedStateMachine):
    """Games on one server, hit by bursts of concurrent requests (module docstring)."""

    def __init__(self):
        super().__init__()
        self.folder = tempfile.mkdtemp(prefix="web-pool-")
        self.app = create_app("heuristic", f"{self.folder}/games.db", delay_ms=0,
                              bot_workers=3, max_wait=600)
        self.owner = new_owner()
        # game id -> {"seed", "accepted": {version made: move}, "views": {version: view}}
        self.games = {}

    @rule(seed=st.integers(0, 2**40))
    def start_a_game(self, seed):
        (status, body), = asyncio.run(send_all(self.app, self.owner,
                                               [("POST", "/api/games", {"seed": seed})]))
        assert status == 201, body
        view = body["view"]
        self.games[body["game"]] = {"seed": seed, "accepted": {},
                                    "views": {view["version"]: view}, "view": view}

    @precondition(lambda self: self.games)
    @rule(data=st.data())
    def a_burst(self, data):
        ids = sorted(self.games)
        shots = data.draw(st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(
            ("versioned", "unversioned", "read")), st.integers(0, 50)), min_size=1,
            max_size=10))
        requests = []
        for game, kind, pick in shots:
            view = self.games[game]["view"]
            if kind == "read" or not view["legal"]:
                requests.append(("GET", f"/api/games/{game}", None))
                continue
            body = {"move": view["legal"][pick % len(view["legal"])]}
            if kind == "versioned":
                body["version"] = view["version"]
            requests.append(("POST", f"/api/games/{game}/moves", body))
        replies = asyncio.run(send_all(self.app, self.owner, requests))
        versioned_wins = {}
        for (method, path, body), (status, reply) in zip(requests, replies):
            game = path.split("/")[3]
            record = self.games[game]
            if method == "GET":
                assert status == 200, reply
                seen = reply["view"]  # a state the game was in, never one half-way
                reads = record.setdefault("reads", [])
                reads.append(seen)
                continue
            assert status in (200, 409, 422), reply
            if status != 200:
                continue
            made = reply["view"]["version"]
            assert made not in record["accepted"], "two moves made one version"
            record["accepted"][made] = body["move"]
            record["views"][made] = reply["view"]
            if "version" in body:
                key = (game, body["version"])
                versioned_wins[key] = versioned_wins.get(key, 0) + 1
        assert all(n == 1 for n in versioned_wins.values()), versioned_wins
        for record in self.games.values():
            record["view"] = record["views"][max(record["views"])]
            for seen in record.pop("reads", []):
                assert record["views"].get(seen["version"]) == seen

    def teardown(self):
        try:
            self.app.state.pool.close()
            # A new server on the same file: what was stored, not what was in memory.
            reader = create_app("heuristic", f"{self.folder}/games.db", delay_ms=0)

            with TestClient(reader, cookies={COOKIE: self.owner}) as c:
                for game, record in self.games.items():
                    stored = c.get(f"/api/games/{game}").json()["view"]
                    moves = [record["accepted"][v] for v in sorted(record["accepted"])]
                    assert sorted(record["accepted"]) == list(range(1, len(moves) + 1))
                    assert without_id(stored) == serial_replay(self.folder, record["seed"],
                                                               moves)
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def test_stored_games_equal_a_serial_replay_of_the_accepted_moves():
    run_state_machine_as_test(ConcurrentMoves, settings=settings(
        max_examples=5, stateful_step_count=5, deadline=None,
        suppress_health_check=list(HealthCheck)))


# --- the same seed, the same bots, whatever the pool --------------------------------------
async def play_games(app, seeds, moves_each, hints=True):
    """Play the games `seeds` at once, each `moves_each` seeded random moves (asking a hint
    before each when `hints`); each game's replies (events and hints) in order."""
    owner = new_owner()

    async def one(seed):
        rng, out = random.Random(seed), []
        async with asgi_client(app, owner) as c:
            r = await c.post("/api/games", json={"seed": seed})
            assert r.status_code == 201, r.text
            game, view = r.json()["game"], r.json()["view"]
            out.append(r.json()["events"])
            for _ in range(moves_each):
                if view["status"] != "playing":
                    break
                if hints:
                    h = await c.get(f"/api/games/{game}/hint")
                    assert h.status_code == 200, h.text
                    out.append(h.json())
                r = await c.post(f"/api/games/{game}/moves", json={
                    "move": rng.choice(view["legal"]), "version": view["version"]})
                assert r.status_code == 200, r.text
                out.append(r.json()["events"])
                view = r.json()["view"]
        return strip_ids(out)

    return await asyncio.gather(*(one(s) for s in seeds))


def strip_ids(data):
    """`data` without the game IDs in its views."""
    if isinstance(data, dict):
        return {k: strip_ids(v) for k, v in data.items() if k != "game"}
    if isinstance(data, list):
        return [strip_ids(x) for x in data]
    return data


@pytest.fixture(scope="module")
def blueprint(tmp_path_factory):
    """A tiny Setback database for search bots."""
    return setback_blueprint(tmp_path_factory.mktemp("pool-blueprint"), deals=10)


@pytest.mark.parametrize("game, spec", [("setback", "search[worlds=8,threads=1]:db:{db}"),
                                        ("euchre", "heuristic")])
def test_the_same_seeds_give_the_same_bot_moves_whatever_the_pool_size(tmp_path, blueprint,
                                                                       game, spec):
    seeds = [11, 12, 13]
    runs = []
    for workers in (1, 4):
        # No shedding here (a first search compiles numba's code for seconds on a cold cache)
        app = create_app(spec.format(db=blueprint), str(tmp_path / f"w{workers}.db"),
                         delay_ms=0, game=game, bot_workers=workers, max_wait=600)
        try:
            runs.append(asyncio.run(play_games(app, seeds, moves_each=8)))
        finally:
            app.state.pool.close()
    assert runs[0] == runs[1]
    bot_moves = [e for game_replies in runs[0] for reply in game_replies
                 if isinstance(reply, list) for e in reply
                 if e["type"] == "move" and e["seat"] != "S"]
    assert len(bot_moves) > 3 * 8  # (a bot dealer's Euchre discard is face down: no reasons)
    assert all("explain" in e for e in bot_moves if e["move"] is not None)
    if game == "setback":  # the search bots searched (not only forced moves)
        assert any(e["explain"].get("searched") for e in bot_moves)


def test_think_counts_from_when_the_decision_starts_not_from_the_request(tmp_path, blueprint):
    """A hint asked while the only worker is held for 0.4 s still searches its whole 60 ms
    budget once a worker takes it: `think=` is the decision's own time, the wait is not taken
    out of it."""
    import threading
    import time

    app = create_app(f"search[think=60,worlds=1000000,threads=1]:db:{blueprint}",
                     str(tmp_path / "g.db"), delay_ms=0, bot_workers=1, max_wait=600)
    release = threading.Event()

    async def main():
        async with asgi_client(app, new_owner()) as c:
            game = (await c.post("/api/games", json={"seed": 4})).json()["game"]
            decided = app.state.metrics.decision.collect()[0]
            before = {s.name: s.value for s in decided.samples}
            app.state.pool.executor.submit(release.wait, 30)
            threading.Timer(0.4, release.set).start()
            t0 = time.perf_counter()
            hint = await c.get(f"/api/games/{game}/hint")
            waited = time.perf_counter() - t0
            after = {s.name: s.value for s in app.state.metrics.decision.collect()[0].samples}
            return hint, waited, after["setback_web_bot_decision_seconds_sum"] - before[
                "setback_web_bot_decision_seconds_sum"]

    try:
        hint, waited, decision = asyncio.run(main())
    finally:
        app.state.pool.close()
    assert hint.status_code == 200, hint.text
    assert waited >= 0.4 + 0.055  # the wait for the worker, then the whole budget
    assert 0.055 <= decision < waited - 0.3  # the decision's own time: its budget, not less
    assert hint.json()["reason"] == "search" and hint.json()["worlds"] > 0
