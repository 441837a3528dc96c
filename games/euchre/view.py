"""What one seat can see of a Euchre hand, and the interface every Euchre player implements.

A `SeatView` is the hand's state array with the other seats' cards (held and dealt) erased and,
for everyone but the dealer, the dealer's discard erased too; plus the dealer, the game score
and the hand's public moves: everything a player at the table may know. Players receive views,
never the full state, so no player can peek by accident.
"""

from __future__ import annotations

from typing import Protocol

from games.euchre import rules
from games.euchre import state as S
from games.scaffold.view import TableView

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


class Player(Protocol):
    """A Euchre player: given a seat's view, choose a legal move (engine integer)."""

    name: str

    def choose(self, view: SeatView) -> int:
        """The move to make: a card 0..23, `rules.PASS_MOVE`, `rules.TRUMP_MOVE + suit`,
        `rules.ALONE_MOVE` or `rules.PARTNER_MOVE`."""
        ...
