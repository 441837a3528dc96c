"""Euchre's `oracle` player: it SEES EVERY HAND. A ceiling for tournaments and ratings, never a
real player.

Issue 37 (part 3), as Setback's `play/oracle.py`: the oracle plays each card double-dummy on
the TRUE hand. The one double-dummy solver (`search.trick_values`, driven by Euchre's
declaration `games.euchre.trick_play`: the hand's final points for the acting seat's team minus
the other team's, under perfect play with all hands known) values every legal card exactly,
and the oracle plays the best (ties: the lowest move number). Everything
before the card play (ordering up, naming, the dealer's discard, going alone) is another
player's: `oracle,bid=SPEC` with SPEC any Euchre player but an oracle, by default the
heuristic's (`heuristic`: always available, needs no file).

How it sees: Euchre players receive a `SeatView`, the other hands erased; the oracle cannot
play from one (`choose` refuses with `play.oracle.OracleRefused`). It is a
`play.oracle.SeeingPlayer` (`sees_all = True`), and the Euchre game loops
(`games.euchre.match.play_game` and `play.euchre_tournament.play_hand`, which `tournament
--game euchre`, `rating --game euchre` and the ladder use) ask their players through
`games.scaffold.view.ask`, which hands it the true state through `choose_seeing_all(state,
view)`, by duck typing (the rules package never imports the players). `serve` refuses it when the spec is read
(`web.bots`): a person is never seated against a player that sees their hand.
"""

from __future__ import annotations

import numpy as np

from games.euchre import state as S
from play.oracle import SeeingPlayer, split_oracle_spec

DEFAULT_BIDDER = "heuristic"


class EuchreOraclePlayer(SeeingPlayer):
    """Plays every Euchre card double-dummy on the true hand; `bidder` makes every other
    decision (module docstring)."""

    def __init__(self, bidder=None, name: str | None = None):
        from search.trick_values import TrickPlaySolver

        if bidder is None:
            from play.euchre_heuristic import EuchreHeuristicPlayer

            bidder = EuchreHeuristicPlayer()
        super().__init__(bidder, name)
        self.solver = TrickPlaySolver(tt_bits=14)  # five tricks: a small table

    def choose_seeing_all(self, state: np.ndarray, view) -> int:
        """The move of the seat to act, seeing the true hand `state` (engine state): the
        bidder's before the card play, else the card of best exact value for the seat's team
        (a single legal card is played without solving)."""
        if int(state[S.PHASE]) != S.PHASE_PLAY:
            return int(self.bidder.choose(view))
        legal = view.legal_moves()
        if legal.size == 1:
            return int(legal[0])
        moves, values = self.card_values(state)
        return int(moves[int(np.argmax(values))])  # the first best: the lowest move number

    def card_values(self, state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(legal cards ascending, their exact values from the acting seat's team's side) of
        `state`, a hand in its card play; ValueError for any other phase."""
        from games.euchre import trick_play

        if int(state[S.PHASE]) != S.PHASE_PLAY:
            raise ValueError("the Euchre solver needs a hand in its card play (trump named, "
                             "cards left to play)")
        return self.solver.card_values(state, trick_play)


def is_oracle_spec(text: str) -> bool:
    """Whether the Euchre spec `text` names the oracle (`oracle` or `oracle,...`, any case)."""
    lower = str(text).strip().lower()
    return lower == "oracle" or lower.startswith("oracle,") or lower.startswith("oracle:")


def make_euchre_oracle_player(text: str, seed: int, make_player, error=ValueError):
    """The oracle of a spec `oracle[,bid=SPEC]`; `make_player(SPEC, seed)` makes the bidder (the
    Euchre player grammar's); `error` (one line) for a bad spec."""
    name, bid_spec = split_oracle_spec(text, error, "Euchre ")
    if bid_spec is not None and is_oracle_spec(bid_spec):
        raise error(f"{name!r}: the oracle's bidder cannot be an oracle")
    return EuchreOraclePlayer(make_player(bid_spec or DEFAULT_BIDDER, seed), name=name)
