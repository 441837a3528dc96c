"""`setback-cfr replay --game spades`: a worked hand, OpenSpiel's returns for the same moves
(its bonus included), the seat's view, random play through the face, and bad input refused in
one line with exit status 2."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys

import numpy as np
import pytest

from cli_runner import run_cli
from games.spades import state as S
from games.spades.api import Hand, parse_move
from games.spades.cards import parse_card
from games.spades.match import RandomPlayer, play_game
from games.spades.replay import replay as replay_spec
from games.spades.view import SeatView

RANKS = "23456789TJQKA"
# West deals; each seat holds one suit. N (the dealer's left) bids Nil first, E 3, S (all the
# spades) 13, W Nil; S trumps or leads every trick and takes all thirteen.
ONE_SUIT_EACH = {"W": [r + "C" for r in RANKS], "N": [r + "D" for r in RANKS],
                 "E": [r + "H" for r in RANKS], "S": [r + "S" for r in RANKS]}
# N and S bid Nil with nine bags carried, hold every heart and spade and take every trick:
# -387 for the hand, and OpenSpiel's mercy bonus takes 200 more off its returns.
MERCY_HAND = {
    "dealer": "W", "score": {"NS": 9, "EW": 0},
    "hands": {"N": ["8S", "9S", "TS", "JS", "QS", "KS", "AS", "2H", "3H", "4H", "5H", "6H", "7H"],
              "S": ["2S", "3S", "4S", "5S", "6S", "7S", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
              "E": [r + "C" for r in RANKS], "W": [r + "D" for r in RANKS]},
    "moves": ["Nil", "1", "Nil", "1", "7H", "2C", "AH", "2D", "KH", "3D", "6H", "3C", "QH", "4D",
              "5H", "4C", "JH", "5D", "4H", "5C", "TH", "6D", "3H", "6C", "9H", "7D", "2H", "7C",
              "8H", "8D", "AS", "8C", "KS", "9C", "7S", "9D", "QS", "TC", "6S", "TD", "JS", "JC",
              "5S", "JD", "TS", "QC", "4S", "QD", "9S", "KC", "3S", "KD", "8S", "AC", "2S", "AD"],
}


def one_suit_moves() -> list[str]:
    """The bids, then every trick from the low cards up: N leads the first (a diamond), S wins
    it with a spade and leads spades from then on."""
    moves = ["Nil", "3", "13", "Nil", "2D", "2H", "2S", "2C"]
    for rank in RANKS[1:]:
        moves += [rank + "S", rank + "C", rank + "D", rank + "H"]
    return moves


def run_replay(capsys, spec, monkeypatch):
    """Run `replay --game spades -` on `spec` (stdin); return (status, output or None, err)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(spec)))
    status, out, err = run_cli(capsys, ["replay", "--game", "spades", "-"])
    return status, (json.loads(out) if status == 0 else None), err


