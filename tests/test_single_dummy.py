"""Single-dummy bid evaluation (games/setback/search/single_dummy.py) and the win-probability table
(search/win_probability.py): known positions, the split of solved values into both teams'
points against played-out deals, the bid choice as a pure function of its table, the
score-aware choice where the game is at stake, and determinism by seed."""

import numpy as np
import pytest

from games.rng import new_rng
from games.setback import state as S
from games.setback.cards import parse_hand
from games.setback.rules import apply_card
from games.setback.scoring import deal_points, deal_score
from games.setback.view import SeatView
from games.setback.search.single_dummy import (
    NONE,
    OURS,
    THEIRS,
    Evaluation,
    SingleDummy,
    choose_bid,
    split_value,
)
from games.setback.search.capture_solver import Solver
from search.win_probability import DEAL_OUTCOMES, game_over, win_after, win_now, win_table

SPADES = 3
DEALER = 3  # South deals: relative seat 1 (West) bids first


def auction_view(hand_tokens, seed=0, score=(0, 0)):
    """The first bidder's view of a deal where it holds `hand_tokens` and the other hands are
    dealt from what is left (at random by `seed`)."""
    mine = parse_hand(hand_tokens, 6)
    rest = [c for c in range(52) if not mine >> c & 1]
    rng = np.random.default_rng(seed)
    rng.shuffle(rest)
    hands = np.array([sum(1 << c for c in rest[6 * i:6 * i + 6]) for i in range(3)]
                     + [0], dtype=np.int64)
    hands = np.array([hands[0], mine, hands[1], hands[2]], dtype=np.int64)
    state = S.new_state()
    S.reset_deal(state, hands)
    return SeatView.of(state, DEALER, score)


@pytest.fixture(scope="module")
def evaluator():
    return SingleDummy(seed=7, threads=1)


def test_a_hand_with_every_trump_that_matters_takes_all_four_points(evaluator):
    # the six top spades win every trick whatever the layout: High, Low, Jack and Game
    view = auction_view(["AS", "KS", "QS", "JS", "TS", "9S"])
    ev = evaluator.evaluate_auction(view, 12)
    assert list(ev.bids) == [0, 2, 3, 4]
    assert list(ev.trumps) == [False, False, False, True]
    for i, bid in enumerate(ev.bids):
        if bid == 0:
            assert (ev.kind[i] == NONE).all()  # nobody else bids without a continuation
            continue
        assert (ev.kind[i] == OURS).all()
        assert (ev.holder_points[i, SPADES] == 4).all()
        assert (ev.other_points[i, SPADES] == 0).all()
    scores = ev.expected_scores()
    assert scores[:, SPADES].tolist() == [0.0, 4.0, 4.0, 4.0]
    assert np.isneginf(scores[:, :SPADES]).all()
    # every bid scores 4 when nobody else bids: the tie goes to the cheapest, the Two
    assert choose_bid(scores, ev.bids) == (2, SPADES)
    assert choose_bid(ev.values(score_aware=True), ev.bids) == (2, SPADES)
    assert ev.made_rates()[1:, SPADES].tolist() == [1.0, 1.0, 1.0]
    assert ev.point_distribution(3, SPADES).tolist() == [0, 0, 0, 0, 1, 0]
    assert ev.point_distribution(0, SPADES).tolist() == [0] * 6  # Pass: never the holder


def test_split_value_cases():
    # made 4-0, 3-1, 2-1 with no Jack dealt, 2-2; set at 3 with the defenders on 2
    holder, other = split_value([4, 2, 1, 0, -5], [2, 2, 2, 2, 3], [1, 1, 0, 1, 1])
    assert holder.tolist() == [4, 3, 2, 2, -1]
    assert other.tolist() == [0, 1, 1, 2, 2]


def play_principal_variation(state, solver):
    """Play `state` to its end, each side taking its best card by the solver."""
    while int(state[S.PHASE]) == S.PHASE_PLAY:
        moves, values = solver.move_values(state)
        maximize = int(state[S.TO_ACT]) % 2 == int(state[S.HIGH_BIDDER]) % 2
        apply_card(state, int(moves[np.argmax(values) if maximize else np.argmin(values)]))


