"""The Spades table of `setback-cfr serve --game spades` (httpx through Starlette's TestClient):
a whole game to 500 with the bots, read back hand by hand by `replay --game spades`; South sees
its own cards and the public moves only; `POST /api/decide` answers a legal move for positions
taken from real games; every kind of bad request is a 4xx with one line; a restart goes on
where the game stood (the games file keeps it)."""

import json

import pytest

pytest.importorskip("fastapi")
from games.spades.replay import replay  # noqa: E402
from web.store import GameStore  # noqa: E402
from web_helpers import new_game, play_to_the_end, seeded_person  # noqa: E402
from web_helpers import client as web_client  # noqa: E402

HAND_E = ["AS", "KS", "9S", "4S", "AH", "QH", "7H", "3H", "KD", "8D", "2D", "JC", "5C"]


def client(path, **options):
    """A client of a new Spades app on the games file `path`."""
    return web_client(path, game="spades", **options)


def position_of(replay_spec, upto):
    """The position of the seat to act after the first `upto` moves of a finished hand
    (`replay_spec`): its hand as dealt only, the moves so far, the score before."""
    out = replay({**replay_spec, "moves": replay_spec["moves"][:upto]})
    seat = out["next"]["seat"]
    return {"dealer": replay_spec["dealer"], "score": replay_spec["score"],
            "hands": {seat: replay_spec["hands"][seat]},
            "moves": replay_spec["moves"][:upto]}, out["next"]["legal"]


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A game of seed 4 played to its end by a random person against the heuristic: its
    first view, events, last view and replay, and the hint of South's first decision."""
    path = tmp_path_factory.mktemp("spades") / "g.db"
    with client(path) as c:
        start = new_game(c, 4)
        game = start["game"]
        hint = c.get(f"/api/games/{game}/hint").json()
        view, events = play_to_the_end(c, game, seeded_person(1))
        replayed = c.get(f"/api/games/{game}/replay").json()
        one = c.get(f"/api/games/{game}/deals/0/replay").json()
    return {"start": start, "hint": hint, "view": view, "events": events, "replay": replayed,
            "deal0": one}


def test_a_whole_game_to_500_through_the_api(finished):
    start, view, history = finished["start"], finished["view"], finished["view"]["history"]
    first = start["view"]
    # West deals the first hand: North, East bid before South, as events.
    assert first["dealer"] == "W" and first["phase"] == "bid" and first["to_act"] == "S"
    assert [e["seat"] for e in start["events"] if e["type"] == "move"] == ["N", "E"]
    partner = int(first["bids"][0]["bid"]) if first["bids"][0]["bid"] != "Nil" else 0
    assert first["legal"] == ["Nil"] + [str(b) for b in range(1, 14 - partner)]
    assert finished["hint"]["move"] in first["legal"] and finished["hint"]["player"]
    assert view["status"] == "over" and view["winner"] in ("NS", "EW")
    win, lose = view["winner"], {"NS": "EW", "EW": "NS"}[view["winner"]]
    assert (view["score"][win] >= 500 and view["score"][win] > view["score"][lose]) or \
        (view["score"][lose] <= -350 and view["score"][lose] < view["score"][win])
    assert {"move", "deal", "deal_over", "game_over"} <= {e["type"] for e in finished["events"]}
    assert [h["dealer"] for h in history] == ["WNES"[i % 4] for i in range(len(history))]
    assert {t: sum(h["points"][t] for h in history) for t in ("NS", "EW")} == view["score"]
    # The download replays hand by hand from the score before it to the same points.
    replayed = finished["replay"]
    assert replayed["score"] == view["score"] and len(replayed["deals"]) == len(history)
    assert replayed["rules"] == "spades" and finished["deal0"] == replayed["deals"][0]
    for deal, h in zip(replayed["deals"], history):
        out = replay(deal)
        assert out["score"] == h["score"] and out["bids"] == h["bids"]
        assert out["tricks_won"] == h["taken"]
        assert sum(h["tricks"].values()) == 13
        assert h["bags"] == {t: abs(deal["score"][t]) % 10 * (1 if deal["score"][t] >= 0
                                                             else -1) for t in ("NS", "EW")}


