"""Bid tables (`games/setback/play/bid_tables.py`): the compiled count equals a plain-Python recount
of the same deals; every probability is in (0, 1] and each card's locations sum to 1; smoothing
never gives 0; a sequence never seen gets its back-off context's figures (the file, every game's:
tests/test_bid_table_file.py)."""

import numpy as np
import pytest

from games.rng import stream_seed
from games.setback import state as S
from games.setback.rules import BID_MOVE, apply_move
from games.setback.view import SeatView
from games.setback.play.bid_tables import (
    N_CELLS, BidTables, BidTablesError, build_counts, parse_sequence,
    sequence_info, sequence_text, smooth)
from games.setback.play.heuristic import HeuristicPlayer


def python_recount(deals, seed):
    """The tables' counts by plain Python: the heuristic player through its views, the suits
    ordered with `sorted`, the cells counted card by card."""
    pre = np.zeros((256, 4, 4, 13), np.int64)
    pre_deals = np.zeros(256, np.int64)
    post = np.zeros((256, 13, 5, 26), np.int64)
    post_deals = np.zeros((256, 13), np.int64)
    player = HeuristicPlayer()
    for i in range(deals):
        state = S.new_state()
        S.random_deal(np.array([stream_seed(seed, i)], np.uint64), state)
        seq, history = 0, []
        for k in range(4):
            move = player.choose(SeatView.of(state, 0, (0, 0), history))
            seq += {0: 0, 2: 1, 3: 2, 4: 3}[move - BID_MOVE] * 4 ** k
            apply_move(state, move)
            history.append(move)
        hands = [int(state[S.DEALT + s]) for s in range(4)]
        bidder = int(state[S.HIGH_BIDDER])
        ref = max(bidder, 0)
        pre_deals[seq] += 1
        for r in range(4):
            hand = hands[(ref + r) % 4]
            suits = [[c % 13 for c in range(52) if hand >> c & 1 and c // 13 == s]
                     for s in range(4)]
            order = sorted(range(4), key=lambda s: (len(suits[s]), sorted(suits[s], reverse=True)),
                           reverse=True)
            for k, s in enumerate(order):
                for rank in suits[s]:
                    pre[seq, r, k, rank] += 1
        if bidder < 0:
            continue
        pitch = player.choose(SeatView.of(state, 0, (0, 0), history))
        trump, prank = pitch // 13, pitch % 13
        post_deals[seq, prank] += 1
        for card in range(52):
            holder = next((s for s in range(4) if hands[s] >> card & 1), None)
            loc = 4 if holder is None else (holder - bidder) % 4
            post[seq, prank, loc, card % 13 + (0 if card // 13 == trump else 13)] += 1
    return pre, pre_deals, post, post_deals


def test_compiled_count_equals_python_recount():
    compiled = build_counts("heuristic", 400, seed=11)
    reference = python_recount(400, 11)
    for name, got, want in zip(("pre", "pre_deals", "post", "post_deals"), compiled, reference):
        assert np.array_equal(got, want), name
    assert compiled[1].sum() == 400 and compiled[3].sum() > 300


def test_python_player_path_equals_compiled():
    from games.setback.play import bid_tables

    python_path = bid_tables.empty_counts()
    player = HeuristicPlayer()
    for i in range(150):
        bid_tables.count_deal(*bid_tables.play_auction(player, 4, i), *python_path)
    compiled = build_counts("heuristic", 150, seed=4)
    assert all(np.array_equal(a, b) for a, b in zip(python_path, compiled))


def test_workers_do_not_change_counts():
    one = build_counts("heuristic", 900, seed=2, chunk=200)
    two = build_counts("heuristic", 900, seed=2, workers=2, chunk=200)
    assert all(np.array_equal(a, b) for a, b in zip(one, two))
    rnd = build_counts("random", 40, seed=2, chunk=15)
    assert rnd[1].sum() == 40


@pytest.fixture(scope="module")
def tables():
    return BidTables(*build_counts("heuristic", 3000, seed=7), {"prior": 20.0})


def test_probabilities_in_unit_interval_and_locations_sum_to_one(tables):
    for probs in (tables.pre_prob, tables.post_prob):
        assert np.all(probs > 0) and np.all(probs <= 1)
    # every card is at exactly one of the four seats or not dealt
    assert np.allclose(tables.post_prob.sum(axis=2), 1.0, atol=1e-12)
    # seen from a seat that does not hold the card: the other locations share it exactly
    for asker in range(4):
        others = [loc for loc in range(5) if loc != asker]
        hidden = tables.post_prob[:, :, others, :] / (1 - tables.post_prob[:, :, [asker], :])
        assert np.allclose(hidden.sum(axis=2), 1.0, atol=1e-9)
    # the bidder always holds its pitch (trump cell = pitch rank) in a well-counted sequence
    seq = int(np.argmax(tables.post_deals.sum(axis=1)))
    prank = int(np.argmax(tables.post_deals[seq]))
    assert tables.post_prob[seq, prank, 0, prank] > 0.9


def test_smoothing_never_gives_zero():
    counts = build_counts("heuristic", 500, seed=3)
    for prior in (1e-3, 1.0, 50.0):
        pre_prob, post_prob = smooth(*counts, prior=prior)
        assert np.all(pre_prob > 0) and np.all(post_prob > 0)
    # a heuristic bidder never holds a trump above its pitch: count 0, probability still > 0
    seq = int(np.argmax(counts[3].sum(axis=1)))
    assert counts[2][seq, 5, 0, 12] == 0 and post_prob[seq, 5, 0, 12] > 0


def test_never_seen_sequence_falls_back_as_documented(tables):
    k = 20.0
    mult = np.array([1.0] * 13 + [3.0] * 13)
    post, deals = tables.post.astype(float), tables.post_deals.astype(float)
    info = [sequence_info(s) for s in range(256)]
    seq = parse_sequence("P,P,P,4")  # the dealer bids Four: rare with the heuristic

    def smoothed(n, d, parent):
        return (n / mult + k * parent) / (d + k)

    uniform = np.full((5, N_CELLS), 6 / 52)
    uniform[4] = 28 / 52
    root = smoothed(post.sum(axis=(0, 1)), deals.sum(), uniform)
    for prank in range(13):
        pitch = smoothed(post[:, prank].sum(axis=0), deals[:, prank].sum(), root)
        same_bid = [s for s in range(256) if info[s][2] == 4]
        level = smoothed(post[same_bid, prank].sum(axis=0), deals[same_bid, prank].sum(), pitch)
        same_class = [s for s in same_bid if info[s][1] == 0]
        klass = smoothed(post[same_class, prank].sum(axis=0), deals[same_class, prank].sum(),
                         level)
        want = smoothed(post[seq, prank], deals[seq, prank], klass)
        assert np.allclose(tables.post_prob[seq, prank], want, rtol=1e-12)
        if deals[seq, prank] == 0:  # never seen: exactly its class's figures
            assert np.allclose(tables.post_prob[seq, prank], klass, rtol=1e-12)
    never = [s for s in range(256) if info[s][0] and info[s][1] >= 0
             and tables.post_deals[s].sum() == 0]
    assert never, "some legal sequence should be unseen in 3,000 deals"


def test_sequence_text_round_trip():
    for seq in range(256):
        if sequence_info(seq)[0]:
            assert parse_sequence(sequence_text(seq)) == seq
    assert parse_sequence("0,2,p,3") == parse_sequence("P,2,P,3")
    for bad in ("P,2,P", "P,2,P,5", "3,2,P,P", "", "x,y,z,w"):
        with pytest.raises(BidTablesError):
            parse_sequence(bad)
