"""`search[belief=policy]` for Euchre (issue 47, part 1): a world's weight is the product of the
database's probabilities of every call, alone decision and card of the modelled seats, and the
resampled worlds agree with the view. The blueprint is tests/test_euchre_search.py's random
table (no strength is claimed for it)."""

import math

import numpy as np
import pytest

from games.euchre.abstraction import codec as euchre_codec
from games.euchre.abstraction.abstract_game import is_settled
from games.euchre.abstraction.codec import key_text
from games.euchre.abstraction.keys import MOVES_BUFFER, abstract_decision
from db.codec_policy_arrays import load_codec_policy_arrays
from db.database import StrategyDatabase
from games.euchre import public, rules
from games.euchre import state as E
from games.euchre.rules import apply_move
from games.euchre.view import SeatView
from games.rng import new_rng
from games.euchre.play.tournament import make_euchre_player
from play.likelihood import world_log_weights
from play.search_options import FLOOR
from games.euchre.search.worlds import cards_played_by, consistent_worlds
from search.likelihood import POLICY
from games.euchre.train.game import GAME

from test_euchre_search import _check_world, blueprint, random_positions  # noqa: F401


def test_euchre_policy_weights_equal_a_slow_replay_and_worlds_agree(blueprint):  # noqa: F811
    """Euchre: a world's weight is the product of the database's probabilities of every call,
    alone decision and card of the modelled seats (read key by key here), and the resampled
    worlds agree with the view."""
    db_path = blueprint["db"]
    arrays = load_codec_policy_arrays("db:" + db_path, "euchre", euchre_codec)
    checked = 0
    with StrategyDatabase(db_path) as db:
        for state, history in random_positions(20, 23)[::3]:
            if not history or is_settled(state):
                continue
            view = SeatView.of(state, 0, (0, 0), history)
            seat = view.seat
            worlds = np.zeros((4, E.STATE_SIZE), np.int64)
            consistent_worlds(state, seat, cards_played_by(view), new_rng(2), True, worlds)
            h = np.array(view.history, np.int64)
            others = sum(1 << s for s in range(4) if s != seat)
            out = np.zeros(4)
            world_log_weights(public, rules.apply_move, E.TO_ACT, GAME.addresses, POLICY,
                              worlds, cards_played_by(view), h, others, arrays, FLOOR, out)
            for w in range(4):
                replay = E.new_state()
                E.reset_hand(replay, worlds[w, E.DEALT:E.DEALT + 4].copy(),
                             worlds[w, E.UPCARD], worlds[w, E.STICK])
                expected = 0.0
                for move in h:
                    move = int(move)
                    if is_settled(replay):
                        break
                    if replay[E.PHASE] == E.PHASE_DISCARD:
                        apply_move(replay, int(worlds[w, E.DISCARD]) if move < 0 else move)
                        continue
                    if int(replay[E.TO_ACT]) != seat:
                        moves = np.zeros(MOVES_BUFFER, np.int64)
                        n, _, key = abstract_decision(replay, moves)
                        if move not in list(moves[:max(n, 1)]):
                            expected += math.log(FLOOR)
                        elif n >= 2:
                            hit = db.lookup(key_text(int(key)))
                            index = list(moves[:n]).index(move)
                            expected += (math.log(max(float(hit[0][index]), FLOOR))
                                         if hit is not None else -math.log(n))
                    apply_move(replay, move)
                assert out[w] == pytest.approx(expected, rel=1e-6, abs=1e-6)
                checked += expected != 0.0
    assert checked >= 20
    player = make_euchre_player(f"search[worlds=8,belief=policy,threads=1]:db:{db_path}")
    for state, history in random_positions(6, 19):
        view = SeatView.of(state, 0, (0, 0), history)
        if view.legal_moves().size < 2 or is_settled(state) or not history:
            continue
        for world in player._worlds(view, new_rng(3)):
            _check_world(world, state, history, view.seat)
    assert player.stats["weighted"] > 10 and player.stats["ess"] > 0
    player.close()