def test_south_sees_its_own_cards_and_the_public_moves_only(finished):
    deals = finished["replay"]["deals"]
    shown_moves = [[] for _ in deals]
    for e in finished["start"]["events"] + finished["events"]:
        v = e["view"]
        dealt = deals[v["deal"]]["hands"]
        assert set(v["hand"]) <= set(dealt["S"])
        assert set(v["legal"]) == set() or v["to_act"] == "S"
        assert v["held"]["S"] == len(v["hand"]) and sum(v["held"].values()) <= 52
        on_table = v["tricks"] + [v["trick"], v["last_trick"]]  # last: maybe the hand before
        played = {c["card"] for t in on_table if t for c in t["cards"]}
        text = json.dumps(v)
        for seat in "WNE":  # a card another seat still holds is nowhere in the view
            assert not [card for card in set(dealt[seat]) - played if f'"{card}"' in text]
        if e["type"] == "move":
            shown_moves[v["deal"]].append(e["move"])
    # every move is public: the events show each hand's moves, in order, South's included
    assert shown_moves == [d["moves"] for d in deals]


def test_decide_answers_a_legal_move_for_positions_of_real_games(finished, tmp_path):
    deal = finished["replay"]["deals"][0]
    with client(tmp_path / "g.db") as c:
        answers = []
        for upto in (0, 3, 4, 9, 30, 51):  # bids, the first lead, follows, the last tricks
            position, legal = position_of(deal, upto)
            r = c.post("/api/decide", json=position)
            assert r.status_code == 200, r.text
            answers.append((r.json(), legal, position))
        again = c.post("/api/decide", json=answers[3][2]).json()
        doc = c.get("/openapi.json").json()
        example = doc["paths"]["/api/decide"]["post"]["requestBody"]["content"][
            "application/json"]["example"]
        documented = c.post("/api/decide", json=example)
    for answer, legal, position in answers:
        assert answer["legal"] == legal and answer["move"] in legal
        assert answer["seat"] == next(iter(position["hands"]))
        assert answer["explanation"]["move"] == answer["move"]
    assert again == answers[3][0]  # the same position, the same answer
    assert documented.status_code == 200, documented.text
    assert documented.json()["move"] in documented.json()["legal"]
    assert "Spades" in doc["info"]["description"] and "to 500" in json.dumps(doc["paths"])
    assert doc["components"]["schemas"]["Deal"]["properties"]["hands"][
        "additionalProperties"]["minItems"] == 13


def _position(moves, hands=None, **fields):
    """A position of the hand dealt by West in which East holds `HAND_E`."""
    return {"dealer": "W", "hands": {"E": HAND_E} if hands is None else hands,
            "moves": moves, **fields}


BIDS = ["3", "3", "3", "3"]
BAD_POSITIONS = [  # (position or raw body, status, what the one line says)
    (_position(BIDS, {"E": HAND_E[:12] + ["AS"]}), 422, "duplicate card AS (hand E)"),
    (_position(BIDS, {"E": HAND_E[:12]}), 422, "must hold 13 cards"),
    (_position(BIDS + ["AS"]), 422, "AS is in E's own hand"),
    (_position(BIDS + ["6C", "5C", "3C", "4C", "6C"]), 422, "6C was played already"),
    (_position(BIDS + ["2C", "AH"]), 422, "illegal move AH for E (follow); legal: 5C JC"),
    (_position(["14"]), 422, "bad bid '14': expected Nil or 1..13"),
    (_position(["0"]), 422, "bad bid '0'"),
    (_position(["3", "Nil", "11"]), 422, "illegal move 11 for S (bid); legal: Nil 1 2"),
    (_position(["3", "Nil", "ZZ"]), 422, "bad bid 'ZZ'"),
    (_position(BIDS + ["ZZ"]), 422, "move 4 ('ZZ')"),
    (_position(["3", "3"]), 422, "shows E's hand, but S is to act"),
    (_position(["3"], {}), 422, "hides the hand of E"),
    (_position(["3"], {"E": HAND_E, "W": HAND_E}), 422, "shows 2 hands"),
    (_position(["3"], {"X": HAND_E}), 422, "unknown seat 'X' in 'hands'"),
    (_position(["3"], score={"NS": "a"}), 422, '"score" must look like'),
    (_position(["3"], trump="S"), 422, "unknown field 'trump'"),
    (_position("3"), 422, "'moves' must be a list"),
    (_position(["3"], dealer="X"), 422, "bad seat 'X'"),
    ({"dealer": "W", "hands": {"E": HAND_E}}, 422, "has no 'moves'"),
    (b"{oops", 400, "malformed JSON"),
    (b"[1]", 400, "must be a JSON object"),
]


