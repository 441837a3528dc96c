"""`TableView`: what the acting seat of a four-seat card game may see, the one thing a player
is given (never the full state, so no player can peek by accident).

A game's `SeatView` subclasses it and names its engine (`state`: the module with the state
fields `HAND`, `TO_ACT` and `DEALT` where it keeps the hands as dealt; `rules`: the module
with `MAX_MOVES` and `legal_moves`);
`conceal` is where a game hides more than the other seats' cards (Euchre: the dealer's
discard). Every player implements `Player`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np


@dataclass(frozen=True)
class TableView:
    """The acting seat's view of a hand.

    `state`: the engine state with every other seat's HAND (and DEALT) erased (and whatever else
    the game's `conceal` hides); `seat`: the acting seat relative to the dealer; `dealer`: the
    dealer's absolute seat (0..3 = W N E S); `score`: the game score by absolute team (EW, NS)
    before this hand; `history`: the hand's moves so far (engine integers, in order, as the
    seat saw them), or empty when the caller does not keep them.
    """

    state: np.ndarray
    seat: int
    dealer: int
    score: tuple[int, int] = (0, 0)
    history: tuple[int, ...] = ()

    # the game's engine, named by the subclass (plain attributes: not dataclass fields)
    engine_state = None
    engine_rules = None

    @classmethod
    def of(cls, state: np.ndarray, dealer: int, score: tuple[int, int] = (0, 0),
           history=()) -> "TableView":
        """The view of the seat to act in `state` (with the hand's `history` of moves, if
        known)."""
        S = cls.engine_state
        seat = int(state[S.TO_ACT])
        hidden = state.copy()
        # a game whose state keeps only the cards held (the tutorial's) has no DEALT to erase
        fields = (S.HAND, S.DEALT) if hasattr(S, "DEALT") else (S.HAND,)
        for other in range(4):
            if other != seat:
                for at in fields:
                    hidden[at + other] = 0
        moves = cls.conceal(state, hidden, seat, [int(m) for m in history])
        return cls(hidden, seat, int(dealer), (int(score[0]), int(score[1])), tuple(moves))

    @classmethod
    def conceal(cls, state: np.ndarray, hidden: np.ndarray, seat: int,
                moves: list[int]) -> list[int]:
        """Hide from `seat` what its game keeps from it beyond the other seats' cards: edit
        `hidden` (the view's state) and return the moves as the seat saw them. The default
        hides nothing more (every move public)."""
        return moves

    def legal_moves(self) -> np.ndarray:
        """The seat's legal moves (engine integers, ascending)."""
        rules = self.engine_rules
        buffer = np.empty(rules.MAX_MOVES, dtype=np.int64)
        n = rules.legal_moves(self.state, buffer)
        return buffer[:n].copy()

    @property
    def score_us_them(self) -> tuple[int, int]:
        """The game score seen from the acting seat's team: (us, them)."""
        us = (self.dealer + self.seat) % 2  # absolute team of the seat: 0 EW, 1 NS
        return self.score[us], self.score[1 - us]


class Player(Protocol):
    """A player of any game: given a seat's view, choose a legal move (the engine's integer,
    `games/NAME/rules.py`'s moves)."""

    name: str

    def choose(self, view: TableView) -> int:
        """The move to make."""
        ...


def ask(player, state: np.ndarray, view: TableView) -> int:
    """The move `player` makes for the seat to act: `player.choose(view)`, or, for a player
    declaring `sees_all = True` (an oracle: a ceiling for tournaments, never a real player),
    `player.choose_seeing_all(a copy of the true state, view)`. The one place a game loop hands
    a player more than its seat's view; duck typing, so the rules never import the players."""
    if getattr(player, "sees_all", False) is True:
        return int(player.choose_seeing_all(state.copy(), view))
    return int(player.choose(view))
