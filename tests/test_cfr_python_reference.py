"""Our kernels against a plain-Python CFR written from the textbook formulas.

Also on an imperfect-recall game ("forgetful Kuhn": a key is only player and card, so a player
meets the same key twice on one path): the strategy used throughout a pass must be the one
from before the pass.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from numba import njit

from cfr.game import CHANCE, DECISION_SIG, TERMINAL
from cfr.solver import Solver
from cfr.tree import build_tree
from cfr.variants import make_variant
from games.kuhn import GAME as KUHN
from games.kuhn.game import decision as kuhn_decision


@njit(DECISION_SIG, cache=True, _nrt=False)
def forgetful_decision(state, actions_out, key_out):
    """Kuhn's decision, but the key forgets the betting: player | card << 1."""
    n = kuhn_decision(state, actions_out, key_out)
    key_out[0] = key_out[0] & np.uint64(0b111)
    return n


FORGETFUL_KUHN = dataclasses.replace(KUHN, name="forgetful-kuhn", decision=forgetful_decision)


def python_cfr(game, algorithm: str, iterations: int, simultaneous: bool):
    """Textbook CFR over the game tree: dicts of numpy arrays, frozen sigma per pass."""
    tree = build_tree(game)
    variant = make_variant(algorithm)
    keys = [tuple(int(k) for k in row) for row in tree.infoset_key]
    R = {k: np.zeros(n) for k, n in zip(keys, tree.infoset_actions)}
    S = {k: np.zeros(n) for k, n in zip(keys, tree.infoset_actions)}
    owner = dict(zip(keys, tree.infoset_player))

    def rm(r):
        pos = np.maximum(r, 0)
        return pos / pos.sum() if pos.sum() > 0 else np.full(len(r), 1 / len(r))

    def one_pass(update, t):
        sigma = {k: rm(R[k]) for k in keys}
        w = variant.strategy_weight(t)

        def value(h, reach):  # returns v_0
            p = tree.player[h]
            e0, ne = tree.edge_start[h], tree.edge_count[h]
            children = tree.edge_child[e0:e0 + ne]
            if p == TERMINAL:
                return tree.utility[h]
            if p == CHANCE:
                return sum(q * value(c, reach * np.array([1, 1, q]))
                           for c, q in zip(children, tree.edge_prob[e0:e0 + ne]))
            if reach[0] == 0 and reach[1] == 0:
                return 0.0
            k = keys[tree.infoset[h]]
            s = sigma[k]
            cv = np.array([value(c, reach * np.where(np.arange(3) == p, s[j], 1.0))
                           for j, c in enumerate(children)])
            v = float(s @ cv)
            if update in (-1, p):
                sign = 1 if p == 0 else -1
                other = reach[1 - p] * reach[2]
                R[k] += other * sign * (cv - v)
                S[k] += w * reach[p] * s
            return v

        value(tree.root, np.ones(3))
        for k in keys:
            if update in (-1, owner[k]):
                if variant.regret_matching_plus:
                    R[k] = np.maximum(R[k], 0)
                if variant.discount:
                    ta, tb = t ** variant.alpha, t ** variant.beta
                    R[k] = np.where(R[k] >= 0, R[k] * ta / (ta + 1), R[k] * tb / (tb + 1))

    for t in range(1, iterations + 1):
        for update in ([-1] if simultaneous else [0, 1]):
            one_pass(update, t)
    return R, S


@pytest.mark.parametrize("game", [KUHN, FORGETFUL_KUHN], ids=["kuhn", "forgetful"])
@pytest.mark.parametrize("algorithm", ["cfr", "cfr+", "lcfr", "dcfr"])
@pytest.mark.parametrize("simultaneous", [False, True])
def test_kernels_match_textbook_cfr(game, algorithm, simultaneous):
    R, S = python_cfr(game, algorithm, 6, simultaneous)
    for use_tree in (False, True):
        solver = Solver(game, algorithm, simultaneous=simultaneous, use_tree=use_tree)
        solver.iterate(6)
        table = solver.table
        assert len(table) == len(R)
        for key, _, n, off in table.entries():
            np.testing.assert_allclose(table.regrets[off:off + n], R[key], rtol=1e-12, atol=1e-14)
            np.testing.assert_allclose(table.strategy[off:off + n], S[key], rtol=1e-12, atol=1e-14)


def test_forgetful_kuhn_really_revisits_keys():
    tree = build_tree(FORGETFUL_KUHN)
    assert tree.num_infosets == 6  # 2 players x 3 cards; Kuhn has 12
