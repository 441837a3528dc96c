"""Spades in the toolkits, beyond the tests every game's adapter passes (the toolkits' own API
tests: tests/test_envs_pettingzoo.py, tests/test_envs_openspiel.py): its games to 500 dealt hand
by hand from the game score (the bags); `resample_from_infostate` drawing every consistent
layout equally often; and a seat's view as a state of pyspiel's own `spades`
(games/spades/envs/pyspiel.py) that the seat cannot tell from the real hand."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

import envs  # noqa: E402
from envs import openspiel_games as og  # noqa: E402
from envs.adapters import adapter  # noqa: E402
from games.spades import state as S  # noqa: E402
from games.spades.scoring import game_winner  # noqa: E402


def _play_game(env, rng):
    """Play `env` (a game) to its end with random legal moves; return, for each hand, the
    engine's score fields at its start and the game score then (by absolute team)."""
    raw, starts, hand = env.unwrapped, [], -1
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if raw.hand_index != hand:
            hand = raw.hand_index
            starts.append((raw.state[S.SCORE:S.SCORE + 2].tolist(), list(raw.score),
                           raw.dealer, observation["observation"]))
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return starts


def test_a_game_deals_each_hand_from_the_game_score():
    env = envs.make("spades", episode="game", seed=7)
    env.reset(seed=7)
    starts = _play_game(env, np.random.default_rng(1))
    raw = env.unwrapped
    assert len(starts) > 1 and game_winner(*raw.score) >= 0
    assert [d for _, _, d, _ in starts] == [(i % 4) for i in range(len(starts))]  # W first
    for fields, score, dealer, observation in starts:
        # the engine's score fields are the game score by team from the dealer (its bags)
        assert fields == [score[dealer % 2], score[(dealer + 1) % 2]]
        assert observation.shape == (adapter("spades").obs_size,)
        assert observation[-2:].tolist() == pytest.approx([s / 500 for s in (
            score[(dealer + 1) % 2], score[dealer % 2])])  # the first bidder's team first


def test_resample_draws_every_consistent_layout_equally_often():
    """Late in a hand (few unseen cards, a void shown), every layout of the hidden cards that
    fits the hand sizes and the voids is drawn, each about as often (chi-square)."""
    g = adapter("spades")
    rng = np.random.default_rng(5)
    state = None
    while state is None or not int(state[S.SHOWN_VOIDS]):
        state = g.deal(int(rng.integers(1 << 30)))
        while int(state[S.TRICK_NUMBER]) < 11:
            g.apply(state, int(rng.choice(g.legal_moves(state))))
    seat = g.to_act(state)
    view = state.copy()
    others = [(seat + k) % 4 for k in (1, 2, 3)]
    for s in others:
        view[S.HAND + s] = view[S.DEALT + s] = 0
    unseen = [c for c in range(52) if not (int(state[S.HAND + seat]) | int(state[S.PLAYED]))
              >> c & 1]
    sizes = [g.cards_held(state, s) for s in others]
    shown = int(state[S.SHOWN_VOIDS])
    layouts = []
    for order in itertools.permutations(unseen):
        hands = [frozenset(order[:sizes[0]]), frozenset(order[sizes[0]:sizes[0] + sizes[1]]),
                 frozenset(order[sizes[0] + sizes[1]:])]
        if all(not shown >> (4 * s + c // 13) & 1 for s, h in zip(others, hands) for c in h):
            layouts.append(tuple(hands))
    layouts = sorted(set(layouts), key=str)
    draws = 200 * len(layouts)
    counts = dict.fromkeys(layouts, 0)
    for k in range(draws):
        world = g.resample(view, seat, k)
        counts[tuple(frozenset(c for c in range(52) if int(world[S.HAND + s]) >> c & 1)
                     for s in others)] += 1
    assert len(counts) == len(layouts) >= 10  # nothing drawn outside the consistent layouts
    expected = draws / len(layouts)
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    assert min(counts.values()) > 0 and chi2 < len(layouts) + 5 * np.sqrt(2 * len(layouts))


def test_a_view_as_pyspiels_own_spades_state():
    """At random decisions of random hands dealt through pyspiel, the state built from the
    acting seat's view shows that seat exactly what the real one does (its observation
    string and tensor, the legal actions), whatever the hidden cards drawn."""
    from games.spades.envs.pyspiel import native_state
    from games.spades.view import SeatView

    game = pyspiel.load_game("spades")
    rng = np.random.default_rng(9)
    checked = 0
    for _ in range(8):
        real = game.new_initial_state()
        score = [int(rng.integers(-200, 400)) for _ in range(2)]  # [N-S, E-W]: the bags
        real.set_current_scores(score)
        deck = rng.permutation(52)
        for card in deck:
            real.apply_action(int(card))
        for _ in range(int(rng.integers(0, 56))):
            real.apply_action(int(rng.choice(real.legal_actions())))
        player = real.current_player()
        # our engine's hand: West deals, pyspiel's player p is our seat p + 1 from it
        hands = np.zeros(4, np.int64)
        for k, card in enumerate(deck):
            hands[(k % 4 + 1) % 4] |= 1 << int(card)
        ours = S.new_state()
        S.reset_hand(ours, hands, score[1], score[0])
        history = real.history()[52:]
        for move in history:
            adapter("spades").apply(ours, move)
        view = SeatView.of(ours, 0, (score[1], score[0]), history)
        for seed in range(2):
            built = native_state(game, view.state, view.seat, 0, view.history, seed)
            assert built.current_player() == player
            assert built.observation_string(player) == real.observation_string(player)
            assert built.observation_tensor(player) == real.observation_tensor(player)
            assert built.legal_actions() == real.legal_actions()
            checked += 1
    assert checked == 16
