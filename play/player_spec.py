"""Players named on the command line: `random`, `heuristic`, `db:PATH`, `strategy:PATH`, and
the PIMC card players `pimc[:WORLDS][,bid=SPEC]` and `pimc-pi[:WORLDS]:POLICY[,bid=SPEC]`
(`play/pimc.py`).

`strategy:` takes one strategy file or several separated by commas (a baseline export and a
bootstrap export, as `db load` takes them). Bad names and missing files are one clear error
(`PlayerSpecError`).
"""

from __future__ import annotations

import os

SPEC_HELP = ("random, heuristic, db:PATH (a strategy database), strategy:PATH[,PATH...], "
             "pimc[:WORLDS][,tables=FILE][,bid=SPEC] or "
             "pimc-pi[:WORLDS]:POLICY[,tables=FILE][,bid=SPEC]")


class PlayerSpecError(ValueError):
    """A player name that cannot be turned into a player."""


def make_player(spec: str, seed: int = 0):
    """The player named by `spec` (see the module docstring)."""
    text = str(spec).strip()
    if text.lower().startswith(("pimc:", "pimc,", "pimc-pi:", "pimc-pi,")) or text.lower() in (
            "pimc", "pimc-pi"):
        from play.pimc import make_pimc_player

        return make_pimc_player(text, seed)
    kind, _, argument = text.partition(":")
    kind = kind.lower()
    if kind == "random" and not argument:
        from play.random_player import RandomPlayer

        return RandomPlayer(seed)
    if kind == "heuristic" and not argument:
        from play.heuristic import HeuristicPlayer

        return HeuristicPlayer()
    if kind == "db":
        from db.errors import DatabaseError
        from db.player import DatabasePlayer

        if not argument:
            raise PlayerSpecError("db: needs a path, as in db:strategy.db")
        if not os.path.isfile(argument):
            raise PlayerSpecError(f"{argument}: no such strategy database")
        try:
            return DatabasePlayer(argument, name=f"db:{os.path.basename(argument)}")
        except DatabaseError as exc:
            raise PlayerSpecError(str(exc)) from None
    if kind == "strategy":
        from db.errors import DatabaseError
        from play.strategy_player import StrategyFilePlayer

        paths = [p for p in argument.split(",") if p]
        if not paths:
            raise PlayerSpecError("strategy: needs a path, as in strategy:baseline.msgpack")
        try:
            return StrategyFilePlayer(paths)
        except DatabaseError as exc:
            raise PlayerSpecError(str(exc)) from None
    raise PlayerSpecError(f"unknown player {spec!r}: expected {SPEC_HELP}")
