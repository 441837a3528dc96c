"""The world sampler: every sampled world is consistent with the acting seat's view (a property
test over random histories), and the layouts are uniform (chi-square on a small case whose
layouts are enumerated by brute force)."""

import itertools
import math
from collections import Counter

import numpy as np
from hypothesis import given, settings, strategies as st

from games.rng import new_rng
from games.setback import state as S
from games.setback.rules import MAX_MOVES, apply_move, legal_moves
from games.setback.scoring import deal_points, dealt_cards
from games.setback.view import SeatView
from games.setback.search.sampler import (
    constraints,
    layout_table,
    log_layouts,
    sample_layout,
    sample_worlds,
    world_state,
)


def chi2_critical(df, z=3.09):
    """Wilson-Hilferty approximation of the chi-square quantile (z = 3.09: p = 0.001)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def test_layouts_are_uniform_on_a_small_case():
    cards = [0, 1, 2, 13, 14, 15]  # three clubs, three diamonds
    unseen = np.int64(sum(1 << c for c in cards))
    needs = np.array([1, 2, 1], np.int64)
    voids = np.array([0, 1, 0], np.int64)  # the second seat has shown no clubs
    # every layout by brute force: each card to seat 0, 1, 2 or nobody (3)
    layouts = set()
    for owners in itertools.product(range(4), repeat=len(cards)):
        if [owners.count(i) for i in range(3)] != list(needs):
            continue
        if any(o == 1 and c < 13 for o, c in zip(owners, cards)):
            continue
        layouts.add(tuple(sum(1 << c for o, c in zip(owners, cards) if o == i)
                          for i in range(3)))
    table = layout_table(unseen, needs, voids)
    assert table[0, 1, 2, 1] == len(layouts)
    rng, out, counts = new_rng(11), np.zeros(3, np.int64), Counter()
    draws = 40 * len(layouts)
    for _ in range(draws):
        assert sample_layout(rng, unseen, needs, voids, table, out)
        counts[tuple(int(x) for x in out)] += 1
    assert set(counts) == layouts  # nothing inconsistent, nothing missing
    expected = draws / len(layouts)
    chi2 = sum((counts[k] - expected) ** 2 / expected for k in layouts)
    assert chi2 < chi2_critical(len(layouts) - 1)


def test_no_layout_when_inconsistent():
    unseen = np.int64(0b111)
    needs = np.array([2, 1, 1], np.int64)  # four cards wanted, three unseen
    voids = np.zeros(3, np.int64)
    table = layout_table(unseen, needs, voids)
    assert table[0, 2, 1, 1] == 0
    assert not sample_layout(new_rng(1), unseen, needs, voids, table, np.zeros(3, np.int64))


def random_history(seed, n_moves):
    state = S.new_state()
    S.random_deal(new_rng(seed), state)
    rng = np.random.default_rng(seed)
    buffer = np.empty(MAX_MOVES, np.int64)
    for _ in range(n_moves):
        if state[S.PHASE] == S.PHASE_OVER:
            break
        n = legal_moves(state, buffer)
        move = int(buffer[rng.integers(n)])
        if state[S.PHASE] == S.PHASE_AUCTION and state[S.N_BIDS] == 3 and state[S.HIGH_BID] == 0:
            move = int(buffer[n - 1])  # nobody has bid: the dealer bids, the play happens
        apply_move(state, move)
    return state


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**31), n_moves=st.integers(5, 27), voids=st.booleans())
def test_sampled_worlds_are_consistent(seed, n_moves, voids):
    truth = random_history(seed, n_moves)
    if truth[S.PHASE] != S.PHASE_PLAY:
        return
    seat = int(truth[S.TO_ACT])
    view = SeatView.of(truth, 0).state
    needs, void_bits = np.zeros(3, np.int64), np.zeros(3, np.int64)
    constraints(view, seat, voids, needs, void_bits)
    assert np.isfinite(log_layouts(view, seat, voids))  # the true layout is one of them
    hands = np.zeros((20, 4), np.int64)
    assert sample_worlds(view, seat, new_rng(seed), voids, hands) == 20
    world = S.new_state()
    for row in hands:
        assert row[seat] == truth[S.HAND + seat]
        union = 0
        for s in range(4):
            assert int(row[s]) & union == 0
            assert int(row[s]) & int(truth[S.PLAYED]) == 0
            assert bin(int(row[s])).count("1") == bin(int(truth[S.HAND + s])).count("1")
            union |= int(row[s])
            if voids:
                for suit in range(4):
                    if truth[S.SHOWN_VOIDS] >> (4 * s + suit) & 1:
                        assert (int(row[s]) >> (13 * suit)) & 0x1FFF == 0
        world_state(view, seat, row, world)
        assert bin(int(dealt_cards(world))).count("1") == 24
        assert int(dealt_cards(world)) & int(truth[S.PLAYED]) == int(truth[S.PLAYED])
        trump = int(truth[S.TRUMP])
        if trump >= 0 and truth[S.PLAYED] >> (13 * trump + 12) & 1:
            assert deal_points(world)[0] == deal_points(truth)[0]  # the Ace went: High is known
        for name in ("TO_ACT", "LEADER", "N_IN_TRICK", "TRUMP", "WON", "PLAYED"):
            assert world[getattr(S, name)] == truth[getattr(S, name)]
