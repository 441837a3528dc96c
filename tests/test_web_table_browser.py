"""A real browser plays each registered game on its page (`serve --game G`, the one page,
script and style sheet every game shares): Debian's Chromium driven by Playwright against a
live server on a loopback port. It makes South's non-card moves from the buttons the game
declares (bids, calls: exactly the legal ones offered, in order) and plays its cards by
clicking (exactly the legal ones enabled), asks for a hint, goes through a whole hand (Setback:
the whole game, to the final score) and each result, looks at the last trick, and checks that
on a phone no card of the trick covers a seat's name, chips or bubble. The page runs under its
Content-Security-Policy (no inline script, no eval): a violation the browser reports fails the
test (so it polls its conditions with `page.evaluate`, which the CSP does not govern, instead
of `wait_for_function`, which evals). CI installs Chromium, so there a missing browser fails.
"""

import json
import random

import pytest

from web.game_tables import WEB_GAMES
from web_helpers import (SETTLED, browser_page, server_view, souths_turn, trick_covers_seats,
                         wait_until)

# Per game: its non-card phases, and a seat's widest dress in the play (its bubble and chips;
# the other seats' and, where it differs, its partner's): the dressed view is re-drawn by the
# page's own `render` (tests/web_helpers.py).
GAMES = {
    "setback": {"calls": ("bid",), "seed": 7, "whole_game": True,
                "wide": {"bubble": "bid Four", "mark": "high", "chips": [], "out": False},
                "other": {"bubble": "bid Three", "mark": "", "chips": [], "out": False}},
    "euchre": {"calls": ("order", "name", "alone"), "seed": 3, "whole_game": False,
               "wide": {"bubble": "Order up ♠", "mark": "called", "out": False,
                        "chips": [["maker", "maker", "named trump"], ["alone", "alone", ""]]},
               "other": {"bubble": "Pass", "mark": "", "chips": [], "out": False},
               "partner": {"bubble": "Pass", "mark": "", "chips": [["sits out", "out", ""]],
                           "out": True}},
    "spades": {"calls": ("bid",), "seed": 3, "whole_game": False,
               "wide": {"bubble": "Nil · took 12", "mark": "nil", "chips": [], "out": False},
               "other": {"bubble": "bid 13 · took 13", "mark": "", "chips": [], "out": False}},
}


def dress(game):
    """The JS function that gives `seat` the game's widest dress (`GAMES`)."""
    wide, other = json.dumps(game["wide"]), json.dumps(game["other"])
    partner = json.dumps(game.get("partner", game["other"]))
    return f"""(v, seat) => {{
      const seats = ["N", "E", "S", "W"], partner = seats[(seats.indexOf(seat) + 2) % 4];
      Object.assign(v, {{ phase: "follow", to_act: "S" }});
      for (const s of seats)
        v.show.seats[s] = s === seat ? {wide} : s === partner && s !== "S" ? {partner} : {other};
    }}"""


def test_every_web_game_is_tested_here():
    assert set(GAMES) == set(WEB_GAMES)


@pytest.mark.parametrize("name", sorted(WEB_GAMES))
def test_a_browser_plays_a_hand_of_every_game_by_clicking(tmp_path, name):
    import httpx

    from web.app import create_app

    game_spec = GAMES[name]
    title = WEB_GAMES[name].load("page")["title"]
    deal_word = WEB_GAMES[name].load("page")["deal"].capitalize()
    app = create_app("heuristic", str(tmp_path / "games.db"), delay_ms=0, game=name)
    rng = random.Random(5)
    shot = tmp_path / f"{name}.png"
    with browser_page(app) as (server, page, errors):
        page.goto(server.url + "/")
        page.wait_for_selector("#start-game")
        welcome = page.text_content("#dialog")  # a fresh file: no games to resume
        # The browser's owner cookie (HttpOnly: the page's script cannot read it), so that the
        # test may start a game of a known seed for it and read the game it plays.
        cookies = page.context.cookies()
        owner = {c["name"]: c["value"] for c in cookies}
        assert set(owner) == {"setback_owner"} and page.evaluate("document.cookie") == ""
        assert cookies[0]["httpOnly"] and cookies[0]["sameSite"] == "Strict"
        game = httpx.post(f"{server.url}/api/games", json={"seed": game_spec["seed"]},
                          cookies=owner, timeout=120).json()["game"]
        page.goto(server.url + "/")
        page.click("text=Resume")
        wait_until(page, SETTLED)
        assert page.evaluate("new URL(location.href).searchParams.get('game')") == game
        first = {"kitty": page.text_content("#kitty"), "moves": page.text_content("#moves")}
        clicks = {"calls": 0, "cards": 0, "hands": 0, "hints": 0}
        dialogs, deal_tables = [], ""
        while not page.is_visible("#final-score"):
            if clicks["hands"] >= 1 and not game_spec["whole_game"]:
                break
            assert sum(clicks.values()) < 1500, "the game does not end"
            if page.is_visible("#next-deal"):
                dialogs.append(page.text_content("#dialog"))
                page.click("#next-deal")
                clicks["hands"] += 1
            else:
                view = server_view(server, game, owner)
                assert view["to_act"] == "S"
                if view["phase"] not in game_spec["calls"]:
                    deal_tables = page.text_content("#deal-tables")
                souths_turn(page, view, rng, clicks, game_spec["calls"], "calls")
            wait_until(page, SETTLED)
        view = server_view(server, game, owner)
        history = page.text_content("#history")
        final = page.text_content("#dialog") if page.is_visible("#final-score") else None
        if final is not None:
            page.click("text=Look at the table")
        page.click("#last-trick")
        last_trick = page.text_content("#dialog")
        page.click("text=Close")
        page.screenshot(path=str(shot))
        covered = trick_covers_seats(page, dress(game_spec))
    assert covered == []
    assert "You play South" in welcome and title in welcome and "null" not in welcome
    assert clicks["calls"] >= 1 and clicks["cards"] >= 1 and clicks["hints"] == 1
    assert len(dialogs) == clicks["hands"] == (len(view["history"]) if final else 1)
    for text, hand in zip(dialogs, view["history"]):
        assert f"{deal_word} {hand['number'] + 1} is over" in text
        assert f"N-S {hand['score']['NS']} · E-W {hand['score']['EW']}" in text
    assert "Last trick" in last_trick and "won it" in last_trick
    if name == "setback":  # the whole game: the final score, the replay offered
        assert view["status"] == "over" and final is not None
        assert f"{view['score']['NS']} – {view['score']['EW']}" in final
        assert ("You won!" if view["winner"] == "NS" else "West and East won") in final
        assert clicks["calls"] == len(view["history"]) and clicks["cards"] >= 6
        assert history.count("all pass") == sum(not h["bid"] for h in view["history"])
    else:
        tricks = view["history"][0]["tricks"]
        assert f"{tricks['NS']}-{tricks['EW']}" in history  # the hands' table
    if name == "euchre":
        assert "turned up" in first["kitty"] and "N-S" in dialogs[0]
    if name == "spades":
        assert first["moves"].startswith("Nil1") and clicks["calls"] == 1
        assert clicks["cards"] == 13 and "N-S" in deal_tables and "Bags" in deal_tables
    assert not errors
    assert shot.stat().st_size > 10_000 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
