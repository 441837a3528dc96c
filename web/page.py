"""The page of `setback-cfr serve`, built once when the app is made: the one table page every
game shares (`static/table.html`) with its `{{slot}}`s filled from the game's declaration (the
`PAGE` of its `games/<game>/table_view.py`: its name, title, heading, target, word for a deal,
the rules' summary, the move buttons' layout and the deals' table's columns).

The page stays static markup: no inline script or style (the CSP). What the page script
(`static/table.js`) needs of the game rides in the body's `data-table` attribute as JSON."""

from __future__ import annotations

import html
import json
import os
import re

TEMPLATE = "table.html"
_SLOT = re.compile(r"\{\{([a-z]+)\}\}")
PAGE_KEYS = ("name", "title", "heading", "target", "deal", "intro", "buttons", "history",
             "explain")


class PageError(ValueError):
    """A game's declaration that does not fit the shared page (one line)."""


def fill(template: str, values: dict[str, str], name: str = "page") -> str:
    """`template` with every `{{slot}}` replaced by `values[slot]`; a slot without a value, or
    a value no slot takes, is refused (one line naming it)."""
    missing = sorted(set(_SLOT.findall(template)) - set(values))
    if missing:
        raise PageError(f"{name}: no value for {{{{{missing[0]}}}}} of {TEMPLATE}")
    unused = sorted(set(values) - set(_SLOT.findall(template)))
    if unused:
        raise PageError(f"{name}: {unused[0]!r} fills no slot of {TEMPLATE}")
    return _SLOT.sub(lambda m: values[m.group(1)], template)


def page_values(page: dict) -> dict[str, str]:
    """The slots' values (HTML-escaped) of a game's `page` declaration; a declaration missing
    a key is refused (one line)."""
    missing = [key for key in PAGE_KEYS if key not in page]
    if missing:
        raise PageError(f"{page.get('name', 'a game')}: its PAGE has no {missing[0]!r}")
    esc = html.escape
    script = {k: page[k] for k in ("name", "title", "deal", "intro", "explain")}
    return {"game": esc(page["name"]), "title": esc(page["title"]),
            "heading": esc(page["heading"]), "target": esc(page["target"]),
            "deal": esc(page["deal"]), "deals": esc(page["deal"].capitalize() + "s"),
            "buttons": esc(page["buttons"]),
            "history": "".join(f"<th>{esc(h)}</th>" for h in page["history"]),
            "table": esc(json.dumps(script, ensure_ascii=False), quote=True)}


def build_page(static: str, page: dict) -> bytes:
    """The page of the game declared by `page`: `static/table.html` filled, as UTF-8."""
    with open(os.path.join(static, TEMPLATE), encoding="utf-8") as f:
        template = f.read()
    return fill(template, page_values(page), page.get("name", "page")).encode("utf-8")
