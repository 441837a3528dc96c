"""Every player (random, heuristic, database, strategy file, pimc, pimc-pi, net, search on a
net) makes only legal moves, over random
deals played to the last card with scores drawn at random; player names parse with clear
errors; the strategy-file player chooses what the database player chooses."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from db.loader import load_strategies
from games.rng import new_rng, stream_seed
from games.setback import state as S
from games.setback.rules import apply_move
from games.setback.view import SeatView
from games.setback.play.heuristic import HeuristicPlayer, best_suit, cards_of, suit_value
from play.player_spec import PlayerSpecError, make_player
from games.scaffold.match import RandomPlayer
from games.setback.play.strategy_player import StrategyFilePlayer


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A real (tiny) strategy: one baseline deal and a few hundred bootstrap episodes,
    exported and loaded, so the database players find real keys (and miss many)."""
    from games.setback.train.baseline import baseline_stage
    from games.setback.train.bootstrap import bootstrap_stage
    from train.export import export_run
    from train.run_directory import RunDirectory
    from train.runner import Trainer

    root = tmp_path_factory.mktemp("trained")
    base, boot = str(root / "base"), str(root / "boot")
    Trainer(RunDirectory(base), baseline_stage(1, 1, "simultaneous", "cfr"), show_progress=False).run(1)
    Trainer(RunDirectory(boot), bootstrap_stage(base, 0, 1), show_progress=False).run(300)
    files = [str(root / "base.strategy"), str(root / "boot.strategy")]
    export_run(base, files[0])
    export_run(boot, files[1])
    db = str(root / "s.db")
    load_strategies(files, db, progress=False)
    from games.setback.search.net import FEATURE_LAYOUT, INPUTS, OUTPUTS
    from search.policy_net import PolicyNet, net_bytes

    net = str(root / "random.net")  # an untrained network: its moves must be legal all the same
    with open(net, "wb") as handle:
        handle.write(net_bytes(PolicyNet.create(INPUTS, (16, 16), OUTPUTS, 3, "setback",
                                                FEATURE_LAYOUT)))
    return {"files": files, "db": db, "net": net}


def all_players(trained):
    return [RandomPlayer(1), HeuristicPlayer(), make_player(f"db:{trained['db']}"),
            StrategyFilePlayer(trained["files"]), make_player("pimc:2"),
            make_player(f"pimc-pi:2:db:{trained['db']},bid=random"),
            make_player(f"net:{trained['net']},sample"),
            make_player(f"search[worlds=3,threads=1]:net:{trained['net']}")]


def play_deal(players, seed, dealer, score):
    """Play one deal to the last card with `players[absolute team]`; return the moves."""
    state = S.new_state()
    S.random_deal(new_rng(int(stream_seed(seed, 0))), state)
    moves = []
    while state[S.PHASE] != S.PHASE_OVER:
        seat = int(state[S.TO_ACT])
        view = SeatView.of(state, dealer, score, moves)
        player = players[(dealer + seat) % 2]
        move = player.choose(view)
        assert move in view.legal_moves(), (player.name, move, view.legal_moves())
        apply_move(state, move)
        moves.append(move)
    return moves


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), dealer=st.integers(0, 3),
       ew=st.integers(-12, 10), ns=st.integers(-12, 10), pair=st.integers(0, 63))
def test_players_only_make_legal_moves(trained, seed, dealer, ew, ns, pair):
    players = all_players(trained)
    first, second = players[pair // 8], players[pair % 8]
    play_deal((first, second), seed, dealer, (ew, ns))


def test_heuristic_never_illegal_over_many_deals():
    players = (HeuristicPlayer(), HeuristicPlayer())
    for seed in range(400):
        play_deal(players, seed, seed % 4, (seed % 11, (3 * seed) % 11))


def test_heuristic_values_and_pitch():
    # A S, J S, 2 S, 9 S: High, Jack guarded, Low, length: the best suit by far, worth at least a Three.
    hand = [3 * 13 + 12, 3 * 13 + 9, 3 * 13 + 0, 3 * 13 + 7, 0 * 13 + 3, 1 * 13 + 4]
    suit, value = best_suit(hand)
    assert suit == 3 and value >= 2.8
    assert suit_value(hand, 2) == 0.0  # no hearts: no trump to pitch
    assert cards_of((1 << 5) | (1 << 40)) == [5, 40]


def test_heuristic_pitches_a_worthless_hand_it_did_not_bid():
    # Another bidder (a composite's, say) won the auction with a hand whose every suit is
    # worth nothing to the heuristic, and which holds no card of the lowest suit: the pitch is
    # still a card of the hand (it was max() of an empty sequence).
    from games.setback.rules import BID_MOVE

    worthless = [13 * suit + rank for suit in (1, 2, 3) for rank in (3, 4)]  # 5s and 6s
    rest = [c for c in range(52) if c not in worthless]
    hands = [sum(1 << c for c in cards)
             for cards in (rest[0:6], worthless, rest[6:12], rest[12:18])]
    state = S.new_state()
    S.reset_deal(state, np.array(hands, dtype=np.int64))
    history = []
    for move in (BID_MOVE + 2, BID_MOVE, BID_MOVE, BID_MOVE):  # seat 1 bids Two, all pass
        apply_move(state, move)
        history.append(move)
    assert int(state[S.TO_ACT]) == 1 and int(state[S.TRUMP]) < 0
    assert best_suit(worthless) == (0, 0.0)  # the lowest suit, which it does not hold
    pitch = HeuristicPlayer().choose(SeatView.of(state, 0, (0, 0), history))
    assert pitch == 13 * 1 + 4  # the lowest suit it holds, its top card


def test_strategy_file_player_matches_database_player(trained):
    db_player = make_player(f"db:{trained['db']}")
    file_player = make_player("strategy:" + ",".join(trained["files"]))
    for seed in range(30):
        a = play_deal((db_player, db_player), seed, seed % 4, (0, 0))
        b = play_deal((file_player, file_player), seed, seed % 4, (0, 0))
        assert a == b
    assert db_player.report() == file_player.report()
    assert file_player.report()["found"] > 0


@pytest.mark.parametrize("spec, message", [
    ("foo", "unknown player 'foo'"),
    ("db:", "needs a path"),
    ("db:/no/such.db", "no such strategy database"),
    ("strategy:", "needs a path"),
    ("strategy:/no/such.strategy", "no such strategy file"),
    ("random:3", "unknown player"),
    ("pimc:x", "WORLDS a positive integer"),
    ("pimc:0", "at least 1"),
    ("pimc-pi:5", "needs a policy"),
    ("pimc-pi:5:db:/no/such.db", "no such strategy database"),
    ("pimc,bid=", "bid= needs a player"),
    ("pimc,bid=foo", "unknown player 'foo'"),
])
def test_player_spec_errors(spec, message):
    with pytest.raises(PlayerSpecError, match=message):
        make_player(spec)


def test_player_spec_names():
    assert make_player("random").name == "random"
    assert make_player(" Heuristic ").name == "heuristic"
    assert make_player("pimc").worlds == 20 and make_player("pimc:7").worlds == 7
    assert make_player("pimc:3,bid=random").bidder.name == "random"
    player = make_player("random", seed=5)
    view = SeatView.of(_fresh_state(), 3)
    assert player.choose(view) in view.legal_moves()


def _fresh_state():
    state = S.new_state()
    S.random_deal(new_rng(7), state)
    return state
