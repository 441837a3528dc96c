"""The threaded-table pass (`--updates reference`): the numba kernel against a plain-Python
walk written as the reference writes it, bit for bit; the lost update, by hand; the same
results through table growth mid-pass; equal to the frozen pass where no key repeats."""

from __future__ import annotations

import numpy as np
import pytest

from cfr.solver import Solver
from cfr.table import InfoSetTable
from cfr.threaded_pass import ThreadedScratch, threaded_traverse
from games.leduc import GAME as LEDUC
from pass_reference import GAMES
from pass_reference import assert_table_equals_dict as assert_same
from pass_reference import pass_word as word
from repeat_game import GAME as REPEAT
from repeat_game import KEY
from threaded_reference import threaded_pass


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("mode", ["sampled-simultaneous", "enumerated-alternating"])
def test_kernel_equals_python_reference_bit_for_bit(name, mode):
    game = GAMES[name]
    table = InfoSetTable(game.key_words, capacity=16, value_capacity=8)  # grows mid-pass
    ref: dict = {}
    scratch = ThreadedScratch(game)
    passes = 60 if mode.startswith("sampled") else (6 if name == "leduc" else 40)
    for t in range(1, passes + 1):
        if mode.startswith("sampled"):
            args = dict(update_player=-1, weight=1.0, sampled=True, word=word(5, t))
        else:
            args = dict(update_player=(t - 1) % 2, weight=float(t), sampled=False, word=0)
        v = threaded_traverse(game, table, args["update_player"], args["weight"],
                              args["sampled"], (args["word"],), scratch=scratch)
        assert v == threaded_pass(game, ref, **args)
    assert_same(table, ref)


def test_a_batch_of_words_is_the_passes_one_after_the_other():
    a = InfoSetTable(1)
    b = InfoSetTable(1)
    words = [word(2, t) for t in range(1, 41)]
    out = np.zeros(40)
    total = threaded_traverse(LEDUC, a, -1, 1.0, True, words, word_values=out)
    singles = [threaded_traverse(LEDUC, b, -1, 1.0, True, (w,)) for w in words]
    assert a.same_contents(b)
    assert out.tolist() == singles and total == sum(singles)


def test_the_update_made_inside_its_own_subtree_is_lost():
    """Repeat game, one pass from an empty table (sigma uniform everywhere).

    Inner K (reach 1/2): children 2 and 0, v = 1, dR = (1, -1), dS = 1/2 * (1/2, 1/2).
    Outer K: children v(inner) = 1 and 0, v = 1/2, dR = (1/2, -1/2), dS = (1/2, 1/2).
    Threaded: the outer writes back its entry (zeros) plus its own update: the inner's is
    lost. Frozen (the vanilla pass and merge): both updates add up."""
    table = InfoSetTable(1)
    threaded_traverse(REPEAT, table)
    o = table.offset(KEY)
    assert table.regrets[o:o + 2].tolist() == [0.5, -0.5]
    assert table.strategy[o:o + 2].tolist() == [0.5, 0.5]
    frozen = Solver(REPEAT, "cfr", simultaneous=True)
    frozen.iterate(1)
    o = frozen.table.offset(KEY)
    assert frozen.table.regrets[o:o + 2].tolist() == [1.5, -1.5]
    assert frozen.table.strategy[o:o + 2].tolist() == [0.75, 0.75]
    ref: dict = {}
    threaded_pass(REPEAT, ref)
    assert ref[(KEY,)] == ([0.5, -0.5], [0.5, 0.5])


def test_repeat_game_many_passes_against_the_reference():
    table = InfoSetTable(1)
    ref: dict = {}
    for t in range(1, 30):
        threaded_traverse(REPEAT, table, -1, float(t))
        threaded_pass(REPEAT, ref, -1, float(t))
    assert_same(table, ref)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_equals_the_frozen_pass_when_no_key_repeats_in_a_pass(name):
    """One sampled deal of a perfect-recall game meets each key at most once, so reading the
    table as it is on entry is reading it frozen: the same table bit for bit."""
    game = GAMES[name]
    frozen = Solver(game, "cfr", simultaneous=True, sampled_chance=True, seed=9)
    frozen.iterate(80)
    table = InfoSetTable(game.key_words)
    for t in range(1, 81):
        threaded_traverse(game, table, -1, 1.0, True, (word(9, t),))
    assert_same(table, {k: (frozen.table.regrets[o:o + n].tolist(),
                            frozen.table.strategy[o:o + n].tolist())
                        for k, _, n, o in frozen.table.entries()})


def test_differs_from_the_frozen_pass_when_keys_repeat():
    """Leduc with enumerated chance: a key recurs under other deals in the same pass, and the
    threaded pass sees the earlier updates."""
    frozen = Solver(LEDUC, "cfr", simultaneous=True)
    frozen.iterate(2)
    table = InfoSetTable(1)
    for _ in range(2):
        threaded_traverse(LEDUC, table, -1)
    assert table.count == frozen.table.count
    assert any(table.regrets[table.offset(k):table.offset(k) + n].tolist()
               != frozen.table.regrets[o:o + n].tolist()
               for k, _, n, o in frozen.table.entries())


def test_float32_table_follows_float64_closely():
    a = InfoSetTable(1, dtype=np.float32)
    b = InfoSetTable(1)
    for t in range(1, 40):
        threaded_traverse(LEDUC, a, -1, 1.0, True, (word(3, t),))
        threaded_traverse(LEDUC, b, -1, 1.0, True, (word(3, t),))
    assert a.count == b.count
    for k, _, n, o in b.entries():
        oa = a.offset(k)
        np.testing.assert_allclose(a.regrets[oa:oa + n], b.regrets[o:o + n], rtol=1e-4,
                                   atol=1e-5)


def test_memory_cap_raises_table_full():
    from cfr.errors import TableFullError

    table = InfoSetTable(1, capacity=16, value_capacity=16, max_bytes=4096)
    with pytest.raises(TableFullError):
        threaded_traverse(LEDUC, table, -1)


def test_a_key_with_another_action_count_is_refused():
    table = InfoSetTable(1)
    threaded_traverse(REPEAT, table)
    o = table.offset(KEY)
    table.meta[np.flatnonzero(table.meta)[0]] = 3  # claim three actions for K
    assert o >= 0
    with pytest.raises(ValueError, match="arrived with 2 actions"):
        threaded_traverse(REPEAT, table)
