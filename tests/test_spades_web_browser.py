"""A real browser plays Spades on the page of `serve --game spades`: Debian's Chromium driven by
Playwright against a live server on a loopback port, as tests/test_web_euchre_browser.py does
for Euchre (the same helpers, tests/web_helpers.py, and the same CSP watch). It bids from the
picker (exactly the legal bids offered: Nil and 1..13, fewer once North has bid), asks for a
hint, plays its cards by clicking (exactly the legal ones enabled), goes through the hand's
result and looks at the last trick; on a phone no card of the trick covers a seat's name or
bid. CI installs Chromium, so there a missing browser fails the test.
"""

import random

from web_helpers import (SETTLED, browser_page, server_view, souths_turn, trick_covers_seats,
                         wait_until)

# A seat's widest dress in the play: it dealt, bid Nil and took two tricks.
WIDEST = """(v, seat) => {
  Object.assign(v, { phase: "follow", to_act: "S",
                     bids: ["N", "E", "S", "W"].map((s) => ({ seat: s, bid: s === seat ? "Nil" : "13" })),
                     taken: { N: 13, E: 13, S: 13, W: 13, [seat]: 12 } });
}"""


def test_a_browser_bids_and_plays_a_spades_hand_by_clicking(tmp_path):
    import httpx

    from web.app import create_app

    app = create_app("heuristic", str(tmp_path / "games.db"), delay_ms=0, game="spades")
    rng = random.Random(5)
    with browser_page(app) as (server, page, errors):
        page.goto(server.url + "/")
        page.wait_for_selector("#start-game")
        welcome = page.text_content("#dialog")
        owner = {c["name"]: c["value"] for c in page.context.cookies()}
        game = httpx.post(f"{server.url}/api/games", json={"seed": 3}, cookies=owner,
                          timeout=120).json()["game"]
        page.goto(server.url + "/")
        page.click("text=Resume")
        wait_until(page, SETTLED)
        clicks = {"bids": 0, "cards": 0, "hands": 0, "hints": 0}
        picker = page.text_content("#bid-buttons")
        dialogs = []
        while clicks["hands"] < 1 and not page.is_visible("#final-score"):
            assert sum(clicks.values()) < 100, "the hand does not end"
            if page.is_visible("#next-deal"):
                dialogs.append(page.text_content("#dialog"))
                page.click("#next-deal")
                clicks["hands"] += 1
            else:
                view = server_view(server, game, owner)
                assert view["to_act"] == "S"
                if view["phase"] != "bid":
                    contracts = page.text_content("#contracts")
                souths_turn(page, view, rng, clicks, ("bid",), "#bid-buttons", "data-bid", "bids")
            wait_until(page, SETTLED)
        view = server_view(server, game, owner)
        history = page.text_content("#history")
        page.click("#last-trick")
        last_trick = page.text_content("#dialog")
        page.click("text=Close")
        covered = trick_covers_seats(page, WIDEST)
    assert covered == []
    assert "Spades to 500" in welcome and "Nil" in welcome and "null" not in welcome
    assert picker.startswith("Nil1") and clicks["bids"] == 1 and clicks["hints"] == 1
    assert clicks["cards"] == 13 and len(dialogs) == 1
    first = view["history"][0]
    assert "Hand 1 is over" in dialogs[0]
    assert f"N-S {first['score']['NS']} · E-W {first['score']['EW']}" in dialogs[0]
    assert "N-S" in contracts and "Bags" in contracts
    assert f"{first['tricks']['NS']}-{first['tricks']['EW']}" in history
    assert "Last trick" in last_trick and "won it" in last_trick
    assert not errors
