"""Serving people safely: each browser's games are its own (an owner cookie), request bodies
over 64 KiB get 413 before they are read whole, an owner may start only so many games a
minute (429), every reply carries the Content-Security-Policy, games from before owners keep
working on a local server, and the API is described at /openapi.json and /docs."""

import json
import re
import socket
import sqlite3

import pytest

pytest.importorskip("fastapi")
import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from web.app import create_app  # noqa: E402
from web.guard import CSP, MAX_BODY  # noqa: E402
from web.live import LiveServer  # noqa: E402
from web.store import GameStore  # noqa: E402

COOKIE = "setback_owner"


def app(path, **options):
    return create_app("heuristic", str(path), delay_ms=0, **options)


def start(client, seed=1):
    r = client.post("/api/games", json={"seed": seed})
    assert r.status_code == 201, r.text
    return r.json()


def game_urls(game):
    return [("GET", f"/api/games/{game}"), ("GET", f"/api/games/{game}/hint"),
            ("GET", f"/api/games/{game}/replay"), ("GET", f"/api/games/{game}/deals/0/replay"),
            ("POST", f"/api/games/{game}/moves")]


def test_two_owners_neither_see_nor_move_in_each_others_games(tmp_path):
    with TestClient(app(tmp_path / "g.db")) as alice, TestClient(alice.app) as bob:
        a = start(alice, 1)
        b = start(bob, 2)
        assert alice.cookies[COOKIE] != bob.cookies[COOKIE]
        assert re.fullmatch(r"[0-9a-f]{32}", a["game"])  # 128 random bits
        assert [g["id"] for g in alice.get("/api/games").json()["games"]] == [a["game"]]
        assert [g["id"] for g in bob.get("/api/games").json()["games"]] == [b["game"]]
        before = alice.get(f"/api/games/{a['game']}").json()
        legal = before["view"]["legal"]
        for method, url in game_urls(a["game"]):
            theirs = bob.request(method, url, json={"move": legal[0]})
            unknown = bob.request(method, url.replace(a["game"], "f" * 32),
                                  json={"move": legal[0]})
            # Another owner's game answers exactly as an unknown one: 404, same words.
            assert theirs.status_code == unknown.status_code == 404, (url, theirs.text)
            assert theirs.json() == {"error": f"no game {a['game']!r}"}
            assert unknown.json() == {"error": f"no game {'f' * 32!r}"}
        assert alice.get(f"/api/games/{a['game']}").json() == before  # nothing moved
        moved = alice.post(f"/api/games/{a['game']}/moves", json={"move": legal[0]})
        assert moved.status_code == 200
        # After a restart (the game rebuilt from the file) it is still Alice's only.
        alice.app.state.live.clear()
        assert bob.get(f"/api/games/{a['game']}").status_code == 404
        assert alice.get(f"/api/games/{a['game']}").status_code == 200


def test_a_client_without_a_cookie_gets_one_and_no_one_elses_games(tmp_path):
    with TestClient(app(tmp_path / "g.db")) as first:
        start(first)
        fresh = TestClient(first.app)  # a new browser: no cookie yet
        r = fresh.get("/api/games")
        assert r.json() == {"games": []}
        cookie = r.headers["set-cookie"]
        assert cookie.startswith(f"{COOKIE}=")
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
        token = cookie.split(";")[0].split("=", 1)[1]
        assert len(token) == 43 and token != first.cookies[COOKIE]
        # Sent back, the cookie is kept (no new one); a forged or garbled one is replaced.
        again = fresh.get("/api/games")
        assert "set-cookie" not in again.headers
        forged = TestClient(first.app, cookies={COOKIE: "../etc"}).get("/api/games")
        assert forged.headers["set-cookie"].split(";")[0] != f"{COOKIE}=../etc"
        assert forged.json() == {"games": []}
        # The page itself, the first request of a browser, gives the cookie too.
        page = TestClient(first.app).get("/")
        assert page.headers["set-cookie"].startswith(f"{COOKIE}=")


