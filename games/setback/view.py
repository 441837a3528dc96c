"""What one seat can see, and the interface every Setback player implements.

A `SeatView` is the deal's state array with the other seats' hands (current and dealt) erased,
plus the dealer and the game score: everything a player at the table may know. Players receive
views, never the full state, so no player can peek by accident.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from games.setback import state as S
from games.setback.rules import MAX_MOVES, legal_moves


@dataclass(frozen=True)
class SeatView:
    """The acting seat's view of a deal.

    `state`: the engine state with every other seat's HAND and DEALT erased; `seat`: the acting
    seat relative to the dealer; `dealer`: the dealer's absolute seat (0..3 = W N E S);
    `score`: the game score by absolute team (EW, NS) before this deal; `history`: the deal's
    moves so far (engine integers, bids then cards, in order; every move is public), or empty
    when the caller does not keep them.
    """

    state: np.ndarray
    seat: int
    dealer: int
    score: tuple[int, int] = (0, 0)
    history: tuple[int, ...] = ()

    @classmethod
    def of(cls, state: np.ndarray, dealer: int, score: tuple[int, int] = (0, 0),
           history=()) -> "SeatView":
        """The view of the seat to act in `state` (with the deal's `history` of moves, if
        known)."""
        seat = int(state[S.TO_ACT])
        hidden = state.copy()
        for other in range(4):
            if other != seat:
                hidden[S.HAND + other] = 0
                hidden[S.DEALT + other] = 0
        return cls(hidden, seat, int(dealer), (int(score[0]), int(score[1])),
                   tuple(int(m) for m in history))

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
    """A Setback player: given a seat's view, choose a legal move (engine integer)."""

    name: str

    def choose(self, view: SeatView) -> int:
        """The move to make: a card 0..51 or `rules.BID_MOVE + bid`."""
        ...
