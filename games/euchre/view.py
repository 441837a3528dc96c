"""What one seat can see of a Euchre hand, the view every Euchre player is given (`Player`).

A `SeatView` is the hand's state array with the other seats' cards (held and dealt) erased and,
for everyone but the dealer, the dealer's discard erased too; plus the dealer, the game score
and the hand's public moves: everything a player at the table may know. Players receive views,
never the full state, so no player can peek by accident.
"""

from __future__ import annotations

from games.euchre import rules
from games.euchre import state as S
from games.scaffold.view import Player, TableView  # noqa: F401 (Player re-exported)

HIDDEN = -1  # a move the seat did not see (the dealer's discard, for the others)


class SeatView(TableView):
    """The acting seat's view of a hand (`TableView`), the dealer's discard hidden from the
    others: DISCARD set to -1 in `state`, and written `HIDDEN` in `history`."""

    engine_state = S
    engine_rules = rules

    @classmethod
    def conceal(cls, state, hidden, seat, moves):
        """Hide the dealer's discard from every other seat."""
        if seat != 0 and state[S.DISCARD] >= 0:
            hidden[S.DISCARD] = -1
            # the discard is the hand's first card move (the play starts after it)
            cards = [i for i, m in enumerate(moves) if m < rules.PASS_MOVE]
            if cards:
                moves[cards[0]] = HIDDEN
        return moves
