"""The page of `setback-cfr serve`, built once when the app is made: the table page every game
shares (`static/table.html`) with its `{{slot}}`s filled by the game's own parts (the game's
page file, `static/index.html` for Setback, `static/euchre.html` for Euchre) and by its
adapter (`{{game}}`, its name; `{{title}}`, its word for itself).

A parts file is a comment (what it is, dropped) then its parts, each a line
`<!--part NAME-->` and the text that fills `{{NAME}}` (white space around it dropped; empty:
the slot stays empty). The page stays static markup: no inline script or style (the CSP).
"""

from __future__ import annotations

import os
import re

TEMPLATE = "table.html"
_SLOT = re.compile(r"\{\{([a-z]+)\}\}")
_PART = re.compile(r"^<!--part ([a-z]+)-->[ \t]*$", re.M)


class PageError(ValueError):
    """A game's page that does not fit the shared one (one line)."""


def read_parts(text: str, name: str = "parts") -> dict[str, str]:
    """The parts of a parts file's `text`: {NAME: text}; a part named twice is refused."""
    pieces = _PART.split(text)
    parts: dict[str, str] = {}
    for part, body in zip(pieces[1::2], pieces[2::2]):
        if part in parts:
            raise PageError(f"{name}: part {part!r} is given twice")
        parts[part] = body.strip()
    return parts


def fill(template: str, values: dict[str, str], name: str = "parts") -> str:
    """`template` with every `{{slot}}` replaced by `values[slot]`; a slot without a value, or
    a value no slot takes, is refused (one line naming it)."""
    missing = sorted(set(_SLOT.findall(template)) - set(values))
    if missing:
        raise PageError(f"{name}: no part {missing[0]!r} for {TEMPLATE}")
    unused = sorted(set(values) - set(_SLOT.findall(template)))
    if unused:
        raise PageError(f"{name}: part {unused[0]!r} fills no slot of {TEMPLATE}")
    return _SLOT.sub(lambda m: values[m.group(1)], template)


def build_page(static: str, parts_file: str, game: str, title: str) -> bytes:
    """The page of game `game` (its word for itself: `title`): `static/table.html` filled with
    the parts in `static/<parts_file>`, as UTF-8."""
    with open(os.path.join(static, TEMPLATE), encoding="utf-8") as f:
        template = f.read()
    with open(os.path.join(static, parts_file), encoding="utf-8") as f:
        parts = read_parts(f.read(), parts_file)
    for own in ("game", "title"):
        if own in parts:
            raise PageError(f"{parts_file}: part {own!r} is the server's (the game's adapter)")
    return fill(template, {**parts, "game": game, "title": title}, parts_file).encode("utf-8")
