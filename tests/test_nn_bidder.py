"""The learned bidder `nn:MODEL` (games/setback/play/nn_bidder.py) and the database player's gaps
filled by a bidder (`db:PATH,gaps=BIDDER`, games/setback/play/gap_filled.py): the bid follows the
values it is given, the score-aware value is the win probability, the spec grammar, refused model
files, and the gap filler answering only the fallbacks."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from games.setback import state as S
from games.setback.rules import BID_MOVE, apply_bid
from games.setback.view import SeatView
from games.setback.play.gap_filled import GapFilledPlayer
from games.setback.play.nn_bidder import NnPlayer, make_nn_player, parse_nn_spec
from play.player_spec import PlayerSpecError, make_player
from games.setback.play.learn_data import save_model
from games.setback.search.learned_evaluator import (DIFF, GROUPS, N_CLASSES, OWN_GROUP,
                                                    LearnedEvaluator, class_scores, floor_values,
                                                    outcome_class)
from search.mlp import MLP


class TableEvaluator:
    """An evaluator stub whose option distributions are given: option -> one class, per
    trump."""

    def __init__(self, classes):
        self.classes = classes  # {bid: {trump: class}}

    def auction_values(self, hand, seat, bids, legal_bids, score_aware=False, score=(0, 0),
                       we_deal_next=False, made_floor=0.0):
        real = LearnedEvaluator(MLP.create(1, (1, 1), GROUPS, N_CLASSES, 0))
        worth = real.class_values(score_aware, score, we_deal_next)
        out = np.full((len(legal_bids), 4), -np.inf)
        for i, b in enumerate(legal_bids):
            for t, c in self.classes[b].items():
                out[i, t] = worth[c]
        return out


def first_bidder_view(score=(0, 0)):
    state = S.new_state()
    # seat 1 (first to bid) holds clubs and hearts
    hands = np.array([0b111111 << 13,  # the dealer: diamonds 2-7
                      0b111 | 0b111 << 26,  # seat 1: clubs 2-4, hearts 2-4
                      0b111111 << 39,  # seat 2: spades 2-7
                      0b111 << 3 | 0b111 << 19], np.int64)  # seat 3: clubs 5-7, diamonds 8-T
    S.reset_deal(state, hands)
    return SeatView.of(state, 0, score)


def test_bid_follows_the_expected_scores_it_is_given():
    view = first_bidder_view()
    table = {0: {0: outcome_class(0, 0), 2: outcome_class(0, 0)},
             2: {0: outcome_class(2, 1), 2: outcome_class(3, 0)},
             3: {0: outcome_class(3, 1), 2: outcome_class(-3, 2)},
             4: {0: outcome_class(-4, 2), 2: outcome_class(-4, 1)}}
    player = NnPlayer(TableEvaluator(table), score_aware=False)
    assert player.choose(view) == BID_MOVE + 2  # Two in hearts: +3, the best
    table[3][2] = outcome_class(4, 0)
    assert player.choose(view) == BID_MOVE + 3  # Three now scores +4 in hearts
    table[2][2] = outcome_class(4, 0)
    assert player.choose(view) == BID_MOVE + 2  # a tie goes to the lower bid
    for b in table:
        table[b] = {0: outcome_class(-2, 2), 2: outcome_class(-3, 2)}
    table[0] = {0: outcome_class(0, 0), 2: outcome_class(0, 0)}
    assert player.choose(view) == BID_MOVE + 0  # every bid loses: pass
    assert len(player.decision_times) == 4


def test_score_aware_choice_changes_where_it_must():
    # Two making 2-0 wins a game at 9-0 (our team at 9); Four making 4-0 as well, no better;
    # by expected score Four (+4) beats Two (+2), score-aware both win for sure: the lower
    table = {0: {0: outcome_class(0, 3), 2: outcome_class(0, 3)},
             2: {0: outcome_class(2, 0), 2: outcome_class(2, 0)},
             3: {0: outcome_class(3, 0), 2: outcome_class(3, 0)},
             4: {0: outcome_class(4, 0), 2: outcome_class(4, 0)}}
    view = first_bidder_view(score=(0, 9))  # seat 1, dealer W: seat 1 is N, team NS = 9
    assert view.score_us_them == (9, 0)
    expected = NnPlayer(TableEvaluator(table), score_aware=False)
    aware = NnPlayer(TableEvaluator(table), score_aware=True)
    assert expected.choose(view) == BID_MOVE + 4
    assert aware.choose(view) == BID_MOVE + 2
    # at 0-0 the two agree (more points, more wins)
    level = first_bidder_view()
    assert expected.choose(level) == aware.choose(level) == BID_MOVE + 4


class FloorEvaluator(TableEvaluator):
    """A `TableEvaluator` whose own contracts are made with the probability given
    (`made[bid][trump]`, default 1), floored as `LearnedEvaluator.auction_values` floors."""

    def __init__(self, classes, made):
        super().__init__(classes)
        self.made = made

    def auction_values(self, hand, seat, bids, legal_bids, score_aware=False, score=(0, 0),
                       we_deal_next=False, made_floor=0.0):
        out = super().auction_values(hand, seat, bids, legal_bids, score_aware, score,
                                     we_deal_next)
        made = np.array([[self.made.get(b, {}).get(t, 1.0) for t in range(4)]
                         for b in legal_bids])
        return floor_values(out, made, made_floor) if made_floor > 0.0 else out


def test_the_evaluator_floors_own_contracts_by_their_made_probability():
    """A network's made probabilities, read from its own-contract distributions, floor
    exactly the cells below the floor; pass is never floored, the others keep their value."""
    evaluator = LearnedEvaluator(MLP.create(71, (8, 8), GROUPS, N_CLASSES, 5))
    hand, bids, legal = int(first_bidder_view().state[S.HAND + 1]), np.full(4, -1), [0, 2, 3, 4]
    plain = evaluator.auction_values(hand, 1, bids, legal)
    set_classes = class_scores()[0] < 0
    dropped = kept = 0
    for floor in (0.3, 0.5, 0.7):
        floored = evaluator.auction_values(hand, 1, bids, legal, made_floor=floor)
        assert np.array_equal(floored[0], plain[0])  # pass
        for i, b in enumerate(legal[1:], 1):
            for t in np.flatnonzero(np.isfinite(plain[i])):
                made = 1.0 - evaluator.distributions(hand, 1, bids, t)[OWN_GROUP[b]][
                    set_classes].sum()
                if made < floor:
                    assert floored[i, t] == -np.inf
                    dropped += 1
                else:
                    assert floored[i, t] == plain[i, t]
                    kept += 1
    assert dropped and kept  # the floors chosen cut through this network's probabilities


def test_the_made_floor_drops_the_contracts_below_it_and_nothing_else():
    table = {b: {0: outcome_class(b, 0), 2: outcome_class(b, 0)} for b in (2, 3, 4)}
    table[0] = {0: outcome_class(0, 0), 2: outcome_class(0, 0)}
    made = {4: {0: 0.5, 2: 0.55}, 3: {0: 0.7, 2: 0.9}, 2: {0: 0.95, 2: 0.97}}
    view = first_bidder_view()

    def bid(floor):
        return NnPlayer(FloorEvaluator(table, made), score_aware=False,
                        made_floor=floor).choose(view) - BID_MOVE

    assert bid(0.0) == 4  # no floor: the highest expected score
    assert bid(0.6) == 3  # Four makes at most 55 %: out
    assert bid(0.95) == 2  # Three's best is 90 %: out too
    assert bid(1.0) == 0  # nothing is sure to make: pass, which is never floored
    player = NnPlayer(FloorEvaluator(table, made), score_aware=False, made_floor=0.8)
    values, _ = player.auction_table(view, [0, 2, 3, 4])
    assert np.isinf(values[3]).all() and values[2, 2] > -np.inf and values[2, 0] == -np.inf


def test_spec_grammar_and_refused_model(tmp_path):
    assert parse_nn_spec("nn:m.nn") == ("m.nn", True, None, 0.0)
    assert parse_nn_spec("nn:a/b.nn,expected,play=db:x.db") == ("a/b.nn", False, "db:x.db", 0.0)
    assert parse_nn_spec("nn:m.nn,made=0.6,play=heuristic") == ("m.nn", True, "heuristic", 0.6)
    for bad in ("nn", "nn:", "nn:m.nn,play=", "nnx:m", "nn:m.nn,made=0", "nn:m.nn,made=x",
                "nn:m.nn,made=1.5"):
        with pytest.raises(PlayerSpecError):
            parse_nn_spec(bad)
    foreign = tmp_path / "f.nn"
    foreign.write_bytes(b"hello")
    with pytest.raises(PlayerSpecError, match="not a setback-cfr") as err:
        make_player(f"nn:{foreign}")
    assert "\n" not in str(err.value)
    with pytest.raises(PlayerSpecError, match="no such model"):
        make_player(f"nn:{tmp_path / 'missing.nn'},expected")


def test_nn_player_from_a_model_file_bids_pitches_and_composes(tmp_path):
    path = str(tmp_path / "m.nn")
    save_model(MLP.create(71, (8, 8), GROUPS, N_CLASSES, 3), path, {"labels": "test"})
    player = make_nn_player(f"nn:{path},expected", seed=1)
    assert not player.score_aware and player.name == f"nn:{path},expected"
    view = first_bidder_view()
    move = player.choose(view)
    assert move in view.legal_moves()
    state = view.state.copy()
    apply_bid(state, 2)  # seat 1 bids Two, everyone else passes: seat 1 pitches
    for _ in range(3):
        apply_bid(state, 0)
    pitch_view = SeatView.of(state, 0)
    card = player.choose(pitch_view)
    assert card in pitch_view.legal_moves() and card // 13 in (0, 2)
    assert len(player.decision_times) == 2
    composite = make_player(f"heuristic,bid=nn:{path}")
    assert composite.choose(first_bidder_view()) in view.legal_moves()


class FakeDatabase:
    """A database player stub: falls back on the auction decisions listed in `gaps`."""

    name = "db:fake"

    def __init__(self, gaps):
        self.gaps = gaps
        self.counts = Counter()
        self.calls = 0

    def explain(self, view):
        self.calls += 1
        self.counts["decisions"] += 1
        if self.calls in self.gaps:
            self.counts["missing_auction"] += 1
            self.counts["fallback"] += 1
            return {"reason": "fallback", "move": BID_MOVE + 3}
        return {"reason": "found", "move": BID_MOVE + 0}

    def choose(self, view):
        return int(view.legal_moves()[0])


class Fixed:
    name = "fixed"

    def __init__(self, move):
        self.move = move

    def choose(self, view):
        return self.move


def test_gaps_are_answered_by_the_gap_bidder_only():
    db = FakeDatabase(gaps={2, 3})
    player = GapFilledPlayer(db, Fixed(BID_MOVE + 2))
    view = first_bidder_view()
    moves = [player.choose(view) for _ in range(4)]
    assert moves == [BID_MOVE + 0, BID_MOVE + 2, BID_MOVE + 2, BID_MOVE + 0]
    counts = player.counts
    assert counts["gaps_filled"] == 2 and counts["gaps_changed"] == 2
    assert counts["missing_auction"] == 2 and counts["decisions"] == 4
    # the same bid as the fallback rule: filled but not changed
    same = GapFilledPlayer(FakeDatabase(gaps={1}), Fixed(BID_MOVE + 3))
    same.choose(view)
    assert same.counts["gaps_filled"] == 1 and same.counts["gaps_changed"] == 0


def test_gaps_spec_needs_a_bidder(tmp_path):
    with pytest.raises(PlayerSpecError, match="gaps= needs a bidder"):
        make_player(f"db:{tmp_path / 'x.db'},gaps=")
    assert np.all(DIFF[[outcome_class(3, 1)]] == 2)
