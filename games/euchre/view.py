"""What one seat can see of a Euchre hand, and the interface every Euchre player implements.

A `SeatView` is the hand's state array with the other seats' cards (held and dealt) erased and,
for everyone but the dealer, the dealer's discard erased too; plus the dealer, the game score
and the hand's public moves: everything a player at the table may know. Players receive views,
never the full state, so no player can peek by accident.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from games.euchre import state as S
from games.euchre.rules import MAX_MOVES, PASS_MOVE, legal_moves

HIDDEN = -1  # a move the seat did not see (the dealer's discard, for the others)


@dataclass(frozen=True)
class SeatView:
    """The acting seat's view of a hand.

    `state`: the engine state with every other seat's HAND and DEALT erased (and DISCARD set
    to -1 unless the seat is the dealer); `seat`: the acting seat relative to the dealer;
    `dealer`: the dealer's absolute seat (0..3 = W N E S); `score`: the game score by absolute
    team (EW, NS) before this hand; `history`: the hand's moves so far (engine integers in
    order, the dealer's discard written `HIDDEN` for the other seats).
    """

    state: np.ndarray
    seat: int
    dealer: int
    score: tuple[int, int] = (0, 0)
    history: tuple[int, ...] = ()

    @classmethod
    def of(cls, state: np.ndarray, dealer: int, score: tuple[int, int] = (0, 0),
           history=()) -> "SeatView":
        """The view of the seat to act in `state` (with the hand's `history` of moves)."""
        seat = int(state[S.TO_ACT])
        hidden = state.copy()
        for other in range(4):
            if other != seat:
                hidden[S.HAND + other] = 0
                hidden[S.DEALT + other] = 0
        moves = [int(m) for m in history]
        if seat != 0 and state[S.DISCARD] >= 0:
            hidden[S.DISCARD] = -1
            # the discard is the hand's first card move (the play starts after it)
            cards = [i for i, m in enumerate(moves) if m < PASS_MOVE]
            if cards:
                moves[cards[0]] = HIDDEN
        return cls(hidden, seat, int(dealer), (int(score[0]), int(score[1])), tuple(moves))

    def legal_moves(self) -> np.ndarray:
        """The seat's legal moves (engine integers, ascending)."""
        buffer = np.empty(MAX_MOVES, dtype=np.int64)
        n = legal_moves(self.state, buffer)
        return buffer[:n].copy()

    @property
    def score_us_them(self) -> tuple[int, int]:
        """The game score seen from the acting seat's team: (us, them)."""
        us = (self.dealer + self.seat) % 2  # absolute team of the seat: 0 EW, 1 NS
        return self.score[us], self.score[1 - us]


class Player(Protocol):
    """A Euchre player: given a seat's view, choose a legal move (engine integer)."""

    name: str

    def choose(self, view: SeatView) -> int:
        """The move to make: a card 0..23, `rules.PASS_MOVE`, `rules.TRUMP_MOVE + suit`,
        `rules.ALONE_MOVE` or `rules.PARTNER_MOVE`."""
        ...
