"""What one seat can see, the view every Setback player is given (`games.scaffold.view.Player`).

A `SeatView` is the deal's state array with the other seats' hands (current and dealt) erased,
plus the dealer and the game score: everything a player at the table may know. Players receive
views, never the full state, so no player can peek by accident.
"""

from __future__ import annotations

from games.scaffold.view import Player, TableView  # noqa: F401 (Player re-exported)
from games.setback import rules
from games.setback import state as S


class SeatView(TableView):
    """The acting seat's view of a deal (`TableView`): every Setback move is public, so
    `history` is the deal's bids then cards as played."""

    engine_state = S
    engine_rules = rules
