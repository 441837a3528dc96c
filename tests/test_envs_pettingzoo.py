"""The PettingZoo environments (envs/): PettingZoo's own `api_test` and `seed_test` on every
registered game in both episode kinds, plus what those do not check: the observation shows a
seat nothing of the others' hidden cards, the mask is the engine's legal moves, a whole
episode's rewards are the game's result, and bad input is one clear error."""

from __future__ import annotations

import importlib
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import envs  # noqa: E402
from envs.adapters import adapter, adapted_games  # noqa: E402
from envs.aec import CardGameEnv, EnvError  # noqa: E402
from games import registry  # noqa: E402

GAMES = adapted_games()  # every game that declares its toolkit adapter


def test_every_registered_game_has_an_environment():
    assert set(adapted_games()) == set(registry.names())
    for name in registry.names():  # each game's own module, in its place
        aec = importlib.import_module(f"games.{name}.envs.aec")
        assert aec.raw_env().game.name == name


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("episode", ["hand", "game"])
def test_pettingzoo_api_test(game, episode):
    with warnings.catch_warnings():
        # a Dict observation {"observation", "action_mask"} is PettingZoo's own convention for
        # masks (its classic games warn alike): these two warnings are about the Dict itself
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably")
        api_test(envs.make(game, episode=episode), num_cycles=60)


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_seed_test(game):
    seed_test(lambda: envs.make(game, episode="hand"), num_cycles=40)


def _play(env, seed, chooser):
    """Play one episode choosing with `chooser(observation) -> action`; return the summed
    rewards by agent and the number of steps."""
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        env.step(None if terminated or truncated else chooser(obs))
        steps += 1
    return totals, steps


@pytest.mark.parametrize("game", GAMES)
def test_episodes_are_deterministic_and_zero_sum(game):
    rng = np.random.default_rng(5)

    def last_legal(obs):  # the highest bid (a pass would let a Setback game never end)
        return int(np.flatnonzero(obs["action_mask"])[-1])

    a = _play(envs.make(game, episode="game"), 11, last_legal)
    b = _play(envs.make(game, episode="game"), 11, last_legal)
    assert a == b
    totals, _ = a
    # a game to the target: one team +1 (both its seats), the other -1
    assert sorted(totals.values()) == [-1.0, -1.0, 1.0, 1.0]
    assert totals["player_0"] == totals["player_2"] and totals["player_1"] == totals["player_3"]
    for seed in range(3):
        hand, _ = _play(envs.make(game, episode="hand"), seed,
                        lambda obs: int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert sum(hand.values()) == 0
        g = adapter(game)
        assert g.min_hand_payoff <= hand["player_0"] <= g.max_hand_payoff


def test_an_undecided_game_is_truncated():
    env = envs.make("setback", episode="game", max_hands=3)
    env.reset(seed=0)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        assert not terminated and reward == 0
        if truncated:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))  # everybody passes, every deal
        steps += 1
    assert steps == 3 * 4


@pytest.mark.parametrize("game", GAMES)
def test_mask_is_the_engine_legal_moves_and_others_get_zeros(game):
    env = CardGameEnv(game, episode="hand")
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    while not any(env.terminations.values()):
        legal = env.game.legal_moves(env.state)
        for agent in env.agents:
            mask = env.observe(agent)["action_mask"]
            if agent == env.agent_selection:
                assert np.flatnonzero(mask).tolist() == legal
            else:
                assert not mask.any()
        env.step(int(rng.choice(legal)))


