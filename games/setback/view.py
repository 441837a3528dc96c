"""What one seat can see, and the interface every Setback player implements.

A `SeatView` is the deal's state array with the other seats' hands (current and dealt) erased,
plus the dealer and the game score: everything a player at the table may know. Players receive
views, never the full state, so no player can peek by accident.
"""

from __future__ import annotations

from typing import Protocol

from games.scaffold.view import TableView
from games.setback import rules
from games.setback import state as S


class SeatView(TableView):
    """The acting seat's view of a deal (`TableView`): every Setback move is public, so
    `history` is the deal's bids then cards as played."""

    engine_state = S
    engine_rules = rules


class Player(Protocol):
    """A Setback player: given a seat's view, choose a legal move (engine integer)."""

    name: str

    def choose(self, view: SeatView) -> int:
        """The move to make: a card 0..51 or `rules.BID_MOVE + bid`."""
        ...
