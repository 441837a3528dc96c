"""A plain-Python threaded-table CFR pass (the reference CFR library 2.x's walk), for the numba
kernel in `cfr.threaded_pass` to match bit for bit.

Written as the reference writes it: a recursion that fetches the info set when it enters a
node, walks the children (which may update the table), then stores "the info set as fetched
plus this node's update". The table is a dict key -> (regrets list, strategy list); `order`
lists the keys in insertion order.
"""

from __future__ import annotations

from pass_reference import child_of, enter, regret_matching


def threaded_pass(game, table: dict, update_player: int = -1, weight: float = 1.0,
                  sampled: bool = False, word: int = 0) -> float:
    """One pass updating `table` in place; returns the root's v_0."""

    def walk(state, reach, k):  # reach = [pi_0, pi_1, pi_c]; k: chance nodes on the path
        v, node = enter(game, state, reach, k, sampled, word, walk)
        if node is None:
            return v
        p, n, actions, key = node
        updated = update_player < 0 or update_player == p
        if updated and key not in table:
            table[key] = ([0.0] * n, [0.0] * n)
        entry_r, entry_s = (list(x) for x in table.get(key, ([0.0] * n, [0.0] * n)))
        sigma = regret_matching(entry_r)
        cv = []
        v = 0.0
        for a in range(n):
            r = list(reach)
            r[p] = reach[p] * sigma[a]
            cv.append(walk(child_of(game, state, actions[a]), r, k))
            v += sigma[a] * cv[a]
        if updated:
            other = 1 - p
            cf_reach = reach[other] * reach[2]
            if p == 0:
                dr = [cf_reach * (cv[a] - v) for a in range(n)]
            else:
                dr = [cf_reach * (v - cv[a]) for a in range(n)]
            wr = weight * reach[p]
            table[key] = ([entry_r[a] + dr[a] for a in range(n)],
                          [entry_s[a] + wr * sigma[a] for a in range(n)])
        return v

    return walk(game.initial_state(), [1.0, 1.0, 1.0], 0)
