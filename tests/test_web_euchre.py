"""The Euchre table of `setback-cfr serve --game euchre` (httpx through Starlette's TestClient):
a whole game to 10 with legal moves only, read back by the replay; what South may not see
stays hidden; every kind of bad request is a 4xx with one line and changes nothing; a restart
goes on exactly where the game stood; the games file keeps each game's game, and a server of
one game neither lists nor opens another's; the command line's --game."""

import html
import json
import sqlite3

import pytest

pytest.importorskip("fastapi")
from cli_runner import run_cli  # noqa: E402
from games.euchre.replay import replay  # noqa: E402
from web.store import FORMAT_VERSION, GameStore  # noqa: E402
from web_helpers import new_game, play_to_the_end, seeded_person  # noqa: E402
from web_helpers import client as web_client  # noqa: E402


def client(path, game="euchre", **options):
    """A client of a new app (of Euchre, unless `game`) on the games file `path`."""
    return web_client(path, game=game, **options)


def play(c, game, choose, stop_after=None):
    """South plays `choose(view)` until the game is over (or `stop_after` moves); returns the
    last view and the events."""
    return play_to_the_end(c, game, choose, stop_after, most=1000)


def test_a_whole_game_to_10_through_the_api(tmp_path):
    with client(tmp_path / "g.db") as c:
        start = new_game(c, 4)
        game, first = start["game"], start["view"]
        assert first["dealer"] == "S" and first["upcard_status"] == "up"
        # South deals the first hand: West, North and East call before South, as events.
        assert [e["seat"] for e in start["events"] if e["type"] == "move"] == ["W", "N", "E"]
        assert first["phase"] == "order" and first["legal"] == ["P", first["upcard"][1]]
        assert sorted(first["held"].values()) == [5, 5, 5, 5] and len(first["hand"]) == 5
        hint = c.get(f"/api/games/{game}/hint").json()
        assert hint["move"] in first["legal"] and hint["kind"] == "order"
        assert [a["action"] for a in hint["actions"]] == ["P", "order"]
        view, events = play(c, game, seeded_person(1))
        replayed = c.get(f"/api/games/{game}/replay").json()
    assert view["status"] == "over" and view["winner"] in ("NS", "EW")
    assert view["score"][view["winner"]] >= 10 > view["score"][
        {"NS": "EW", "EW": "NS"}[view["winner"]]]
    kinds = {e["type"] for e in events}
    assert {"move", "deal", "deal_over", "game_over"} <= kinds
    history = view["history"]
    # Each hand: the side that scores gets 1, 2 or 4; the scores add up; the deal rotates.
    assert [h["dealer"] for h in history] == ["SWNE"[i % 4] for i in range(len(history))]
    for h in history:
        assert sorted(h["points"].values()) in ([0, 1], [0, 2], [0, 4])
        assert h["tricks"]["NS"] + h["tricks"]["EW"] == 5
    assert {t: sum(h["points"][t] for h in history) for t in ("NS", "EW")} == view["score"]
    # The download replays hand by hand to the same tricks and points.
    assert replayed["score"] == view["score"] and len(replayed["deals"]) == len(history)
    for deal, h in zip(replayed["deals"], history):
        out = replay(deal)
        assert out["points"] == h["points"] and out["tricks_won"] == h["tricks"]
        assert out["contract"] == {"trump": h["trump"], "maker": h["maker"],
                                   "alone": h["alone"]}


def test_south_sees_its_own_cards_and_what_is_played_only(tmp_path):
    """Hidden: the other hands (only their sizes), a bot dealer's discard (an event without
    its card or its reasoning); shown: South's own discard, the tricks as played."""
    with client(tmp_path / "g.db") as c:
        game = new_game(c, 8)["game"]
        views, events = [], []
        person = seeded_person(3)
        view = c.get(f"/api/games/{game}").json()["view"]
        for _ in range(400):
            if view["status"] != "playing":
                break
            r = c.post(f"/api/games/{game}/moves", json={"move": person(view)})
            events += r.json()["events"]
            view = r.json()["view"]
        deals = c.get(f"/api/games/{game}/replay").json()["deals"]
    discards = [e for e in events if e["type"] == "move" and e["phase"] == "discard"]
    assert any(e["seat"] != "S" for e in discards) and any(e["seat"] == "S" for e in discards)
    for e in discards:
        if e["seat"] != "S":
            assert e["move"] is None and "explain" not in e and e["view"]["discard"] is None
        else:
            assert e["move"] == e["view"]["discard"] and e["move"] not in e["view"]["hand"]
    for e in events:
        v = e["view"]
        number = v["deal"]
        dealt = deals[number]["hands"]
        shown = {c["card"] for t in v["tricks"] + [v["trick"] or {"cards": []}]
                 for c in t["cards"]}
        if v["phase"] in ("order", "name") and e["type"] != "deal_over":
            assert not shown - set(dealt["S"]) - {v["upcard"]}  # nothing played yet
        assert set(v["hand"]) <= set(dealt["S"]) | {v["upcard"]}
        assert set(v["legal"]) == set() or v["to_act"] == "S"
        assert sum(v["held"].values()) <= 21


