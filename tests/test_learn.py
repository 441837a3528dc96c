"""The learned auction evaluator: features, the numpy MLP and its numba forward pass, training
reproducible by seed, model files (round trip; damaged, foreign, newer refused in one line),
the correction's targets, and a trained model on a hand whose points are known.

The data here is hand-made in the generator's format, so the training tests need no solver;
`games.setback.play.learn_data.generate` (which solves) is exercised once, by the `learn generate`
CLI test on two deals of the heuristic (the solver's numba compile is shared through numba's cache
with the single-dummy tests)."""

from __future__ import annotations

import numpy as np
import pytest

from search.hand_features import N_FEATURES, encode, encode_rows
from games.setback.play.learn_data import (ROW_FIELDS, add_row, build_targets, save_model,
                                           solver_pairs, train_model)
from games.setback.search.learned_evaluator import (GROUPS, N_CLASSES, OWN_GROUP, LearnedEvaluator,
                                                    ModelFileError, load_model, outcome_class)
from search.mlp import MLP, forward3
from games.setback.search.single_dummy import NONE, OURS, THEIRS, choose_bid
from tests.cli_runner import run_cli

RANKS = {"2": 0, "T": 8, "J": 9, "Q": 10, "K": 11, "A": 12}


def strong_hand(suit: int) -> int:
    """A, K, Q, J, T and 2 of `suit`: every trump that matters; as the bidder leading this
    suit it takes every trick, so High, Low, Jack and Game on any layout (4 points)."""
    return sum(1 << (13 * suit + r) for r in RANKS.values())


def synthetic_data(n: int, seed: int) -> dict:
    """`n` decisions of the first bidder in the generator's format: a quarter strong hands
    (own contracts labelled 4-0, as the solver finds them), the rest random hands with random
    outcomes."""
    rng = np.random.default_rng(seed)
    rows = {k: [] for k in ROW_FIELDS}
    for i in range(n):
        strong = i % 4 == 0
        if strong:
            hand = strong_hand(int(rng.integers(4)))
        else:
            hand = int(sum(1 << int(c) for c in rng.choice(52, 6, replace=False)))
        kind = np.array([NONE, OURS, OURS, OURS], np.int8)
        level = np.array([0, 2, 3, 4], np.int8)
        holder = np.zeros((4, 4), np.int8)
        other = np.zeros((4, 4), np.int8)
        us = np.zeros((4, 4), np.int8)
        them = np.zeros((4, 4), np.int8)
        for o in range(1, 4):
            for t in range(4):
                h = 4 if strong else int(rng.integers(0, 4))
                oth = 0 if strong else int(rng.integers(0, 3 - min(h, 2)))
                made = h >= level[o]
                holder[o, t] = h if made else -1
                other[o, t] = oth
                us[o, t] = h if made else -level[o]
                them[o, t] = oth
        add_row(rows, deal=i, dealer=0, hands=np.array([0, hand, 0, 0], np.int64), hand=hand,
                seat=1, bids=np.full(4, -1, np.int8), legal=np.ones(4, bool), kind=kind,
                level=level, holder=holder, other=other, us=us, them=them)
    out = {k: np.array(v) for k, v in rows.items()}
    out["meta"] = np.array("{}")
    return out


@pytest.fixture(scope="module")
def data():
    return synthetic_data(240, 3)


@pytest.fixture(scope="module")
def trained(data):
    model, meta, _ = train_model(data, "playout", None, (32, 32), 10, 32, 5e-3, 5, 0.0,
                                 progress=False)
    return model, meta


def test_features_put_trump_first_and_other_suits_in_canonical_order():
    x = np.zeros(N_FEATURES)
    y = np.zeros(N_FEATURES)
    bids = np.full(4, -1, np.int64)
    # clubs A-K, diamonds 5, hearts 7-8, spades 9; trump spades
    hand = (1 << 12) | (1 << 11) | (1 << 13 + 3) | (1 << 26 + 5) | (1 << 26 + 6) | (1 << 39 + 7)
    encode(hand, 1, bids, 3, x)
    # the same hand with clubs and hearts swapped: the same features
    swapped = (1 << 26 + 12) | (1 << 26 + 11) | (1 << 13 + 3) | (1 << 5) | (1 << 6) | (1 << 39 + 7)
    encode(swapped, 1, bids, 3, y)
    assert np.array_equal(x, y)
    assert x[7] == 1 and x[:13].sum() == 1  # spades 9 in the trump block
    assert x[53] == 1  # seat 1


