"""`train distill` on Euchre (the stage written once, `train/distill.py`, on Euchre's
declaration `games/euchre/train/distill.py`): `net:` plays only legal Euchre moves from the views
a property test draws, with a probability for each; a Euchre network is refused as Setback's and
a Setback one as Euchre's, in one line; a tiny run resumes bit for bit and gives the same
networks for one and two workers, for each game declaring the stage."""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from cli_runner import run_cli
from games.rng import new_rng
from search.policy_net import NetFileError, PolicyNet, load_net, net_bytes


def _write_net(path, features, seed: int = 3) -> str:
    """An untrained network of `features` (a game's net module) at `path`."""
    net = PolicyNet.create(features.INPUTS, (16, 16), features.OUTPUTS, seed, features.GAME,
                           features.FEATURE_LAYOUT)
    path.write_bytes(net_bytes(net))
    return str(path)


@pytest.fixture(scope="module")
def euchre_net(tmp_path_factory):
    from games.euchre.search import net as features

    return _write_net(tmp_path_factory.mktemp("net") / "euchre.net", features)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), dealer=st.integers(0, 3), ew=st.integers(0, 9),
       ns=st.integers(0, 9), sample=st.booleans(), seats=st.integers(0, 15))
def test_net_plays_only_legal_euchre_moves(euchre_net, seed, dealer, ew, ns, sample, seats):
    """A hand played to its end, the seats in `seats`' bits the network (the others random):
    every move is legal, and the network's probabilities of the legal moves sum to one."""
    from games.euchre import state as S
    from games.euchre.rules import apply_move
    from games.euchre.view import SeatView
    from games.scaffold.match import RandomPlayer
    from play.player_spec import make_player

    net = make_player(f"net:{euchre_net}" + (",sample" if sample else ""), seed, game="euchre")
    other = RandomPlayer(seed)
    state = S.new_state()
    S.random_deal(new_rng(seed), state)
    moves = []
    while state[S.PHASE] != S.PHASE_OVER:
        seat = int(state[S.TO_ACT])
        view = SeatView.of(state, dealer, (ew, ns), moves)
        player = net if seats >> seat & 1 else other
        if player is net and view.legal_moves().size > 1:
            legal, probs = net.policy(view)
            assert np.array_equal(legal, view.legal_moves())
            assert probs.sum() == pytest.approx(1.0) and (probs >= 0).all()
        move = player.choose(view)
        assert move in view.legal_moves(), (player.name, move, view.legal_moves())
        apply_move(state, move)
        moves.append(move)


@pytest.mark.parametrize("belief", ["uniform", "policy"])
def test_search_on_a_euchre_network_is_the_same_on_one_and_two_threads(euchre_net, belief):
    """search[...]:net: rolls Euchre hands out with the network (and, belief=policy, weighs
    the worlds by its probability of the others' moves): the same games for any number of
    threads; another belief is refused in one line."""
    from games.euchre.play.tournament import TOURNAMENT, EuchreSpecError
    from play.player_spec import make_player

    rows = []
    for threads in (1, 2):
        player = make_player(f"search[worlds=4,threads={threads},belief={belief}]"
                             f":net:{euchre_net}", game="euchre")
        rows.append(TOURNAMENT.play_unit((player, make_player("heuristic", game="euchre")), 3,
                                         0, False, False))
        assert player.stats["searched"] > 0
        assert (player.stats["weighted"] > 0) == (belief == "policy")
        player.close()
    assert np.array_equal(rows[0], rows[1])
    with pytest.raises(EuchreSpecError, match="belief=uniform or belief=policy"):
        make_player(f"search[belief=bids]:net:{euchre_net}", game="euchre")