def read_reply(sock) -> tuple[int, dict, bytes]:
    """Status, headers and body of one HTTP/1.1 reply read from `sock`."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, data
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.setdefault(name.strip().lower(), value.strip())
    length = int(headers.get("content-length", 0))
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk
        body += chunk
    return int(lines[0].split()[1]), headers, body


def test_413_429_and_the_csp_header_on_the_wire(tmp_path):
    with LiveServer(app(tmp_path / "g.db", games_per_minute=3)) as server:
        host, port = server.url.rsplit("//", 1)[1].split(":")
        # A body announced over 64 KiB: refused from its headers, before any of it is sent.
        with socket.create_connection((host, int(port)), timeout=60) as sock:
            sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: "
                         b"application/json\r\nContent-Length: 10000000\r\n\r\n{")
            status, headers, body = read_reply(sock)
        assert status == 413 and "64 KiB" in json.loads(body)["error"]
        assert headers["content-security-policy"] == CSP
        # A chunked body: refused once what was read passes the limit; the rest unread.
        with socket.create_connection((host, int(port)), timeout=60) as sock:
            sock.sendall(b"POST /api/decide HTTP/1.1\r\nHost: x\r\nContent-Type: "
                         b"application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
            chunk = b" " * 16384
            for _ in range(MAX_BODY // len(chunk) + 1):
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            status, _, body = read_reply(sock)
        assert status == 413 and list(json.loads(body)) == ["error"]
        # Just under the limit is read and judged on its content.
        with httpx.Client(base_url=server.url, timeout=60) as c:
            r = c.post("/api/decide", content=b" " * (MAX_BODY - 2) + b"{}")
            assert r.status_code == 422
            for seed in range(3):
                assert c.post("/api/games", json={"seed": seed}).status_code == 201
            refused = c.post("/api/games", json={"seed": 9})
            assert refused.status_code == 429 and "3 new games a minute" in refused.json()["error"]
            assert 0 < int(refused.headers["retry-after"]) <= 60
            assert len(c.get("/api/games").json()["games"]) == 3
            page = c.get("/")
        with httpx.Client(base_url=server.url, timeout=60) as other:  # another owner may
            assert other.post("/api/games", json={"seed": 9}).status_code == 201
    assert page.headers["content-security-policy"] == CSP
    assert "'unsafe-inline'" not in CSP and "script-src 'self'" in CSP
    assert page.headers["x-content-type-options"] == "nosniff"


def test_the_page_has_no_inline_script_or_style():
    """What the CSP forbids, the page must not need: every script is a file of its own, no
    element has an on... handler or a style attribute (the shared table.html, the /docs page
    and the page built from Setback's declaration are read; every game's page:
    tests/test_web_page.py)."""
    import os

    from web.game_tables import web_game
    from web.page import build_page

    static = os.path.join(os.path.dirname(__file__), "..", "web", "static")
    pages = {name: open(os.path.join(static, name)).read()
             for name in ("table.html", "docs.html")}
    pages["the page"] = build_page(static, web_game("setback").load("page")).decode()
    for name, html in pages.items():
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == [], name
        assert not re.search(r"\son[a-z]+\s*=", html) and " style=" not in html, name
        assert "http://" not in html and "https://" not in html, name
    assert '<script src="/static/table.js"></script>' in pages["the page"]
    script = open(os.path.join(static, "table.js")).read()
    assert "style:" not in script and 'setAttribute("style"' not in script
    assert "innerHTML" not in script  # text only: a card or a name is never markup


def make_old_file(path):
    """A games file of format 1 (before owners) holding one unfinished game."""
    with TestClient(app(path)) as c:
        game = start(c, 5)["game"]
        c.app.state.store.close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE games SET owner = NULL")
        conn.execute("DROP INDEX games_by_owner")
        conn.execute("ALTER TABLE games DROP COLUMN owner")
        conn.execute("UPDATE web_meta SET value = '1' WHERE name = 'format_version'")
    return game


def test_games_from_before_owners_keep_working_on_a_local_server(tmp_path):
    path = tmp_path / "old.db"
    game = make_old_file(path)
    with TestClient(app(path, claim_unowned=True)) as alice, TestClient(alice.app) as bob:
        # Listed to everyone until somebody opens it; the first to open it owns it.
        assert [g["id"] for g in alice.get("/api/games").json()["games"]] == [game]
        assert [g["id"] for g in bob.get("/api/games").json()["games"]] == [game]
        assert alice.get(f"/api/games/{game}").status_code == 200
        assert bob.get(f"/api/games/{game}").status_code == 404
        assert bob.get("/api/games").json() == {"games": []}
        assert [g["id"] for g in alice.get("/api/games").json()["games"]] == [game]
        alice.app.state.store.close()
    store = GameStore(str(path))  # the file is format 2 now, with the owner kept
    assert store.load(game)["owner"] == alice.cookies[COOKIE]
    store.close()


def test_games_from_before_owners_stay_hidden_on_a_public_server(tmp_path):
    path = tmp_path / "old.db"
    game = make_old_file(path)
    with TestClient(app(path, claim_unowned=False)) as c:
        assert c.get("/api/games").json() == {"games": []}
        assert c.get(f"/api/games/{game}").status_code == 404


def test_the_openapi_document_describes_every_route_and_docs_shows_it(tmp_path):
    with TestClient(app(tmp_path / "g.db")) as c:
        doc = c.get("/openapi.json").json()
        routes = c.app.state.api_routes
        docs = c.get("/docs")
        assets = [c.get(f"/docs/assets/{n}") for n in ("swagger-ui-bundle.js", "swagger-ui.css")]
        example = doc["paths"]["/api/decide"]["post"]["requestBody"]["content"][
            "application/json"]["example"]  # the game's declared example (its API)
        decided = c.post("/api/decide", json=example)
    assert doc["openapi"].startswith("3.1")
    described = {(m.upper(), p) for p, ops in doc["paths"].items() for m in ops}
    assert described == set(routes) and ("POST", "/api/decide") in described
    for path, ops in doc["paths"].items():
        for op in ops.values():
            assert op["summary"] and ("200" in op["responses"] or "201" in op["responses"])
            names = {p["name"] for p in op.get("parameters", [])}
            assert names == set(re.findall(r"{(\w+)}", path)), path
    refs = set(re.findall(r'"#/components/(\w+)/(\w+)"', json.dumps(doc)))
    assert all(name in doc["components"][kind] for kind, name in refs)
    assert decided.status_code == 200 and decided.json()["seat"] == "E"
    assert docs.status_code == 200 and "/openapi.json" not in docs.text  # docs.js loads it
    assert all(a.status_code == 200 and len(a.content) > 10_000 for a in assets)
    assert docs.headers["content-security-policy"] == CSP
