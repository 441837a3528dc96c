"""Policy-based inference: a world in which an observed move is illegal gets weight 0; a model
that gives every legal move the same probability weights all consistent worlds equally; the
policy model's probabilities of the legal moves sum to 1; `pimc-pi` with a history makes
legal moves; `setback-cfr inference` prints its table."""

import json
import math

import numpy as np
import pytest
from cli_runner import run_cli

from games.rng import new_rng
from games.setback import state as S
from games.setback.rules import MAX_MOVES, apply_move, legal_moves
from games.setback.view import SeatView
from games.setback.play.policy_model import PolicyModel
from games.setback.search.inference import cards_played_by, log_weight, log_weights, normalized
from games.setback.search.world_search import WorldSearch


def constant_model(state, move, us, them):
    return 0.5


class EmptyStore:
    has_bootstrap = False

    def lookup(self, key):
        return None


def random_history(seed, n_cards):
    """A random deal (someone bids) played at random until `n_cards` cards are down."""
    state = S.new_state()
    S.random_deal(new_rng(seed), state)
    rng = np.random.default_rng(seed)
    buffer = np.empty(MAX_MOVES, np.int64)
    history = []
    while state[S.PHASE] != S.PHASE_OVER and bin(int(state[S.PLAYED])).count("1") < n_cards:
        n = legal_moves(state, buffer)
        move = int(buffer[n - 1] if state[S.PHASE] == S.PHASE_AUCTION and state[S.N_BIDS] == 3
                   and state[S.HIGH_BID] == 0 else buffer[rng.integers(n)])
        apply_move(state, move)
        history.append(move)
    return state, history


def test_illegal_observed_move_gets_weight_zero():
    checked = 0
    for seed in range(200):
        state, history = random_history(seed, 8)
        if state[S.PHASE] != S.PHASE_PLAY:
            continue
        observer = int(state[S.TO_ACT])
        truth = np.array([state[S.HAND + s] for s in range(4)], np.int64)
        played = cards_played_by(history)
        assert math.isfinite(log_weight(truth, played, history, observer, constant_model))
        unseen = ((1 << 52) - 1) & ~int(state[S.PLAYED]) & ~int(truth.sum())
        for other in range(4):
            voids = int(state[S.SHOWN_VOIDS]) >> (4 * other) & 0xF
            if other == observer or not voids or truth[other] == 0:
                continue
            suit = (voids & -voids).bit_length() - 1
            extra = unseen & (0x1FFF << (13 * suit))
            if not extra:
                continue
            world = truth.copy()
            card = int(world[other]) & -int(world[other])
            world[other] = (int(world[other]) & ~card) | (extra & -extra)  # breaks its void
            assert log_weight(world, played, history, observer, constant_model) == -math.inf
            checked += 1
            break
    assert checked >= 10


def test_constant_model_weights_are_equal():
    search = WorldSearch(3)
    for seed in range(20):
        state, history = random_history(100 + seed, 5 + seed % 15)
        if state[S.PHASE] != S.PHASE_PLAY:
            continue
        observer = int(state[S.TO_ACT])
        view = SeatView.of(state, 0, (0, 0), history).state
        hands = search.sample(view, observer, 12)
        log_w = log_weights(hands, history, observer, constant_model)
        assert np.all(np.isfinite(log_w)) and np.ptp(log_w) == 0
        assert np.allclose(normalized(log_w), 1 / 12)


def test_policy_model_probabilities_sum_to_one():
    model = PolicyModel(EmptyStore())
    buffer = np.empty(MAX_MOVES, np.int64)
    for seed in range(40):
        state, _ = random_history(200 + seed, seed % 20)
        if state[S.PHASE] == S.PHASE_OVER:
            continue
        n = legal_moves(state, buffer)
        total = sum(model(state, int(m)) for m in buffer[:n])
        assert total == pytest.approx(1.0)
    assert model.missing > 0


@pytest.fixture(scope="module")
def tiny_db(tmp_path_factory):
    from db.loader import load_strategies
    from games.setback.train.baseline import baseline_stage
    from train.export import export_run
    from train.run_directory import RunDirectory
    from train.runner import Trainer

    root = tmp_path_factory.mktemp("inference")
    run = str(root / "base")
    Trainer(RunDirectory(run), baseline_stage(1, 1, "simultaneous", "cfr"), show_progress=False).run(2)
    export_run(run, str(root / "base.strategy"))
    db = str(root / "s.db")
    load_strategies([str(root / "base.strategy")], db, progress=False)
    return db


def test_inference_command(tiny_db, capsys):
    status, out, err = run_cli(capsys, ["inference", "--policy", f"db:{tiny_db}",
                                        "--positions", "4", "--worlds", "8", "--json"])
    assert status == 0, err
    result = json.loads(out)
    assert result["positions"] == 4
    for belief in ("uniform", "voids", "policy", "bids"):
        row = result["beliefs"][belief]
        assert 0 <= row["accuracy"] <= 1 and row["loglik"] < 0
    # voids can only shrink the layouts: the truth is at least as likely
    assert result["beliefs"]["voids"]["loglik"] >= result["beliefs"]["uniform"]["loglik"]
    assert 1 <= result["ess_mean"] <= 8
    status, out, _ = run_cli(capsys, ["inference", "--policy", f"db:{tiny_db}",
                                      "--positions", "2", "--worlds", "4"])
    assert status == 0 and "effective sample size" in out
    status, _, err = run_cli(capsys, ["inference", "--policy", "heuristic"])
    assert status == 2 and "--policy must be" in err


def test_inference_exact_ceilings(tiny_db, capsys):
    status, out, err = run_cli(capsys, ["inference", "--policy", f"db:{tiny_db}", "--positions",
                                        "3", "--worlds", "4", "--first-trick", "--exact",
                                        "--exact-hits", "5", "--exact-samples", "3000", "--json"])
    assert status == 0, err
    result = json.loads(out)
    for belief in ("exact:auction", "exact:all"):
        row = result["beliefs"][belief]
        assert row["loglik"] < 0 and row["cut_ci95"] >= 0 and 0 <= row["accuracy"] <= 1
    # f <= 1: the exact belief never gives the truth less than the voids belief does
    assert result["beliefs"]["exact:auction"]["loglik"] >= result["beliefs"]["voids"]["loglik"]
    assert result["exact_hits"] == 5 and 0 <= result["exact_limited"] <= 6
    status, out, err = run_cli(capsys, ["inference", "--policy", f"db:{tiny_db}", "--positions",
                                        "2", "--worlds", "4", "--exact", "--exact-hits", "3",
                                        "--exact-samples", "2000"])
    assert status == 0 and "exact:all" in out and "±" in out, err
    status, _, err = run_cli(capsys, ["inference", "--policy", f"db:{tiny_db}", "--exact-hits",
                                      "0"])
    assert status == 2 and "--exact-hits" in err


def test_worlds_solved_on_threads_equal_one_thread():
    one, three = WorldSearch(9, threads=1), WorldSearch(9, threads=3)
    compared = 0
    for seed in range(30):
        state, history = random_history(300 + seed, 4 + seed % 16)
        if state[S.PHASE] != S.PHASE_PLAY:
            continue
        observer = int(state[S.TO_ACT])
        view = SeatView.of(state, observer, (0, 0), history).state
        hands = one.sample(view, observer, 7)  # 7 worlds: uneven shares of 3 threads
        moves_1, values_1 = one.values(view, observer, hands)
        moves_3, values_3 = three.values(view, observer, hands)
        assert np.array_equal(moves_1, moves_3) and np.array_equal(values_1, values_3)
        compared += 1
    assert compared >= 10
