"""Spades' plug-in to the one tournament loop (`play.tournament.run_tournament`): games to 500
(or single hands) between Spades players; what `setback-cfr tournament --game spades` and
`setback-cfr rating --game spades` play.

Players (`make_spades_player`): `random` (uniform among the legal moves, its own seeded
stream), `heuristic` (`games.spades.play.heuristic`, the rule-based yardstick) and
`ismcts[:SIMS],pyspiel` (OpenSpiel's ISMCTS bot searching pyspiel's own `spades`, with the
tree key and world draw that pyspiel's spades lacks: `games.spades.play.ismcts`),
`search[OPTIONS]:BASE` (rollout search on the heuristic or a database,
`games.spades.play.search_player`), `db:PATH[,sample]` (a database of a Spades export,
`games.spades.db.player`: the heuristic plays a key it lacks), `trickster:spades` (Trickster Cards'
Spades bot, `games/spades/play/trickster.py`) and `oracle[,bid=SPEC]` /
`oracle:SPEC` (`games.spades.play.oracle`: it SEES EVERY HAND, a ceiling for tournaments and
ratings; the game loop hands it the true state). Kinds Spades lacks are refused in one line
saying so.

Games (`play_unit`): game g of a tournament with seed s is `games.spades.match.play_game` on
the game seed `stream_seed(s, g) >> 1` (hand k dealt from `stream_seed(game seed, k)`; West
deals first, so North bids first as in OpenSpiel), to 500 with the mercy rule (a team 350
points behind at -350 or less loses). A sits East-West, B North-South; `duplicate` replays
every game on the same hands with the seats swapped. The row's points are each side's game
score gained hand by hand (`Hand.scores`: contracts, Nil, bags and their penalty), so over a
game they add up to its final score. A game still undecided after `MAX_HANDS` hands (none is:
the mercy rule ends a losing game) would count as lost by both sides.

Hands (`hands=True`): unit i is hand 0 of a game on game seed `stream_seed(s, i) >> 1` dealt by
`WNES`[i mod 4] from a score of 0 to 0, scored alone; its points are OpenSpiel's returns of the
hand (`Hand.points`, as `replay --game spades` prints them; from 0 to 0 they equal the hand's
score, since no hand reaches the 500 or -350 that OpenSpiel's bonus needs).
"""

from __future__ import annotations

from games.spades.match import play_game
from play.player_grammar import Grammar
from play.player_spec import PlayerSpecError
from play.tournament import (POINTS_WIDTH, SeededRandomPlayer, TournamentGame,
                             database_player, points_pair_scores, points_report, points_unit,
                             summarize_points)

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


def make_spades_player(spec: str, seed: int = 0):
    """The Spades player of `spec` (module docstring); `SpadesSpecError` for a bad one."""
    return GRAMMAR.make(spec, seed)


def _is_oracle(text: str) -> bool:
    """Whether `text` names the oracle (asked first: its bidder's spec may hold anything)."""
    from play.trick_oracle import is_oracle_spec

    return is_oracle_spec(text)


def _oracle(text: str, seed: int):
    """`oracle[,bid=SPEC]` or `oracle:SPEC` (`games.spades.play.oracle`)."""
    from games.spades.play.oracle import make_spades_oracle_player

    return make_spades_oracle_player(text, seed, make_spades_player, SpadesSpecError)


def _heuristic(seed: int):
    """The rule-based player (`games.spades.play.heuristic`)."""
    from games.spades.play.heuristic import SpadesHeuristicPlayer

    return SpadesHeuristicPlayer()


def _database(text: str, seed: int):
    """`db:PATH[,sample]` (`games.spades.db.player`: the heuristic plays a key it lacks)."""
    from games.spades.db.player import SpadesDatabasePlayer

    return database_player(text, seed, SpadesDatabasePlayer, SpadesSpecError)


def _ismcts(text: str, seed: int):
    """`ismcts[:SIMS],pyspiel` (`games.spades.play.ismcts`)."""
    from games.spades.play.ismcts import make_spades_ismcts_player

    return make_spades_ismcts_player(text, seed, SpadesSpecError)


def _search(text: str, seed: int):
    """`search[OPTIONS]:BASE` (`games.spades.play.search_player`)."""
    from games.spades.play.search_player import make_spades_search_player

    return make_spades_search_player(text, seed, make_spades_player, SpadesSpecError)


def _trickster(text: str, seed: int):
    """Trickster Cards' bot, run by play/trickster_host.py (`games.spades.play.trickster`)."""
    from games.spades.play.trickster import make_trickster_spades_player

    return make_trickster_spades_player(text, seed, SpadesSpecError)


GRAMMAR = Grammar("Spades", SpadesSpecError, SPEC_HELP,
                  {"db": _database, "ismcts": _ismcts, "search": _search,
                   "trickster": _trickster},
                  {"random": SeededRandomPlayer, "heuristic": _heuristic},
                  (_is_oracle, _oracle), missing=("strategy", "pimc", "sds", "nn"))


def play_hand(seats: dict, game_seed: int, dealer: str) -> dict:
    """Hand 0 of a game on `game_seed` dealt by `dealer`, from 0 to 0, with `seats` (seat
    letter -> player): its points by team (OpenSpiel's returns of the hand)."""
    return play_game(seats, game_seed, dealer, max_hands=1).hands[0]["points"]


# a game's rows: each side's game score gained hand by hand (`Hand.scores`)
play_unit = points_unit(play_game, play_hand, "scores")


TOURNAMENT = TournamentGame(
    name="spades", title="Spades", target=TARGET, width=POINTS_WIDTH, play_unit=play_unit,
    make_player=make_spades_player, spec_error=SpadesSpecError, spec_help=SPEC_HELP,
    pair_scores=points_pair_scores, summarize=summarize_points,
    format_summary=points_report("Spades", TARGET),
    rules_version="spades-1", hands=True)
