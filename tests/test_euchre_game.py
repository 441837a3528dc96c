"""The game to 10 around Euchre hands: rotation, the target, reproducibility, and the record
of every hand in the replay format."""

from __future__ import annotations

import pytest

from games.euchre.errors import EuchreError
from games.euchre.game import game_winner, next_dealer
from games.euchre.match import play_game, random_player
from games.euchre.replay import replay


def players(seed: int) -> dict:
    """Four independent random players."""
    return {seat: random_player(seed * 10 + i) for i, seat in enumerate("WNES")}


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


def test_players_must_fill_the_table():
    with pytest.raises(EuchreError, match="each of the seats"):
        play_game({"N": random_player(0)}, seed=1)
