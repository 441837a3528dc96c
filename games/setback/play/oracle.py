"""The `oracle` player of Setback: it SEES EVERY HAND. A ceiling for the rating ladder, never a
real player.

Issue 37: every figure of strength has a bottom (random, the heuristic) and should have a top.
The oracle is the one oracle of every game whose card play is declared (`play/trick_oracle.py`):
it plays each card double-dummy on the TRUE deal, every legal card given its exact value (the
baseline payoff: its team's deal score minus the other's) by the one solver
(`games/setback/search/capture_solver.py` on `search/capture_values.py`), the best played
(ties: the lowest card, as PIMC). Its bids are another player's: `oracle,bid=SPEC`, by default the heuristic's
(`heuristic`: always available, needs no file; a strategy database is the usual choice for a
ceiling over that database's own bidding, `oracle,bid=db:PATH`).

How it sees: players receive a `SeatView`, where the other hands are erased; the oracle cannot
play from one (`choose` refuses). The game loops (`games.setback.play.tournament.play_game`,
which `tournament`, `rating` and the ladder use) hand it the true state through
`choose_seeing_all(state, view)` (`games.scaffold.view.ask`); `serve` and `decide` refuse it when
the spec is read (`web.bots`): a person is never seated against a player that sees their hand.
"""

from __future__ import annotations

# what every game's oracle shares; OracleRefused and refuses_oracle are read here too (web.bots)
from play.trick_oracle import (OracleRefused, TrickOraclePlayer,  # noqa: F401
                               make_trick_oracle_player, refuses_oracle)

DEFAULT_BIDDER = "heuristic"
OraclePlayer = TrickOraclePlayer  # the name the tests and older callers know


def make_oracle_player(text: str, seed: int = 0):
    """The oracle of a spec `oracle[,bid=SPEC]`; bad specs raise PlayerSpecError."""
    from games.setback import trick_play
    from play.player_spec import PlayerSpecError, make_player

    return make_trick_oracle_player(text, seed, make_player, PlayerSpecError, trick_play,
                                    bidder=DEFAULT_BIDDER)
