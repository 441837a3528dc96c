"""Spades' plug-in to the one tournament loop (`play.tournament.run_tournament`): games to 500
(or single hands) between Spades players; what `setback-cfr tournament --game spades` and
`setback-cfr rating --game spades` play.

Players (`make_spades_player`, `play.trick_game_grammar`): `random`,
`heuristic` (`games.spades.play.heuristic`), `ismcts[:SIMS],pyspiel` (OpenSpiel's ISMCTS bot
searching pyspiel's own `spades`, with the tree key and world draw that pyspiel's spades lacks:
`games.spades.play.ismcts`), `search[OPTIONS]:BASE` (`games.spades.play.search_player`),
`db:PATH[,sample]` (a database of a Spades export: the heuristic plays a key it lacks),
`trickster:spades` (Trickster Cards' Spades bot, `games/spades/play/trickster.py`) and
`oracle[,bid=SPEC]` / `oracle:SPEC` (`games.spades.play.oracle`: it SEES EVERY HAND). Kinds
Spades lacks are refused in one line saying so.

Games (`play.tournament.points_tournament`): game g of seed s is `games.spades.match.play_game`
on the game seed `stream_seed(s, g) >> 1` (West deals first, so North bids first as in
OpenSpiel), to 500 with the mercy rule; the row's points are each side's game score gained
hand by hand (`Hand.scores`: contracts, Nil, bags and their penalty). A single hand
(`hands=True`) is hand 0 of such a game from 0 to 0, its points OpenSpiel's returns of the hand
(`Hand.points`; from 0 to 0 they equal the hand's score).
"""

from __future__ import annotations

from games.spades.match import play_game
from play.trick_game_grammar import trick_game_grammar
from play.player_spec import PlayerSpecError
from play.tournament import points_tournament

TARGET = 500
SPEC_HELP = ("random, heuristic (games/spades/play/heuristic.py, a rule-based player), "
             "db:PATH[,sample] (a database of a Spades export; the heuristic plays a key it "
             "lacks), "
             "ismcts[:SIMS],pyspiel (OpenSpiel's ISMCTS bot searching pyspiel's spades, SIMS "
             "simulations a decision, default 100), search[OPTIONS]:heuristic|db:PATH (rollout "
             "search on the heuristic or a database; OPTIONS worlds=W,rollout=sample|greedy,"
             "bids=search|blueprint,margin=Z,think=MS,threads=T,voids=on|off,"
             "belief=uniform|policy|bids:FILE,temper=T,pool=K,floor=F,"
             "evidence=others|opponents; policy needs db:PATH, bids:FILE the bid tables), "
             "trickster:spades (Trickster Cards' Spades bot, from the TricksterBots checkout "
             "named by TRICKSTER_BOTS, run with Mono) or "
             "oracle[,bid=SPEC] or oracle:SPEC (SEES EVERY HAND: the card play double-dummy on "
             "the true hand, exact once 7 tricks remain, SPEC's bids, default heuristic; for "
             "tournament and rating only)")


class SpadesSpecError(PlayerSpecError):
    """A Spades player spec this program cannot build (one line)."""


GRAMMAR = trick_game_grammar(
    "spades", "Spades", SpadesSpecError, SPEC_HELP,
    search="games.spades.play.search_player:make_spades_search_player",
    ismcts="games.spades.play.ismcts:NATIVE",
    trickster="games.spades.play.trickster:make_trickster_spades_player",
    oracle="games.spades.play.oracle:OPTIONS",
    missing=("strategy", "pimc", "sds", "nn"))
make_spades_player = GRAMMAR.make  # (spec, seed=0) -> the player; SpadesSpecError for a bad one

TOURNAMENT = points_tournament("spades", "Spades", TARGET, play_game, "scores", GRAMMAR,
                               "spades-1")
play_unit = TOURNAMENT.play_unit
