"""The games `setback-cfr serve` can seat a person at, and what each brings to the server: its
declaration (its games/<game>/table_view.py: the one web table's hooks, `web.table_base`, and
its page, `web.page`), its bots (a player spec of that game -> decisions with their
explanation), the exception its rules raise, and whether it answers single positions
(`POST /api/decide`).

Only dotted names ("module:attribute"), resolved on first use, as `games/registry.py` does:
importing this module imports no game, so `web.app` stays game-generic and a game's web
adapter is imported only by a server that plays it. The names are the registry's.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass

from games import registry  # plain data: imports no game


class UnknownWebGame(ValueError):
    """A game the web server has no table for (one line)."""


@dataclass(frozen=True)
class WebGame:
    """One game's web adapter: `name` (the registry's), `title` (the page's word for it), and
    the dotted place of its `look` (its games/<game>/table_view.py: the table's hooks, the
    bots', the decide reader's and how it shows); `decide`: whether it answers single
    positions (`web.position`)."""

    name: str
    title: str
    look: str
    decide: bool = False

    def load(self, part: str):
        """The object behind `part`, imported now: `page` or `api` (the look's `PAGE`,
        `web.page`; its `API`, `web.openapi`),
        `table` (the one web table driven by the look, `web.table_base.table_for`), `bots`
        (`web.bots.bots_for`), `error` (its rules' error, the face's) or `decide` (the one
        position reader's `(bots, spec) -> answer`, `web.position.decider`)."""
        look = importlib.import_module(self.look)
        if part in ("page", "api"):
            return look.PAGE if part == "page" else look.API
        if part == "error":
            return look.Face.error
        if part == "decide" and not self.decide:
            raise UnknownWebGame(f"the {self.title} table has no 'decide'")
        if part not in ("table", "bots", "decide"):
            raise UnknownWebGame(f"a web game has no {part!r}")
        made = {"table": "web.table_base:table_for", "bots": "web.bots:bots_for",
                "decide": "web.position:decider"}[part]
        return registry.load_place(made)(look)


def _web_games():
    """The registered games that bring a table (a `games/<game>/table_view.py`, found without
    importing it), titled by their words; a game that declares what `decide` reads
    (`DECIDE`) answers single positions."""
    for name, entry in registry.GAMES.items():
        look = f"{entry.package}.table_view"
        if importlib.util.find_spec(look) is not None:
            yield WebGame(name, registry.words(name, "TITLE", name), look,
                          decide=registry.words(name, "DECIDE") is not None)


WEB_GAMES = {game.name: game for game in _web_games()}
DEFAULT_WEB_GAME = registry.DEFAULT_GAME


def web_game(name: str) -> WebGame:
    """The adapter of game `name`; an unknown name is one line naming the choices."""
    if name not in WEB_GAMES:
        raise UnknownWebGame(f"unknown game {name!r} for serve: expected "
                             f"{' or '.join(WEB_GAMES)}")
    return WEB_GAMES[name]
