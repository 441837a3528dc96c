"""Euchre's plug-in to the one tournament loop (`play.tournament.run_tournament`): games to 10
(or single hands) between Euchre players; what `setback-cfr tournament --game euchre` runs.

Players (`make_euchre_player`, `play.trick_game_grammar`): `random`,
`heuristic` (`games.euchre.play.heuristic`), `db:PATH[,sample]` (a database of a Euchre
export), `ismcts[:SIMS][,pyspiel]` (OpenSpiel's ISMCTS bot; `,pyspiel` searches OpenSpiel's own
C++ `euchre`: `games.euchre.play.ismcts`), `search[OPTIONS]:db:PATH`
(`games.euchre.play.search_player`), `search[OPTIONS]:net:FILE` (its rollouts played by a
network: `games.euchre.play.net_player`), `net:FILE[,sample]` (the policy network of `train
distill`: `games.euchre.play.net_player`) and `oracle[,bid=SPEC]` (`play.trick_oracle`: it SEES
EVERY HAND, a ceiling for tournaments and ratings).

Games (`play.tournament.points_tournament`): game g of seed s is `games.euchre.match.play_game`
on the game seed `stream_seed(s, g) >> 1` (South deals first); a single hand (`hands=True`) is
hand 0 of such a game dealt by `WNES`[i mod 4], its points the figure.
"""

from __future__ import annotations

from games.euchre.match import play_game
from play.trick_game_grammar import trick_game_grammar
from play.player_spec import PlayerSpecError
from play.tournament import points_tournament

SPEC_HELP = ("random, heuristic, db:PATH[,sample] (a database of a Euchre export), "
             "ismcts[:SIMS][,pyspiel] (OpenSpiel's ISMCTS bot, SIMS simulations a decision, "
             "default 100; ,pyspiel: it searches OpenSpiel's own C++ euchre) or "
             "search[OPTIONS]:db:PATH or search[OPTIONS]:net:FILE (rollout search on the "
             "database, or on the network; OPTIONS worlds=W,"
             "rollout=sample|greedy,bids=search|blueprint,margin=Z,think=MS,threads=T,"
             "voids=on|off) or net:FILE[,sample] (the policy network of train distill, "
             "exported by export) or oracle[,bid=SPEC] (SEES EVERY HAND: double-dummy card "
             "play on the true hand, SPEC's bids, default heuristic; for tournament and "
             "rating only)")


class EuchreSpecError(PlayerSpecError):
    """A player spec this program cannot build (one line)."""


def _trickster(text: str, seed: int, error: type):
    """Refused: docs/playing/trickster.md#euchre-blocked."""
    raise error(f"{text!r}: Trickster's Euchre bot (EuchreBot.cs) does not "
                "compile with Mono's mcs, the only C# compiler our registries "
                "offer (C# 7 local functions and C# 7.2 named arguments), so "
                "there is no trickster:euchre player")


def _search(text: str, seed: int, make_player, error):
    """`search[OPTIONS]:POLICY`: on a database (`games.euchre.play.search_player`) or, with
    POLICY `net:FILE`, on a network (`games.euchre.play.net_player`)."""
    from games.euchre.play.search_player import OPTIONS, SPEC_FORM, make_euchre_search_player
    from play.search_options import parse_options

    options, policy = parse_options(text, error, SPEC_FORM, "search:db:euchre.db", OPTIONS)
    if not policy.lower().startswith("net:"):
        return make_euchre_search_player(text, seed, make_player, error)
    from games.euchre.play.net_player import make_euchre_net_search_player

    return make_euchre_net_search_player(text, options, policy, seed, error)


def _net(text: str, seed: int):
    """`net:FILE[,sample]` (`games.euchre.play.net_player`, imported on first use)."""
    from games.euchre.play.net_player import make_euchre_net_player

    return make_euchre_net_player(text, seed, EuchreSpecError)


GRAMMAR = trick_game_grammar(
    "euchre", "Euchre", EuchreSpecError, SPEC_HELP,
    search=_search,
    ismcts="games.euchre.play.ismcts:NATIVE", trickster=_trickster)

GRAMMAR.kinds["net"] = _net  # Euchre's own kind, beside those every trick game has
make_euchre_player = GRAMMAR.make  # (spec, seed=0) -> the player; EuchreSpecError for a bad one

TOURNAMENT = points_tournament("euchre", "Euchre", 10, play_game, "points", GRAMMAR,
                               "euchre-1", lookups=True)
play_unit = TOURNAMENT.play_unit
