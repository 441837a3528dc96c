"""Setback's exact solver: the one solver of captured cards (`search/capture_values.py`) on
Setback's declaration (`games/setback/trick_play.py`), with the two things its play adds and
the buffers its players reuse. Used by the oracle (through `search/trick_values.py`), PIMC
(`world_search.py`), single-dummy (`single_dummy.py`) and `solve-deal` (`deal_values.py`).

- The first lead sets trump: each suit the leader holds is declared as trump and its cards
  solved as the leads.
- A deal the rules have settled (`EXHAUSTED`: the game loops score it as it stands) is scored
  so: a sampled world inherits the flag from the true deal, whose settled score the world's
  cards may not show; the flag, not the world's cards, decides, as the rules do.

Values here are the bidder's team's (its deal score minus the other team's), as the players
read them; the shared search's are team 0's.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import lowest_bit
from games.setback.cards import suit_mask
from games.setback.rules import apply_card, legal_cards
from games.setback.scoring import score_difference
from games.setback.state import (EXHAUSTED, HAND, HIGH_BID, HIGH_BIDDER, LEADER, N_IN_TRICK,
                                 PHASE, PHASE_OVER, PHASE_PLAY, STATE_SIZE, TO_ACT, TRICK,
                                 TRUMP)
from games.setback.trick_play import (N_COUNTERS, NOT_IN_CARD_PLAY, RUFF_ANYTIME, TABLE_SIZE,
                                      declare)
from search.capture_values import (CTX_NODES, DEFAULT_TT_BITS, MAX_CARDS, MAX_COUNTERS,
                                   SPEC_SIZE, Buffers, card_values, position_value,
                                   prepare_spec, set_root)

# Rows of the declaration's work space (int64[WORK_ROWS, 52]).
W_WEIGHTS = 0  # rows 0..MAX_COUNTERS-1: each counter's weight per card
W_ORDER = MAX_COUNTERS  # the move-order weight per card
W_RANGES = MAX_COUNTERS + 1  # the counters' ranges
W_SCRATCH = MAX_COUNTERS + 2  # a state after one card (`_settled_moves`)
WORK_ROWS = MAX_COUNTERS + 3


@njit(cache=True, _nrt=False)
def solver_root(state, trump, stack, work, table, spec):
    """Declare `state` (a deal in its playout) with `trump` as trump and put its position at
    the root of the stack, stack[0]."""
    declare(state, trump, work[W_WEIGHTS:W_WEIGHTS + N_COUNTERS], work[W_RANGES],
            work[W_ORDER], table)
    prepare_spec(work[W_WEIGHTS:W_WEIGHTS + N_COUNTERS], work[W_RANGES], N_COUNTERS,
                 work[W_ORDER], table, trump, RUFF_ANYTIME, spec)
    set_root(state[HAND:HAND + 4], state[LEADER], state[TRICK:TRICK + 4], state[N_IN_TRICK],
             spec, stack[0])


@njit(cache=True, _nrt=False)
def _settled_moves(state, work, moves_out, values_out):
    """`solve_moves` of a deal the rules have settled (module docstring): each card's value is
    the score once it is played."""
    sign = 1 if state[HIGH_BIDDER] % 2 == 0 else -1
    legal = legal_cards(state)
    scratch = work[W_SCRATCH]
    n = 0
    while legal:
        card = lowest_bit(legal)
        legal &= legal - 1
        for j in range(STATE_SIZE):
            scratch[j] = state[j]
        apply_card(scratch, card)
        moves_out[n] = card
        values_out[n] = sign * score_difference(scratch)
        n += 1
    return n


@njit(cache=True, _nrt=False)
def solve_moves(state, stack, moves, frames, tt, ctx, work, table, spec, moves_out, values_out):
    """Every legal move of the seat to act and its exact value (bidder's team's view) into
    `moves_out` / `values_out` (ascending moves); returns their count."""
    if state[EXHAUSTED]:
        return _settled_moves(state, work, moves_out, values_out)
    sign = 1 if state[HIGH_BIDDER] % 2 == 0 else -1
    if state[TRUMP] >= 0:
        solver_root(state, state[TRUMP], stack, work, table, spec)
        n = card_values(stack, moves, frames, spec, table, tt, ctx, np.int64(-1), moves_out,
                        values_out)
    else:
        n = 0
        hand = state[HAND + state[TO_ACT]]
        for suit in range(4):
            if hand & suit_mask(suit):
                solver_root(state, suit, stack, work, table, spec)
                n += card_values(stack, moves, frames, spec, table, tt, ctx, suit_mask(suit),
                                 moves_out[n:], values_out[n:])
    for i in range(n):
        values_out[i] *= sign
    return n


@njit(cache=True, _nrt=False)
def solve_value(state, stack, moves, frames, tt, ctx, work, table, spec, moves_out, values_out):
    """The exact value (bidder's team's view) of `state`."""
    sign = 1 if state[HIGH_BIDDER] % 2 == 0 else -1
    if state[EXHAUSTED] or state[PHASE] == PHASE_OVER:
        return sign * score_difference(state)  # settled: scored as it stands
    if state[TRUMP] >= 0:
        solver_root(state, state[TRUMP], stack, work, table, spec)
        return sign * position_value(stack, moves, frames, spec, table, tt, ctx)
    n = solve_moves(state, stack, moves, frames, tt, ctx, work, table, spec, moves_out,
                    values_out)
    best = values_out[0]
    for i in range(1, n):  # the bidder leads first
        best = max(best, values_out[i])
    return best


class Solver:
    """The exact solver of a Setback deal in its playout, with its buffers (the shared
    search's, and the declaration's work space), reused across deals."""

    def __init__(self, tt_bits: int = DEFAULT_TT_BITS):
        b = Buffers(tt_bits)
        self.stack, self.moves, self.frames, self.table, self.ctx = (
            b.stack, b.moves, b.frames, b.table, b.ctx)
        self.work = np.zeros((WORK_ROWS, 52), dtype=np.int64)
        self.values_table = np.zeros(TABLE_SIZE, dtype=np.int64)
        self.spec = np.zeros(SPEC_SIZE, dtype=np.int64)
        self._moves_out = np.zeros(MAX_CARDS, dtype=np.int64)
        self._values_out = np.zeros(MAX_CARDS, dtype=np.int64)
        self._args = self.buffers() + (self._moves_out, self._values_out)

    def buffers(self):
        """The arguments of `solve_moves` after the state, before its outputs."""
        return (self.stack, self.moves, self.frames, self.table, self.ctx, self.work,
                self.values_table, self.spec)

    @property
    def nodes(self) -> int:
        """Nodes visited since the last `reset_nodes`."""
        return int(self.ctx[CTX_NODES])

    def reset_nodes(self) -> None:
        """Restart the node count."""
        self.ctx[CTX_NODES] = 0

    @staticmethod
    def check(state: np.ndarray) -> None:
        """Raise ValueError unless `state` is a deal in its playout (the auction complete)."""
        if int(state[PHASE]) != PHASE_PLAY or int(state[HIGH_BID]) <= 0:
            raise ValueError(NOT_IN_CARD_PLAY)

    def move_values(self, state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(legal moves ascending, their exact values from the bidder's team's view)."""
        self.check(state)
        n = solve_moves(state, *self._args)
        return self._moves_out[:n].copy(), self._values_out[:n].copy()

    def side_values(self, state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(legal moves ascending, their exact values from the acting seat's team's side):
        what `search.trick_values.TrickPlaySolver` asks."""
        moves, values = self.move_values(state)
        return moves, values * (1 if int(state[TO_ACT]) % 2 == int(state[HIGH_BIDDER]) % 2
                                else -1)

    def team_value(self, state: np.ndarray) -> int:
        """The exact value of `state` from team 0's side."""
        return self.value(state) * (1 if int(state[HIGH_BIDDER]) % 2 == 0 else -1)

    def value(self, state: np.ndarray) -> int:
        """The exact value of `state` from the bidder's team's view."""
        if int(state[PHASE]) == PHASE_OVER or int(state[EXHAUSTED]):
            sign = 1 if int(state[HIGH_BIDDER]) % 2 == 0 else -1
            return sign * int(score_difference(state))
        self.check(state)
        return int(solve_value(state, *self._args))
