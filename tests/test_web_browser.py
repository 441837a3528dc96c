"""A real browser plays a whole game on the page: Debian's Chromium (/usr/bin/chromium) driven
by Playwright for Python, against a live server on a loopback port. It bids and plays by
clicking (only the legal cards are enabled), asks for a hint and the last trick, goes through
every deal's result until the final score shows, and saves a screenshot. The page runs under
its Content-Security-Policy (no inline script, no eval), and nothing it does may break it: a
violation the browser reports fails the test (so the test polls its conditions with
`page.evaluate`, which the CSP does not govern, instead of `wait_for_function`, which evals).

CI (CI=true) installs Chromium (.ci/run), so there a missing browser is a failure, not a skip.
"""

import random

from web_helpers import (SETTLED, browser_page, server_view, souths_turn, trick_covers_seats,
                         wait_until)

# A seat's widest dress in the play phase: the dealer and the high bidder, every seat's bid shown.
WIDEST = """(v, seat) => {
  Object.assign(v, { phase: "play", to_act: "S", high_bidder: seat,
                     bids: ["N", "E", "S", "W"].map((s) => ({ seat: s, bid: s === seat ? "4" : "3" })) });
}"""


def test_a_browser_plays_a_whole_game_by_clicking(tmp_path):
    import httpx

    from web.app import create_app

    app = create_app("heuristic", str(tmp_path / "games.db"), delay_ms=0)
    rng = random.Random(7)
    shot = tmp_path / "final-score.png"
    with browser_page(app) as (server, page, errors):
        page.goto(server.url + "/")
        page.wait_for_selector("#start-game")
        welcome = page.text_content("#dialog")  # a fresh file: no games to resume
        page.click("#start-game")
        wait_until(page, SETTLED)
        game = page.evaluate("new URL(location.href).searchParams.get('game')")
        # The browser's owner cookie (HttpOnly: the page's script cannot read it), so that
        # the test may read the game the browser plays.
        cookies = page.context.cookies()
        owner = {c["name"]: c["value"] for c in cookies}
        assert set(owner) == {"setback_owner"} and page.evaluate("document.cookie") == ""
        assert cookies[0]["httpOnly"] and cookies[0]["sameSite"] == "Strict"
        clicks = {"bids": 0, "cards": 0, "deals": 0, "hints": 0}
        while not page.is_visible("#final-score"):
            assert sum(clicks.values()) < 1500, "the game does not end"
            if page.is_visible("#next-deal"):
                page.click("#next-deal")
                clicks["deals"] += 1
            else:
                view = server_view(server, game, owner)
                assert view["to_act"] == "S"
                souths_turn(page, view, rng, clicks, ("bid",), "#bid-buttons", "data-bid",
                            "bids")
            wait_until(page, SETTLED)
        final = page.text_content("#dialog")
        page.screenshot(path=str(shot))
        view = server_view(server, game, owner)
        assert httpx.get(f"{server.url}/api/games/{game}", timeout=120).status_code == 404
        page.click("text=Look at the table")
        page.click("#last-trick")
        last_trick = page.text_content("#dialog")
        # On a phone no card of the trick covers a seat's name, dealer chip or bid (issue 29).
        covered = trick_covers_seats(page, WIDEST)
    assert covered == []
    assert "You play South" in welcome and "null" not in welcome
    assert view["status"] == "over"
    assert f"{view['score']['NS']} – {view['score']['EW']}" in final
    assert ("You won!" if view["winner"] == "NS" else "West and East won") in final
    assert "Last trick" in last_trick and "won it" in last_trick
    assert clicks["bids"] == len(view["history"]) and clicks["cards"] >= 6
    assert clicks["deals"] == len(view["history"]) and clicks["hints"] == 1
    assert not errors
    assert shot.stat().st_size > 10_000 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