def test_the_worked_hand(capsys, monkeypatch):
    spec = {"dealer": "W", "hands": ONE_SUIT_EACH, "moves": one_suit_moves()}
    status, result, err = run_replay(capsys, spec, monkeypatch)
    assert status == 0, err
    rows = [(d["seat"], d["phase"], d["legal"], d["move"]) for d in result["decisions"]]
    assert rows[0] == ("N", "bid", ["Nil"] + [str(b) for b in range(1, 14)], "Nil")
    assert rows[2][:2] == ("S", "bid") and rows[2][2][-1] == "13"  # partner's Nil: any bid
    assert rows[3] == ("W", "bid", ["Nil", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"],
                       "Nil")  # partner E bid 3: at most 10
    assert rows[4] == ("N", "lead", ONE_SUIT_EACH["N"], "2D")  # the dealer's left leads
    assert rows[5] == ("E", "follow", ONE_SUIT_EACH["E"], "2H")
    assert rows[8][:2] == ("S", "lead") and rows[8][2] == ONE_SUIT_EACH["S"][1:]
    assert result["tricks"][0] == {"leader": "N", "cards": ["2D", "2H", "2S", "2C"],
                                   "winner": "S"}
    assert len(result["tricks"]) == 13 and result["next"] is None
    assert result["bids"] == {"N": "Nil", "E": "3", "S": "13", "W": "Nil"}
    assert result["tricks_won"] == {"W": 0, "N": 0, "E": 0, "S": 13}
    # NS: Nil made +100, 13 bid and made +130; EW: Nil made +100, 3 bid and set -30
    assert result["points"] == {"NS": 230, "EW": 70}
    assert "score" not in result


def openspiel_returns(spec: dict, pyspiel) -> tuple[list[float], bool]:
    """OpenSpiel's returns (N E S W) and game-over flag for a finished hand dealt by West."""
    state = pyspiel.load_game("spades").new_initial_state()
    score = spec.get("score", {"NS": 0, "EW": 0})
    state.set_current_scores([score["NS"], score["EW"]])
    hands = [[parse_card(c) for c in spec["hands"][seat]] for seat in "NESW"]
    for k in range(52):
        state.apply_action(hands[k % 4][k // 4])
    for k, move in enumerate(spec["moves"]):  # our move numbers are OpenSpiel's actions
        state.apply_action(parse_move(move, "bid" if k < 4 else "lead"))
    assert state.is_terminal()
    return state.returns(), state.is_game_over()


def test_openspiels_mercy_bonus_is_in_the_points(capsys, monkeypatch):
    pyspiel = pytest.importorskip("pyspiel")
    status, result, err = run_replay(capsys, MERCY_HAND, monkeypatch)
    assert status == 0, err
    assert result["tricks_won"] == {"W": 0, "N": 7, "E": 0, "S": 6}
    assert result["points"] == {"NS": -587, "EW": -20}
    assert result["score"] == {"NS": 9 - 387, "EW": -20}  # the game score gains the hand's
    returns, over = openspiel_returns(MERCY_HAND, pyspiel)
    assert returns == [-587, -20, -587, -20] and over


def test_random_hands_replay_to_openspiels_returns(capsys, monkeypatch):
    """Random hands played through the face, replayed, and scored by OpenSpiel too."""
    pyspiel = pytest.importorskip("pyspiel")
    rng = random.Random(5)
    for seed in range(10):
        hand = Hand.random(seed, "W")
        while not hand.is_over:
            hand.play(rng.choice(hand.legal_moves()))
        spec = {"dealer": "W", "hands": {s: Hand.random(seed, "W").hand(s) for s in "WNES"},
                "moves": hand.moves}
        status, result, err = run_replay(capsys, spec, monkeypatch)
        assert status == 0, err
        returns, _ = openspiel_returns(spec, pyspiel)
        assert [result["points"][t] for t in ("NS", "EW", "NS", "EW")] == returns


def test_a_seat_sees_its_own_cards_and_the_public_moves_only():
    hand = Hand.random(3, "E")
    rng = random.Random(3)
    history = []
    while not hand.is_over:
        view = SeatView.of(hand.state, hand.dealer, (10, -20), history)
        seat = view.seat
        assert seat == hand.state[S.TO_ACT]
        hidden = [S.HAND + s for s in range(4) if s != seat] + \
                 [S.DEALT + s for s in range(4) if s != seat]
        differs = np.flatnonzero(view.state != hand.state).tolist()
        assert set(differs) <= set(hidden)  # nothing else is hidden: bids, tricks, scores
        assert all(view.state[i] == 0 for i in hidden)
        assert view.state[S.HAND + seat] == hand.state[S.HAND + seat]
        assert view.legal_moves().tolist() == [parse_move(m, hand.phase)
                                                for m in hand.legal_moves()]
        assert view.history == tuple(history)
        move = int(rng.choice(view.legal_moves()))
        hand.play(hand.format_move(move))
        history.append(move)


def test_random_players_finish_a_game_to_500():
    players = {seat: RandomPlayer(i) for i, seat in enumerate("WNES")}
    record = play_game(players, seed=7)
    assert record.winner in ("EW", "NS")
    ew, ns = record.score["EW"], record.score["NS"]
    assert max(ew, ns) >= 500 or min(ew, ns) <= -350
    total = {"EW": 0, "NS": 0}
    for hand in record.hands:  # every hand replays to its recorded scores
        result = replay_spec({k: hand[k] for k in ("dealer", "hands", "moves", "score")})
        assert result["score"] == {t: hand["score"][t] + hand["scores"][t] for t in total}
        for team in total:
            total[team] += hand["scores"][team]
    assert total == record.score
    assert [h["dealer"] for h in record.hands[:4]] == list("WNES")[:len(record.hands[:4])]


BAD = [
    ({"dealer": "W", "hands": ONE_SUIT_EACH, "moves": ["14"]}, "bad bid '14': expected Nil or "
                                                               "1..13"),
    ({"dealer": "W", "hands": ONE_SUIT_EACH, "moves": ["0"]}, "bad bid '0'"),
    ({"dealer": "W", "hands": ONE_SUIT_EACH, "moves": ["3", "4", "11"]},
     "illegal move 11 for S (bid); legal: Nil 1 2 3 4 5 6 7 8 9 10"),
    ({"dealer": "W", "hands": ONE_SUIT_EACH, "moves": ["3", "4", "5", "6", "AH"]},
     "illegal move AH for N (lead)"),
    ({"dealer": "W", "hands": {**ONE_SUIT_EACH, "W": ["2D"] + ONE_SUIT_EACH["W"][1:]},
      "moves": []}, "duplicate card 2D"),
    ({"dealer": "W", "hands": {**ONE_SUIT_EACH, "W": ONE_SUIT_EACH["W"][1:]}, "moves": []},
     "hand W: a hand must hold 13 cards, got 12"),
    ({"dealer": "X", "hands": ONE_SUIT_EACH, "moves": []}, "bad seat 'X'"),
    ({"dealer": "W", "hands": ONE_SUIT_EACH, "moves": [], "score": {"NS": 1}}, '"score" must'),
    ({"dealer": "W", "hands": ONE_SUIT_EACH, "moves": ["ZZ"]}, "bad bid 'ZZ'"),
    ({"dealer": "W", "hands": ONE_SUIT_EACH, "moves": ["3", "4", "5", "6", "1D"]}, "bad card"),
    ({"dealer": "W", "hands": ONE_SUIT_EACH, "moves": one_suit_moves() + ["2C"]},
     "the hand is already over"),
    ({"dealer": "W", "hands": [], "moves": []}, "'hands' must map seats"),
]


@pytest.mark.parametrize("spec, message", BAD, ids=[m for _, m in BAD])
def test_bad_input_is_refused_in_one_line(capsys, monkeypatch, spec, message):
    status, result, err = run_replay(capsys, spec, monkeypatch)
    assert status == 2 and result is None
    assert err.count("\n") == 1 and message in err, err


def test_the_command_exits_with_status_2():
    spec = {"dealer": "W", "hands": ONE_SUIT_EACH, "moves": ["Nil", "Nil", "Nil", "Nil", "2S"]}
    proc = subprocess.run([sys.executable, "-m", "cli.main", "replay", "--game", "spades", "-"],
                          input=json.dumps(spec), capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "illegal move 2S for N (lead)" in proc.stderr
