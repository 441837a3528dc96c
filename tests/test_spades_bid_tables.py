"""Spades' bid tables (games/spades/search/bid_tables.py, games/spades/play/bid_data.py, `bid-tables
--game spades`): the tables recover a bid that is the spade count, every distribution sums to one,
the world log-weight is the sum of the table lookups, and the exact uniform yardstick is the
dealing's own distribution (the file, every game's: tests/test_bid_table_file.py)."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

from cli_runner import run_cli
from games.rng import new_rng
from games.spades import state as S
from games.spades.rules import apply_move, legal_moves
from games.spades.play.bid_data import generate, load, save
from games.spades.search.bid_tables import (
    DEFAULT_BELIEF, DEFAULT_SCALE, GROUPS, HAND_GROUPS, N_BIDS, N_CONTEXTS, OFFSET,
    OPPONENT_BUCKETS, PARTNER_BUCKETS, SIZE, TRICKS,
    SpadesBidBelief, SpadesBidTables, heldout_losses, uniform_distribution)


def random_deals(n: int, seed: int) -> np.ndarray:
    """int64[n, 4]: n random deals' hands by seat."""
    rng = np.random.default_rng(seed)
    hands = np.zeros((n, 4), np.int64)
    for i in range(n):
        deck = rng.permutation(52)
        for s in range(4):
            hands[i, s] = sum(1 << int(c) for c in deck[13 * s:13 * s + 13])
    return hands


def spades_of(hand: int) -> int:
    return bin(hand >> 39 & 0x1FFF).count("1")


@pytest.fixture(scope="module")
def synthetic():
    """Tables of 3,000 deals whose every bid is the bidder's spade count, and 300 held out."""
    hands = random_deals(3300, 7)
    bids = np.vectorize(spades_of)(hands)
    tricks = np.full_like(bids, -1)
    tables = SpadesBidTables.count(hands[:3000], bids[:3000], tricks[:3000], {"prior": 5.0})
    return tables, hands[3000:], bids[3000:]


def test_tables_of_a_bid_that_is_the_spade_count_recover_it(synthetic):
    tables, hands, bids = synthetic
    losses = heldout_losses(tables, hands, bids)
    assert losses["predictions"] == 300 * 12
    # the bid names the count: most of the uncertainty goes (the prior keeps a little)
    assert losses["spades"]["cut"] > 0.6, losses["spades"]
    assert losses["spades_joint"]["tables"] <= losses["spades"]["tables"] + 1e-9
    # the first bidder's table puts most of its weight on its bid
    dist = tables.distribution("spades", 0, [], 4)
    assert dist.argmax() == 4 and dist[4] > 0.8


def test_every_distribution_sums_to_one_and_none_is_zero(synthetic):
    tables, _, _ = synthetic
    for g in range(len(GROUPS)):
        cells = slice(OFFSET[g], OFFSET[g] + SIZE[g])
        np.testing.assert_allclose(tables.prob[:, :, cells].sum(axis=-1), 1.0, atol=1e-12)
        np.testing.assert_allclose(tables.ctx_prob[:, cells].sum(axis=-1), 1.0, atol=1e-12)
    assert (tables.prob > 0).all() and (tables.ctx_prob > 0).all()
    # tricks were never counted: the group is uniform everywhere
    np.testing.assert_allclose(tables.prob[..., OFFSET[TRICKS]:], 1.0 / 14)


def test_smoothing_backs_off_down_the_documented_chain(synthetic):
    """(ctx, bid) -> (place, bid) -> bid -> all -> uniform, each group out of its own total,
    written out again for one context and bid (and ctx -> place -> all for ctx_prob)."""
    tables = synthetic[0]
    counts, k = tables.counts.astype(float), 5.0
    ctx, bid, place = 40, 3, 40 // (PARTNER_BUCKETS * OPPONENT_BUCKETS)
    same_place = np.arange(N_CONTEXTS) // (PARTNER_BUCKETS * OPPONENT_BUCKETS) == place
    for g in range(len(GROUPS)):
        cells = slice(OFFSET[g], OFFSET[g] + SIZE[g])

        def step(n, parent):
            return (n + k * parent) / (n.sum() + k)

        p_all = step(counts[:, :, cells].sum(axis=(0, 1)), np.full(SIZE[g], 1.0 / SIZE[g]))
        p_bid = step(counts[:, bid, cells].sum(axis=0), p_all)
        p_place = step(counts[same_place, bid, cells].sum(axis=0), p_bid)
        np.testing.assert_allclose(tables.prob[ctx, bid, cells],
                                   step(counts[ctx, bid, cells], p_place), rtol=1e-12)
        c_place = step(counts[same_place][:, :, cells].sum(axis=(0, 1)), p_all)
        np.testing.assert_allclose(tables.ctx_prob[ctx, cells],
                                   step(counts[ctx, :, cells].sum(axis=0), c_place), rtol=1e-12)


