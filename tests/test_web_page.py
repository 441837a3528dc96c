"""The page of `setback-cfr serve` (`web.page`): the table page both games share
(static/table.html) filled with each game's parts, every slot filled exactly once; a parts file
that does not fit the shared page is refused with one line naming what is wrong."""

import os

import pytest

from web.page import PageError, build_page, fill, read_parts

STATIC = os.path.join(os.path.dirname(__file__), "..", "web", "static")


@pytest.mark.parametrize("parts, game, title, own", [
    ("index.html", "setback", "Setback", ['id="bid-buttons"', 'id="won-ns"', "/static/app.js",
                                          "<h1>Setback <small>to 11</small></h1>"]),
    ("euchre.html", "euchre", "Euchre", ['id="call-buttons"', 'id="kitty"', 'id="tally"',
                                         "/static/euchre.css", "/static/euchre.js",
                                         "<h1>Euchre <small>to 10</small></h1>"]),
])
def test_each_games_page_is_the_shared_page_with_its_parts(parts, game, title, own):
    page = build_page(STATIC, parts, game, title).decode()
    assert "{{" not in page and "<!--part" not in page
    assert f"<title>{title}: play the bots</title>" in page and f'<body class="{game}">' in page
    for text in own:
        assert page.count(text) == 1, text
    # the shared skeleton, once: the scripts in order (the shared one first), the dialog, Why
    common = page.index('<script src="/static/table-common.js"></script>')
    assert common < page.index(own[-2])  # the game's own script
    for shared in ('id="explain-title"', 'id="dialog"', 'id="hand"', 'id="history"',
                   'class="slot slot-S"'):
        assert page.count(shared) == 1, shared


def test_a_parts_file_that_does_not_fit_is_refused_in_one_line():
    template = "<title>{{title}}</title><b>{{heading}}</b>"
    assert read_parts("<!-- what -->\n<!--part heading-->\n  Euchre  \n") == {"heading": "Euchre"}
    assert fill(template, {"title": "T", "heading": "H"}) == "<title>T</title><b>H</b>"
    with pytest.raises(PageError, match="no part 'heading' for table.html"):
        fill(template, {"title": "T"}, "x.html")
    with pytest.raises(PageError, match="part 'extra' fills no slot"):
        fill(template, {"title": "T", "heading": "H", "extra": "E"}, "x.html")
    with pytest.raises(PageError, match="part 'heading' is given twice"):
        read_parts("<!--part heading-->\nA\n<!--part heading-->\nB\n", "x.html")


def test_the_server_names_the_game_not_its_parts(tmp_path):
    (tmp_path / "table.html").write_text("<title>{{title}}</title>{{game}}")
    (tmp_path / "g.html").write_text("<!--part title-->\nMine\n")
    with pytest.raises(PageError) as refused:
        build_page(str(tmp_path), "g.html", "g", "G")
    assert str(refused.value) == "g.html: part 'title' is the server's (the game's adapter)"
