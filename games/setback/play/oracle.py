"""The `oracle` player: it SEES EVERY HAND. A ceiling for the rating ladder, never a real player.

Issue 37: every figure of strength has a bottom (random, the heuristic) and should have a top.
The oracle plays each card double-dummy on the TRUE deal: the project's exact solver
(`games.setback.trick_play.solve_moves`, the one solver; the baseline payoff: its team's deal score minus the
other's) gives every legal card its exact value with all four hands known, and the oracle plays the
best (ties: the lowest card, as PIMC). Its bids are another player's: `oracle,bid=SPEC`, by default
the heuristic's (`heuristic`: always available, needs no file; a strategy database is the usual
choice for a ceiling over that database's own bidding, `oracle,bid=db:PATH`).

How it sees: players receive a `SeatView`, where the other hands are erased. The oracle cannot
play from one (`choose` refuses). It declares `sees_all = True`, and the game loops
(`games.setback.play.tournament.play_game`, which `tournament`, `rating` and the ladder use;
Euchre's in `games.euchre.match` and `games.euchre.play.tournament`) ask their players through
`games.scaffold.view.ask`, which hands such a player the true state through
`choose_seeing_all(state, view)`. `SeeingPlayer` is what every game's oracle shares
(`play/trick_oracle.py`, with the one oracle of the games whose card play is declared). No
other player has the attribute; a player wrapped around the oracle (a composite's bidder, a
`play=` card player) reaches only `choose` and fails loudly. `serve` and `decide` refuse it
when the spec is read (`web.bots`): a person is never seated against a player that sees their hand.
"""

from __future__ import annotations

import numpy as np

from games.setback import state as S
# what every game's oracle shares; OracleRefused and refuses_oracle are read here too (web.bots)
from play.trick_oracle import (OracleRefused, SeeingPlayer, refuses_oracle,  # noqa: F401
                               split_oracle_spec)

DEFAULT_BIDDER = "heuristic"


class OraclePlayer(SeeingPlayer):
    """Plays every card double-dummy on the true deal; `bidder` bids (module docstring)."""

    def __init__(self, bidder=None, name: str | None = None, tt_bits: int = 16):
        from games.setback.trick_play import Solver

        if bidder is None:
            from games.setback.play.heuristic import HeuristicPlayer

            bidder = HeuristicPlayer()
        super().__init__(bidder, name)
        self.solver = Solver(tt_bits)

    def choose_seeing_all(self, state: np.ndarray, view) -> int:
        """The move of the seat to act, seeing the true deal `state` (engine state): the
        bidder's in the auction, else the card of best exact value for the seat's team."""
        if int(state[S.PHASE]) == S.PHASE_AUCTION:
            return int(self.bidder.choose(view))
        legal = view.legal_moves()
        if legal.size == 1:
            return int(legal[0])
        moves, values = self.card_values(state)
        return int(moves[int(np.argmax(values))])

    def card_values(self, state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(legal cards ascending, their exact values from the acting seat's team's side)."""
        from games.setback.trick_play import solve_moves

        s = self.solver
        true = np.ascontiguousarray(state, dtype=np.int64).copy()
        n = solve_moves(true, *s.buffers(), s._moves_out, s._values_out)
        sign = 1 if int(true[S.TO_ACT]) % 2 == int(true[S.HIGH_BIDDER]) % 2 else -1
        return s._moves_out[:n].copy(), sign * s._values_out[:n].astype(np.float64)


def make_oracle_player(text: str, seed: int = 0):
    """The oracle of a spec `oracle[,bid=SPEC]`; bad specs raise PlayerSpecError."""
    from play.player_spec import PlayerSpecError, make_player

    name, bid_spec = split_oracle_spec(text, PlayerSpecError)
    bidder = make_player(bid_spec or DEFAULT_BIDDER, seed)
    if getattr(bidder, "sees_all", False):
        raise PlayerSpecError(f"{name!r}: the oracle's bidder cannot be an oracle")
    return OraclePlayer(bidder, name=name)
