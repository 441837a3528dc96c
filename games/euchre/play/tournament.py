"""Euchre's plug-in to the one tournament loop (`play.tournament.run_tournament`): games to 10
(or single hands) between Euchre players; what `setback-cfr tournament --game euchre` runs.

Players (`make_euchre_player`): `random`, `heuristic` (`games.euchre.play.heuristic`), `db:PATH`
(a database of a Euchre export, `games.euchre.db.player`; `db:PATH,sample` samples its stored
probabilities), `ismcts[:SIMS][,pyspiel]` (OpenSpiel's ISMCTS bot, `play.ismcts_player`;
`,pyspiel` searches OpenSpiel's own C++ `euchre`), `search[OPTIONS]:db:PATH` (rollout
search on the database, `games.euchre.play.search_player`) and `oracle[,bid=SPEC]`
(`play.trick_oracle`: it SEES EVERY HAND, a ceiling for tournaments and ratings; the game
loops hand it the true state).

Games (`play_unit`): game g of a tournament with seed s is `games.euchre.match.play_game` on
the game seed `stream_seed(s, g) >> 1` (hand k of it dealt from `stream_seed(game seed, k)`;
South deals first). Player A sits East-West, B North-South; with `duplicate` every game is
played a second time on the same hands with the teams' seats swapped, so each player holds the
other's cards once. Players with a `seed(s)` method are reseeded before each game from the
game seed (A and B on their own streams, the same in both games of a pair).

Hands (`hands=True`): unit i is one hand on game seed `stream_seed(s, i) >> 1`, dealt by
`WNES`[i mod 4], scored alone (no game around it): the figure is the points a hand.

The rows (WON, HANDS, POINTS_A, POINTS_B), the figures (`play.tournament.summarize_points`),
the duplicate scheme, the workers and the stop request are the one loop's.
"""

from __future__ import annotations


import numpy as np

from games.euchre.api import Hand, format_move
from games.euchre.cards import SEAT_CHARS, format_cards
from games.euchre.errors import EuchreError
from games.euchre.match import deal_hand, play_game
from games.euchre.rules import is_legal
from games.euchre.state import DEALT
from games.euchre.view import SeatView
from games.scaffold.view import ask
from play.player_grammar import Grammar
from play.player_spec import PlayerSpecError
from play.tournament import (DEFAULT_CHUNK, HANDS, PLAYER_SEED_BASE,  # noqa: F401 (re-exported)
                             POINTS_WIDTH, UNIT_POINTS_A, UNIT_POINTS_B, WON,
                             SeededRandomPlayer, TournamentGame, database_player,
                             points_pair_scores, points_report, points_unit, run_tournament,
                             summarize_points)

CHUNK = DEFAULT_CHUNK
SPEC_HELP = ("random, heuristic, db:PATH[,sample] (a database of a Euchre export), "
             "ismcts[:SIMS][,pyspiel] (OpenSpiel's ISMCTS bot, SIMS simulations a decision, "
             "default 100; ,pyspiel: it searches OpenSpiel's own C++ euchre) or "
             "search[OPTIONS]:db:PATH (rollout search on the database; OPTIONS worlds=W,"
             "rollout=sample|greedy,bids=search|blueprint,margin=Z,think=MS,threads=T,"
             "voids=on|off) or oracle[,bid=SPEC] (SEES EVERY HAND: double-dummy card play on "
             "the true hand, SPEC's bids, default heuristic; for tournament and rating only)")

# one row per game or hand, from A's side (the points games' rows of `play.tournament`)
POINTS_A, POINTS_B = UNIT_POINTS_A, UNIT_POINTS_B


class EuchreSpecError(PlayerSpecError):
    """A player spec this program cannot build (one line)."""


def make_euchre_player(spec: str, seed: int = 0):
    """The Euchre player of `spec` (module docstring); `EuchreSpecError` for a bad one."""
    return GRAMMAR.make(spec, seed)


def _oracle(text: str, seed: int):
    """`oracle[,bid=SPEC]` (`play.trick_oracle`, on Euchre's card play declaration)."""
    from games.euchre import trick_play
    from play.trick_oracle import make_trick_oracle_player

    return make_trick_oracle_player(text, seed, make_euchre_player, EuchreSpecError, trick_play,
                                    "Euchre ")


def _is_oracle(text: str) -> bool:
    """Whether `text` names the oracle (`play.trick_oracle.is_oracle_spec`)."""
    from play.trick_oracle import is_oracle_spec

    return is_oracle_spec(text)