def test_bad_requests_are_refused_in_one_line_and_change_nothing(tmp_path):
    with client(tmp_path / "g.db") as c:
        game = new_game(c, 4)["game"]
        before = c.get(f"/api/games/{game}").json()["view"]
        card = before["hand"][0]
        bad = [
            (c.post(f"/api/games/{game}/moves", json={"move": card}), 422, "in the order phase"),
            (c.post(f"/api/games/{game}/moves", json={"move": "H" if before["upcard"][1] != "H"
                                                       else "D"}), 422, "illegal move"),
            (c.post(f"/api/games/{game}/moves", json={"move": "XX"}), 422, "bad move"),
            (c.post(f"/api/games/{game}/moves", json={"move": 7}), 422, "'move' must be"),
            (c.post(f"/api/games/{game}/moves", json={"move": "P", "seat": "N"}), 409,
             "played by the bots"),
            (c.post(f"/api/games/{game}/moves", json={"move": "P", "version": 9}), 409,
             "moved on"),
            (c.post(f"/api/games/{game}/moves", json={}), 400, "needs a \"move\""),
            (c.post(f"/api/games/{game}/moves", content=b"{oops"), 400, "malformed JSON"),
            (c.post(f"/api/games/{'0' * 32}/moves", json={"move": "P"}), 404, "no game"),
            (c.get(f"/api/games/{'0' * 32}"), 404, "no game"),
            (c.get(f"/api/games/{game}/replay"), 409, "not over"),
            (c.post("/api/decide", json={"dealer": "S", "hands": {}, "moves": []}), 422,
             "the position has no 'upcard'"),
        ]
        after = c.get(f"/api/games/{game}").json()["view"]
        view, _ = play(c, game, seeded_person(2))
        over = c.post(f"/api/games/{game}/moves", json={"move": "P"})
        hint = c.get(f"/api/games/{game}/hint")
    for response, status, message in bad:
        assert response.status_code == status, (response.status_code, response.text)
        error = response.json()["error"]
        assert message in error and "\n" not in error
    assert after == before
    assert over.status_code == 409 and "is over" in over.json()["error"]
    assert hint.status_code == 409


def test_a_restart_goes_on_where_the_game_stood(tmp_path):
    """Half a game, the server stopped, a new one on the same file: the same view, and the
    rest of the game is the one an uninterrupted server plays."""
    path = tmp_path / "g.db"
    with client(path) as c:
        game = new_game(c, 21)["game"]
        half, _ = play(c, game, seeded_person(5), stop_after=12)
        owner = c.cookies["setback_owner"]
        c.app.state.store.close()
    with client(path, owner=owner) as c:
        assert c.get(f"/api/games/{game}").json()["view"] == half
        assert [g["id"] for g in c.get("/api/games").json()["games"]] == [game]
        rest, _ = play(c, game, seeded_person(6))
        c.app.state.store.close()
    with client(tmp_path / "straight.db") as c:
        straight = new_game(c, 21)["game"]
        person = seeded_person(5)
        play(c, straight, person, stop_after=12)
        person = seeded_person(6)
        whole, _ = play(c, straight, person)
        first = c.get(f"/api/games/{straight}/deals/0/replay").json()
    assert whole["history"] == rest["history"] and whole["score"] == rest["score"]
    store = GameStore(str(path))
    stored = store.load(game)
    store.close()
    assert stored["game"] == "euchre" and stored["deals"][0]["setup"] == {
        "upcard": first["upcard"]}
    assert stored["deals"][0]["hands"] == first["hands"]


def test_each_server_lists_and_opens_its_own_games_only(tmp_path):
    path = tmp_path / "both.db"
    with client(path) as eu:
        euchre = new_game(eu, 1)["game"]
        owner = eu.cookies["setback_owner"]
        eu.app.state.store.close()
    with client(path, game="setback", owner=owner) as sb:
        setback = new_game(sb, 1)["game"]
        listed = [g["id"] for g in sb.get("/api/games").json()["games"]]
        refused = sb.get(f"/api/games/{euchre}")
        sb.app.state.store.close()
    with client(path, owner=owner) as eu:
        listed_eu = [g["id"] for g in eu.get("/api/games").json()["games"]]
        refused_eu = eu.get(f"/api/games/{setback}")
        page = eu.get("/")
        doc = eu.get("/openapi.json").json()
    assert listed == [setback] and listed_eu == [euchre]
    assert refused.status_code == 404 and "game of euchre" in refused.json()["error"]
    assert refused_eu.status_code == 404 and "game of setback" in refused_eu.json()["error"]
    assert "<title>Euchre" in page.text and '"name": "euchre"' in html.unescape(page.text)
    assert "/api/decide" in doc["paths"] and "Euchre" in doc["info"]["description"]
    assert "to 10" in json.dumps(doc["paths"]) and "to 11" not in json.dumps(doc["paths"])
    move = doc["paths"]["/api/games/{game_id}/moves"]["post"]["requestBody"]["content"][
        "application/json"]["schema"]["properties"]["move"]
    assert "alone or partner" in move["description"]
    assert "upcard" in doc["components"]["schemas"]["Deal"]["required"]


