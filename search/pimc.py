"""Perfect-information Monte Carlo: sample worlds, solve each exactly, score every legal move.

`WorldSearch` keeps the solver's buffers and a seeded generator; `sample` draws worlds
(`sampler.sample_worlds`) and `values` solves every legal move of the seat to act in each world
(`solver.solve_moves`), from the acting seat's team's side. Averaging (plain or weighted by
`inference.py`) and choosing are the player's business (`play/pimc.py`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.rng import new_rng
from games.setback.state import HIGH_BIDDER, STATE_SIZE
from search.sampler import sample_worlds, world_state
from search.solver import MAX_CARDS, Solver, solve_moves


@njit(cache=True)
def world_values(view_state, seat, hands, stack, moves, frames, tt, ctx, world, moves_out,
                 values_out):
    """For each world `hands[w]` (hands by seat), the exact value of every legal move of `seat`
    from its team's side into `values_out[w, :n]` (moves ascending in `moves_out`); returns n."""
    sign = 1 if seat % 2 == view_state[HIGH_BIDDER] % 2 else -1
    n = 0
    for w in range(hands.shape[0]):
        world_state(view_state, seat, hands[w], world)
        n = solve_moves(world, stack, moves, frames, tt, ctx, moves_out, values_out[w])
        for i in range(n):
            values_out[w, i] *= sign
    return n


class WorldSearch:
    """Sampling and solving worlds for one seat's decisions, with reusable buffers."""

    def __init__(self, seed: int = 0, tt_bits: int = 16):
        self.solver = Solver(tt_bits)
        self.rng = new_rng(seed)
        self._world = np.zeros(STATE_SIZE, dtype=np.int64)
        self._moves = np.zeros(MAX_CARDS, dtype=np.int64)

    def seed(self, seed: int) -> None:
        """Restart the generator from `seed`."""
        self.rng = new_rng(seed)

    def sample(self, view_state: np.ndarray, seat: int, worlds: int,
               voids: bool = True) -> np.ndarray:
        """`worlds` uniform layouts (int64[worlds, 4], hands by seat) consistent with `seat`'s
        view; `voids=False` ignores the voids shown (the plain uniform belief)."""
        hands = np.zeros((worlds, 4), dtype=np.int64)
        if sample_worlds(view_state, seat, self.rng, voids, hands) != worlds:
            raise ValueError("no layout of the hidden cards is consistent with this view")
        return hands

    def values(self, view_state: np.ndarray, seat: int,
               hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(legal moves ascending, float64[worlds, moves] exact values from `seat`'s team's
        side) in each world of `hands`."""
        s = self.solver
        values = np.zeros((hands.shape[0], MAX_CARDS), dtype=np.int64)
        n = world_values(view_state, seat, hands, s.stack, s.moves, s.frames, s.table, s.ctx,
                         self._world, self._moves, values)
        return self._moves[:n].copy(), values[:, :n].astype(np.float64)
