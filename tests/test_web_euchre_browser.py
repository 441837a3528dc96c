"""A real browser plays Euchre on the page of `serve --game euchre`: Debian's Chromium driven by
Playwright, against a live server on a loopback port, as tests/test_web_browser.py does for
Setback (the same helpers, tests/web_helpers.py: the same CSP watch). It names trump,
discards, decides alone or with the partner and plays its cards by clicking (only the legal
buttons and cards are offered, and exactly the legal ones), asks for a hint, goes through a
hand's result and looks at the last trick. CI installs Chromium, so there a missing browser
fails the test.
"""

import random

from web_helpers import (SETTLED, browser_page, server_view, souths_turn, trick_covers_seats,
                         wait_until)

CALLS = ("order", "name", "alone")
# A seat's widest dress in the play phase: the dealer picked up, named trump and went alone
# (three chips and a call), its partner sits out.
WIDEST = """(v, seat) => {
  const seats = ["N", "E", "S", "W"], partner = seats[(seats.indexOf(seat) + 2) % 4];
  Object.assign(v, { phase: "follow", to_act: "S", trump: "S", maker: seat, alone: true,
                     out: partner === "S" ? null : partner,
                     calls: seats.map((s) => ({ seat: s, call: s === seat ? "S" : "P", round: 1 })) });
}"""


def test_a_browser_plays_euchre_hands_by_clicking(tmp_path):
    import httpx

    from web.app import create_app

    app = create_app("heuristic", str(tmp_path / "games.db"), delay_ms=0, game="euchre")
    rng = random.Random(5)
    shot = tmp_path / "euchre.png"
    with browser_page(app) as (server, page, errors):
        page.goto(server.url + "/")
        page.wait_for_selector("#start-game")
        welcome = page.text_content("#dialog")
        # A game of a known seed, started for this browser (its owner cookie) and resumed
        # from the welcome dialog: the hands below are always the same.
        owner = {c["name"]: c["value"] for c in page.context.cookies()}
        game = httpx.post(f"{server.url}/api/games", json={"seed": 3}, cookies=owner,
                          timeout=120).json()["game"]
        page.goto(server.url + "/")
        page.click("text=Resume")
        wait_until(page, SETTLED)
        assert page.evaluate("new URL(location.href).searchParams.get('game')") == game
        clicks = {"calls": 0, "cards": 0, "hands": 0, "hints": 0}
        upcard_shown = page.text_content("#kitty")
        dialogs = []
        while clicks["hands"] < 1 and not page.is_visible("#final-score"):
            assert sum(clicks.values()) < 300, "the hands do not end"
            if page.is_visible("#next-deal"):
                dialogs.append(page.text_content("#dialog"))
                page.click("#next-deal")
                clicks["hands"] += 1
            else:
                view = server_view(server, game, owner)
                assert view["to_act"] == "S"
                souths_turn(page, view, rng, clicks, CALLS, "#call-buttons", "data-move", "calls")
            wait_until(page, SETTLED)
        view = server_view(server, game, owner)
        table_text = page.text_content("#app")
        if page.is_visible("#final-score"):
            page.click("text=Look at the table")
        page.click("#last-trick")
        last_trick = page.text_content("#dialog")
        page.click("text=Close")
        page.screenshot(path=str(shot))
        # On a phone no card of the trick covers a seat's name, chips or call (issue 29).
        covered = trick_covers_seats(page, WIDEST)
    assert covered == []
    assert "You play South" in welcome and "Euchre to 10" in welcome and "null" not in welcome
    assert "turned up" in upcard_shown
    assert len(view["history"]) >= 1 and clicks["hands"] == len(dialogs) == 1
    for text, hand in zip(dialogs, view["history"]):
        assert f"Hand {hand['number'] + 1} is over" in text
        assert f"N-S {hand['tricks']['NS']} · E-W {hand['tricks']['EW']}" in text
        assert f"N-S {hand['score']['NS']} · E-W {hand['score']['EW']}" in text
    assert clicks["calls"] >= 1 and clicks["cards"] >= 1 and clicks["hints"] == 1
    assert f"{view['history'][0]['tricks']['NS']}-{view['history'][0]['tricks']['EW']}" \
        in table_text  # the hands' table
    assert "Last trick" in last_trick and "won it" in last_trick
    assert not errors
    assert shot.stat().st_size > 10_000 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

