"""The one all-seeing oracle (`play/trick_oracle.py`) over every registered game that declares
its card play (`games/<game>/trick_play.py`): its card values equal a brute-force minimax over
the game's rules on small endings, its card is the first best, a single card is played unsolved,
the phases before the card play are the bidder's (and refused by `card_values` in the game's one
line), a seat's view is refused, and the declaration's hooks read the state as the rules do."""

from __future__ import annotations

import numpy as np
import pytest

from games.rng import new_rng
from play.trick_oracle import (OracleRefused, TrickOraclePlayer, in_card_play, is_oracle_spec,
                               side_to_act, tricks_left)
from test_trick_values import GAMES, _brute, _ending, _legal, _modules


class _View:
    """What the oracle reads of a seat's view: the legal moves."""

    def __init__(self, moves):
        self.moves = np.array(moves, dtype=np.int64)

    def legal_moves(self):
        return self.moves


class _Bidder:
    """A bidder that records it was asked."""

    asked = 0

    def choose(self, view):
        self.asked += 1
        return int(view.legal_moves()[0])


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", range(4))
def test_the_oracle_plays_the_first_best_of_brute_force_values(name, seed):
    rules, S, trick_play = _modules(name)
    oracle = TrickOraclePlayer(_Bidder(), trick_play)
    state = None
    while state is None:
        state = _ending(name, 300 + seed, 2)
        seed += 1000
    legal = _legal(rules, state)
    assert in_card_play(trick_play, state)
    assert side_to_act(trick_play, state) == int(state[S.TO_ACT]) % 2
    assert 1 <= tricks_left(trick_play, state) <= 2
    sign = 1 if side_to_act(trick_play, state) == 0 else -1
    cards, values = oracle.card_values(state.copy())
    assert sorted(legal) == [int(c) for c in cards]
    for card, value in zip(cards, values):
        child = state.copy()
        rules["apply_move"](child, int(card))
        assert value == sign * _brute(rules, S, child)
    why = oracle.decide_seeing_all(state.copy(), _View(legal))
    if len(legal) == 1:
        assert why == {"move": legal[0], "reason": "forced", "moves": []}
    else:
        best = max(values)
        assert why["reason"] == "exact"
        assert why["move"] == next(int(c) for c, v in zip(cards, values) if v == best)
        assert [m["value"] for m in why["moves"]] == sorted(values.tolist(), reverse=True)
    assert oracle.bidder.asked == 0


@pytest.mark.parametrize("name", GAMES)
def test_before_the_card_play_the_bidder_decides_and_a_view_is_refused(name):
    rules, S, trick_play = _modules(name)
    state = S.new_state()
    rules["random_deal"](new_rng(5), state)
    assert not in_card_play(trick_play, state)
    oracle = TrickOraclePlayer(_Bidder(), trick_play)
    legal = _legal(rules, state)
    assert oracle.choose_seeing_all(state.copy(), _View(legal)) == legal[0]
    assert oracle.bidder.asked == 1
    with pytest.raises(ValueError, match="card play") as caught:
        oracle.card_values(state)
    assert str(caught.value) == trick_play.NOT_IN_CARD_PLAY
    with pytest.raises(OracleRefused):
        oracle.choose(_View(legal))


def test_the_spec_names_the_oracle():
    for spec in ("oracle", " Oracle,bid=random", "oracle:heuristic"):
        assert is_oracle_spec(spec)
    for spec in ("oracles", "heuristic", "search:oracle"):
        assert not is_oracle_spec(spec)