@pytest.mark.parametrize("body, status, message", BAD_POSITIONS,
                         ids=[m for _, _, m in BAD_POSITIONS])
def test_bad_positions_are_refused_in_one_line(decide_client, body, status, message):
    if isinstance(body, bytes):
        response = decide_client.post("/api/decide", content=body)
    else:
        response = decide_client.post("/api/decide", json=body)
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert message in error and "\n" not in error, error


def test_an_over_hand_has_no_decision(finished, decide_client):
    deal = finished["replay"]["deals"][0]
    r = decide_client.post("/api/decide", json={"dealer": deal["dealer"], "moves": deal["moves"],
                                                "hands": {"S": deal["hands"]["S"]}})
    assert r.status_code == 422 and "the hand is over" in r.json()["error"]


@pytest.fixture(scope="module")
def decide_client(tmp_path_factory):
    """One Spades app for the refusals (none changes anything)."""
    with client(tmp_path_factory.mktemp("decide") / "g.db") as c:
        yield c


def test_a_void_shown_and_a_spade_lead_are_remembered():
    """Another seat that did not follow a suit, or led a spade (only from a hand of spades),
    cannot play that suit (or any but spades) later."""
    from games.spades import table_view
    from web.position import PositionError
    from web.position import position_view as reader

    def position_view(spec):
        return reader(spec, table_view)

    view, seat = position_view(_position(BIDS + ["2C"]))
    assert seat == "E" and view.legal_moves().tolist() == [3, 9]  # 5C, JC: follow clubs
    # South trumps North's club lead, wins the trick and leads a club
    with pytest.raises(PositionError, match="S showed earlier that it holds no clubs"):
        position_view(_position(BIDS + ["2C", "5C", "2S", "3C", "4C"]))
    # North leads a spade: it holds spades only
    with pytest.raises(PositionError, match="N showed earlier that it holds no hearts"):
        position_view(_position(BIDS + ["2S", "4S", "3S", "5S", "2H", "4H"]))
    # ... so when it leads its first spade it needs twelve more, and East holds four of the
    # thirteen: no layout is left
    with pytest.raises(PositionError, match="no deal fits"):
        position_view(_position(BIDS + ["2S"]))


def test_a_restart_goes_on_where_the_game_stood(tmp_path):
    """Half a game, the server stopped, a new one on the same file: the same view, and the
    rest of the game is the one an uninterrupted server plays."""
    path = tmp_path / "g.db"
    with client(path) as c:
        game = new_game(c, 21)["game"]
        half, _ = play_to_the_end(c, game, seeded_person(5), stop_after=30)
        owner = c.cookies["setback_owner"]
        c.app.state.store.close()
    with client(path, owner=owner) as c:
        assert c.get(f"/api/games/{game}").json()["view"] == half
        rest, _ = play_to_the_end(c, game, seeded_person(6))
        c.app.state.store.close()
    with client(tmp_path / "straight.db") as c:
        straight = new_game(c, 21)["game"]
        play_to_the_end(c, straight, seeded_person(5), stop_after=30)
        whole, _ = play_to_the_end(c, straight, seeded_person(6))
    assert whole["history"] == rest["history"] and whole["score"] == rest["score"]
    store = GameStore(str(path))
    stored = store.load(game)
    store.close()
    assert stored["game"] == "spades" and len(stored["deals"]) == len(rest["history"])


