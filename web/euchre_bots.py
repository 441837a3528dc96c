"""The bots of a Euchre web table: a Euchre player spec's decisions, each with what the bot saw
and chose (the page's "Why" panel), as `web.bots.Bots` does for Setback.

The spec is `play.euchre_tournament`'s (`random`, `heuristic`, `db:PATH[,sample]`,
`ismcts[:SIMS]`, `search[OPTIONS]:POLICY`). One `EuchreBots` serves every game of a server;
each thread gets its own player (a database player's SQLite connection belongs to the thread
that opened it). Every decision first reseeds the player from the game's seed and the
decision's place in the game, so a bot's move depends on the game only, not on other games,
hints or a restart.

The explanation names the decision as the Euchre abstraction keys it (`abstraction.euchre`:
the key's text and its abstract actions, each with the move it plays); a database bot adds the
stored probabilities and whether the key was found.
"""

from __future__ import annotations

from games.euchre.api import format_move
from play.euchre_tournament import make_euchre_player
from web.bots import KeyedBots


class EuchreBots(KeyedBots):
    """Decisions of the Euchre player named by `spec`, one instance per thread (`web.bots`'
    `KeyedBots.decide`, on the Euchre abstraction). Making the first player here checks the
    spec at once: a bad one raises `EuchreSpecError` (one line) before the server starts."""

    make = staticmethod(make_euchre_player)
    format_move = staticmethod(format_move)
    abstraction = "abstraction.euchre"
    undealt = "kitty"  # the four cards not dealt
