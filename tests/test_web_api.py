"""The web API of `setback-cfr serve` (httpx through Starlette's TestClient): a whole game to
11 with seeded bots, every kind of bad input (a 4xx with one line of JSON and nothing
changed), the resume after a restart, the replay download read back by `setback-cfr replay`,
and the bots' explanations."""

import json

import pytest

pytest.importorskip("fastapi")
from cli_runner import run_cli  # noqa: E402
from web_helpers import client, new_game, play_to_the_end, seeded_person  # noqa: E402


def test_a_whole_game_to_11_through_the_api(tmp_path):
    with client(tmp_path / "g.db") as c:
        start = new_game(c, 11)
        game = start["game"]
        assert start["view"]["dealer"] == "S" and start["view"]["to_act"] == "S"
        # The bots bid before South (South deals the first deal): their bids are events.
        assert [e["seat"] for e in start["events"] if e["type"] == "move"] == ["W", "N", "E"]

        def follow_hint(view):
            hint = c.get(f"/api/games/{game}/hint").json()
            assert hint["move"] in view["legal"]
            return hint["move"]

        view, events = play_to_the_end(c, game, follow_hint)
    assert view["status"] == "over" and view["to_act"] is None and view["legal"] == []
    score = view["score"]
    assert max(score.values()) >= 11 and score[view["winner"]] == max(score.values())
    history = view["history"]
    # The running score is the sum of the deal scores, and each deal's points have owners.
    assert {t: sum(h["deal_score"][t] for h in history) for t in ("EW", "NS")} == score
    assert [h["dealer"] for h in history] == ["SWNE"[i % 4] for i in range(len(history))]
    for h in history:
        assert set(h["points"]) == {"high", "low", "jack", "game"}
        if h["bid"]:
            assert h["bidder"] in "WNES"
    assert events[-1]["type"] == "game_over" and events[-1]["winner"] == view["winner"]
    moves = [e for e in events if e["type"] == "move"]
    assert {e["seat"] for e in moves} == set("WNES")
    assert all("explain" in e for e in moves if e["seat"] != "S")
    tricks = [e for e in moves if "trick_winner" in e]
    assert len(tricks) == 6 * sum(1 for h in history if h["bid"])


def test_bad_input_is_a_4xx_with_one_line_and_changes_nothing(tmp_path):
    with client(tmp_path / "g.db") as c:
        game = new_game(c, 5)["game"]
        url = f"/api/games/{game}/moves"
        before = c.get(f"/api/games/{game}").json()
        legal = before["view"]["legal"]
        not_legal = next(b for b in ("P", "2", "3", "4") if b not in legal)
        cases = {
            "illegal card": (c.post(url, json={"move": "AS"}), 422),
            "illegal bid": (c.post(url, json={"move": not_legal}), 422),
            "not a move": (c.post(url, json={"move": "hello"}), 422),
            "move of the wrong type": (c.post(url, json={"move": 7}), 422),
            "out of turn (a bot's seat)": (c.post(url, json={"move": legal[0], "seat": "W"}),
                                           409),
            "stale version (another tab)": (c.post(url, json={"move": legal[0],
                                                               "version": 99}), 409),
            "unknown game": (c.post("/api/games/nosuchgame/moves", json={"move": "P"}), 404),
            "unknown game (view)": (c.get("/api/games/nosuchgame"), 404),
            "malformed JSON": (c.post(url, content=b'{"move": "P"'), 400),
            "JSON that is not an object": (c.post(url, content=b'["P"]'), 400),
            "no move": (c.post(url, json={"version": 0}), 400),
            "unknown field": (c.post(url, json={"move": "P", "card": "AS"}), 400),
            "bad version": (c.post(url, json={"move": "P", "version": "x"}), 400),
            "bad seed": (c.post("/api/games", json={"seed": -1}), 400),
            "bad deal number": (c.get(f"/api/games/{game}/deals/x/replay"), 400),
            "deal not finished": (c.get(f"/api/games/{game}/deals/0/replay"), 404),
            "game not over": (c.get(f"/api/games/{game}/replay"), 409),
            "unknown page": (c.get("/no/such/page"), 404),
            "wrong method": (c.delete(f"/api/games/{game}"), 405),
        }
        for name, (response, status) in cases.items():
            assert response.status_code == status, (name, response.text)
            body = response.json()
            assert list(body) == ["error"] and body["error"], name
            assert "\n" not in response.text, name
        assert c.get(f"/api/games/{game}").json() == before
        # A move the game accepts still works afterwards.
        r = c.post(url, json={"move": legal[0], "version": 0})
        assert r.status_code == 200 and r.json()["view"]["version"] == 1
        # The first tab, still at version 0, gets a conflict; the game is at version 1.
        again = c.post(url, json={"move": legal[0], "version": 0})
        assert again.status_code == 409 and "version" in again.json()["error"]


