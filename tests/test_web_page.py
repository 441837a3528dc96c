"""The page of `setback-cfr serve` (`web.page`): the one table page every game shares
(static/table.html) filled from each game's declaration (the `PAGE` of its table_view.py),
every slot filled exactly once, nothing the CSP forbids; a declaration that does not fit the
shared page is refused with one line naming what is wrong."""

import html
import json
import os
import re

import pytest

from web.game_tables import WEB_GAMES
from web.page import PageError, build_page, fill, page_values

STATIC = os.path.join(os.path.dirname(__file__), "..", "web", "static")


@pytest.mark.parametrize("name", sorted(WEB_GAMES))
def test_each_games_page_is_the_shared_page_filled_from_its_declaration(name):
    declared = WEB_GAMES[name].load("page")
    page = build_page(STATIC, declared).decode()
    assert "{{" not in page
    assert f"<title>{declared['title']}: play the bots</title>" in page
    assert f'<body class="{name}"' in page and f"<h1>{declared['heading']} <small>" in page
    for column in declared["history"]:
        assert f"<th>{html.escape(column)}</th>" in page
    # what the script needs of the game rides in one data attribute, as JSON
    data = json.loads(html.unescape(re.search(r'data-table="([^"]*)"', page).group(1)))
    assert data == {k: declared[k] for k in ("name", "title", "deal", "intro", "explain")}
    # the one script and the one style sheet, once; the shared skeleton, once
    assert page.count("<script") == 1 and '<script src="/static/table.js"></script>' in page
    assert page.count("<link") == 1 and '<link rel="stylesheet" href="/static/style.css">' in page
    for shared in ('id="explain-title"', 'id="dialog"', 'id="hand"', 'id="history"',
                   'id="moves"', 'id="kitty"', 'id="tally"', 'class="slot slot-S"'):
        assert page.count(shared) == 1, shared


@pytest.mark.parametrize("name", sorted(WEB_GAMES))
def test_each_games_page_needs_nothing_the_csp_forbids(name):
    """Every script a file of its own, no on... handler, no style attribute, nothing from
    another origin; the one script sets no style attribute and writes no markup."""
    page = build_page(STATIC, WEB_GAMES[name].load("page")).decode()
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page) == []
    assert not re.search(r"\son[a-z]+\s*=", page) and " style=" not in page
    assert "http://" not in page and "https://" not in page


def test_the_page_script_and_style_sheet_name_no_game():
    """One script and one style sheet for every game: the games' differences come from the
    server (each game's table_view.py), so neither names a game."""
    for file in ("table.js", "style.css", "table.html"):
        text = open(os.path.join(STATIC, file), encoding="utf-8").read()
        text = text.replace("setback-cfr", "").replace('"Spades"', "").lower()  # the suit's
        for name in WEB_GAMES:
            assert name not in text, (file, name)
    script = open(os.path.join(STATIC, "table.js"), encoding="utf-8").read()
    assert "style:" not in script and 'setAttribute("style"' not in script
    assert "innerHTML" not in script  # text only: a card or a name is never markup


def test_a_declaration_that_does_not_fit_is_refused_in_one_line():
    template = "<title>{{title}}</title><b>{{heading}}</b>"
    assert fill(template, {"title": "T", "heading": "H"}) == "<title>T</title><b>H</b>"
    with pytest.raises(PageError, match=r"x: no value for \{\{heading\}\} of table.html"):
        fill(template, {"title": "T"}, "x")
    with pytest.raises(PageError, match="'extra' fills no slot"):
        fill(template, {"title": "T", "heading": "H", "extra": "E"}, "x")
    with pytest.raises(PageError, match="g: its PAGE has no 'heading'"):
        page_values({"name": "g", "title": "G"})


def test_the_declarations_words_are_escaped():
    declared = {**WEB_GAMES["setback"].load("page"), "heading": "<b>&", "intro": '"x"'}
    values = page_values(declared)
    assert values["heading"] == "&lt;b&gt;&amp;" and '"' not in values["table"]


@pytest.mark.parametrize("name", sorted(WEB_GAMES))
def test_each_games_api_document_is_in_its_own_words(name):
    """The OpenAPI document (`web.openapi`) of every game's server: no placeholder left, the
    game's title, target, replay command and hand size from its declaration (`API`), and
    `/api/decide` with the game's own example exactly when the game answers positions."""
    from web.openapi import OPERATIONS, document

    game = WEB_GAMES[name]
    api = game.load("api")
    routes = [op for op in OPERATIONS if op[1] != "/api/decide" or game.decide]
    doc = document(routes, "heuristic", api, game.decide)
    text = json.dumps(doc)
    assert not re.search(r"<(title|target|moves|replay)>", text)
    assert f"Play {api['title']} against" in doc["info"]["description"]
    assert f"A game to {api['target']} with" in text and f"`{api['replay']}`" in text
    deal = doc["components"]["schemas"]["Deal"]
    assert deal["properties"]["hands"]["additionalProperties"]["maxItems"] == api["deal"]["size"]
    assert ("/api/decide" in doc["paths"]) == game.decide == ("Position" in
                                                              doc["components"]["schemas"])
    if game.decide:
        assert doc["paths"]["/api/decide"]["post"]["requestBody"]["content"][
            "application/json"]["example"] == api["position"]["example"]
