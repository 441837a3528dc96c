"""The game to 10 around Euchre hands: rotation, the target, reproducibility, and the record
of every hand in the replay format."""

from __future__ import annotations

import pytest

from games.euchre.errors import EuchreError
from games.euchre.game import game_winner, next_dealer
from games.euchre import state as S
from games.euchre.api import Hand, parse_move
from games.euchre.match import RandomPlayer, play_game
from games.euchre.rules import ALONE_MOVE
from games.euchre.view import HIDDEN, SeatView
from games.euchre.replay import replay


def players(seed: int) -> dict:
    """Four independent random players."""
    return {seat: RandomPlayer(seed * 10 + i) for i, seat in enumerate("WNES")}


def test_game_winner_and_rotation():
    assert game_winner(9, 9) == -1
    assert game_winner(10, 7) == 0 and game_winner(6, 13) == 1
    assert [next_dealer(d) for d in range(4)] == [1, 2, 3, 0]


def test_a_game_to_ten_is_reproducible_and_replays():
    record = play_game(players(1), seed=42)
    again = play_game(players(1), seed=42)
    assert record == again
    assert record.winner in ("NS", "EW")
    loser = "EW" if record.winner == "NS" else "NS"
    assert 10 <= record.score[record.winner] <= 13 and record.score[loser] < 10
    dealers = [h["dealer"] for h in record.hands]
    order = "SWNE"  # South deals first, then clockwise
    assert dealers == [order[i % 4] for i in range(len(dealers))]
    totals = {"NS": 0, "EW": 0}
    for hand in record.hands:
        result = replay(hand)
        assert result["points"] == hand["points"]
        assert sorted(hand["points"].values())[0] == 0
        assert sorted(hand["points"].values())[1] in (1, 2, 4)
        for team in totals:
            totals[team] += result["points"][team]
    assert totals == record.score
    assert play_game(players(1), seed=43).hands[0] != record.hands[0]


def test_players_must_fill_the_table_and_play_legally():
    with pytest.raises(EuchreError, match="each of the seats"):
        play_game({"N": RandomPlayer(0)}, seed=1)

    class Stubborn:
        name = "stubborn"

        def choose(self, view):
            return ALONE_MOVE

    with pytest.raises(EuchreError, match=r"player 'stubborn' \(W\) chose the illegal move 29"):
        play_game({**players(2), "W": Stubborn()}, seed=1)


def test_a_seat_sees_its_own_cards_and_the_dealer_alone_sees_the_discard():
    hand = Hand("N", {"E": ["AS", "KS", "QH", "9C", "TC"], "S": ["JH", "AD", "KD", "9D", "AH"],
                      "W": ["9S", "TS", "QS", "KH", "TH"], "N": ["QD", "TD", "9H", "AC", "KC"]},
                "JD")
    dealer = 1  # N
    history = []

    def play(move):
        history.append(parse_move(move, hand.phase))
        hand.play(move)

    for move in ["P", "D", "9H"]:
        view = SeatView.of(hand.state, dealer, (3, 4), history)
        assert sum(1 for s in range(4) if view.state[S.HAND + s]) == 1
        assert view.state[S.HAND + view.seat] == hand.state[S.HAND + view.seat]
        play(move)
    maker = SeatView.of(hand.state, dealer, (3, 4), history)  # S decides alone or partner
    assert maker.seat == 2 and maker.state[S.DISCARD] == -1 and maker.history[2] == HIDDEN
    assert maker.score_us_them == (4, 3)  # S is NS
    assert list(maker.legal_moves()) == [29, 30]
    for move in ["partner", "AS", "9D", "9S"]:
        play(move)
    dealer_view = SeatView.of(hand.state, dealer, (3, 4), history)  # N follows
    assert dealer_view.seat == 0 and dealer_view.history[2] == history[2]
    assert dealer_view.state[S.DISCARD] == hand.state[S.DISCARD]