def test_euchre_network_policy_weights_equal_the_players_own_probabilities(euchre_net):
    """belief=policy on a Euchre network: a world's log-weight is the sum of the log-
    probabilities that the `net:` player itself (its `policy` on each acting seat's view, built
    anew from the world's replay) gives the modelled seats' moves; a forced move and the
    dealer's discard (hidden from the others: the world's own) weigh nothing."""
    import math

    from games.euchre import public
    from games.euchre import state as S
    from games.euchre.play.net_player import make_euchre_net_player
    from games.euchre.rules import apply_move
    from games.euchre.search.net import net_policy_log_weights, scratch
    from games.euchre.search.worlds import cards_played_by, consistent_worlds
    from games.euchre.view import SeatView
    from play.search_options import FLOOR
    from test_euchre_search import random_positions

    player = make_euchre_net_player(f"net:{euchre_net}", 0)
    net = player.net
    buffers = scratch(net.hidden).belief_buffers()
    dealer, score = 1, (4, 7)
    checked = 0
    for state, history in random_positions(12, 31)[::4]:
        if not history:
            continue
        view = SeatView.of(state, dealer, score, history)
        seat = view.seat
        worlds = np.zeros((3, S.STATE_SIZE), np.int64)
        consistent_worlds(state, seat, cards_played_by(view), new_rng(2), True, worlds)
        h = np.asarray(view.history, np.int64)
        us, them = view.score_us_them
        scores = np.array([us, them] if seat % 2 == 0 else [them, us], np.int64)
        others = sum(1 << s for s in range(4) if s != seat)
        out = np.zeros(3)
        net_policy_log_weights(worlds, 0, 3, public.replay_public(view.state, h)[0], h, h.size,
                               others, scores, FLOOR, *net.parameters(), *buffers, out)
        for w in range(3):
            replay = S.new_state()
            S.reset_hand(replay, worlds[w, S.DEALT:S.DEALT + 4].copy(), worlds[w, S.UPCARD],
                         worlds[w, S.STICK])
            expected, moves = 0.0, []
            for move in map(int, h):
                if replay[S.PHASE] == S.PHASE_DISCARD:
                    move = int(worlds[w, S.DISCARD]) if move < 0 else move
                elif int(replay[S.TO_ACT]) != seat:
                    acting = SeatView.of(replay, dealer, score, moves)
                    if acting.legal_moves().size >= 2:
                        legal, probs = player.policy(acting)
                        expected += math.log(max(float(probs[list(legal).index(move)]),
                                                 FLOOR))
                apply_move(replay, move)
                moves.append(move)
            assert out[w] == pytest.approx(expected, rel=1e-9, abs=1e-9)
            checked += expected != 0.0
    assert checked >= 10


def test_exploit_plays_local_best_response_against_a_euchre_network(euchre_net, capsys):
    """`exploit --game euchre --against net:FILE`: search on the network with its own
    probabilities as the belief, in duplicate single hands against it."""
    import json

    from cli.main import main

    status = main(["exploit", "--game", "euchre", "--against", f"net:{euchre_net}",
                   "--pairs", "2", "--worlds", "3", "--seed", "3", "--json", "--no-progress"])
    out = json.loads(capsys.readouterr().out)
    assert status == 0 and out["hands"] == 4, out


def test_a_view_without_the_hands_moves_is_refused_in_one_line(euchre_net):
    from games.euchre import state as S
    from games.euchre.rules import apply_move, legal_moves
    from games.euchre.view import SeatView
    from play.player_spec import make_player

    state = S.new_state()
    S.random_deal(new_rng(5), state)
    buffer = np.zeros(8, np.int64)
    legal_moves(state, buffer)
    apply_move(state, int(buffer[0]))  # the first call: the view below drops it
    with pytest.raises(ValueError, match="carries 0 of the 1 made so far"):
        make_player(f"net:{euchre_net}", game="euchre").choose(SeatView.of(state, 0, (0, 0)))


def test_the_web_table_plays_a_euchre_network_and_shows_its_probabilities(tmp_path,
                                                                           euchre_net):
    """`serve --game euchre --bots net:FILE`: the bots play a hand to its end and each
    decision's Why panel is the network's probabilities of the legal moves (they sum to one,
    the move played among them)."""
    pytest.importorskip("fastapi")
    from web_helpers import client, new_game, play_to_the_end, seeded_person

    with client(tmp_path / "g.db", bots=f"net:{euchre_net}", game="euchre") as c:
        game = new_game(c, 9)["game"]
        view, events = play_to_the_end(c, game, seeded_person(9), stop_after=40)
    explained = [e["explain"] for e in events if e["type"] == "move" and e.get("explain")
                 and e["explain"]["reason"] == "network"]
    assert explained and any(e["type"] == "deal_over" for e in events)
    for why in explained:
        assert abs(sum(a["prob"] for a in why["actions"]) - 1) < 1e-5
        assert why["actions"][why["chosen"]]["move"] == why["move"]


