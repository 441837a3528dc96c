"""What one seat can see of a Spades hand, the view every Spades player is given (`Player`).

A `SeatView` is the hand's state array with the other seats' cards (held and dealt) erased,
plus the dealer, the game score and the hand's moves: every bid and every card played is
public in Spades, so nothing else is hidden. Players receive views, never the full state.
"""

from __future__ import annotations

from games.scaffold.view import Player, TableView  # noqa: F401 (Player re-exported)
from games.spades import rules
from games.spades import state as S


class SeatView(TableView):
    """The acting seat's view of a hand (`TableView`): every move is public."""

    engine_state = S
    engine_rules = rules
