"""Our games as OpenSpiel Python games (envs/openspiel_games.py): OpenSpiel's own random
simulation test on every registered game, the chance deal and the returns against our engine,
and what OpenSpiel's ISMCTS needs of a state (`resample_from_infostate`, a state from a seat's
view) keeping the player's information state exactly."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from envs import openspiel_games as og  # noqa: E402
from envs.adapters import adapted_games, adapter  # noqa: E402
from games import registry  # noqa: E402

GAMES = adapted_games()  # every game that declares its toolkit adapter


def test_every_registered_game_is_an_openspiel_game():
    assert set(adapted_games()) == set(registry.names())
    for name in registry.names():
        assert og.short_name(name) in pyspiel.registered_names()
        game = pyspiel.load_game(og.short_name(name))
        assert game.num_players() == 4
        assert game.num_distinct_actions() == adapter(name).num_actions


@pytest.mark.parametrize("game", GAMES)
def test_openspiel_random_sim_test(game):
    pyspiel.random_sim_test(og.load(game), num_sims=4, serialize=False, verbose=False)


def _random_hand(game, rng, stop_after=None):
    """A state of `game` dealt and played at random (at most `stop_after` decisions)."""
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if stop_after is not None and decisions >= stop_after and not state.is_chance_node():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            decisions += 1
    return state


def _random_decisions(game, rng, hands: int, most: int):
    """The decisions reached by `hands` random hands, each stopped after a random number of
    decisions below `most` (a hand that ended first is left out)."""
    for _ in range(hands):
        state = _random_hand(game, rng, stop_after=int(rng.integers(0, most)))
        if not state.is_terminal():
            yield state


@pytest.mark.parametrize("name", GAMES)
def test_deal_and_returns_are_the_engines(name):
    game, g = og.load(name), adapter(name)
    rng = np.random.default_rng(3)
    for _ in range(20):
        state = _random_hand(game, rng)
        engine = state.engine_state()
        # the engine dealt the same cards from the same deck order
        again = g.deal_hands(state._cards)
        for rel in range(4):
            assert engine[g.rules.DEALT + rel] == again[g.rules.DEALT + rel]
        # replaying the decisions on the engine gives the same hand and the same score
        for move in state._seen[state.dealer]:
            g.apply(again, move)
        assert np.array_equal(again, engine)
        points = g.hand_points(engine)
        returns = state.returns()
        assert sum(returns) == 0
        dealer_team = points[0] - points[1]
        assert returns[state.dealer] == returns[(state.dealer + 2) % 4] == dealer_team
        assert g.min_hand_payoff <= returns[0] <= g.max_hand_payoff


@pytest.mark.parametrize("name", GAMES)
def test_resample_keeps_the_information_state(name):
    game, g = og.load(name), adapter(name)
    rng = np.random.default_rng(11)
    redrawn = 0
    for state in _random_decisions(game, rng, 25, 20):
        player = state.current_player()
        key = state.information_state_string(player)
        other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0., 1.))
        assert other.information_state_string(player) == key
        assert other.observation_string(player) == state.observation_string(player)
        assert other.legal_actions() == state.legal_actions()
        engine, world = state.engine_state(), other.engine_state()
        hands = [int(world[g.rules.HAND + s]) for s in range(4)]
        # the redrawn hands: disjoint, of the same sizes, none holding a card played
        assert sum(bin(h).count("1") for h in hands) == bin(np.bitwise_or.reduce(hands)).count(
            "1")
        for s in range(4):
            assert bin(hands[s]).count("1") == bin(int(engine[g.rules.HAND + s])).count("1")
            assert not hands[s] & int(engine[g.rules.PLAYED])
        # the shown voids hold (Euchre: by effective suit, the left bower a trump)
        shown = int(engine[g.rules.SHOWN_VOIDS])
        trump = int(engine[g.rules.TRUMP]) if name == "euchre" else -1
        for s in range(4):
            for suit in range(4):
                if shown >> (4 * s + suit) & 1:
                    assert not hands[s] & _suit_cards(name, suit, trump), (s, suit)
        redrawn += any(hands[s] != engine[g.rules.HAND + s] for s in range(4))
        # the redrawn world plays on to an end
        while not other.is_terminal():
            other.apply_action(int(rng.choice(other.legal_actions())))
    assert redrawn >= 10


def _suit_cards(name, suit, trump):
    """The cards a seat void in `suit` cannot hold."""
    if name == "euchre":
        from games.euchre.cards import effective_suit_mask

        return int(effective_suit_mask(suit, trump))
    from games.setback.cards import suit_mask

    return int(suit_mask(suit))


def test_setback_state_from_a_seat_view_is_that_seats_information_state():
    from games.setback.view import SeatView

    game, g = og.load("setback"), adapter("setback")
    rng = np.random.default_rng(2)
    for state in _random_decisions(game, rng, 10, 24):
        player = state.current_player()
        view = SeatView.of(state.engine_state(), state.dealer, history=state._seen[player])
        rebuilt = og.state_from_view(game, view.state, view.seat, view.dealer, view.history,
                                     seed=5)
        assert rebuilt.current_player() == player
        assert rebuilt.information_state_string(player) == state.information_state_string(
            player)
        assert rebuilt.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_ismcts_plays_our_games(name):
    from open_spiel.python.algorithms import ismcts, mcts

    game = og.load(name)
    random_state = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, random_state), uct_c=4.0,
                           max_simulations=8, random_state=random_state)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            action = int(bot.step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
    assert sum(state.returns()) == 0


def test_unknown_game_is_one_clear_error():
    with pytest.raises(registry.UnknownGameError, match="unknown game"):
        og.load("bridge")


def test_euchre_state_from_a_seat_view_is_that_seats_information_state():
    from games.euchre.view import SeatView

    game = og.load("euchre")
    rng = np.random.default_rng(4)
    checked = 0
    for state in _random_decisions(game, rng, 40, 16):
        player = state.current_player()
        moves = state._seen[state.dealer]  # the dealer saw every move as it was
        view = SeatView.of(state.engine_state(), state.dealer, history=moves)
        assert list(view.history) == state._seen[player]
        rebuilt = og.state_from_view(game, view.state, view.seat, view.dealer, view.history,
                                     seed=int(rng.integers(1000)))
        assert rebuilt.current_player() == player
        assert rebuilt.information_state_string(player) == state.information_state_string(
            player)
        assert rebuilt.legal_actions() == state.legal_actions()
        checked += 1
    assert checked >= 20