def test_only_bids_before_the_seat_are_features():
    x = np.zeros(N_FEATURES)
    # seat 3 bids after 1 and 2, before the dealer 0: the dealer's bid is not a feature
    encode(strong_hand(0), 3, np.array([4, 2, 0, -1], np.int64), 0, x)
    bids = x[56:].reshape(3, 5)
    assert bids[0].argmax() == 0  # the left opponent (seat 0, the dealer): not yet
    assert bids[1].argmax() == 2  # partner seat 1: Two
    assert bids[2].argmax() == 1  # right opponent seat 2: Pass


def test_numba_forward_pass_equals_numpy_reference():
    model = MLP.create(N_FEATURES, (16, 12), GROUPS, N_CLASSES, seed=1)
    rows = encode_rows([strong_hand(2), 0b111111 << 20], [1, 0],
                       [[-1] * 4, [0, 2, 3, 0]], [2, 1]).astype(np.float64)
    out = np.empty((GROUPS, N_CLASSES))
    for row, expected in zip(rows, model.probabilities(rows)):
        w, b = model.weights, model.biases
        forward3(row, w[0], b[0], w[1], b[1], w[2], b[2], GROUPS, N_CLASSES, out)
        assert np.allclose(out, expected, rtol=0, atol=1e-12)
        assert np.allclose(out.sum(axis=1), 1.0)


def test_training_is_reproducible_by_seed(data):
    a, _, ha = train_model(data, "solver", {3: 0.3}, (16, 16), 2, 64, 1e-3, 7, 0.2,
                           progress=False)
    b, _, hb = train_model(data, "solver", {3: 0.3}, (16, 16), 2, 64, 1e-3, 7, 0.2,
                           progress=False)
    c, _, _ = train_model(data, "solver", {3: 0.3}, (16, 16), 2, 64, 1e-3, 8, 0.2,
                          progress=False)
    assert all(np.array_equal(x, y) for x, y in zip(a.parameters(), b.parameters()))
    assert ha == hb
    assert not np.array_equal(a.weights[0], c.weights[0])
    assert ha[-1][0] < ha[0][0] or ha[-1][1] is not None  # it trains and validates


def test_correction_targets_move_one_point_of_a_made_contract():
    kind = np.array([[NONE, OURS, OURS, THEIRS]], np.int8)
    level = np.array([[0, 3, 3, 2]], np.int8)
    holder = np.array([[[0] * 4, [4] * 4, [-1] * 4, [3] * 4]], np.int8)
    other = np.array([[[0] * 4, [0] * 4, [2] * 4, [1] * 4]], np.int8)
    base, shifted, q = solver_pairs(kind, level, holder, other, {2: 0.5, 3: 0.25})
    assert base[0, 0, 0] == outcome_class(0, 0) and q[0, 0, 0] == 0  # all pass
    assert base[0, 1, 0] == outcome_class(4, 0)
    assert shifted[0, 1, 0] == outcome_class(3, 1) and q[0, 1, 0] == 0.25
    assert base[0, 2, 0] == outcome_class(-3, 2) and q[0, 2, 0] == 0  # set: nothing moves
    assert base[0, 3, 0] == outcome_class(1, 3)  # theirs, made at Two
    # one of their 3 points moves to us: 2 still makes Two
    assert shifted[0, 3, 0] == outcome_class(2, 2) and q[0, 3, 0] == 0.5
    x, target, mask, _, _ = build_targets({**synthetic_data(4, 0)}, "solver", {2: 0.5})
    assert np.allclose(target.sum(axis=2), mask)  # soft targets sum to 1 where asked


def test_model_file_round_trip(tmp_path, trained):
    model, meta = trained
    path = str(tmp_path / "m.nn")
    save_model(model, path, meta)
    loaded, loaded_meta = load_model(path)
    assert loaded_meta == meta
    assert all(np.array_equal(x, y) for x, y in zip(model.parameters(), loaded.parameters()))


