"""The bots of a Spades web table: a Spades player spec's decisions, each with what the bot saw
and chose (the page's "Why" panel), as `web.euchre_bots` does for Euchre.

The spec is whatever `play.spades_tournament.make_spades_player` builds (`random`,
`heuristic`, `db:PATH[,sample]`, `ismcts[:SIMS],pyspiel`, `search[OPTIONS]:POLICY`, ...): this
module takes the spec string as it is. One `SpadesBots` serves every game of a server; each
thread gets its own player. Every decision first reseeds the player from the game's seed and
the decision's place in the game, so a bot's move depends on the game only.

The explanation names the decision as the Spades abstraction keys it (`abstraction.spades`:
the key's text and its abstract actions, each with the move it plays); a database bot adds the
stored probabilities and whether the key was found, a search bot its searched values and where
it believes the top spades lie (`web.bots.KeyedBots.decide`).
"""

from __future__ import annotations

from games.spades.api import format_move
from play.spades_tournament import make_spades_player
from web.bots import KeyedBots


class SpadesBots(KeyedBots):
    """Decisions of the Spades player named by `spec`, one instance per thread (`KeyedBots`
    on the Spades abstraction). Making the first player checks the spec at once: a bad one
    raises `SpadesSpecError` (one line)."""

    make = staticmethod(make_spades_player)
    format_move = staticmethod(format_move)
    abstraction = "abstraction.spades"
    undealt = None  # every card is dealt
