"""The page against search bots on the bot pool (issue 48): Debian's Chromium, driven by
Playwright, plays a whole game against `search[...]` bots by clicking; once in the game the
server is made busy (its one bot worker held, its backlog of one taken), so the next click is
answered 503 with Retry-After: the page shows "busy, retrying", sends the same move again by
itself once the server has room, and the game goes on to its final score. Nothing the page
does may break its Content-Security-Policy.

CI (CI=true) installs Chromium (.ci/run), so there a missing browser is a failure, not a skip.
"""

import random
import threading

import pytest

from web_helpers import (SETTLED, browser_page, server_view, setback_blueprint, souths_turn,
                         wait_until)

BUSY_SHOWN = '!document.querySelector("#busy").hidden'


@pytest.fixture(scope="module")
def blueprint(tmp_path_factory):
    """A tiny Setback database for the search bots."""
    return setback_blueprint(tmp_path_factory.mktemp("browser-blueprint"), deals=10)


def test_the_page_plays_search_bots_to_the_end_and_retries_when_busy(tmp_path, blueprint):
    import httpx

    from web.app import create_app

    app = create_app(f"search[worlds=8,threads=1]:db:{blueprint}", str(tmp_path / "g.db"),
                     delay_ms=0, bot_workers=1, max_backlog=1)
    pool, release, rng = app.state.pool, threading.Event(), random.Random(5)
    clicks = {"bids": 0, "cards": 0, "deals": 0, "hints": 0}
    busy_seen, versions = False, None
    with browser_page(app) as (server, page, errors):
        page.goto(server.url + "/")
        page.click("#start-game")
        wait_until(page, SETTLED)
        game = page.evaluate("new URL(location.href).searchParams.get('game')")
        owner = {c["name"]: c["value"] for c in page.context.cookies()}
        assert page.is_hidden("#busy")
        while not page.is_visible("#final-score"):
            assert sum(clicks.values()) < 1500, "the game does not end"
            if page.is_visible("#next-deal"):
                page.click("#next-deal")
                clicks["deals"] += 1
                wait_until(page, SETTLED)
                continue
            view = server_view(server, game, owner)
            assert view["to_act"] == "S"
            if not busy_seen and clicks["cards"] >= 2:
                # The server made busy: its only worker held, a decision waiting for it.
                pool.executor.submit(release.wait, 120)
                waiting = threading.Thread(target=lambda: httpx.post(
                    f"{server.url}/api/decide", json={}, timeout=180))
                waiting.start()
                wait_until(page, "true", 1)  # (the page is idle meanwhile)
                while pool.backlog < 1:
                    waiting.join(0.01)
                souths_turn(page, view, rng, clicks, ("bid",), "bids")
                wait_until(page, BUSY_SHOWN)
                busy_text = page.text_content("#busy")
                assert server_view(server, game, owner)["version"] == view["version"]
                release.set()  # room again: the page's own retry goes through
                waiting.join(180)
                wait_until(page, SETTLED)
                assert page.is_hidden("#busy")
                versions = (view["version"], server_view(server, game, owner)["version"])
                busy_seen = True
                continue
            souths_turn(page, view, rng, clicks, ("bid",), "bids")
            wait_until(page, SETTLED)
        final = server_view(server, game, owner)
        metrics = httpx.get(f"{server.url}/metrics", timeout=60).text
    assert busy_seen and "busy" in busy_text.lower() and "retrying" in busy_text.lower()
    assert versions[1] == versions[0] + 1  # the retried move, applied once
    assert final["status"] == "over"
    assert clicks["deals"] == len(final["history"])
    assert 'setback_web_shed_total{route="/api/games/{game_id}/moves"} 1.0' in metrics
    assert not errors
