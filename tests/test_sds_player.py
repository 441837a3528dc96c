"""The single-dummy bidder `sds[:W][,play=SPEC]` (games/setback/play/sds.py): its spec, a complete
legal game, the pitch it makes, and the same moves from the same seed."""

import numpy as np
import pytest

from games.setback import state as S
from games.setback.cards import parse_hand
from games.setback.rules import BID_MOVE, apply_bid
from games.setback.view import SeatView
from games.setback.play.evaluated_bidder import pitch_card
from games.setback.play.heuristic import HeuristicPlayer
from play.player_spec import PlayerSpecError
from games.scaffold.match import RandomPlayer
from games.setback.play.sds import SdsPlayer, make_sds_player
from games.setback.play.tournament import A_WON, B_WON, WINNER, play_game


def test_spec_parsing():
    assert make_sds_player("sds").worlds == 20
    player = make_sds_player("sds:8,play=random", seed=3)
    assert player.worlds == 8 and isinstance(player.play, RandomPlayer)
    assert isinstance(make_sds_player("sds:5").play, HeuristicPlayer)
    assert make_sds_player("sds:5").score_aware
    expected = make_sds_player("sds:6,expected,play=random")
    assert not expected.score_aware and expected.worlds == 6
    assert isinstance(expected.play, RandomPlayer)
    assert not make_sds_player("sds,expected").score_aware
    for bad in ("sds:0", "sds:x", "sds:", "sds,play=", "sds:4,play=nonsense", "sdx:4",
                "sds:4,worlds=3", "sds:4,expected,x"):
        with pytest.raises(PlayerSpecError) as info:
            make_sds_player(bad)
        assert "\n" not in str(info.value)


class FixedPitch:
    """A play player that always plays the first legal card."""

    name = "first"

    def choose(self, view):
        return int(view.legal_moves()[0])


def pitch_view(tokens):
    """The bidder's view just before the pitch, holding `tokens` (relative seat 1 bid Two)."""
    mine = parse_hand(tokens, 6)
    rest = [c for c in range(52) if not mine >> c & 1]
    hands = np.array([sum(1 << c for c in rest[:6]), mine, sum(1 << c for c in rest[6:12]),
                      sum(1 << c for c in rest[12:18])], dtype=np.int64)
    state = S.new_state()
    S.reset_deal(state, hands)
    for bid in (2, 0, 0, 0):
        apply_bid(state, bid)
    return SeatView.of(state, 3)


def test_pitch_card_is_the_play_players_in_that_suit_else_the_highest():
    view = pitch_view(["2C", "9C", "KC", "3H", "JH", "AS"])
    assert pitch_card(view, 0, FixedPitch()) == parse_hand(["2C"]).bit_length() - 1
    assert pitch_card(view, 2, FixedPitch()) == parse_hand(["JH"]).bit_length() - 1
    with pytest.raises(ValueError):
        pitch_card(view, 1, FixedPitch())


def test_the_bidder_pitches_its_solid_suit():
    player = SdsPlayer(6, seed=1, threads=1)
    view = pitch_view(["AS", "KS", "QS", "JS", "TS", "2C"])
    card = player.choose(view)
    assert card // 13 == 3  # spades
    assert player.decision_times


def test_bids_come_from_the_evaluation():
    player = SdsPlayer(6, seed=2, threads=1, continuation=False)
    hands = np.array([parse_hand(["2C", "3C", "4C", "5C", "6C", "7C"]),
                      parse_hand(["AS", "KS", "QS", "JS", "TS", "9S"]),
                      parse_hand(["2D", "3D", "4D", "5D", "6D", "7D"]),
                      parse_hand(["2H", "3H", "4H", "5H", "6H", "7H"])], dtype=np.int64)
    state = S.new_state()
    S.reset_deal(state, hands)
    # every bid scores 4 with nobody else bidding: the cheapest, Two
    assert player.choose(SeatView.of(state, 3)) == BID_MOVE + 2


def test_plays_complete_legal_games_and_repeats_by_seed():
    rows = []
    for _ in range(2):
        player = make_sds_player("sds:3", seed=0)
        player.evaluator = type(player.evaluator)(0, threads=1)
        rows.append(play_game((player, HeuristicPlayer()), seed=4, game=0, max_deals=60))
    assert rows[0][WINNER] in (A_WON, B_WON)
    assert np.array_equal(rows[0], rows[1])


def test_the_continuation_bids_as_the_heuristic_does():
    from games.rng import new_rng
    from games.setback.play.sds import HeuristicContinuation

    continuation, heuristic = HeuristicContinuation(), HeuristicPlayer()
    for seed in range(60):
        state = S.new_state()
        S.random_deal(new_rng(seed), state)
        score = (seed % 11, (3 * seed) % 12)
        for _ in range(2):  # the second pass answers from the memo
            replay = state.copy()
            while int(replay[S.PHASE]) == S.PHASE_AUCTION:
                bid = continuation.bid(replay, seed % 4, score)
                assert BID_MOVE + bid == heuristic.choose(SeatView.of(replay, seed % 4, score))
                apply_bid(replay, bid)


def test_worlds_agree_with_the_bids_seen():
    from games.rng import new_rng
    from games.setback.play.sds import HeuristicContinuation
    from games.setback.search.single_dummy import SingleDummy

    continuation, heuristic = HeuristicContinuation(), HeuristicPlayer()
    evaluator = SingleDummy(seed=4, threads=1)
    for seed in range(4):
        state = S.new_state()
        S.random_deal(new_rng(500 + seed), state)
        for _ in range(3):
            apply_bid(state, heuristic.choose(SeatView.of(state, 3)) - BID_MOVE)
        view = SeatView.of(state, 3)
        hands = evaluator.consistent_hands(view, 6, continuation)
        assert hands.shape == (6, 4)
        assert (hands[:, 0] == state[S.HAND]).all()  # the dealer's own hand in every world
        for w in range(evaluator.last_consistent):
            replay = S.new_state()
            S.reset_deal(replay, hands[w])
            for seat in (1, 2, 3):
                bid = heuristic.choose(SeatView.of(replay, 3)) - BID_MOVE
                assert bid == state[S.BID + seat]
                apply_bid(replay, bid)
        assert evaluator.last_consistent >= 1


def test_a_hand_the_heuristic_cannot_pitch_is_pitched_and_continued():
    from games.setback.play.sds import HeuristicContinuation

    # no suit is worth anything to the heuristic: it pitches the lowest suit it holds
    view = pitch_view(["5D", "6D", "5H", "7H", "6S", "8S"])  # no club: 0 for every suit
    assert HeuristicPlayer().choose(view) == parse_hand(["6D"]).bit_length() - 1
    assert pitch_card(view, 2, HeuristicPlayer()) == parse_hand(["7H"]).bit_length() - 1
    full = view.state.copy()
    assert HeuristicContinuation().pitch_suit(full, 3, (0, 0)) in (0, 1, 2, 3)
    card = SdsPlayer(4, seed=0, threads=1).choose(view)
    assert card in view.legal_moves()
