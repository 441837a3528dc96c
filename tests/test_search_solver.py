"""The perfect-information solver against a plain brute-force minimax (no pruning, no table,
the independent rules oracle): identical values for every legal move on thousands of random
positions of 2-4 cards a hand, partial tricks and the trump-setting first lead included."""

import numpy as np
import pytest
from search_reference import BruteForce, position_of, random_position

from games.setback import state as S
from games.setback.search.capture_solver import Solver


@pytest.fixture(scope="module")
def solver():
    return Solver(tt_bits=12)  # a small table: collisions and replacements get exercised


def check_position(solver, brute, state):
    moves, values = solver.move_values(state)
    expected = brute.move_values(position_of(state))
    got = {int(m): int(v) for m, v in zip(moves, values)}
    assert got == expected
    # the root value is the best move's for the side to act
    maximize = int(state[S.TO_ACT]) % 2 == int(state[S.HIGH_BIDDER]) % 2
    best = max(expected.values()) if maximize else min(expected.values())
    assert solver.value(state) == best


def test_solver_matches_brute_force_2_and_3_cards(solver):
    brute = BruteForce()
    count = 0
    for seed in range(2200):
        cards = 2 + seed % 2
        state = random_position(seed, cards, in_trick=(seed // 2) % 4)
        check_position(solver, brute, state)
        count += 1
    assert count >= 2000


def test_solver_matches_brute_force_first_lead():
    solver, brute = Solver(tt_bits=10), BruteForce()
    for seed in range(300):
        state = random_position(seed, 2 + seed % 2, fresh=True)
        assert int(state[S.TRUMP]) < 0
        check_position(solver, brute, state)


def test_solver_matches_brute_force_4_cards(solver):
    brute = BruteForce()
    for seed in range(40):
        state = random_position(10_000 + seed, 4, in_trick=seed % 4)
        check_position(solver, brute, state)


def test_solver_searches_fewer_nodes_and_rejects_auction():
    solver, brute = Solver(), BruteForce()
    for seed in range(10):
        state = random_position(20_000 + seed, 4)
        solver.value(state)
        brute.value(position_of(state))
    assert solver.nodes * 5 < brute.nodes
    with pytest.raises(ValueError, match="playout"):
        fresh = S.new_state()
        S.random_deal(np.array([np.uint64(3)]), fresh)
        solver.move_values(fresh)