def _by_hand_context(k: int, order) -> int:
    """The context slot as the module docstring defines it, written out again."""
    partner = 0
    if k >= 2:
        b = order[k - 2]
        partner = {0: 1, 1: 2, 2: 2, 3: 3, 4: 4, 5: 5}.get(b, 6)
    opp = 0
    if k >= 1:
        total = order[k - 1] + (order[0] if k == 3 else 0)
        opp = 1 if total <= 2 else 2 if total <= 4 else 3 if total <= 6 else 4
    return k * 35 + partner * 5 + opp


def test_the_world_log_weight_is_the_sum_of_the_table_lookups(synthetic):
    tables = SpadesBidTables(synthetic[0].counts, {})  # a copy: the fixture is shared
    rng = np.random.default_rng(3)
    tables.log_ratio = rng.normal(size=tables.log_ratio.shape)  # any table will do
    state = S.new_state()
    S.random_hand(new_rng(11), state, 0, 0)
    bids = [3, 0, 5, 2]  # by seat relative to the dealer: the dealer's left bids 0 (Nil)
    for k in range(4):
        apply_move(state, 52 + bids[(k + 1) % 4])
    buffer = np.zeros(14, np.int64)
    for _ in range(11):  # a few tricks and a card: the worlds' dealt hands still count
        n = legal_moves(state, buffer)
        apply_move(state, int(buffer[rng.integers(n)]))
    states = np.array([state, state])
    low, high = int(state[S.DEALT + 1] & -state[S.DEALT + 1]), \
        1 << (int(state[S.DEALT + 3]).bit_length() - 1)
    states[1, S.DEALT + 1] ^= low | high  # world 1 swaps seat 1's lowest card for 3's highest
    states[1, S.DEALT + 3] ^= low | high
    observer = 2
    view = SimpleNamespace(state=state, seat=observer)
    got = np.zeros(2)
    SpadesBidBelief(tables)(view, states, got)
    order = [bids[(k + 1) % 4] for k in range(4)]
    everything = SpadesBidBelief(tables, GROUPS[:HAND_GROUPS], 1.0).log_weights(
        states[:, S.DEALT:S.DEALT + 4], bids, observer)
    for w in range(2):
        expected = every = 0.0
        for k in range(4):
            seat = (k + 1) % 4
            if seat == observer:
                continue
            hand = int(states[w, S.DEALT + seat])
            spade_bits = hand >> 39 & 0x1FFF
            side = [hand >> (13 * s) & 0x1FFF for s in range(3)]
            count = bin(spade_bits).count("1")
            honours = 4 * (spade_bits >> 12 & 1) + 2 * (spade_bits >> 11 & 1) \
                + (spade_bits >> 10 & 1)
            values = {"spades": count, "honours": honours,
                      "aces": sum(b >> 12 & 1 for b in side),
                      "kings": sum(b >> 11 & 1 for b in side),
                      "voids": sum(b == 0 for b in side), "spades_honours": 8 * count + honours}
            ctx = _by_hand_context(k, order)
            g = {name: OFFSET[GROUPS.index(name)] for name in values}
            expected += sum(tables.log_ratio[ctx, bids[seat], g[name] + values[name]]
                            for name in DEFAULT_BELIEF)
            every += sum(tables.log_ratio[ctx, bids[seat], g[name] + values[name]]
                         for name in values)
        assert got[w] == pytest.approx(DEFAULT_SCALE * expected, abs=1e-9)
        assert everything[w] == pytest.approx(every, abs=1e-9)
    assert got[0] != got[1]
    # spades alone, and during the bidding (the dealer, seat 0, has not bid): its term goes
    partial = [-1, 0, 5, 2]
    only = SpadesBidBelief(tables, ("spades",), 1.0).log_weights(
        states[:1, S.DEALT:S.DEALT + 4], partial, observer)
    assert only[0] == pytest.approx(sum(
        tables.log_ratio[_by_hand_context(k, order), order[k],
                         spades_of(int(states[0, S.DEALT + (k + 1) % 4]))]
        for k in range(3) if (k + 1) % 4 != observer))
    with pytest.raises(ValueError, match="belief groups"):
        SpadesBidBelief(tables, ("tricks",))


