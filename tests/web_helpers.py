"""What the web tests share, whatever the game: an API client of a new app, a game started and
played through the API, and a real browser (Debian's Chromium driven by Playwright) on a live
server, watching for anything the page's Content-Security-Policy refuses."""

from __future__ import annotations

import os
import random
import time
from contextlib import contextmanager

import pytest

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update",
               "--disable-sync"]
SETTLED = ('document.querySelector("#status").classList.contains("your-turn")'
           ' || !document.querySelector("#overlay").hidden')


# --- the API ---------------------------------------------------------------------------
def client(path, bots="heuristic", owner=None, game="setback"):
    """A client of a new app of `game` on the games file `path`; `owner`: the owner cookie it
    starts with (the same browser after a restart), else the first reply gives it one."""
    from fastapi.testclient import TestClient

    from web.app import create_app

    cookies = None if owner is None else {"setback_owner": owner}
    return TestClient(create_app(bots, str(path), delay_ms=0, game=game), cookies=cookies)


def new_game(c, seed):
    """Start a game of seed `seed` (201 expected); its reply."""
    r = c.post("/api/games", json={"seed": seed})
    assert r.status_code == 201, r.text
    return r.json()


def play_to_the_end(c, game, choose, stop_after=None, most=2000):
    """Play South with `choose(view) -> move` until the game is over (or `stop_after`
    moves); return the last view and every event seen. Before each move it is South's turn
    with legal moves; a game of over `most` moves fails ("does not end")."""
    view = c.get(f"/api/games/{game}").json()["view"]
    events, n = [], 0
    while view["status"] == "playing" and (stop_after is None or n < stop_after):
        assert view["to_act"] == "S" and view["legal"], view
        r = c.post(f"/api/games/{game}/moves",
                   json={"move": choose(view), "version": view["version"]})
        assert r.status_code == 200, r.text
        events += r.json()["events"]
        view = r.json()["view"]
        n += 1
        assert n < most, "the game does not end"
    return view, events


def seeded_person(seed):
    """A person who plays a legal move at random (seeded)."""
    rng = random.Random(seed)
    return lambda view: rng.choice(view["legal"])


# --- the browser -----------------------------------------------------------------------
def wait_until(page, expression, seconds=180):
    """Poll `expression` in the page until it is true (a busy CI machine is slow, not
    broken)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"still false after {seconds} s: {expression}"
        time.sleep(0.05)


def need(condition, why):
    """Skip the test unless `condition` (under CI, where everything is installed: fail)."""
    if not condition:
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)


@contextmanager
def browser_page(app, width=1280, height=800):
    """`with browser_page(app) as (server, page, errors):` a Chromium page of that viewport
    and a live server of `app` on a loopback port. `errors` collects the page's uncaught
    errors and every Content-Security-Policy violation it reports (a test asserts it empty).
    Skips (fails under CI) when Playwright or Chromium is missing."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    need(sync_playwright is not None, "playwright is not installed (pip install -e '.[test]')")
    need(os.path.exists(CHROMIUM), f"{CHROMIUM} is missing (apt-get install chromium)")
    from web.live import LiveServer

    with LiveServer(app) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.set_default_timeout(180_000)  # a busy CI machine is slow, not broken
            errors = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("console", lambda msg: errors.append(msg.text)
                    if "Content Security Policy" in msg.text else None)
            yield server, page, errors
        finally:
            browser.close()


def server_view(server, game, owner=None):
    """The view of `game` from the live `server`, asked as `owner` (cookies; None: nobody)."""
    import httpx

    return httpx.get(f"{server.url}/api/games/{game}", cookies=owner,
                     timeout=120).json()["view"]


def click_a_button(page, legal, rng, hint):
    """South's move buttons other than cards (`#moves`: bids, calls): exactly the `legal`
    moves, in order, each named by its `data-move`. With `hint`, first asks for the hint and
    waits for it in the Why panel. Then clicks one of them at random (`rng`)."""
    buttons = page.locator("#moves button")
    shown = [buttons.nth(i).get_attribute("data-move") for i in range(buttons.count())]
    assert shown == legal
    if hint:
        page.click("#hint")
        wait_until(page, 'document.querySelector("#explain-title")'
                         '.textContent.startsWith("Hint")')
    buttons.nth(rng.randrange(buttons.count())).click()


