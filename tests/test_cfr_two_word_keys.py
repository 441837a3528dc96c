"""Games whose keys need two words: Kuhn with its key moved into the second word."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from numba import njit

from cfr.exploitability import Evaluator
from cfr.game import DECISION_SIG
from cfr.solver import Solver
from cfr.tree import build_tree
from games.kuhn import GAME as KUHN
from games.kuhn.game import decision as kuhn_decision


@njit(DECISION_SIG, cache=True, _nrt=False)
def split_decision(state, actions_out, key_out):
    """Kuhn's decision with the key in word 1 and a constant in word 0."""
    n = kuhn_decision(state, actions_out, key_out)
    key_out[1] = key_out[0] * np.uint64(0x9E3779B97F4A7C15)
    key_out[0] = np.uint64(12345)
    return n


TWO_WORD_KUHN = dataclasses.replace(KUHN, name="kuhn2", key_words=2, decision=split_decision)


@pytest.mark.parametrize("use_tree", [False, True])
def test_two_word_keys_solve_kuhn(use_tree, tmp_path):
    one = Solver(KUHN, "cfr+")
    two = Solver(TWO_WORD_KUHN, "cfr+", use_tree=use_tree)
    one.iterate(40)
    two.iterate(20)
    path = str(tmp_path / "k2.ckpt")
    two.save(path)
    two = Solver.resume(TWO_WORD_KUHN, path, use_tree=use_tree)
    two.iterate(20)
    assert len(two.table) == 12 and two.table.key_words == 2
    assert {k[0] for k, *_ in two.table.entries()} == {12345}
    e1 = Evaluator(build_tree(KUHN))(one.table)
    e2 = Evaluator(build_tree(TWO_WORD_KUHN))(two.table)
    assert e1 == e2
