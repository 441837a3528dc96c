"""The rollouts of a policy network (`search/policy_net.py`) for the rollout search
(`search/rollout_search.py`): the same worlds, rounds, deadline and threads as a table's, each
candidate move's rollouts played by the network through a game's compiled kernel
(`net_world_move_values`, Setback's `games/setback/search/net.py`, Euchre's
`games/euchre/search/net.py`).
"""

from __future__ import annotations

from search.rollout_search import RolloutSearch


class NetRolloutSearch(RolloutSearch):
    """`RolloutSearch` whose rollouts the network `net` plays: `kernel(worlds, first, stop,
    step, history, n_moves, scores, candidates, n_candidates, sign, w1, b1, w2, b2, w3, b3,
    greedy, seed, *buffers, values_out)` is the game's compiled kernel, `scratch()` one
    thread's buffers (its `rollout_buffers()` in the kernel's order). `values`' `objective` is
    the decision's rollout context `(history, scores by team relative to the dealer)`."""

    def __init__(self, net, kernel, scratch, greedy: bool = False, threads: int | None = None):
        from search.cpus import usable_cpus

        self.net = net
        self.kernel = kernel
        self.weights = tuple(net.parameters())
        self.greedy = bool(greedy)
        self.threads = max(1, int(threads or usable_cpus()))
        self._scratch = [scratch() for _ in range(self.threads)]
        self._pool = None

    def _run(self, worlds, start, stop, moves, sign, seed, out, objective=None) -> None:
        """Worlds start..stop-1, thread k taking start + k, start + k + threads, ..."""
        history, scores = objective
        step = min(self.threads, stop - start)

        def part(k: int) -> None:
            """Thread k's share, with its own scratch buffers."""
            self.kernel(worlds, start + k, stop, step, history, history.size, scores, moves,
                        moves.shape[0], sign, *self.weights, self.greedy, seed,
                        *self._scratch[k].rollout_buffers(), out)

        self.each(step, part)

    def belief_buffers(self, k: int) -> tuple:
        """Thread k's scratch buffers for a belief's log-weights kernel (its rollout buffers'
        `belief_buffers()`: the weights come before the rollouts, never beside them)."""
        return self._scratch[k].belief_buffers()
