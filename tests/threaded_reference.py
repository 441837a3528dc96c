"""A plain-Python threaded-table CFR pass (the reference CFR library 2.x's walk), for the numba
kernel in `cfr.threaded_pass` to match bit for bit.

Written as the reference writes it: a recursion that fetches the info set when it enters a
node, walks the children (which may update the table), then stores "the info set as fetched
plus this node's update". The table is a dict key -> (regrets list, strategy list); `order`
lists the keys in insertion order.
"""

from __future__ import annotations

import numpy as np

from cfr.game import CHANCE, TERMINAL
from cfr.rng import mix_word


def regret_matching(r):
    """sigma(a) = R+(a) / sum R+, or uniform; sums in action order (as the kernel)."""
    total = 0.0
    for x in r:
        if x > 0:
            total += x
    if total > 0:
        return [x / total if x > 0 else 0.0 for x in r]
    return [1.0 / len(r)] * len(r)


def threaded_pass(game, table: dict, update_player: int = -1, weight: float = 1.0,
                  sampled: bool = False, word: int = 0) -> float:
    """One pass updating `table` in place; returns the root's v_0."""

    def child_of(state, action):
        child = np.zeros_like(state)
        game.apply(state, action, child)
        return child

    def walk(state, reach, k):  # reach = [pi_0, pi_1, pi_c]; k: chance nodes on the path
        p = game.current_player(state)
        if p == TERMINAL:
            return game.utility(state)
        if p == CHANCE:
            if sampled:
                child = np.zeros_like(state)
                game.chance_sample(state, mix_word(np.uint64(word), np.uint64(k)), child)
                return walk(child, reach, k + 1)
            outcomes = np.zeros(game.max_actions, dtype=np.int64)
            probs = np.zeros(game.max_actions)
            n = game.chance_outcomes(state, outcomes, probs)
            v = 0.0
            for i in range(n):
                q = float(probs[i])
                v += q * walk(child_of(state, outcomes[i]), [reach[0], reach[1], reach[2] * q],
                              k + 1)
            return v
        if reach[0] == 0.0 and reach[1] == 0.0:
            return 0.0
        actions = np.zeros(game.max_actions, dtype=np.int64)
        key = np.zeros(2, dtype=np.uint64)
        n = game.decision(state, actions, key)
        if n == 1:
            return walk(child_of(state, actions[0]), reach, k)
        key = tuple(int(x) for x in key[:game.key_words])
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
            cv.append(walk(child_of(state, actions[a]), r, k))
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