def test_the_bad_inputs_error_messages_name_the_problem(tmp_path):
    with client(tmp_path / "g.db") as c:
        game = new_game(c, 5)["game"]
        url = f"/api/games/{game}/moves"
        assert "illegal move AS" in c.post(url, json={"move": "AS"}).json()["error"] \
            or "bad bid" in c.post(url, json={"move": "AS"}).json()["error"]
        assert "nosuch" in c.get("/api/games/nosuch").json()["error"]
        assert "malformed JSON" in c.post(url, content=b"{").json()["error"]


# Random bots overbid and a game between random players may never reach 11: that one is
# compared after a fixed number of moves.
@pytest.mark.parametrize("bots,moves", [("heuristic", None), ("random", 80)])
def test_a_restarted_server_resumes_every_game_where_it_stood(tmp_path, bots, moves):
    """Stop the app halfway, open it on the same file, continue: the same game, move for
    move, as without the restart."""
    person = 21
    with client(tmp_path / "straight.db", bots) as c:
        game = new_game(c, 8)["game"]
        straight, straight_events = play_to_the_end(c, game, seeded_person(person), moves)
        straight_deals = c.app.state.store.load(game)["deals"]
    choose = seeded_person(person)
    with client(tmp_path / "restart.db", bots) as c:
        game2 = new_game(c, 8)["game"]
        half, _ = play_to_the_end(c, game2, choose, stop_after=25)
        owner = c.cookies["setback_owner"]
        c.app.state.store.close()
    with client(tmp_path / "restart.db", bots, owner) as c:  # a new server, the same browser
        assert c.get(f"/api/games/{game2}").json()["view"] == half
        resumed, _ = play_to_the_end(c, game2, choose, None if moves is None else moves - 25)
        resumed_deals = c.app.state.store.load(game2)["deals"]
    assert half["status"] == "playing" and half["version"] == 25
    for view in (straight, resumed):
        view.pop("game")
    assert resumed == straight
    assert resumed_deals == straight_deals
    if moves is None:
        assert straight_events[-1]["type"] == "game_over"


def test_a_finished_game_downloads_as_replay_json_that_replay_reads(tmp_path, capsys):
    with client(tmp_path / "g.db") as c:
        game = new_game(c, 3)["game"]
        final, _ = play_to_the_end(c, game, seeded_person(1))
        whole = c.get(f"/api/games/{game}/replay").json()
        first = c.get(f"/api/games/{game}/deals/0/replay").json()
        games = c.get("/api/games").json()["games"]
    assert whole["score"] == final["score"] and whole["winner"] == final["winner"]
    assert first == whole["deals"][0]
    assert games[0]["id"] == game and games[0]["status"] == "over"
    assert len(whole["deals"]) == len(final["history"])
    for number, (deal, result) in enumerate(zip(whole["deals"], final["history"])):
        path = tmp_path / f"deal{number}.json"
        path.write_text(json.dumps(deal))
        status, out, err = run_cli(capsys, ["replay", str(path)])
        assert status == 0, err
        replayed = json.loads(out)
        assert replayed["next"] is None
        assert replayed["deal_score"] == result["deal_score"]
        assert replayed["points"] == result["points"]


def test_database_bots_explain_each_move_and_the_hint(tmp_path):
    from test_db_player import SPEC_KEYS, make_db

    db = make_db(tmp_path, SPEC_KEYS)
    with client(tmp_path / "g.db", f"db:{db}") as c:
        start = new_game(c, 4)
        game = start["game"]
        hint = c.get(f"/api/games/{game}/hint").json()
        _, events = play_to_the_end(c, game, seeded_person(2), stop_after=12)
    assert hint["player"].startswith("db:") and hint["move"] in start["view"]["legal"]
    explained = [e["explain"] for e in start["events"] + events
                 if e["type"] == "move" and e["seat"] != "S"]
    assert explained
    for x in explained:
        assert x["reason"] in ("forced", "found", "fallback")
        if x["reason"] == "forced":
            continue
        assert x["key"] and x["found"] is False and x["lookups"]  # the tiny table misses
        assert [a["prob"] for a in x["actions"]] == [None] * len(x["actions"])
        if x["chosen"] is not None:
            assert x["actions"][x["chosen"]]["move"] == x["move"]