@pytest.mark.parametrize("made, reader", [("euchre", "setback"), ("setback", "euchre")])
def test_a_network_of_the_other_game_is_refused_in_one_line(tmp_path, capsys, made, reader):
    import importlib

    made_by = importlib.import_module(f"games.{made}.search.net")
    read_by = importlib.import_module(f"games.{reader}.search.net")
    path = _write_net(tmp_path / "x.net", made_by)
    message = f"a policy network of {made}, not {reader}"
    with pytest.raises(NetFileError, match=message) as caught:
        load_net(path, read_by.GAME, read_by.FEATURE_LAYOUT, read_by.INPUTS, read_by.OUTPUTS)
    assert "\n" not in str(caught.value)
    code, out, err = run_cli(capsys, ["tournament", "--game", reader, "--games", "1",
                                      "--ew", f"net:{path}", "--ns", "heuristic"])
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


# --- the stage, for each game declaring it ----------------------------------------------------
# no gate: round 1's search rolls out with round 0's network
TINY = ["--games", "2", "--chunk", "1", "--imitate", "4", "--searcher", "search[worlds=2]",
        "--hidden", "8x8", "--epochs", "1", "--gate-pairs", "0", "--no-progress"]


@pytest.fixture(scope="module", params=["setback", "euchre"])
def tiny_base(request, tmp_path_factory):
    """(game, a tiny trained baseline run of it)."""
    from cli.main import main

    path = str(tmp_path_factory.mktemp(f"base-{request.param}") / "base")
    assert main(["train", "baseline", "--game", request.param, "--run", path, "--iterations",
                 "200", "--no-progress"]) == 0
    return request.param, path


def _weights(game: str, path: str) -> list:
    import importlib

    f = importlib.import_module(f"games.{game}.search.net")
    return load_net(path, f.GAME, f.FEATURE_LAYOUT, f.INPUTS, f.OUTPUTS).parameters()


def test_a_tiny_run_resumes_bit_for_bit_on_any_workers(tmp_path, capsys, tiny_base):
    """Two rounds straight on one worker, and one round then a resume to two on two workers
    (round 1's search rolling out with round 0's network): the same networks bit for bit; the
    run records its game, and export writes the network."""
    game, base = tiny_base
    straight, resumed = str(tmp_path / "straight"), str(tmp_path / "resumed")
    for run, extra in ((straight, ["--rounds", "2"]), (resumed, ["--rounds", "1"]),
                       (resumed, ["--rounds", "2", "--workers", "2"])):
        code, out, err = run_cli(capsys, ["train", "distill", "--run", run, "--from", base,
                                          *TINY, *extra])
        assert code == 0, err
    for k in range(2):
        name = os.path.join("nets", f"round-{k:05d}.net")
        for x, y in zip(_weights(game, os.path.join(straight, name)),
                        _weights(game, os.path.join(resumed, name))):
            assert np.array_equal(x, y), name
    from train.run_directory import RunDirectory

    assert RunDirectory(straight).read_settings()["settings"]["game"] == game
    f = __import__(f"games.{game}.search.net", fromlist=["GAME"])
    meta = load_net(os.path.join(straight, "nets", "round-00001.net"), f.GAME,
                    f.FEATURE_LAYOUT, f.INPUTS, f.OUTPUTS).meta
    assert meta["teacher"] == "round-00000"  # round 1's rollouts: round 0's network
    out_file = str(tmp_path / "best.net")
    code, out, err = run_cli(capsys, ["export", "--run", straight, "--out", out_file])
    assert code == 0 and "the policy network of round 1," in out, err  # no gate: the newest
    for x, y in zip(_weights(game, out_file),
                    _weights(game, os.path.join(straight, "nets", "round-00001.net"))):
        assert np.array_equal(x, y)
    other = "euchre" if game == "setback" else "setback"
    code, out, err = run_cli(capsys, ["train", "distill", "--run", straight, "--game", other])
    assert code == 2 and f"distills a {game} run, not {other}" in err