def _heuristic(seed: int):
    """The rule-based player (`games.euchre.play.heuristic`)."""
    from games.euchre.play.heuristic import EuchreHeuristicPlayer

    return EuchreHeuristicPlayer()


def _database(text: str, seed: int):
    """`db:PATH[,sample]` (`games.euchre.db.player`)."""
    from games.euchre.db.player import EuchreDatabasePlayer

    return database_player(text, seed, EuchreDatabasePlayer, EuchreSpecError)


def _search(text: str, seed: int):
    """`search[OPTIONS]:db:PATH` (`games.euchre.play.search_player`)."""
    from games.euchre.play.search_player import make_euchre_search_player

    return make_euchre_search_player(text, seed, make_euchre_player, EuchreSpecError)


def _ismcts(text: str, seed: int):
    """`ismcts[:SIMS][,pyspiel]` (`play.ismcts_player`, `games.euchre.play.ismcts`)."""
    from games.euchre.play.ismcts import NATIVE
    from play.ismcts_player import make_ismcts_player

    return make_ismcts_player(text, seed, "euchre", NATIVE, EuchreSpecError)


def _trickster(text: str, seed: int):
    """Refused: docs/playing/trickster.md#euchre-blocked."""
    raise EuchreSpecError(f"{text!r}: Trickster's Euchre bot (EuchreBot.cs) does not "
                          "compile with Mono's mcs, the only C# compiler our registries "
                          "offer (C# 7 local functions and C# 7.2 named arguments), so "
                          "there is no trickster:euchre player")


GRAMMAR = Grammar("Euchre", EuchreSpecError, SPEC_HELP,
                  {"db": _database, "search": _search, "ismcts": _ismcts,
                   "trickster": _trickster},
                  {"random": SeededRandomPlayer, "heuristic": _heuristic},
                  (_is_oracle, _oracle))


def play_hand(seats: dict, game_seed: int, dealer: str) -> dict:
    """Play hand 0 of `game_seed` dealt by `dealer` with `seats` (seat letter -> player);
    return its points by team (`EW`, `NS`)."""
    hand = deal_hand(game_seed, 0, dealer)
    dealer_index = SEAT_CHARS.index(dealer)
    history: list[int] = []
    while not hand.is_over:
        seat = hand.to_act
        view = SeatView.of(hand.state, dealer_index, (0, 0), history)
        move = ask(seats[seat], hand.state, view)  # the oracle sees the hand
        if not is_legal(hand.state, move):
            raise EuchreError(f"player {seats[seat].name!r} ({seat}) chose the illegal move "
                              f"{move}; legal: {' '.join(hand.legal_moves())}")
        hand.play(format_move(move))
        history.append(move)
    return hand.points()


play_unit = points_unit(play_game, play_hand, "points")  # a game's rows: the hands' points


def run_euchre_tournament(players, units, seed: int = 0, duplicate: bool = False,
                          hands: bool = False, workers: int = 1, progress: bool = True,
                          stop=None) -> np.ndarray:
    """Play `units` games (or hands; twice each with `duplicate`) between players (A, B) in
    the one loop (`play.tournament.run_tournament`); return the rows (WON, HANDS, POINTS_A,
    POINTS_B) in unit order. `stop()` (optional), asked between chunks, ends the tournament
    early: the rows are then those of the chunks finished, in order (one unit a chunk with
    one worker, so an interrupted run keeps every finished unit)."""
    return run_tournament(players, units, seed, duplicate, workers, progress=progress,
                          game=TOURNAMENT, hands=hands, stop=stop)


def hand_record(game_seed: int, dealer: str) -> dict:
    """The replay input (`setback-cfr replay --game euchre`) of hand 0 of `game_seed`."""
    hand: Hand = deal_hand(game_seed, 0, dealer)
    return {"dealer": dealer, "upcard": hand.upcard,
            "hands": {hand.seat_letter(r): format_cards(hand.state[DEALT + r])
                      for r in range(4)}}


TOURNAMENT = TournamentGame(
    name="euchre", title="Euchre", target=10, width=POINTS_WIDTH,
    play_unit=play_unit,
    make_player=make_euchre_player, spec_error=EuchreSpecError, spec_help=SPEC_HELP,
    pair_scores=points_pair_scores, summarize=summarize_points,
    format_summary=points_report("Euchre", 10), rules_version="euchre-1", hands=True,
    lookups=True)
