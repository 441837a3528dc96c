"""Using the bid tables: the tables belief respects hand sizes and voids, reduces to the uniform
layout count when every probability is 1, is exact on a tiny case; `pimc:W,tables=FILE` plays
legal moves; `inference --tables` reports the tables beliefs; the `bid-tables` command builds,
shows and draws, and refuses bad input with one line and status 2."""

import itertools
import json
import math
import os

import numpy as np
import pytest
from cli_runner import run_cli

from games.rng import new_rng
from games.setback import state as S
from games.setback.rules import MAX_MOVES, apply_move, legal_moves
from games.setback.view import SeatView
from games.setback.play.bid_tables import BidTables, build_counts, load_belief
from games.setback.search.bid_tables import TablesBelief, applies
from games.setback.search.sampler import log_layouts


def position(seed, n_cards):
    """A random deal with a bidder, played at random until `n_cards` cards are down."""
    state = S.new_state()
    S.random_deal(new_rng(seed), state)
    rng = np.random.default_rng(seed)
    buffer = np.empty(MAX_MOVES, np.int64)
    while state[S.PHASE] != S.PHASE_OVER and bin(int(state[S.PLAYED])).count("1") < n_cards:
        n = legal_moves(state, buffer)
        last_pass = state[S.PHASE] == S.PHASE_AUCTION and state[S.N_BIDS] == 3 \
            and state[S.HIGH_BID] == 0
        apply_move(state, int(buffer[n - 1] if last_pass else buffer[rng.integers(n)]))
    return state


@pytest.fixture(scope="module")
def tables_file(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("tables") / "h.tables")
    tables = BidTables(*build_counts("heuristic", 2000, seed=1),
                       {"prior": 20.0, "deals": 2000, "bidders": "heuristic"})
    tables.save(path)
    return path


def test_all_ones_belief_is_the_uniform_layout_count():
    ones = TablesBelief(np.ones((256, 13, 5, 26)))
    for seed in range(12):
        state = position(seed, 1 + seed % 9)
        if not applies(state):
            continue
        seat = int(state[S.TO_ACT])
        view = SeatView.of(state, 0).state
        truth = [int(state[S.HAND + s]) for s in range(4)]
        for voids in (False, True):
            assert ones.loglik(view, seat, truth, voids) == pytest.approx(
                -float(log_layouts(view, seat, voids)), rel=1e-9)


def test_tables_worlds_respect_hand_sizes_voids_and_the_view(tables_file):
    belief = load_belief(tables_file)
    rng = new_rng(5)
    checked = 0
    for seed in range(40):
        state = position(seed, 9)
        if not applies(state):
            continue
        seat = int(state[S.TO_ACT])
        view = SeatView.of(state, 0).state
        worlds = belief.sample(view, seat, 30, rng)
        unseen = ((1 << 52) - 1) & ~int(view[S.HAND + seat]) & ~int(view[S.PLAYED])
        for row in worlds:
            assert int(row[seat]) == int(state[S.HAND + seat])
            seen = 0
            for other in range(4):
                if other == seat:
                    continue
                hand = int(row[other])
                assert bin(hand).count("1") == bin(int(state[S.HAND + other])).count("1")
                assert hand & ~unseen == 0 and hand & seen == 0
                seen |= hand
                for suit in range(4):
                    if state[S.SHOWN_VOIDS] >> (4 * other + suit) & 1:
                        assert hand >> (13 * suit) & 0x1FFF == 0
        truth = [int(state[S.HAND + s]) for s in range(4)]
        assert math.isfinite(belief.loglik(view, seat, truth))
        checked += 1
    assert checked >= 10