def test_damaged_foreign_and_newer_model_files_are_refused_in_one_line(tmp_path, trained,
                                                                       capsys):
    model, meta = trained
    path = tmp_path / "m.nn"
    save_model(model, str(path), meta)
    good = path.read_bytes()
    cases = {}
    cases["damaged"] = good[:-10] + bytes(b ^ 1 for b in good[-10:])
    cases["truncated"] = good[:len(good) // 2]
    cases["foreign"] = b"PK\x03\x04 not a model"
    cases["newer"] = good.replace(b'"version": 1', b'"version": 99')
    expected = {"damaged": "damaged", "truncated": "damaged", "foreign": "not a setback-cfr",
                "newer": "newer"}
    for name, content in cases.items():
        bad = tmp_path / f"{name}.nn"
        bad.write_bytes(content)
        with pytest.raises(ModelFileError) as err:
            load_model(str(bad))
        assert expected[name] in str(err.value) and "\n" not in str(err.value)
    status, _, err = run_cli(capsys, ["learn", "evaluate", "--model", tmp_path / "newer.nn",
                                      "--data", tmp_path / "none.npz"])
    assert status == 2 and err.count("\n") == 1 and "newer" in err


def test_trained_model_puts_most_mass_on_four_points_for_a_hand_of_every_trump(trained):
    model, meta = trained
    evaluator = LearnedEvaluator(model, meta)
    hand = strong_hand(2)
    probs = evaluator.distributions(hand, 1, np.full(4, -1), 2)
    four = outcome_class(4, 0)
    for level in (2, 3, 4):
        assert probs[OWN_GROUP[level], four] > 0.6
    values = evaluator.auction_values(hand, 1, np.full(4, -1), [0, 2, 3, 4])
    bid, trump = choose_bid(values, [0, 2, 3, 4])
    # every level takes the 4 points (ties go to the lower bid), in hearts; passing scores 0
    assert bid > 0 and trump == 2 and values[bid - 1, 2] > 2.5 and values[0, 2] < 1
    weak = 1 | 1 << 14 | 1 << 28 | 1 << 41 | 1 << 3 | 1 << 17  # low cards of every suit
    assert evaluator.distributions(weak, 1, np.full(4, -1), 0)[OWN_GROUP[4], four] < 0.3


def test_learn_generate_and_train_cli(tmp_path, capsys):
    data = tmp_path / "d.npz"
    status, out, err = run_cli(capsys, ["learn", "generate", "--deals", "2", "--seed", "4",
                                        "--out", data, "--no-progress"])
    assert status == 0, err
    model = tmp_path / "m.nn"
    argv = ["learn", "train", "--data", data, "--labels", "playout", "--hidden", "8,8",
            "--epochs", "2", "--validation", "0", "--out", model, "--no-progress"]
    assert run_cli(capsys, argv)[0] == 0
    first = model.read_bytes()
    assert run_cli(capsys, argv)[0] == 0
    assert model.read_bytes() == first  # same data and seed: the same file
    status, out, err = run_cli(capsys, ["learn", "evaluate", "--model", model, "--data",
                                        data])
    assert status == 0 and "log-loss" in out
    status, _, err = run_cli(capsys, ["learn", "train", "--data", data, "--hidden", "8",
                                      "--out", model])
    assert status == 2 and "--hidden" in err


def test_generate_without_the_solver_keeps_the_played_out_labels():
    from games.setback.play.learn_data import DataFileError, generate

    both = generate(3, 4, progress=False)
    played = generate(3, 4, progress=False, solver=False)
    for name in ("hand", "seat", "bids", "legal", "us", "them", "kind", "level"):
        assert np.array_equal(both[name], played[name]), name  # who holds it, read off play
    assert (played["holder"] == -9).all() and (both["holder"] != -9).any()
    for a, b in zip(build_targets(both, "playout"), build_targets(played, "playout")):
        assert np.array_equal(a, b)
    with pytest.raises(DataFileError, match="--labels playout"):
        build_targets(played, "solver")
