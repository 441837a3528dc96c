"""The rollout search's driver: worlds shared across threads, an anytime time budget, and the
choice (best mean, or the blueprint's move unless search beats it beyond its noise).

`RolloutSearch` holds a game's four functions (any object with `addresses`, `state_size` and
`max_actions`, as `cfr.game.Game` has them), a blueprint table (`keys`, `offsets`, `probs`,
as `db.policy_arrays.PolicyArrays` has them) and one set of scratch buffers per thread.
`values` rolls every candidate move out in every world (`search/rollout.py`), in rounds of
`ROUND` worlds a thread, and stops after the round during which the deadline passed: the best
move found when time runs out, from the worlds finished by then. A world's values depend only
on the seed and its index, so without a deadline the result is the same for any number of
threads; with one, it is the same up to how many worlds were finished.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from search.cpus import usable_cpus
from search.rollout import world_move_outcomes, world_move_values

ROUND = 16  # worlds a thread plays between two looks at the clock (~1 ms of rollouts)


class RolloutSearch:
    """Rollout values of candidate moves over sampled worlds, on `threads` threads (module
    docstring). `greedy`: rollouts play the blueprint's most probable action instead of
    sampling its probabilities."""

    def __init__(self, game, table, greedy: bool = False, threads: int | None = None):
        self.functions = tuple(game.addresses[:4])  # current_player, decision, apply, utility
        self.keys, self.offsets, self.probs = table.keys, table.offsets, table.probs
        self.greedy = bool(greedy)
        self.threads = max(1, int(threads or usable_cpus()))
        size, width = int(game.state_size), max(int(game.max_actions), 64)
        self._scratch = [(np.zeros(size, np.int64), np.zeros(size, np.int64),
                          np.zeros(size, np.int64), np.zeros(width, np.int64),
                          np.zeros(2, np.uint64), np.zeros(1, np.uint64))
                         for _ in range(self.threads)]
        self._pool = None

    def values(self, worlds: np.ndarray, moves: np.ndarray, sign: int, seed: int,
               deadline: float | None = None, objective=None) -> np.ndarray:
        """float64[worlds finished, len(moves)]: each move's rollout payoff in each world, from
        the acting player's side (`sign` +1 for player 0, -1 for player 1). `worlds`: int64[W,
        state_size] full states; `deadline`: a `time.perf_counter()` time after which no new
        round starts (at least one round is always played). `objective`, when given, is
        (outcome function address, float64 table): a rollout is then worth
        `table[outcome(end)]` instead of its payoff (`rollout.world_move_outcomes`)."""
        moves = np.ascontiguousarray(moves, dtype=np.int64)
        total = worlds.shape[0]
        out = np.zeros((total, moves.shape[0]), dtype=np.float64)
        per_round = ROUND * self.threads
        done = 0
        while done < total:
            stop = total if deadline is None else min(total, done + per_round)
            self._run(worlds, done, stop, moves, sign, seed, out, objective)
            done = stop
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return out[:done]

    def _run(self, worlds, start, stop, moves, sign, seed, out, objective=None) -> None:
        """Worlds start..stop-1, thread k taking start + k, start + k + threads, ..."""
        step = min(self.threads, stop - start)

        def part(k: int) -> None:
            """Thread k's share, with its own scratch buffers."""
            child, a, b, actions, key_out, rng = self._scratch[k]
            if objective is None:
                world_move_values(*self.functions, worlds, start + k, stop, step, moves,
                                  moves.shape[0], sign, self.keys, self.offsets, self.probs,
                                  self.greedy, seed, child, a, b, actions, key_out, rng, out)
            else:
                world_move_outcomes(*self.functions, *objective, worlds, start + k, stop, step,
                                    moves, moves.shape[0], self.keys, self.offsets,
                                    self.probs, self.greedy, seed, child, a, b, actions,
                                    key_out, rng, out)

        if step == 1:
            part(0)
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.threads)
        for future in [self._pool.submit(part, k) for k in range(step)]:
            future.result()

    def split(self, count: int, part) -> None:
        """Run `part(first, stop)` over 0..count-1 cut into one contiguous slice a thread (the
        search's threads: a decision's world weights are computed once, shared by all). The
        slices write disjoint rows, so the result does not depend on the number of threads."""
        threads = min(self.threads, max(1, count // 64))  # small jobs are not worth a hand-off
        bounds = [count * k // threads for k in range(threads + 1)]
        self.each(threads, lambda k: part(bounds[k], bounds[k + 1]))

    def each(self, count: int, part) -> list:
        """`[part(k) for k in range(count)]`, the calls spread over the search's threads (in
        parallel where `part` runs numba code that releases the GIL)."""
        if self.threads == 1 or count == 1:
            return [part(k) for k in range(count)]
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.threads)
        return [future.result() for future in [self._pool.submit(part, k)
                                               for k in range(count)]]

    def close(self) -> None:
        """Stop the threads."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None


def choose(values: np.ndarray, blueprint: int | None = None, margin: float = 0.0) -> int:
    """The index of the move to play from `values` (float64[worlds, moves]): the best mean
    (the first on ties); with `margin` > 0 and the blueprint's index given, the blueprint's move
    unless the best mean beats it by more than `margin` standard errors of the paired
    per-world difference (SPARTA's safe deviation)."""
    mean = values.mean(axis=0)
    best = int(np.argmax(mean))
    if margin <= 0.0 or blueprint is None or best == blueprint:
        return best
    diff = values[:, best] - values[:, blueprint]
    if diff.shape[0] < 2:
        return blueprint
    error = diff.std(ddof=1) / math.sqrt(diff.shape[0])
    return best if diff.mean() > margin * error else blueprint
