"""Spades' all-seeing `oracle` (issue 49, part 4): its bids the bidder's, its card the best of
the solver's values (exact from the first trick, Nil bids and bags included; past its node limit
exact once 7 tricks remain, the heuristic rolled out to there before),
refused from a seat's view, and fielded by the tournament with the true hand."""

from __future__ import annotations

import numpy as np
import pytest

from games.rng import new_rng
from games.spades import state as S
from games.spades.rules import apply_move
from games.spades.view import SeatView
from play.trick_oracle import OracleRefused
from games.spades.play.heuristic import SpadesHeuristicPlayer
from games.spades.play.tournament import make_spades_player, play_unit
from play.tournament import HANDS
from games.spades.search.policy import heuristic_move
from games.spades.play.oracle import EXACT_TRICKS
from games.spades import trick_play
from search.trick_values import TrickPlaySolver


@pytest.fixture(scope="module")
def oracle():
    return make_spades_player("oracle")


def _position(seed: int, moves: int):
    state = S.new_state()
    S.random_hand(new_rng(seed), state, 0, 0)
    history = []
    for _ in range(moves):
        move = int(heuristic_move(state))
        apply_move(state, move)
        history.append(move)
    return state, SeatView.of(state, 0, (0, 0), history)


def test_bids_are_the_bidders_and_a_view_is_refused(oracle):
    state, view = _position(1, 2)
    why = oracle.decide_seeing_all(state.copy(), view)
    assert why == {"move": SpadesHeuristicPlayer().choose(view), "reason": "bidder",
                   "moves": []}
    with pytest.raises(OracleRefused):
        oracle.choose(view)


@pytest.mark.parametrize("seed, moves, reason", [(2, 4, "exact"),
                                                 (3, 4 + 4 * 4 + 1, "exact"),
                                                 (4, 4 + 4 * 6 + 2, "exact"),
                                                 (5, 4 + 4 * 9, "exact")])
def test_the_card_is_the_best_of_the_solvers_values(oracle, seed, moves, reason):
    state, view = _position(seed, moves)
    if view.legal_moves().size == 1:
        pytest.skip("a single legal card")
    why = oracle.decide_seeing_all(state.copy(), view)
    assert why["reason"] == reason
    horizon = 0 if reason == "exact" else EXACT_TRICKS
    cards, values = oracle.card_values(state.copy(), horizon)
    best = int(cards[int(np.argmax(values))])
    assert why["move"] == best and why["moves"][0]["value"] == values.max()
    assert sorted(m["move"] for m in why["moves"]) == sorted(int(c) for c in cards)


def _nil_position():
    for seed in range(200):
        state, view = _position(seed, 4)
        nil = any(int(state[S.BID + seat]) == 0 for seat in range(4))
        if nil and view.legal_moves().size > 1:
            return state, view
    pytest.skip("no Nil bid among the heuristic's hands")


def test_a_standing_nil_bid_is_exact_from_the_first_trick(oracle):
    """A Nil bidder's own tricks: the score itself is searched from the first trick, its
    values those of a fresh solver with no node limit."""
    state, view = _nil_position()
    why = oracle.decide_seeing_all(state.copy(), view)
    assert why["reason"] == "exact"
    cards, values = TrickPlaySolver().card_values(state.copy(), trick_play)
    assert sorted((m["move"], m["value"]) for m in why["moves"]) == sorted(
        zip(cards.tolist(), values.tolist()))
    assert why["move"] == int(cards[int(np.argmax(values))])


def test_past_its_node_limit_the_oracle_rolls_out_then_solves():
    """The safety net: a score search past `node_limit` nodes plays the heuristic until
    `EXACT_TRICKS` are left and solves from there."""
    state, view = _nil_position()
    oracle = make_spades_player("oracle")
    oracle.node_limit = 5
    why = oracle.decide_seeing_all(state.copy(), view)
    assert why["reason"] == "rollout+exact"
    cards, values = oracle.card_values(state.copy(), EXACT_TRICKS)
    assert why["move"] == int(cards[int(np.argmax(values))])


def test_the_tournament_hands_the_oracle_the_true_hand():
    oracle, heuristic = make_spades_player("oracle:heuristic"), make_spades_player("heuristic")
    row = play_unit((oracle, heuristic), 7, 0, False, True)
    assert row[HANDS] == 1