def _swap_hidden(g, state, seat, rng):
    """`state` with two cards swapped between two other seats' hands (dealt cards alike):
    a deal the seat cannot tell from this one."""
    r = g.rules
    others = [(seat + k) % 4 for k in (1, 2, 3)]
    a, b = rng.choice(others, 2, replace=False)
    ha, hb = int(state[r.HAND + a]), int(state[r.HAND + b])
    if not ha or not hb:
        return None
    ca = int(rng.choice([c for c in range(g.n_cards) if ha >> c & 1]))
    cb = int(rng.choice([c for c in range(g.n_cards) if hb >> c & 1]))
    out = state.copy()
    for base in (r.HAND, r.DEALT):
        for s, give, take in ((a, ca, cb), (b, cb, ca)):
            out[base + s] = (int(out[base + s]) & ~(1 << give)) | (1 << take)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_observation_shows_nothing_of_the_hidden_cards(game):
    g = adapter(game)
    rng = np.random.default_rng(1)
    checked = 0
    for seed in range(30):
        state = g.deal(seed)
        for _ in range(int(rng.integers(0, 12))):
            if g.is_over(state):
                break
            g.apply(state, int(rng.choice(g.legal_moves(state))))
        seat = int(rng.integers(4))
        other = _swap_hidden(g, state, seat, rng)
        if other is None:
            continue
        assert np.array_equal(g.observation(state, seat), g.observation(other, seat))
        assert not np.array_equal(g.observation(state, (seat + 1) % 4),
                                  g.observation(state, seat))
        checked += 1
    assert checked >= 20


def test_euchre_discard_is_the_dealers_alone():
    g = adapter("euchre")
    for seed in range(200):
        state = g.deal(seed)
        while int(state[g.rules.PHASE]) != g.rules.PHASE_DISCARD and not g.is_over(state):
            legal = g.legal_moves(state)
            # order up at the first chance, so the dealer discards
            g.apply(state, legal[-1] if state[g.rules.PHASE] == g.rules.PHASE_ORDER else legal[0])
        if g.is_over(state):
            continue
        g.apply(state, g.legal_moves(state)[0])
        other = state.copy()
        other[g.rules.DISCARD] = (int(state[g.rules.DISCARD]) + 1) % 24
        for seat in (1, 2, 3):
            assert np.array_equal(g.observation(state, seat), g.observation(other, seat))
        assert not np.array_equal(g.observation(state, 0), g.observation(other, 0))
        return
    pytest.fail("no hand reached the discard")


def test_bad_input_is_one_clear_error():
    with pytest.raises(EnvError, match="episode"):
        CardGameEnv("setback", episode="match")
    with pytest.raises(registry.UnknownGameError, match="unknown game"):
        envs.make("bridge")
    env = CardGameEnv("setback")
    env.reset(seed=0)
    with pytest.raises(EnvError, match="illegal action"):
        env.step(0 if 0 not in env.game.legal_moves(env.state) else 56)


def test_render_shows_the_table():
    env = CardGameEnv("euchre", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text.startswith("euchre: score EW 0 NS 0, dealer S")
    assert text.count(":") >= 5


def test_setback_episodes_deal_the_tournaments_games():
    from games.rng import stream_seed
    from games.setback.play.tournament import deal_state

    env = CardGameEnv("setback")
    env.reset(seed=5)
    for game in range(3):
        if game:
            env.reset()
        assert np.array_equal(env.state, deal_state(stream_seed(np.uint64(5), game), 0))
        assert env.dealer == 3  # South deals first, as in the tournaments


def test_observation_layout_reads_as_documented():
    g = adapter("setback")
    state = g.deal(4)
    while int(state[g.rules.TRUMP]) < 0:  # bid high, then pitch
        g.apply(state, g.legal_moves(state)[-1])
    seat = g.to_act(state)
    obs = g.observation(state, seat, (5, -2))
    hand = int(state[g.rules.HAND + seat])
    assert [int(x) for x in obs[0:52]] == [hand >> c & 1 for c in range(52)]
    assert obs[441 + int(state[g.rules.TRUMP])] == 1 and obs[441:446].sum() == 1
    assert obs[446 + (0 - seat) % 4] == 1  # the dealer, relative to the observer
    assert obs[470 + 2] == 1  # following the pitch
    assert np.allclose(obs[475:477], [5 / 11, -2 / 11])
    e = adapter("euchre")
    state = e.deal(4)
    obs = e.observation(state, 1, (0, 12 * 10))
    assert obs[48 + int(state[e.rules.UPCARD])] == 1 and obs[48:72].sum() == 1
    assert obs[218] == 1  # the first round of naming trump
    assert np.allclose(obs[245:247], [0.0, 4.0])  # the score clipped to +-4 targets