def test_split_matches_the_points_of_the_deal_played_out(evaluator):
    solver = Solver(tt_bits=14)
    checked = 0
    for seed in range(4):
        start = S.new_state()
        S.random_deal(new_rng(100 + seed), start)
        hands = np.array([start[S.HAND + s] for s in range(4)], dtype=np.int64)[None, :]
        bidder = seed % 4
        for bid in (2, 4):
            solved = evaluator.solve(hands, np.array([[0, bidder, bid, 0xF]]))[0]
            for suit in range(4):
                if solved[suit] == -100:
                    continue
                jack = bool(np.bitwise_or.reduce(hands[0]) >> (13 * suit + 9) & 1)
                holder, other = split_value(solved[suit], bid, jack)
                # replay: the bidder leads the best card of the suit, then perfect play
                state = start.copy()
                for s in range(4):
                    state[S.BID + s] = 0
                state[S.BID + bidder] = bid
                state[S.N_BIDS] = 4
                state[S.HIGH_BID], state[S.HIGH_BIDDER] = bid, bidder
                state[S.PHASE] = S.PHASE_PLAY
                state[S.TO_ACT] = state[S.LEADER] = bidder
                moves, values = solver.move_values(state)
                leads = [(v, m) for m, v in zip(moves, values) if m // 13 == suit]
                value, lead = max(leads)
                assert value == solved[suit]
                apply_card(state, int(lead))
                play_principal_variation(state, solver)
                team = bidder % 2
                points = deal_points(state)
                mine = sum(p == team for p in points)
                theirs = sum(p == 1 - team for p in points)
                assert other == theirs
                assert holder == (mine if mine >= bid else -1)
                assert deal_score(state)[team] == (mine if mine >= bid else -bid)
                checked += 1
    assert checked >= 12


def test_choose_bid_follows_its_table():
    inf = -np.inf
    values = np.array([[0.0, 0.0, 0.0, 0.0],
                       [0.5, inf, 1.5, 0.2],
                       [1.6, inf, 0.1, 0.0]])
    assert choose_bid(values, [0, 2, 3]) == (3, 0)
    values[1, 2] = 1.7
    assert choose_bid(values, [0, 2, 3]) == (2, 2)
    # a tie goes to the lower bid, Pass first
    assert choose_bid(np.array([[1.0] * 4, [1.0] * 4]), [0, 4])[0] == 0
    assert choose_bid(np.array([[-1.0] * 4, [2.0, 2.0, 3.0, 1.0], [3.0] * 4]),
                      [0, 2, 3]) == (2, 2)
    # a table that is not the one given: the choice follows the numbers, not the bids
    assert choose_bid(np.array([[5.0] * 4, [1.0] * 4]), [0, 4]) == (0, 0)


def two_options(make_rate: float, score, we_deal_next=False, worlds=10):
    """Pass (nobody bids: 0-0) or bid Two, made (2 points to 2) in `make_rate` of the worlds
    and set (the defenders take 4) in the rest."""
    made = int(round(make_rate * worlds))
    holder = np.zeros((2, 4, worlds), np.int64)
    other = np.zeros((2, 4, worlds), np.int64)
    holder[1, :, :made] = 2
    other[1, :, :made] = 2
    holder[1, :, made:] = -1
    other[1, :, made:] = 4
    kind = np.array([[NONE] * worlds, [OURS] * worlds])
    level = np.array([[0] * worlds, [2] * worlds])
    return Evaluation(np.array([0, 2]), kind, level, holder, other,
                      np.array([True, True, True, True]), score, we_deal_next)


def test_score_aware_bids_where_the_bid_wins_the_game_and_nowhere_else():
    # making the Two at 10-9 wins the game (12-11); being set loses it (8-13)
    ev = two_options(0.7, (10, 9))
    assert ev.expected_scores()[1, 0] == pytest.approx(0.7 * 0 + 0.3 * (-2 - 4))
    assert choose_bid(ev.values(score_aware=False), ev.bids)[0] == 0
    assert choose_bid(ev.values(score_aware=True), ev.bids)[0] == 2
    assert ev.win_probabilities()[1, 0] == pytest.approx(0.7)
    # where no outcome of the deal ends the game the two choices agree: pass
    for us in range(-4, 7):
        for them in range(-4, 7):
            for deal in (False, True):
                ev = two_options(0.7, (us, them), deal)
                assert choose_bid(ev.values(score_aware=False), ev.bids)[0] == 0
                assert choose_bid(ev.values(score_aware=True), ev.bids)[0] == 0, (us, them)


def test_score_aware_stops_the_opponents_going_out():
    # at 9-10 the opponents' made Two wins them the game: defending is worth less than a
    # Three that is usually set (expected score says pass, win probability says bid)
    worlds = 10
    holder = np.zeros((2, 4, worlds), np.int64)
    other = np.zeros((2, 4, worlds), np.int64)
    kind = np.array([[THEIRS] * worlds, [OURS] * worlds])
    level = np.array([[2] * worlds, [3] * worlds])
    holder[0], other[0] = 2, 2  # they make 2, we take 2: 11-12
    holder[1, :, :4], other[1, :, :4] = 3, 1  # we make 3: 12-11
    holder[1, :, 4:], other[1, :, 4:] = -1, 2  # set: 6-12
    ev = Evaluation(np.array([0, 3]), kind, level, holder, other, np.ones(4, bool), (9, 10),
                    False)
    assert choose_bid(ev.values(score_aware=False), ev.bids)[0] == 0
    assert choose_bid(ev.values(score_aware=True), ev.bids)[0] == 3


def test_correction_moves_a_point_of_made_contracts_to_the_defenders():
    ev = two_options(1.0, (0, 0), worlds=4)
    ev.holder_points[1, :, :2], ev.other_points[1, :, :2] = 3, 1
    ev.holder_points[1, :, 2:], ev.other_points[1, :, 2:] = 2, 2
    assert ev.expected_scores()[1, 0] == pytest.approx((2 + 2 + 0 + 0) / 4)
    # with q = 0.5, half the weight of 3-1 goes to 2-2 (still made at Two) and half of
    # 2-2 to a set Two (-2 against 3)
    assert ev.expected_scores({2: 0.5})[1, 0] == pytest.approx(
        (2 * (0.5 * 2 + 0.5 * 0) + 2 * (0.5 * 0 + 0.5 * -5)) / 4)
    assert ev.expected_scores({3: 1.0})[1, 0] == pytest.approx(1.0)  # another level
    # a lock (the same points in every world) is not corrected
    ev.holder_points[1, :, :], ev.other_points[1, :, :] = 3, 1
    assert ev.expected_scores({2: 1.0})[1, 0] == pytest.approx(2.0)


def test_win_table_follows_the_rules_of_the_game_end():
    assert game_over(11, 10) == 1 and game_over(10, 11) == 0
    assert game_over(11, 11) == -1 and game_over(12, 13) == 0 and game_over(10, 10) == -1
    table = win_table()
    assert np.all((table >= 0) & (table <= 1))
    # more points never hurt; the two teams' chances add up to one
    assert win_now(5, 3, True) > win_now(3, 3, True) > win_now(3, 5, True)
    for us, them in [(0, 0), (10, 9), (-3, 7)]:
        assert win_now(us, them, True) + win_now(them, us, False) == pytest.approx(1.0)
    assert win_after(10, 9, 2, 2, False) == 1.0 and win_after(10, 9, -2, 4, False) == 0.0
    assert sum(DEAL_OUTCOMES.values()) == 20000


def test_evaluation_is_deterministic_by_seed():
    view = auction_view(["AH", "JH", "3H", "KD", "TC", "4S"], seed=11, score=(4, 6))
    a = SingleDummy(seed=5, threads=1).evaluate_auction(view, 6)
    b = SingleDummy(seed=5, threads=2).evaluate_auction(view, 6)
    c = SingleDummy(seed=6, threads=1).evaluate_auction(view, 6)
    assert np.array_equal(a.holder_points, b.holder_points)
    assert np.array_equal(a.other_points, b.other_points)
    assert np.array_equal(a.values(), b.values())
    assert not np.array_equal(a.holder_points, c.holder_points)


def test_correction_applies_to_the_opponents_contracts_too():
    worlds = 4
    holder = np.full((1, 4, worlds), 3, np.int64)
    other = np.full((1, 4, worlds), 1, np.int64)
    ev = Evaluation(np.array([0]), np.full((1, worlds), THEIRS), np.full((1, worlds), 3),
                    holder, other, np.ones(4, bool), (0, 0), False)
    assert ev.expected_scores()[0, 0] == pytest.approx(1 - 3)
    # their made Three that loses a point is set: -3 for them, 2 for us
    assert ev.expected_scores({3: 0.5})[0, 0] == pytest.approx(0.5 * -2 + 0.5 * (2 + 3))