def test_bad_moves_are_refused_in_one_line_and_change_nothing(tmp_path):
    with client(tmp_path / "g.db") as c:
        game = new_game(c, 4)["game"]
        before = c.get(f"/api/games/{game}").json()["view"]
        card = before["hand"][0]
        bad = [
            (c.post(f"/api/games/{game}/moves", json={"move": card}), 422, "bad bid"),
            (c.post(f"/api/games/{game}/moves", json={"move": "14"}), 422, "bad bid '14'"),
            (c.post(f"/api/games/{game}/moves", json={"move": "13"}), 422, "illegal move 13"),
            (c.post(f"/api/games/{game}/moves", json={"move": 7}), 422, "'move' must be"),
            (c.post(f"/api/games/{game}/moves", json={"move": "3", "seat": "N"}), 409,
             "played by the bots"),
            (c.post(f"/api/games/{game}/moves", json={}), 400, "needs a \"move\""),
        ]
        after = c.get(f"/api/games/{game}").json()["view"]
        c.post(f"/api/games/{game}/moves", json={"move": "3"})
        view = c.get(f"/api/games/{game}").json()["view"]
        lead = [x for x in view["hand"] if x not in view["legal"]]
        illegal = c.post(f"/api/games/{game}/moves", json={"move": lead[0]}) if lead else None
        twice = c.post(f"/api/games/{game}/moves", json={"move": "3"})
    for response, status, message in bad:
        assert response.status_code == status, (response.status_code, response.text)
        error = response.json()["error"]
        assert message in error and "\n" not in error
    assert after == before
    if illegal is not None:  # a card the rules refuse now (follow suit, no spade lead)
        assert illegal.status_code == 422 and "illegal move" in illegal.json()["error"]
    assert twice.status_code == 422 and "\n" not in twice.json()["error"]


def test_decide_on_the_command_line(tmp_path, capsys):
    """`setback-cfr decide --game spades FILE`: the server's answer; a bad position is one
    line and exit status 2."""
    from cli_runner import run_cli

    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(_position(BIDS + ["2C"])))
    bad.write_text(json.dumps(_position(BIDS + ["2C", "AH"])))
    status, out, err = run_cli(capsys, ["decide", good, "--game", "spades", "--bots", "random"])
    assert status == 0 and err == ""
    answer = json.loads(out)
    assert answer["seat"] == "E" and answer["legal"] == ["5C", "JC"]
    assert answer["move"] in answer["legal"] and answer["explanation"]["player"] == "random"
    status, out, err = run_cli(capsys, ["decide", bad, "--game", "spades"])
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "illegal move AH for E (follow); legal: 5C JC" in err
    status, out, err = run_cli(capsys, ["decide", good, "--game", "spades", "--bots", "chess"])
    assert status == 2 and "unknown Spades player 'chess'" in err and err.count("\n") == 1


def test_the_bots_explanations_show_the_key_its_probabilities_and_a_search():
    """`SpadesBots.decide` (`web.bots.KeyedBots`): a database bot (a stand-in with the
    player's `db.lookup`) shows the key it looks up, found with the stored probabilities per
    abstract action or missing (`fallback`); a search bot its searched values and where it
    believes the top spades lie (no undealt column: every card is dealt)."""
    import numpy as np

    from games.spades.api import Hand
    from games.spades.view import SeatView
    from web.game_tables import web_game

    SpadesBots = web_game("spades").load("bots")  # the game's bots class

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

    hand = Hand.random(5, "W")
    view = SeatView.of(hand.state, 0, (0, 0), [])
    bots = SpadesBots("heuristic")
    rules = bots.decide(view, 7)[1]
    n = len(rules["actions"])
    assert rules["reason"] == "rules" and rules["kind"] == "bid" and n >= 2
    bots._local.player = found = Player((np.full(n, 1.0 / n), 0))
    _, x = bots.decide(view, 7)
    assert x["reason"] == "found" and found.db.asked == [x["key"]] == [rules["key"]]
    assert [a["prob"] for a in x["actions"]] == [1.0 / n] * n and x["move"] == "13"
    bots._local.player = Player(None)
    _, missing = bots.decide(view, 7)
    assert missing["reason"] == "fallback" and missing["found"] is False
    assert missing["lookups"] == [{"kind": "bid", "key": x["key"], "found": False}]
    _, searched = SpadesBots("search[worlds=8]:heuristic").decide(view, 7)
    assert searched["reason"] == "search" and searched["worlds"] == 8
    assert sorted(s["move"] for s in searched["searched"]) == sorted(hand.legal_moves())
    assert searched["belief"] and all(set(b["percent"]) == set("ESW")  # North acts
                                      for b in searched["belief"])


@pytest.mark.parametrize("bots, message", [
    ("chess", "unknown Spades player 'chess'"),
    ("oracle", "sees every hand"),
    ("db:/no/such.db", "no such"),
])
def test_serve_refuses_a_bad_spades_bot_in_one_line(tmp_path, capsys, bots, message):
    from cli_runner import run_cli

    status, out, err = run_cli(capsys, ["serve", "--game", "spades", "--bots", bots,
                                        "--games", tmp_path / "g.db"])
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1, err
