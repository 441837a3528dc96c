"""The tutorial's game at the one web page, in a real browser (issue 55: the page plays a hand
of every game in Chromium). Mini Tricks is registered only at run time, so
`test_web_table_browser.py` (the registered games) does not see it: here its package is written
out from docs/games/adding-a-game.md as `test_docs.py` writes it, registered for this test only
(the registry and the web games restored after), and South plays one hand by clicking its legal
cards, asking one hint, against the grammar's random bots; the hand's result dialog and the
hands' table must show the tricks the server counted.
"""

import random
import re
import sys

from test_docs import TUTORIAL, fenced_blocks
from web_helpers import SETTLED, browser_page, server_view, souths_turn, wait_until


def write_package(folder):
    """The tutorial's `minitricks/` blocks, written under `folder` (each under its title)."""
    for info, content in fenced_blocks(TUTORIAL.read_text()):
        title = re.search(r'title="(minitricks/[^"]+)"', info)
        if info.startswith("python") and title:
            path = folder / title.group(1)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content)


def test_a_browser_plays_a_hand_of_the_tutorials_game(tmp_path, monkeypatch):
    import httpx

    from games import registry
    from web import game_tables
    from web.app import create_app

    write_package(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "GAMES", dict(registry.GAMES))  # restored after the test
    for name in [m for m in sys.modules if m == "minitricks" or m.startswith("minitricks.")]:
        monkeypatch.delitem(sys.modules, name)
    import minitricks.plugin  # noqa: F401 (registers the game, as the tutorial's scripts do)

    monkeypatch.setitem(game_tables.WEB_GAMES, "minitricks",
                        game_tables.WebGame("minitricks", "Mini Tricks", "minitricks.table_view"))
    app = create_app("random", str(tmp_path / "games.db"), delay_ms=0, game="minitricks")
    rng, clicks, hint = random.Random(5), {"calls": 0, "cards": 0, "hints": 0}, None
    with browser_page(app) as (server, page, errors):
        page.goto(server.url + "/")
        page.wait_for_selector("#start-game")
        welcome = page.text_content("#dialog")
        owner = {c["name"]: c["value"] for c in page.context.cookies()}
        game = httpx.post(f"{server.url}/api/games", json={"seed": 5}, cookies=owner,
                          timeout=120).json()["game"]
        page.goto(server.url + "/")
        page.click("text=Resume")
        wait_until(page, SETTLED)
        while not page.is_visible("#next-deal"):
            assert clicks["cards"] < 2, "South holds two cards a hand"
            view = server_view(server, game, owner)
            assert view["to_act"] == "S" and len(view["hand"]) == 2 - clicks["cards"]
            if hint is None and len(view["legal"]) > 1:  # the bots' view of South's choice
                page.click("#hint")
                wait_until(page, 'document.querySelector("#explain-title")'
                                 '.textContent.startsWith("Hint")')
                hint, held = page.text_content("#explain"), view["hand"]
            souths_turn(page, view, rng, clicks, (), "calls")
            wait_until(page, SETTLED)
        over = page.text_content("#dialog")
        page.click("#next-deal")
        wait_until(page, SETTLED)
        view = server_view(server, game, owner)
        history = page.text_content("#history")
    assert "You play South" in welcome and "Mini Tricks" in welcome
    assert clicks["cards"] == 2 and len(view["history"]) == 1
    points = view["history"][0]["points"]
    assert sum(points.values()) == 2  # two tricks a hand
    assert "Hand 1 is over" in over and f"N-S {points['NS']} · E-W {points['EW']}" in over
    assert f"{points['NS']}{points['EW']}" in re.sub(r"\s", "", history)
    assert hint is not None  # seed 5: South first holds two spades, a choice
    # the Why panel shows the abstraction's key of South's decision: seat 0 (the dealer's, as
    # South deals the first hand), its two cards, the cards played before it
    key = re.search(r"key (\d):((?:[JQKA][SH]){2}):((?:[JQKA][SH]){3})", hint)
    assert key and key.group(1) == "0", hint
    assert sorted(re.findall("..", key.group(2))) == sorted(held)
    assert not errors
