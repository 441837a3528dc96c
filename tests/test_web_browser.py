"""A real browser plays a whole game on the page: Debian's Chromium (/usr/bin/chromium) driven
by Playwright for Python, against a live server on a loopback port. It bids and plays by
clicking (only the legal cards are enabled), asks for a hint and the last trick, goes through
every deal's result until the final score shows, and saves a screenshot. The page runs under
its Content-Security-Policy (no inline script, no eval), and nothing it does may break it: a
violation the browser reports fails the test (so the test polls its conditions with
`page.evaluate`, which the CSP does not govern, instead of `wait_for_function`, which evals).

CI (CI=true) installs Chromium (.ci/run), so there a missing browser is a failure, not a skip.
"""

import os
import random

import pytest

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update",
               "--disable-sync"]
SETTLED = ('document.querySelector("#status").classList.contains("your-turn")'
           ' || !document.querySelector("#overlay").hidden')


def wait_until(page, expression, seconds=180):
    """Poll `expression` in the page until it is true (a busy CI machine is slow, not
    broken)."""
    import time

    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"still false after {seconds} s: {expression}"
        time.sleep(0.05)


def need(condition, why):
    if not condition:
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)


def test_a_browser_plays_a_whole_game_by_clicking(tmp_path):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    need(sync_playwright is not None, "playwright is not installed (pip install -e '.[test]')")
    need(os.path.exists(CHROMIUM), f"{CHROMIUM} is missing (apt-get install chromium)")
    import httpx

    from web.app import create_app
    from web.live import LiveServer

    app = create_app("heuristic", str(tmp_path / "games.db"), delay_ms=0)
    rng = random.Random(7)
    shot = tmp_path / "final-score.png"
    with LiveServer(app) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.set_default_timeout(180_000)  # a busy CI machine is slow, not broken
            errors = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("console", lambda msg: errors.append(msg.text)
                    if "Content Security Policy" in msg.text else None)
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
                    view = httpx.get(f"{server.url}/api/games/{game}", cookies=owner,
                                     timeout=120).json()["view"]
                    assert view["to_act"] == "S"
                    hand = page.locator("#hand .card")
                    assert hand.count() == len(view["hand"])
                    enabled = page.locator("#hand .card:enabled")
                    if view["phase"] == "bid":
                        assert enabled.count() == 0
                        bids = page.locator("#bid-buttons button")
                        shown = [bids.nth(i).get_attribute("data-bid") for i in range(bids.count())]
                        assert shown == view["legal"]
                        if clicks["hints"] == 0:  # the bot's view of this decision
                            page.click("#hint")
                            wait_until(page, 'document.querySelector("#explain-title")'
                                             '.textContent.startsWith("Hint")')
                            clicks["hints"] += 1
                        bids.nth(rng.randrange(bids.count())).click()
                        clicks["bids"] += 1
                    else:
                        legal = sorted(enabled.nth(i).get_attribute("data-card")
                                       for i in range(enabled.count()))
                        assert legal == sorted(view["legal"])
                        enabled.nth(rng.randrange(enabled.count())).click()
                        clicks["cards"] += 1
                wait_until(page, SETTLED)
            final = page.text_content("#dialog")
            page.screenshot(path=str(shot))
            view = httpx.get(f"{server.url}/api/games/{game}", cookies=owner,
                             timeout=120).json()["view"]
            assert httpx.get(f"{server.url}/api/games/{game}", timeout=120).status_code == 404
            page.click("text=Look at the table")
            page.click("#last-trick")
            last_trick = page.text_content("#dialog")
        finally:
            browser.close()
    assert "You play South" in welcome and "null" not in welcome
    assert view["status"] == "over"
    assert f"{view['score']['NS']} – {view['score']['EW']}" in final
    assert ("You won!" if view["winner"] == "NS" else "West and East won") in final
    assert "Last trick" in last_trick and "won it" in last_trick
    assert clicks["bids"] == len(view["history"]) and clicks["cards"] >= 6
    assert clicks["deals"] == len(view["history"]) and clicks["hints"] == 1
    assert not errors
    assert shot.stat().st_size > 10_000 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
