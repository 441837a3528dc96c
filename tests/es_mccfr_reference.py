"""A plain-Python external-sampling MCCFR pass, written from Lanctot et al. 2009 and OpenSpiel's
`external_sampling_mccfr._update_regrets`, for the numba kernel to match bit for bit.

Recursive, one node at a time, through the same game functions and the same random draws
(the k-th draw of a pass is `mix_word(word, k)`); the table is a dict key -> (regrets,
strategy) lists. Plain MCCFR (no weight, no pruning) is written without either option, so a
kernel run with the options off that matches it shows the options cost nothing when off.
"""

from __future__ import annotations

import numpy as np

from cfr.game import CHANCE, TERMINAL
from cfr.rng import mix_word
from pass_reference import child_of, decision, regret_matching


def unit_float(w) -> float:
    return float(int(w) >> 11) * (1.0 / 9007199254740992.0)


def es_pass(game, table: dict, traverser: int, word: int, weight: float | None = None,
            prune_threshold: float | None = None):
    """One pass against `table` (read only). Returns (root v_0, entries in post-order), each
    entry (key, player, dR list, dS list). `weight` None is plain MCCFR (no multiplication);
    `prune_threshold` None is no pruning, else this pass prunes (the caller decides)."""
    draw = [0]
    entries = []

    def next_word():
        w = mix_word(np.uint64(word), np.uint64(draw[0]))
        draw[0] += 1
        return w

    def walk(state):
        p = game.current_player(state)
        if p == TERMINAL:
            return game.utility(state)
        if p == CHANCE:
            child = np.zeros_like(state)
            game.chance_sample(state, next_word(), child)
            return walk(child)
        n, actions, k = decision(game, state)
        if n == 1:
            return walk(child_of(game, state, actions[0]))
        regrets = table[k][0] if k in table else [0.0] * n
        sigma = regret_matching(regrets)
        if p != traverser:
            u = unit_float(next_word())
            c, chosen = 0.0, 0
            for a in range(n):
                if sigma[a] > 0.0:
                    c += sigma[a]
                    chosen = a
                    if u < c:
                        break
            v = walk(child_of(game, state, actions[chosen]))
            ds = list(sigma) if weight is None else [weight * s for s in sigma]
            entries.append((k, p, [0.0] * n, ds))
            return v
        walked = [True] * n
        if prune_threshold is not None and k in table:
            for a in range(n):
                if regrets[a] < prune_threshold:
                    child = child_of(game, state, actions[a])
                    walked[a] = game.current_player(child) == TERMINAL
            if not any(walked):
                walked = [True] * n
        cv = [0.0] * n
        v = 0.0
        for a in range(n):
            if walked[a]:
                cv[a] = walk(child_of(game, state, actions[a]))
                v += sigma[a] * cv[a]
        dr = []
        for a in range(n):
            if not walked[a]:
                dr.append(0.0)
                continue
            r = cv[a] - v if traverser == 0 else v - cv[a]
            dr.append(r if weight is None else weight * r)
        entries.append((k, p, dr, [0.0] * n))
        return v

    return walk(game.initial_state()), entries


def apply_entries(table: dict, entries) -> None:
    """Add the entries to the table in order (new keys start at zero)."""
    for k, _, dr, ds in entries:
        if k not in table:
            table[k] = ([0.0] * len(dr), [0.0] * len(ds))
        r, s = table[k]
        for a in range(len(dr)):
            r[a] += dr[a]
            s[a] += ds[a]
