"""The pass: frozen table, increment log and merge, tree pass equal to the interface walk."""

from __future__ import annotations

import numpy as np
import pytest

from cfr import rng
from cfr.increment_log import IncrementLog, merge
from cfr.regret_matching import average_strategy, regret_matching
from cfr.solver import Solver
from cfr.table import ACTIONS_MASK, InfoSetTable
from cfr.traversal import traverse
from cfr.tree import build_tree
from cfr.tree_pass import TreePass
from games.kuhn import GAME as KUHN
from games.leduc import GAME as LEDUC


def snapshot(table: InfoSetTable) -> tuple:
    return tuple(a.tobytes() for a in (table.keys, table.meta, table.offsets,
                                       table.regrets, table.strategy))


def trained(game, algorithm="cfr", iterations=3, **kw) -> Solver:
    s = Solver(game, algorithm, **kw)
    s.iterate(iterations)
    return s


def test_regret_matching_formula():
    out = np.zeros(4)
    regrets = np.array([9.0, 1.0, -2.0, 0.0, 3.0])
    regret_matching(regrets, 1, 4, out)  # R = 1, -2, 0, 3
    assert out.tolist() == [0.25, 0.0, 0.0, 0.75]
    regret_matching(np.array([-1.0, 0.0, -5.0]), 0, 3, out)
    assert out[:3].tolist() == [1 / 3] * 3
    average_strategy(np.array([1.0, 3.0]), 0, 2, out)
    assert out[:2].tolist() == [0.25, 0.75]
    average_strategy(np.zeros(2), 0, 2, out)
    assert out[:2].tolist() == [0.5, 0.5]


@pytest.mark.parametrize("game", [KUHN, LEDUC], ids=["kuhn", "leduc"])
def test_pass_leaves_the_table_untouched(game):
    s = trained(game)
    before = snapshot(s.table)
    log = IncrementLog(game.key_words, entries=4, values=8)  # forces log growth too
    traverse(game, s.table, log, -1)
    assert snapshot(s.table) == before
    assert len(log) > 0 and not log.overflowed


@pytest.mark.parametrize("algorithm", ["cfr", "cfr+", "lcfr", "dcfr"])
@pytest.mark.parametrize("simultaneous", [False, True])
def test_tree_pass_equals_interface_walk_bit_for_bit(algorithm, simultaneous):
    a = trained(LEDUC, algorithm, 12, simultaneous=simultaneous)
    b = trained(LEDUC, algorithm, 12, simultaneous=simultaneous, use_tree=True)
    assert a.table.same_contents(b.table)


def test_strategy_is_frozen_for_the_whole_pass():
    """Every visit of an info set in one pass plays the strategy from before the pass."""
    s = trained(LEDUC, "cfr", 5)
    log = IncrementLog(1)
    traverse(LEDUC, s.table, log, -1)
    pos = 0
    sigma_by_key: dict[int, np.ndarray] = {}
    for e in range(len(log)):
        n = int(log.meta[e] & ACTIONS_MASK)
        ds = log.values[pos + n: pos + 2 * n]
        pos += 2 * n
        if ds.sum() <= 0:
            continue
        sigma = ds / ds.sum()
        key = int(log.key[e, 0])
        expected = np.zeros(n)
        regret_matching(s.table.regrets, s.table.offset(key), n, expected)
        np.testing.assert_allclose(sigma, expected, rtol=1e-12, atol=1e-15)
        sigma_by_key.setdefault(key, sigma)
        np.testing.assert_allclose(sigma, sigma_by_key[key], rtol=1e-12, atol=1e-15)
    assert len(sigma_by_key) > 100


def test_merge_order_independent_of_number_of_workers():
    """A batch against one frozen table: 1 worker or 3 workers, merged in order, same table."""
    base = trained(LEDUC, "cfr", 2, sampled_chance=True)
    words = [int(rng.word(np.uint64(5), np.uint64(t))) for t in range(6)]

    def run(groups):
        t = base.table.copy()
        logs = []
        for g in groups:  # each worker traverses the same frozen table
            log = IncrementLog(1)
            traverse(LEDUC, t, log, -1, 1.0, True, g)
            logs.append(log)
        for log in logs:
            merge(t, log)
        return t

    one = run([words])
    three = run([words[:2], words[2:3], words[3:]])
    assert one.same_contents(three)


def test_sampled_chance_is_seeded():
    a = trained(LEDUC, "cfr", 20, sampled_chance=True, seed=3)
    b = trained(LEDUC, "cfr", 20, sampled_chance=True, seed=3)
    c = trained(LEDUC, "cfr", 20, sampled_chance=True, seed=4)
    assert a.table.same_contents(b.table)
    assert not a.table.same_contents(c.table)


def test_zero_reach_pruning_only_when_both_players_reach_zero():
    """CFR+ zeroes strategies; pruning must not change values (tree pass checks every node)."""
    s = trained(KUHN, "cfr+", 30, use_tree=True)
    t = trained(KUHN, "cfr+", 30)
    assert s.table.same_contents(t.table)
    tp = TreePass(build_tree(KUHN))
    log = IncrementLog(1)
    v = tp.run(s.table, log, -1)
    assert v == pytest.approx(traverse(KUHN, s.table, IncrementLog(1), -1), abs=0)


def test_threads_traverse_one_frozen_table():
    """Workers in threads (the kernel releases the GIL) give the single-worker result."""
    from concurrent.futures import ThreadPoolExecutor

    base = trained(LEDUC, "cfr", 2, sampled_chance=True)
    words = [int(rng.word(np.uint64(8), np.uint64(t))) for t in range(8)]
    single = base.table.copy()
    log = IncrementLog(1)
    traverse(LEDUC, single, log, -1, 1.0, True, words)
    merge(single, log)

    shared = base.table.copy()
    groups = [words[:3], words[3:5], words[5:]]
    logs = [IncrementLog(1) for _ in groups]
    with ThreadPoolExecutor(max_workers=3) as pool:
        list(pool.map(lambda i: traverse(LEDUC, shared, logs[i], -1, 1.0, True, groups[i]),
                      range(3)))
    for log in logs:
        merge(shared, log)
    assert shared.same_contents(single)
