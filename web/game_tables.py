"""The games `setback-cfr serve` can seat a person at, and what each brings to the server: its
table (one game to its target, with the `web.table.Table` interface), its bots (a player spec
of that game -> decisions with their explanation), its page, the exception its rules raise,
and whether it answers single positions (`POST /api/decide`).

Only dotted names ("module:attribute"), resolved on first use, as `games/registry.py` does:
importing this module imports no game, so `web.app` stays game-generic and a game's web
adapter is imported only by a server that plays it. The names are the registry's.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass


class UnknownWebGame(ValueError):
    """A game the web server has no table for (one line)."""


@dataclass(frozen=True)
class WebGame:
    """One game's web adapter: `name` (the registry's), `title` (the page's word for it), and
    the dotted places of its `page` declaration (the `PAGE` of its table_view.py: `web.page`),
    its `table` class, its `bots` class, its rules' `error` type and its `decide` handler
    (None: not offered)."""

    name: str
    title: str
    page: str
    table: str
    bots: str
    error: str
    decide: str | None = None

    def load(self, part: str):
        """The object behind `part` (`page`, `table`, `bots`, `error` or `decide`), imported
        now."""
        place = getattr(self, part)
        if place is None:
            raise UnknownWebGame(f"the {self.title} table has no {part!r}")
        module, _, attribute = place.partition(":")
        return getattr(importlib.import_module(module), attribute)


WEB_GAMES = {game.name: game for game in (
    WebGame("setback", "Setback", "games.setback.table_view:PAGE", table="web.table:Table",
            bots="web.bots:Bots", error="games.setback.errors:SetbackError",
            decide="web.position:decision"),
    WebGame("euchre", "Euchre", "games.euchre.table_view:PAGE", table="web.euchre_table:EuchreTable",
            bots="web.euchre_bots:EuchreBots", error="games.euchre.errors:EuchreError"),
    WebGame("spades", "Spades", "games.spades.table_view:PAGE", table="web.spades_table:SpadesTable",
            bots="web.spades_bots:SpadesBots", error="games.spades.errors:SpadesError",
            decide="web.spades_position:decision"),
)}
DEFAULT_WEB_GAME = "setback"


def web_game(name: str) -> WebGame:
    """The adapter of game `name`; an unknown name is one line naming the choices."""
    if name not in WEB_GAMES:
        raise UnknownWebGame(f"unknown game {name!r} for serve: expected "
                             f"{' or '.join(WEB_GAMES)}")
    return WEB_GAMES[name]
