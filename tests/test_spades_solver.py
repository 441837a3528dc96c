"""Spades' double-dummy solver (`search/spades_solver.py`) against a plain brute-force minimax
over the engine's own rules and scoring, on small endings (three tricks or fewer) of random
hands with random bids (Nil included) and game scores whose bags are about to roll over."""

from __future__ import annotations

import random

import numpy as np
import pytest

from games.rng import new_rng
from games.spades import state as S
from games.spades.rules import BID_MOVE, apply_card, apply_move, highest_bid, legal_cards
from games.spades.scoring import score_difference
from search.spades_policy import play_heuristic
from search.spades_solver import SpadesSolver


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def _brute(state: np.ndarray) -> int:
    """Team 0's score less team 1's under perfect play: every legal card tried, no pruning."""
    if state[S.PHASE] == S.PHASE_OVER:
        return int(score_difference(state))
    values = []
    for card in _cards(int(legal_cards(state))):
        child = state.copy()
        apply_card(child, card)
        values.append(_brute(child))
    return max(values) if state[S.TO_ACT] % 2 == 0 else min(values)


def _ending(seed: int, tricks_left: int, extra: int) -> np.ndarray:
    """Hand `seed` with random bids (Nil likely) and game scores, played at random until
    `tricks_left` tricks remain, then `extra` more cards (0..3: a trick under way)."""
    rng = random.Random(seed)
    state = S.new_state()
    S.random_hand(new_rng(seed), state, rng.choice([0, 7, 38, -23, 119]),
                  rng.choice([0, 9, -5, 248]))
    while state[S.PHASE] == S.PHASE_BID:
        bid = 0 if rng.random() < 0.3 else rng.randint(1, min(5, int(highest_bid(state))))
        apply_move(state, BID_MOVE + bid)
    while int(state[S.TRICK_NUMBER]) < 13 - tricks_left:
        apply_card(state, rng.choice(_cards(int(legal_cards(state)))))
    for _ in range(extra):
        apply_card(state, rng.choice(_cards(int(legal_cards(state)))))
    return state


@pytest.fixture(scope="module")
def solver():
    return SpadesSolver(tt_bits=10)  # a small table: collisions and replacements happen


@pytest.mark.parametrize("seed", range(40))
def test_solver_equals_brute_force(solver, seed):
    state = _ending(seed, 1 + seed % 3, seed % 4)
    sign = 1 if state[S.TO_ACT] % 2 == 0 else -1
    moves, values = solver.card_values(state)
    assert list(moves) == _cards(int(legal_cards(state)))
    for card, value in zip(moves, values):
        child = state.copy()
        apply_card(child, int(card))
        assert value == sign * _brute(child), (seed, int(card))


@pytest.mark.parametrize("seed", range(10))
def test_horizon_rolls_the_heuristic_out_then_solves(solver, seed):
    state = _ending(100 + seed, 5, seed % 4)
    sign = 1 if state[S.TO_ACT] % 2 == 0 else -1
    moves, values = solver.card_values(state, horizon=2)
    for card, value in zip(moves, values):
        child = state.copy()
        apply_card(child, int(card))
        play_heuristic(child, 2)
        assert value == sign * _brute(child)


def test_solver_refuses_the_bidding(solver):
    state = S.new_state()
    S.random_hand(new_rng(1), state, 0, 0)
    with pytest.raises(ValueError, match="card play"):
        solver.card_values(state)
