"""Abstract Setback on the CFR game interface (`games/setback/abstraction/abstract_game.py`, bundled
as `games.setback.train.game.GAME`).

The generic conformance tests of `test_game_conformance.py` run here on Setback with one rule
relaxed, because abstraction.md requires it: "Keys carry no seat or team: when two seats (even
of different teams) produce the same string they share one info set", and an abstract action
stands for a different concrete card in different deals. So one key may come with either team
and with different concrete moves; what must agree is the number of actions (the table's
layout) and, for auction keys, the bids themselves. (The generic rule is kept for every other
game; Setback is not appended to its list for this reason.)
"""

from __future__ import annotations

import numpy as np
import pytest

import test_game_conformance as conformance
from games.setback.abstraction import abstract_game as G
from games.setback.abstraction.key_layout import KIND_AUCTION, key_kind
from cfr import game as cfr_game
from cfr.rng import word
from games.setback import state as S
from games.setback.scoring import is_exhausted, score_difference
from games.setback.train.game import GAME


class SharedKeys(dict):
    """Key -> (action count, auction bids): the Setback reading of "same key, same actions"."""

    def setdefault(self, key, value):
        player, actions = value
        seen = super().setdefault(key, (len(actions), actions))
        assert seen[0] == len(actions), "one key with two action counts"
        if key_kind(key[0]) == KIND_AUCTION:
            assert seen[1] == actions, "one auction key with two bid lists"
        return value


class SetbackChecker(conformance.Checker):
    def __init__(self, game):
        super().__init__(game)
        self.keys = SharedKeys()


@pytest.fixture
def setback_conformance(monkeypatch):
    monkeypatch.setattr(conformance, "Checker", SetbackChecker)
    monkeypatch.setattr(conformance, "PLAYOUTS", 1000)
    return conformance


def test_bundle_is_well_formed(setback_conformance):
    setback_conformance.test_bundle_is_well_formed(GAME)


def test_random_playouts(setback_conformance):
    setback_conformance.test_random_playouts(GAME)


def test_chance_sample_agrees_with_chance_outcomes(setback_conformance):
    setback_conformance.test_chance_sample_agrees_with_chance_outcomes(GAME)


def test_signatures_restate_the_cfr_interface():
    assert (G.CHANCE, G.TERMINAL) == (cfr_game.CHANCE, cfr_game.TERMINAL)
    ours = (G.CURRENT_PLAYER_SIG, G.DECISION_SIG, G.APPLY_SIG, G.UTILITY_SIG,
            G.CHANCE_OUTCOMES_SIG, G.CHANCE_SAMPLE_SIG)
    theirs = (cfr_game.CURRENT_PLAYER_SIG, cfr_game.DECISION_SIG, cfr_game.APPLY_SIG,
              cfr_game.UTILITY_SIG, cfr_game.CHANCE_OUTCOMES_SIG, cfr_game.CHANCE_SAMPLE_SIG)
    assert ours == theirs


def sample_deal(seed: int) -> np.ndarray:
    state = GAME.initial_state()
    child = np.zeros_like(state)
    k = 0
    while GAME.current_player(state) == G.CHANCE:
        GAME.chance_sample(state, word(np.uint64(seed), np.uint64(k)), child)
        state, child = child, state
        k += 1
    assert k == 24
    return state


def test_dealing_card_by_card_starts_the_auction_as_reset_deal():
    for seed in range(20):
        state = sample_deal(seed)
        hands = state[S.DEALT:S.DEALT + 4].copy()
        assert all(bin(int(h)).count("1") == 6 for h in hands)
        expected = S.new_state()
        S.reset_deal(expected, hands)
        assert np.array_equal(state, expected)
        assert GAME.current_player(state) == 1  # P1 (team 1) bids first


def test_packets_of_three_from_the_dealers_left():
    state = GAME.initial_state()
    child = np.zeros_like(state)
    for card in range(24):  # deal cards 0..23 in order, as an unshuffled deck
        GAME.apply(state, card, child)
        state = child.copy()
    for rel, packets in ((1, (0, 12)), (2, (3, 15)), (3, (6, 18)), (0, (9, 21))):
        expected = sum(1 << c for p in packets for c in range(p, p + 3))
        assert state[S.HAND + rel] == expected


def test_terminal_when_over_or_exhausted_utility_is_the_score_difference():
    rng = np.random.default_rng(5)
    actions = np.zeros(GAME.max_actions, dtype=np.int64)
    key = np.zeros(1, dtype=np.uint64)
    for seed in range(200):
        state = sample_deal(seed)
        child = np.zeros_like(state)
        while GAME.current_player(state) >= 0:
            assert not is_exhausted(state)
            n = GAME.decision(state, actions, key)
            GAME.apply(state, actions[rng.integers(n)], child)
            state, child = child, state
        assert is_exhausted(state)
        assert GAME.utility(state) == float(score_difference(state))


def test_all_pass_scores_zero():
    state = sample_deal(3)
    child = np.zeros_like(state)
    for _ in range(4):
        GAME.apply(state, 52, child)  # Pass is always an abstract action
        state = child.copy()
    assert GAME.current_player(state) == G.TERMINAL and GAME.utility(state) == 0.0


def test_decision_equals_the_abstraction_kernel_at_every_state_of_random_deals():
    """The game's forced-card shortcut answers exactly what `abstract_decision` answers."""
    from games.setback.abstraction.decision import abstract_decision
    from games.rng import below, new_rng
    from games.setback import state as S

    rng = new_rng(11)
    state = np.zeros(S.STATE_SIZE, np.int64)
    child = np.zeros(S.STATE_SIZE, np.int64)
    moves = np.zeros(8, np.int64)
    expected = np.zeros(8, np.int64)
    key = np.zeros(2, np.uint64)
    checked = forced = 0
    for _ in range(300):
        S.random_deal(rng, state)
        while G.current_player(state) >= 0:
            key[:] = 0
            n = G.decision(state, moves, key)
            m, _, _, want_key = abstract_decision(state, expected)
            assert n == m and list(moves[:n]) == list(expected[:m])
            if n >= 2:
                assert key[0] == want_key
            forced += n == 1
            checked += 1
            G.apply(state, moves[below(rng, n)], child)
            state[:] = child
    assert checked > 5000 and forced > 1000