def test_a_games_file_from_before_games_were_recorded_holds_setback_games(tmp_path):
    path = str(tmp_path / "old.db")
    with client(path, game="setback") as c:
        game = new_game(c, 5)["game"]
        c.app.state.store.close()
    with sqlite3.connect(path) as conn:  # back to format 2: no game, no setup
        conn.execute("ALTER TABLE games DROP COLUMN game")
        conn.execute("ALTER TABLE deals DROP COLUMN setup")
        conn.execute("UPDATE web_meta SET value = '2' WHERE name = 'format_version'")
    store = GameStore(path)
    assert store.load(game)["game"] == "setback" and store.load(game)["deals"][0]["setup"] is None
    store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT value FROM web_meta WHERE name = 'format_version'") \
            .fetchone()[0] == str(FORMAT_VERSION)


@pytest.mark.parametrize("argv, message", [
    (["--game", "chess"], "unknown game 'chess' for serve: expected setback or euchre"),
    (["--game", "euchre", "--bots", "chess"], "unknown Euchre player 'chess'"),
    (["--game", "euchre", "--bots", "db:/no/such.db"], "no such"),
])
def test_bad_settings_are_one_line_and_status_2(tmp_path, capsys, argv, message):
    status, out, err = run_cli(capsys, ["serve", *argv, "--games", str(tmp_path / "g.db")])
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_serve_help_explains_the_game_option(capsys):
    status, out, _ = run_cli(capsys, ["serve", "--help"])
    assert status == 0
    text = " ".join(out.split())
    assert "--game GAME" in text and "euchre (games to 10" in text
    assert "ismcts[:SIMS]" in text


def test_a_database_bots_explanation_shows_its_key_and_its_probabilities():
    """`EuchreBots.decide` with a database bot (a stand-in with the player's `db.lookup`):
    the key it looks up, found with the stored probabilities per abstract action, or missing
    (the heuristic plays: `fallback`, no probabilities); a forced move looks nothing up."""
    import numpy as np

    from games.euchre.api import Hand
    from games.euchre.view import SeatView
    from web.game_tables import web_game

    EuchreBots = web_game("euchre").load("bots")  # the game's bots class

    class Database:
        def __init__(self, hit):
            self.hit, self.asked = hit, []

        def lookup(self, text):
            self.asked.append(text)
            return self.hit

    class Player:
        name = "db:stand-in"

        def __init__(self, hit):
            self.db = Database(hit)

        def choose(self, view):
            return int(view.legal_moves()[-1])

    hands = {"W": ["JH", "JD", "AH", "9H", "AC"], "N": ["9C", "TC", "QC", "KC", "9S"],
             "E": ["TS", "QS", "KS", "AS", "TD"], "S": ["QD", "KD", "AD", "9D", "TH"]}
    hand = Hand("S", hands, "QH")  # West orders up or passes
    bots = EuchreBots("heuristic")
    bots._local.player = found = Player((np.array([0.25, 0.75]), 1))
    move, x = bots.decide(SeatView.of(hand.state, 3), 7)
    assert x["reason"] == "found" and x["found"] is True and x["kind"] == "order"
    assert found.db.asked == [x["key"]] and x["key"].startswith("O")
    assert [(a["action"], a["move"], a["prob"]) for a in x["actions"]] == [
        ("P", "P", 0.25), ("order", "H", 0.75)]
    assert x["move"] == "H" and x["chosen"] == 1 and x["player"] == "db:stand-in"
    bots._local.player = Player(None)
    _, missing = bots.decide(SeatView.of(hand.state, 3), 7)
    assert missing["reason"] == "fallback" and missing["found"] is False
    assert [a["prob"] for a in missing["actions"]] == [None, None]
    assert missing["lookups"] == [{"kind": "order", "key": x["key"], "found": False}]
    hand.play("H")  # the dealer (South) discards: the abstraction's rule, forced
    bots._local.player = forced = Player(None)
    _, discard = bots.decide(SeatView.of(hand.state, 3), 7)
    assert discard["reason"] == "forced" and forced.db.asked == []