def test_the_uniform_yardstick_is_the_dealing_distribution():
    """Each group's exact distribution against 20,000 random deals of the 39 hidden cards."""
    hands = random_deals(1, 5)
    seen = int(hands[0, 0])
    hidden = [c for c in range(52) if not seen >> c & 1]
    rng = np.random.default_rng(9)
    counts = np.zeros((HAND_GROUPS, SIZE.max()))
    from games.spades.search.bid_tables import hand_features

    feats = np.zeros(len(GROUPS), np.int64)
    trials = 20000
    for _ in range(trials):
        pick = rng.choice(hidden, 13, replace=False)
        hand_features(int(sum(1 << int(c) for c in pick)), feats)
        for g in range(HAND_GROUPS):
            counts[g, feats[g]] += 1
    for g in range(HAND_GROUPS):
        exact = uniform_distribution(g, seen)
        assert exact.sum() == pytest.approx(1.0)
        np.testing.assert_allclose(counts[g, :SIZE[g]] / trials, exact, atol=0.012)
    spades = uniform_distribution(0, seen)
    h = 13 - spades_of(seen)
    assert spades @ np.arange(14) == pytest.approx(13 * h / 39)
    assert spades[0] == pytest.approx(math.comb(39 - h, 13) / math.comb(39, 13))


def test_the_heuristics_deals_do_not_depend_on_the_workers():
    one = generate("heuristic", 4, 0, 12, workers=1)
    two = generate("heuristic", 4, 0, 12, workers=2, chunk=5)
    for key in one:
        np.testing.assert_array_equal(one[key], two[key])
    assert ((one["bids"] >= 0) & (one["bids"] <= 13)).all() and (one["tricks"] == -1).all()
    played = generate("heuristic", 4, 0, 3, tricks=True)
    assert (played["tricks"].sum(axis=1) == 13).all()
    np.testing.assert_array_equal(played["bids"], one["bids"][:3])


def test_the_command_builds_shows_and_refuses_in_one_line(capsys, tmp_path):
    out = str(tmp_path / "t.sbt")
    status, text, err = run_cli(capsys, ["bid-tables", "--game", "spades", "--bidders",
                                         "heuristic,random", "--deals", "40", "--heldout", "10",
                                         "--out", out, "--no-progress"])
    assert status == 0, err
    assert "40 deals bid by heuristic,random" in text and "spades_joint" in text
    tables = load(out)
    assert tables.counts.shape == (N_CONTEXTS, N_BIDS, int(SIZE.sum()))
    assert tables.counts[..., :14].sum() == 160 and tables.meta["players"] == ["heuristic",
                                                                               "random"]
    status, text, _ = run_cli(capsys, ["bid-tables", "--game", "spades", "--show", out,
                                       "--sequence", "3,Nil"])
    assert status == 0 and "bidder 3 of 4 after 3,Nil" in text
    status, text, _ = run_cli(capsys, ["bid-tables", "--game", "spades", "--show", out,
                                       "--json"])
    assert status == 0 and '"place": 1' in text
    for argv, message in (
            (["--show", out], "of the game 'spades', not 'setback'"),  # Setback's reader
            (["--game", "spades", "--show", out, "--sequence", "14"], "up to three bids"),
            (["--game", "spades", "--bidders", "nope", "--deals", "1", "--out", out],
             "unknown Spades player"),
            (["--game", "spades", "--show", out, "--pitch", "A"],
             "--pitch goes with --game setback"),
            (["--bidders", "heuristic", "--deals", "1", "--out", out, "--heldout", "3"],
             "--heldout goes with --game spades"),
            (["--game", "euchre", "--show", out], "bid-tables is setback and spades's only")):
        status, text, err = run_cli(capsys, ["bid-tables", *argv])
        assert status == 2 and text == "" and err.count("\n") == 1 and message in err, err


def test_search_reads_the_tables_as_its_belief(synthetic, tmp_path):
    from games.spades.play.tournament import SpadesSpecError, make_spades_player

    path = str(tmp_path / "t.sbt")
    save(synthetic[0], path)
    player = make_spades_player(f"search[worlds=4,belief=bids:{path},threads=1]:heuristic", 1)
    assert isinstance(player.log_weight, SpadesBidBelief) and player.belief == "bids"
    assert (player.log_weight.tables.counts == synthetic[0].counts).all()
    import msgpack  # a Setback tables file's header is enough to refuse it

    (tmp_path / "setback.tables").write_bytes(msgpack.packb({"magic": "setback-cfr/bid-tables",
                                                             "version": 1}))
    for spec, message in (("search[belief=bids]:heuristic", "belief=bids:FILE"),
                          (f"search[belief=bids:{tmp_path}/setback.tables]:heuristic",
                           "of the game 'setback', not 'spades'")):
        with pytest.raises(SpadesSpecError, match=message) as info:
            make_spades_player(spec, 1)
        assert "\n" not in str(info.value)
