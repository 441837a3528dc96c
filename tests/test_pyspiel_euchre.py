"""ISMCTS on OpenSpiel's own C++ `euchre` (games/euchre/envs/pyspiel.py, `ismcts[:SIMS],pyspiel`).

The state built from a seat's view must be one the seat cannot tell from the real hand: at
every decision of random hands dealt through pyspiel (a pass-heavy mix, so the second round,
the stuck dealer and the discard come up), the acting player's information state string of
the built state equals that of the real pyspiel state, whatever the hidden cards drawn. Then
the spec, and a game to 10 played by the bot through our referee, the same from the same
seed."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from games.euchre.envs.pyspiel import (  # noqa: E402
    OS_SEATS, from_openspiel_action, native_state, to_openspiel_action)
from games.euchre import state as S  # noqa: E402
from games.euchre.cards import SEAT_CHARS  # noqa: E402
from games.euchre.rules import apply_move  # noqa: E402
from games.euchre.view import SeatView  # noqa: E402
from games.euchre.play.ismcts import NATIVE  # noqa: E402
from play.ismcts_player import make_ismcts_player  # noqa: E402
from play.player_spec import PlayerSpecError  # noqa: E402

HANDS = 120


def test_actions_round_trip():
    assert [from_openspiel_action(to_openspiel_action(m)) for m in range(31)] == list(range(31))
    assert sorted(to_openspiel_action(m) for m in range(24)) == list(range(24))


def test_the_built_state_is_the_real_one_to_the_acting_seat():
    game = pyspiel.load_game("euchre")
    decisions = discards_hidden = second_round = 0
    for hand in range(HANDS):
        rng = random.Random(hand)
        real = game.new_initial_state()
        dealer_os = rng.randrange(4)
        real.apply_action(dealer_os)
        deck = list(range(24))
        rng.shuffle(deck)
        hands = np.zeros(4, np.int64)
        for k in range(20):  # pyspiel deals card k to the dealer + k
            real.apply_action(deck[k])
            hands[k % 4] |= 1 << from_openspiel_action(deck[k])
        real.apply_action(deck[20])
        ours = S.new_state()
        S.reset_hand(ours, hands, from_openspiel_action(deck[20]), 1)
        dealer = SEAT_CHARS.index(OS_SEATS[dealer_os])
        history: list[int] = []
        while not real.is_terminal():
            view = SeatView.of(ours, dealer, history=history)
            player = real.current_player()
            for draw in (hand, hand + 1000):  # two different layouts of the hidden cards
                built = native_state(game, view.state, view.seat, view.dealer, view.history,
                                     draw)
                assert built.information_state_string(player) == \
                    real.information_state_string(player), (hand, history)
            decisions += 1
            discards_hidden += -1 in view.history
            second_round += int(ours[S.N_PASSES]) >= 4
            actions = real.legal_actions()
            pass_often = 24 in actions and rng.random() < 0.6
            action = 24 if pass_often else actions[rng.randrange(len(actions))]
            real.apply_action(action)
            apply_move(ours, from_openspiel_action(action))
            history.append(from_openspiel_action(action))
    assert decisions > 20 * HANDS and discards_hidden > 100 and second_round > 100


def test_spec():
    player = make_ismcts_player("ismcts:7,pyspiel", seed=1, game="euchre", native=NATIVE)
    assert player.native and player.name == "ismcts:7,pyspiel"
    assert not make_ismcts_player("ismcts:7", game="euchre", native=NATIVE).native
    with pytest.raises(PlayerSpecError, match="none of setback"):
        make_ismcts_player("ismcts:7,pyspiel")
    with pytest.raises(PlayerSpecError, match="only option"):
        make_ismcts_player("ismcts:7,fast", game="euchre", native=NATIVE)


def test_plays_a_game_to_10_legally_and_the_same_from_the_same_seed():
    from games.euchre.match import RandomPlayer, play_game

    records = []
    for _ in range(2):
        bot = make_ismcts_player("ismcts:4,pyspiel", seed=2, game="euchre", native=NATIVE)
        players = {"W": bot, "E": bot, "N": RandomPlayer(1), "S": RandomPlayer(2)}
        records.append(play_game(players, seed=4))  # the referee refuses an illegal move
    assert max(records[0].score.values()) >= 10
    assert records[0].hands == records[1].hands  # every move of every hand
    assert records[0].score == records[1].score and records[0].winner == records[1].winner


def test_the_bot_tells_apart_what_pyspiels_string_does_not():
    """OpenSpiel 2.0.2's euchre writes every second-round call as "Pick up!": after naming
    clubs or hearts, the next player's information state string is the same. The bot's tree
    key adds the public calls, so it keeps them apart (a merged node failed with a KeyError)."""
    game = pyspiel.load_game("euchre")
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    for _ in range(4):
        state.apply_action(24)  # everybody passes the upcard
    named = [a for a in state.legal_actions() if a != 24][:2]
    after = []
    for suit in named:
        child = state.clone()
        child.apply_action(suit)
        after.append(child)
    player = after[0].current_player()
    assert after[0].information_state_string(player) == \
        after[1].information_state_string(player)  # the upstream string hides the suit
    bot = make_ismcts_player("ismcts:3,pyspiel", seed=1, game="euchre",
                             native=NATIVE).bot
    assert bot.get_state_key(after[0]) != bot.get_state_key(after[1])
    assert bot.get_state_key(after[0]) == bot.get_state_key(after[0].clone())