def test_tables_belief_is_exact_on_a_tiny_position():
    """Near the end of a deal few layouts remain: enumerate them, weigh each by the product of
    its cards' probabilities, and compare with the sampler's frequencies and the likelihood."""
    rng_p = np.random.default_rng(0)
    post = rng_p.uniform(0.05, 1.0, (256, 13, 5, 26))
    post /= post.sum(axis=2, keepdims=True)
    belief = TablesBelief(post)
    state = position(3, 21)
    assert applies(state)
    seat = int(state[S.TO_ACT])
    view = SeatView.of(state, 0).state
    others = [(seat + k) % 4 for k in (1, 2, 3)]
    needs = [bin(int(state[S.HAND + o])).count("1") for o in others]
    unseen = [c for c in range(52) if not ((int(view[S.HAND + seat]) | int(view[S.PLAYED])) >> c & 1)]
    bidder, pitch = int(state[S.HIGH_BIDDER]), int(state[S.FIRST_LEAD])
    seq = sum((0 if state[S.BID + (k + 1) % 4] <= 0 else state[S.BID + (k + 1) % 4] - 1) << (2 * k)
              for k in range(4))
    voids = int(state[S.SHOWN_VOIDS])

    def weight(card, j):
        if j < 3 and voids >> (4 * others[j] + card // 13) & 1:
            return 0.0
        loc = 4 if j == 3 else (others[j] - bidder) % 4
        cell = card % 13 + (0 if card // 13 == pitch // 13 else 13)
        return post[seq, pitch % 13, loc, cell]

    layouts = {}
    # the cards the other seats hold are few: choose them from the unseen ones
    total_needed = sum(needs)
    for held in itertools.combinations(unseen, total_needed):
        for split in set(itertools.permutations([0] * needs[0] + [1] * needs[1] + [2] * needs[2])):
            hands = [0, 0, 0]
            w = 1.0
            for card, j in zip(held, split):
                hands[j] |= 1 << card
                w *= weight(card, j)
            for card in unseen:
                if card not in held:
                    w *= weight(card, 3)
            if w > 0:
                layouts[tuple(hands)] = w
    z = sum(layouts.values())
    truth = [int(state[S.HAND + s]) for s in range(4)]
    key = tuple(truth[o] for o in others)
    assert belief.loglik(view, seat, truth) == pytest.approx(math.log(layouts[key] / z), rel=1e-9)
    worlds = belief.sample(view, seat, 4000, new_rng(9))
    drawn = {}
    for row in worlds:
        k = tuple(int(row[o]) for o in others)
        drawn[k] = drawn.get(k, 0) + 1
    assert set(drawn) <= set(layouts)
    for k, w in layouts.items():
        p = w / z
        assert abs(drawn.get(k, 0) / 4000 - p) < 4 * math.sqrt(p * (1 - p) / 4000) + 1e-3


def test_pimc_with_tables_plays_legal_moves(tables_file):
    from play.player_spec import PlayerSpecError, make_player

    player = make_player(f"pimc:4,tables={tables_file}", 3)
    assert player.tables is not None and player.name == f"pimc:4,tables={tables_file}"
    for seed in range(6):
        state = position(100 + seed, 2)
        history = ()
        while state[S.PHASE] == S.PHASE_PLAY and bin(int(state[S.PLAYED])).count("1") < 6:
            view = SeatView.of(state, 0, (0, 0), history)
            move = player.choose(view)
            assert move in view.legal_moves()
            apply_move(state, move)
    for bad in ("pimc:4,tables=", f"pimc:4,tables={tables_file}x", "pimc:4,tables=/"):
        with pytest.raises(PlayerSpecError):
            make_player(bad)


@pytest.fixture(scope="module")
def tiny_db(tmp_path_factory):
    from db.loader import load_strategies
    from games.setback.db.synthetic import write_synthetic_strategy

    root = tmp_path_factory.mktemp("tables-db")
    write_synthetic_strategy(str(root / "s.strategy"), "baseline", 300, seed=5)
    db = str(root / "s.db")
    load_strategies([str(root / "s.strategy")], db, progress=False)
    return db


def test_inference_with_tables(tiny_db, tables_file, capsys):
    status, out, err = run_cli(capsys, ["inference", "--policy", f"db:{tiny_db}", "--positions",
                                        "3", "--worlds", "6", "--tables", tables_file,
                                        "--first-trick", "--json"])
    assert status == 0, err
    result = json.loads(out)
    for belief in ("uniform", "voids", "policy", "tables", "tables+policy"):
        row = result["beliefs"][belief]
        assert 0 <= row["accuracy"] <= 1 and row["loglik"] < 0
    status, out, err = run_cli(capsys, ["inference", "--policy", f"db:{tiny_db}", "--positions",
                                        "1", "--worlds", "2", "--tables", tables_file])
    assert status == 0 and "tables+policy" in out, err
    status, _, err = run_cli(capsys, ["inference", "--policy", f"db:{tiny_db}", "--tables",
                                      tables_file + ".missing"])
    assert status == 2 and len(err.strip().splitlines()) == 1


def test_bid_tables_command(tmp_path, capsys):
    out_path = str(tmp_path / "b.tables")
    status, out, err = run_cli(capsys, ["bid-tables", "--bidders", "heuristic", "--deals", "500",
                                        "--seed", "2", "--out", out_path, "--no-progress"])
    assert status == 0, err
    assert "500 deals" in out and os.path.isfile(out_path)
    png = str(tmp_path / "h.png")
    status, out, err = run_cli(capsys, ["bid-tables", "--show", out_path, "--sequence",
                                        "P,2,P,P", "--png", png])
    assert status == 0, err
    assert "E[trumps]" in out and os.path.getsize(png) > 1000
    status, out, err = run_cli(capsys, ["bid-tables", "--show", out_path, "--json",
                                        "--pitch", "A"])
    result = json.loads(out)
    lengths = [result["seats"][s]["expected_trump_length"] for s in result["seats"]]
    assert sum(lengths) == pytest.approx(13.0)
    truncated = str(tmp_path / "cut.tables")
    with open(out_path, "rb") as src, open(truncated, "wb") as dst:
        dst.write(src.read()[:1000])
    bad_inputs = [
        ["bid-tables", "--show", truncated],
        ["bid-tables", "--show", out_path, "--sequence", "3,2,P,P"],
        ["bid-tables", "--show", out_path, "--sequence", "P,P,P,P"],
        ["bid-tables", "--show", out_path, "--sequence", "nonsense"],
        ["bid-tables", "--show", out_path, "--pitch", "Z"],
        ["bid-tables", "--show", out_path, "--png", str(tmp_path / "x.jpg")],
        ["bid-tables", "--show", str(tmp_path / "none.tables")],
        ["bid-tables", "--bidders", "nobody", "--deals", "5", "--out", out_path],
        ["bid-tables", "--bidders", "heuristic", "--deals", "5"],
        ["bid-tables", "--bidders", "heuristic", "--deals", "5", "--out",
         str(tmp_path / "no" / "dir.tables")],
        ["bid-tables", "--bidders", "heuristic", "--deals", "0", "--out", out_path],
        ["bid-tables", "--sequence", "P,2,P,P", "--bidders", "heuristic", "--deals", "5",
         "--out", out_path],
    ]
    for argv in bad_inputs:
        status, _, err = run_cli(capsys, argv)
        assert status == 2, argv
        assert "error:" in err.strip().splitlines()[-1], argv
        assert "Traceback" not in err
