"""The variant flags: each kernel's formula, each flag changes results, iteration 0 uniform."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from cfr.best_response import average_policy
from cfr.solver import Solver
from cfr.table import InfoSetTable
from cfr.tree import build_tree
from cfr.variants import ALGORITHMS, clamp_regrets, discount_regrets, make_variant
from games.kuhn import GAME as KUHN
from games.leduc import GAME as LEDUC


def two_player_table() -> InfoSetTable:
    t = InfoSetTable()
    o0 = t.insert(10, 3, 0)
    o1 = t.insert(11, 2, 1)
    t.regrets[o0:o0 + 3] = [2.0, -4.0, 0.0]
    t.regrets[o1:o1 + 2] = [-1.0, 8.0]
    return t


def test_clamp_regrets_only_touches_the_player():
    t = two_player_table()
    clamp_regrets(t.meta, t.offsets, t.regrets, 0)
    assert t.regrets[:5].tolist() == [2.0, 0.0, 0.0, -1.0, 8.0]
    clamp_regrets(t.meta, t.offsets, t.regrets, -1)
    assert t.regrets[:5].tolist() == [2.0, 0.0, 0.0, 0.0, 8.0]


def test_discount_regrets_formula():
    t = two_player_table()
    discount_regrets(t.meta, t.offsets, t.regrets, -1, 3, 1.5, 0.0)
    pos = 3**1.5 / (3**1.5 + 1)
    assert t.regrets[:5].tolist() == [2.0 * pos, -4.0 * 0.5, 0.0, -1.0 * 0.5, 8.0 * pos]
    t = two_player_table()
    discount_regrets(t.meta, t.offsets, t.regrets, 1, 2, 1.0, 1.0)
    assert t.regrets[:5].tolist() == [2.0, -4.0, 0.0, -1.0 * 2 / 3, 8.0 * 2 / 3]


def test_strategy_weights():
    assert make_variant("cfr").strategy_weight(7) == 1.0
    assert make_variant("cfr+").strategy_weight(7) == 7.0
    assert make_variant("lcfr").strategy_weight(7) == 7.0
    assert make_variant("dcfr").strategy_weight(7) == 49.0
    assert make_variant("dcfr", gamma=3).strategy_weight(2) == 8.0
    with pytest.raises(ValueError):
        make_variant("cfr++")


def table_after(game, algorithm, iterations=20, **kw):
    s = Solver(game, algorithm, use_tree=True, **kw)
    s.iterate(iterations)
    return s.table


def test_every_flag_changes_the_result():
    base = table_after(LEDUC, "cfr")
    results = {name: table_after(LEDUC, name) for name in ALGORITHMS}
    results["simultaneous"] = table_after(LEDUC, "cfr", simultaneous=True)
    results["sampled"] = Solver(LEDUC, "cfr", sampled_chance=True)
    results["sampled"].iterate(20)
    results["sampled"] = results["sampled"].table
    results["dcfr-alpha"] = table_after(LEDUC, "dcfr", alpha=2.0)
    results["dcfr-beta"] = table_after(LEDUC, "dcfr", beta=0.5)
    results["dcfr-gamma"] = table_after(LEDUC, "dcfr", gamma=1.0)
    results["float32"] = table_after(LEDUC, "cfr", dtype=np.float32)
    names = sorted(results)
    for a, b in itertools.combinations(names, 2):
        ra, rb = results[a], results[b]
        same = (ra.dtype == rb.dtype and ra.n_values == rb.n_values
                and np.array_equal(ra.regrets[:ra.n_values], rb.regrets[:rb.n_values])
                and np.array_equal(ra.strategy[:ra.n_values], rb.strategy[:rb.n_values]))
        assert not same, (a, b)
    assert results["cfr"].same_contents(base)


FLAGS = list(itertools.product(ALGORITHMS, [False, True], [False, True], [np.float64, np.float32],
                               [False, True]))


@pytest.mark.parametrize("algorithm,simultaneous,sampled,dtype,use_tree", FLAGS)
def test_policy_at_iteration_zero_is_uniform(algorithm, simultaneous, sampled, dtype, use_tree):
    s = Solver(KUHN, algorithm, simultaneous=simultaneous, sampled_chance=sampled, dtype=dtype,
               use_tree=use_tree)
    tree = build_tree(KUHN)
    sigma = average_policy(tree, s.table)
    assert np.array_equal(sigma, np.full_like(sigma, 0.5))
    # ... and the first pass plays uniformly: its strategy increments are proportional.
    from cfr.increment_log import IncrementLog
    from cfr.traversal import traverse

    log = IncrementLog(1)
    traverse(KUHN, s.table, log, -1, s.variant.strategy_weight(1), sampled, (1,))
    pos = 0
    for e in range(len(log)):
        ds = log.values[pos + 2: pos + 4]
        assert ds[0] == ds[1]
        pos += 4


def test_float32_tracks_float64():
    a = table_after(LEDUC, "cfr", 50)
    b = table_after(LEDUC, "cfr", 50, dtype=np.float32)
    from cfr.exploitability import Evaluator

    ev = Evaluator(build_tree(LEDUC))
    assert ev(b)[0] == pytest.approx(ev(a)[0], rel=1e-4)