def click_a_card(page, legal, rng):
    """South's enabled cards: exactly the `legal` ones; clicks one of them at random."""
    enabled = page.locator("#hand .card:enabled")
    cards = sorted(enabled.nth(i).get_attribute("data-card") for i in range(enabled.count()))
    assert cards == sorted(legal)
    enabled.nth(rng.randrange(enabled.count())).click()


def souths_turn(page, view, rng, clicks, bidding, counted):
    """South's turn on the page (`view`, the server's): in a phase of `bidding` no card is
    enabled and one of the move buttons (`click_a_button`) is clicked, the first such turn
    asking for the hint, counted as `counted`; otherwise the buttons are hidden and a legal
    card is clicked. `clicks` counts them (keys `counted`, "cards" and "hints")."""
    assert page.locator("#hand .card").count() == len(view["hand"])
    enabled = page.locator("#hand .card:enabled")
    if view["phase"] in bidding:
        assert enabled.count() == 0
        hint = clicks["hints"] == 0  # the bot's view of this decision
        click_a_button(page, view["legal"], rng, hint)
        clicks["hints"] += hint
        clicks[counted] += 1
    else:
        assert page.is_hidden("#moves")
        click_a_card(page, view["legal"], rng)
        clicks["cards"] += 1

# --- the layout on a phone -------------------------------------------------------------
PHONES = ((390, 844), (360, 780))
_COVERED = """(seat) => {
  const v = JSON.parse(JSON.stringify(state.view));
  v.trick = { cards: [["N", "AS"], ["W", "KH"], ["E", "QD"], ["S", "JC"]]
                .map(([s, card]) => ({ seat: s, card })), winner: "N" };
  v.dealer = seat;
  (DRESS)(v, seat);
  render(v);
  const box = (e) => e.getBoundingClientRect();
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const covered = [];
  for (const card of document.querySelectorAll("#trick .slot .card"))
    for (const part of document.querySelectorAll(".seat .name, .seat .chip, .seat .bubble"))
      if (part.textContent.trim() && getComputedStyle(part).visibility !== "hidden"
          && meet(box(card), box(part)))
        covered.push(`${card.parentElement.className} covers ${part.closest(".seat").dataset.seat}`
                     + ` .${part.className}: ${part.textContent}`);
  return covered;
}"""


def trick_covers_seats(page, dress, seats="WNE", phones=PHONES):
    """Where a card of the trick covers a seat's name, chips or call at phone widths: for each
    viewport of `phones` and each of `seats`, the page's own `render` re-draws its current view
    with a full trick on the table, that seat dealing and `dress` (the source of a JS function
    `(view, seat) => ...` that gives the seat the game's widest chips and call). Returns the
    overlaps seen (empty: none). A dressed view rather than a played one: the widest case on
    every seat, whatever the deal (issue 29: West's "maker" chip under the trick's West card).
    The page's CSP does not govern `page.evaluate`; the page is left at the last viewport."""
    covered = []
    for width, height in phones:
        page.set_viewport_size({"width": width, "height": height})
        for seat in seats:
            covered += [f"{width} px, {seat}: {c}" for c in page.evaluate(_COVERED.replace("DRESS", dress), seat)]
    return covered


# --- a tiny blueprint for search bots ----------------------------------------------------
def setback_blueprint(folder, deals=30, seed=3):
    """A Setback strategy database (its path) of random probability vectors for every key met
    in `deals` random deals played with random moves: enough for `db:` and `search[...]:db:`
    bots to play whole games fast (keys it lacks fall back to the first action). No strength
    is claimed for it."""
    import numpy as np

    from db.loader import load_strategies
    from games.setback.db.player import DatabasePlayer
    from games.setback.db.synthetic import write_table
    from games.setback.api import Deal
    from games.setback.view import SeatView
    from test_composite_players import EmptyStore

    asker, rng, table = DatabasePlayer(EmptyStore()), np.random.default_rng(seed), {}
    for d in range(deals):
        deal = Deal.random(seed * 1000 + d)
        while not deal.is_over:
            trace = asker.explain(SeatView.of(deal.state.copy(), deal.dealer))
            if trace["key"] is not None and trace["key"] not in table:
                table[trace["key"]] = rng.dirichlet(np.ones(len(trace["actions"])))
            legal = deal.legal_moves()
            deal.play(legal[int(rng.integers(len(legal)))])
    path = os.path.join(str(folder), "blueprint.strategy")
    write_table(path, "baseline", table)
    db = os.path.join(str(folder), "blueprint.db")
    load_strategies([path], db, progress=False)
    return db
