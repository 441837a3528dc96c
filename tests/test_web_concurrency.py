"""Ten people at once on one live server (loopback HTTP, one thread each): every game is
played to the end with zero errors, and no game sees another's moves: each ends exactly as
the same seed and the same choices end on a server of its own."""

import random
import threading

import pytest

pytest.importorskip("fastapi")
import httpx  # noqa: E402

from web.app import create_app  # noqa: E402
from web.live import LiveServer  # noqa: E402

PLAYERS = 10


def play_game(base: str, seed: int, errors: list) -> dict:
    """One person's whole game through the API; returns its final view and its moves."""
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=180) as client:
        r = client.post("/api/games", json={"seed": seed})
        if r.status_code != 201:
            errors.append(r.text)
            return {}
        game, view = r.json()["game"], r.json()["view"]
        moves = 0
        while view["status"] == "playing" and moves < 2000:
            r = client.post(f"/api/games/{game}/moves",
                            json={"move": rng.choice(view["legal"]), "version": view["version"]})
            if r.status_code != 200:
                errors.append(r.text)
                return {}
            body = r.json()
            assert all(e["view"]["game"] == game for e in body["events"])
            view = body["view"]
            moves += 1
        replay = client.get(f"/api/games/{game}/replay").json()
    return {"view": view, "deals": replay["deals"]}


def test_ten_people_play_whole_games_at_once_without_seeing_each_other(tmp_path):
    app = create_app("heuristic", str(tmp_path / "shared.db"), delay_ms=0)
    results, errors = {}, []
    with LiveServer(app) as server:
        def person(i):
            try:
                results[i] = play_game(server.url, 100 + i, errors)
            except Exception as exc:  # noqa: BLE001 -- counted, then the test fails
                errors.append(repr(exc))

        threads = [threading.Thread(target=person, args=(i,)) for i in range(PLAYERS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
    assert errors == []
    assert len(results) == PLAYERS
    assert all(r["view"]["status"] == "over" for r in results.values())
    # Alone on a server of its own, each game ends the same: nothing leaked between games.
    alone_app = create_app("heuristic", str(tmp_path / "alone.db"), delay_ms=0)
    with LiveServer(alone_app) as server:
        for i in range(PLAYERS):
            alone = play_game(server.url, 100 + i, errors)
            for r in (alone, results[i]):
                r["view"].pop("game")
            assert alone == results[i]
    assert errors == []
