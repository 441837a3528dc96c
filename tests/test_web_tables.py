"""The one web table (`web.table_base`) over every registered web game (`web.game_tables`):
what the page is sent is what it may offer (the move buttons exactly the legal non-card moves,
the cards playable exactly in a card phase, every seat dressed), each event carries the page's
words, a restarted server resumes a game where it stood, and a finished hand's replay is the
game's own `replay` input with the moves played."""

import pytest

pytest.importorskip("fastapi")
from web.game_tables import WEB_GAMES  # noqa: E402
from web_helpers import client, new_game, play_to_the_end, seeded_person  # noqa: E402

SHOW_KEYS = {"seats", "trick", "kitty", "trump_also", "tally", "cards", "buttons", "note",
             "your_turn", "info", "tables", "card_rows", "history"}


def check_show(view):
    """The page's part of a view (`show`) fits the view."""
    show = view["show"]
    assert set(show) == SHOW_KEYS
    assert set(show["seats"]) == set("NWES")
    assert len(show["history"]) == len(view["history"])
    if view["status"] == "playing" and view["to_act"] == "S":
        assert show["your_turn"]
        moves = [b["move"] for b in show["buttons"]]
        assert moves == ([] if show["cards"] else view["legal"]), (moves, view["legal"])
        if show["cards"]:
            assert all(len(m) == 2 and m[0] in "23456789TJQKA" for m in view["legal"])


@pytest.mark.parametrize("name", sorted(WEB_GAMES))
def test_every_games_table_sends_what_the_page_may_offer_and_resumes(tmp_path, name):
    path = tmp_path / "g.db"
    with client(path, game=name) as c:
        game = new_game(c, 9)["game"]
        view, events = play_to_the_end(c, game, seeded_person(9), stop_after=40)
        owner = c.cookies["setback_owner"]
        c.app.state.store.close()
    with client(path, owner=owner, game=name) as c:  # a restarted server
        again = c.get(f"/api/games/{game}").json()["view"]
        one = c.get(f"/api/games/{game}/deals/0/replay")
    assert again == view
    for event in events:
        check_show(event["view"])
        if event["type"] == "move":
            assert "title" in event
            if event.get("explain"):
                assert event["explain"]["move"] in event["explain"]["move_texts"]
        if event["type"] == "deal_over":
            assert event["show"]["rows"] and "Score" in str(event["show"]["rows"][-1])
    assert any(e["type"] == "deal_over" for e in events)
    first = [e for e in events if e["type"] == "deal_over"][0]
    replay = one.json()
    assert one.status_code == 200 and replay["dealer"] == first["view"]["history"][0]["dealer"]
    assert set(replay["hands"]) == set("WNES") and replay["moves"]
