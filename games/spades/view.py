"""What one seat can see of a Spades hand, and the interface every Spades player implements.

A `SeatView` is the hand's state array with the other seats' cards (held and dealt) erased,
plus the dealer, the game score and the hand's moves: every bid and every card played is
public in Spades, so nothing else is hidden. Players receive views, never the full state.
"""

from __future__ import annotations

from typing import Protocol

from games.scaffold.view import TableView
from games.spades import rules
from games.spades import state as S


class SeatView(TableView):
    """The acting seat's view of a hand (`TableView`): every move is public."""

    engine_state = S
    engine_rules = rules


class Player(Protocol):
    """A Spades player: given a seat's view, choose a legal move (engine integer)."""

    name: str

    def choose(self, view: SeatView) -> int:
        """The move to make: a card 0..51 or `rules.BID_MOVE + bid` (bid 0 = Nil .. 13)."""
        ...
