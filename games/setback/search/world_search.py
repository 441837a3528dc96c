"""Perfect-information Monte Carlo: sample worlds, solve each exactly, score every legal move.

`WorldSearch` keeps the solver's buffers and a seeded generator; `sample` draws worlds
(`sampler.sample_worlds`) and `values` solves every legal move of the seat to act in each world
(`capture_solver.solve_moves`, the one solver), from the acting seat's team's side. Averaging (plain or weighted by
`inference.py`) and choosing are the player's business (`games/setback/play/pimc.py`).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

from games.rng import new_rng
from games.setback.state import HIGH_BIDDER, STATE_SIZE
from games.setback.search.sampler import sample_worlds, world_state
from games.setback.search.capture_solver import MAX_CARDS, Solver, solve_moves
from search.cpus import usable_cpus


@njit(cache=True, nogil=True)
def world_values(view_state, seat, hands, first, step, stack, moves, frames, tt, ctx, decl,
                 table, spec, world, moves_out, values_out):
    """For the worlds `hands[first::step]` (hands by seat), the exact value of every legal
    move of `seat` from its team's side into `values_out[w, :n]` (moves ascending in
    `moves_out`); returns n. Without the GIL: threads with their own buffers share the
    worlds of one decision."""
    sign = 1 if seat % 2 == view_state[HIGH_BIDDER] % 2 else -1
    n = 0
    for w in range(first, hands.shape[0], step):
        world_state(view_state, seat, hands[w], world)
        n = solve_moves(world, stack, moves, frames, tt, ctx, decl, table, spec, moves_out,
                        values_out[w])
        for i in range(n):
            values_out[w, i] *= sign
    return n


class WorldSearch:
    """Sampling and solving worlds for one seat's decisions, with reusable buffers.

    The worlds of a decision are solved on `threads` threads (default: the CPUs this process
    may use), each with its own solver; a world's values are exact, so they do not depend on
    the thread that solved it."""

    def __init__(self, seed: int = 0, tt_bits: int = 16, threads: int | None = None):
        threads = threads or usable_cpus()
        self.solvers = [Solver(tt_bits) for _ in range(max(1, threads))]
        self.rng = new_rng(seed)
        self._worlds = np.zeros((len(self.solvers), STATE_SIZE), dtype=np.int64)
        self._moves = np.zeros((len(self.solvers), MAX_CARDS), dtype=np.int64)
        self._pool = None

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
        values = np.zeros((hands.shape[0], MAX_CARDS), dtype=np.int64)
        step = min(len(self.solvers), hands.shape[0])

        def part(k: int) -> int:
            """Thread k solves worlds k, k + step, ...; returns the move count."""
            s = self.solvers[k]
            return world_values(view_state, seat, hands, k, step, *s.buffers(), self._worlds[k],
                                self._moves[k], values)

        if step == 1:
            n = part(0)
        else:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(len(self.solvers))
            n = list(self._pool.map(part, range(step)))[0]
        return self._moves[0, :n].copy(), values[:, :n].astype(np.float64)
