"""The Spades heuristic as a player (the rule itself, in numba: `games/spades/heuristic.py`).

It sees only its seat's view; `setback-cfr tournament --game spades` and `rating --game spades`
field it as `heuristic` (`games.spades.play.tournament`).
"""

from __future__ import annotations

from games.spades.heuristic import heuristic_move
from games.spades.view import SeatView


class SpadesHeuristicPlayer:
    """The rule-based player of `games/spades/heuristic.py` (deterministic)."""

    name = "heuristic"

    def choose(self, view: SeatView) -> int:
        """The heuristic's move for the view's seat (it reads only what the view shows)."""
        return int(heuristic_move(view.state))
