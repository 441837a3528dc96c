"""Euchre's all-seeing `oracle` (issue 37, part 3): the exact double-dummy solver checked against
a plain brute force over the engine's Python face, the oracle's card its best, the game loops
handing it the true hand, and every place a person plays or a view is all there is refusing it."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest

from cli_runner import run_cli
from games.euchre import state as S
from games.euchre.api import Hand
from games.euchre.rules import legal_moves
from games.euchre.view import SeatView
from games.euchre.match import play_game
from games.euchre.play.tournament import EuchreSpecError, make_euchre_player
from play.tournament import run_tournament
from play.trick_oracle import OracleRefused, TrickOraclePlayer


def _view(hand: Hand) -> SeatView:
    return SeatView.of(hand.state, hand.dealer, (0, 0), [])


def _position(seed: int, cards: int, alone: bool) -> Hand:
    """Hand `seed` bid by the heuristic (the maker alone or not, as `alone` says), then `cards`
    random cards played: a card-play position (or a hand over early, returned as is)."""
    rng = random.Random(seed)
    hand = Hand.random(seed, "WNES"[seed % 4])
    bidder = make_euchre_player("heuristic")
    while int(hand.state[S.PHASE]) != S.PHASE_PLAY:
        if int(hand.state[S.PHASE]) == S.PHASE_ALONE:
            hand.play("alone" if alone else "partner")
        else:
            hand.play(Hand.format_move(bidder.choose(_view(hand))))
    for _ in range(cards):
        hand.play(rng.choice(hand.legal_moves()))
    return hand


def _team(seat: str) -> str:
    return "EW" if seat in "WE" else "NS"


def _brute(hand: Hand, team: str) -> int:
    """The minimax value of `hand` for `team` (its points minus the other's), by trying every
    card through `Hand.play` on copies: no pruning, nothing of the solver's."""
    if hand.is_over:
        points = hand.points()
        return points[team] - points["NS" if team == "EW" else "EW"]
    values = []
    for move in hand.legal_moves():
        child = copy.deepcopy(hand)
        child.play(move)
        values.append(_brute(child, team))
    return max(values) if _team(hand.to_act) == team else min(values)


def _brute_card_values(hand: Hand) -> dict[str, int]:
    team = _team(hand.to_act)
    values = {}
    for move in hand.legal_moves():
        child = copy.deepcopy(hand)
        child.play(move)
        values[move] = _brute(child, team)
    return values


# (cards played before the position, going alone): depths from the last trick's to the
# second's, both partnerships and lone makers
POSITIONS = [(19, False), (18, True), (16, False), (15, False), (14, True), (13, False),
             (12, False), (11, True), (10, False), (9, False), (9, True), (8, False),
             (7, True), (6, True), (5, True), (12, True), (17, False), (10, True),
             (8, True), (7, False)]


def test_the_solver_values_equal_brute_force_and_the_oracle_plays_the_best():
    oracle = make_euchre_player("oracle")
    solver = oracle
    checked = 0
    for index, (cards, alone) in enumerate(POSITIONS):
        if alone:  # a lone maker plays three-handed: fewer cards in the hand
            cards = cards * 3 // 4
        hand = _position(100 + index, cards, alone)
        if hand.is_over:
            continue
        moves, values = solver.card_values(hand.state)
        brute = _brute_card_values(hand)
        assert {Hand.format_move(int(m)): int(v) for m, v in zip(moves, values)} == brute, \
            (index, cards, alone)
        view = _view(hand)
        best = max(brute.values())
        chosen = oracle.choose_seeing_all(hand.state.copy(), view)
        # the first card of the best value, in move order (the legal cards come ascending)
        assert chosen == next(int(m) for m, v in zip(moves, values) if v == best)
        checked += 1
    assert checked >= 18


def test_the_first_lead_is_solved_exactly():
    """The whole tree from the first lead (a lone maker's: fewer seats, so the brute force
    stays short), each card's value against the engine's own minimax."""
    from games.euchre.rules import apply_move
    from games.euchre.scoring import score_difference

    def minimax(state) -> int:  # team 0's side, straight over the engine's arrays
        if int(state[S.PHASE]) == S.PHASE_OVER:
            return int(score_difference(state))
        buf = np.empty(8, dtype=np.int64)
        values = []
        for move in buf[:legal_moves(state, buf)]:
            child = state.copy()
            apply_move(child, int(move))
            values.append(minimax(child))
        return max(values) if int(state[S.TO_ACT]) % 2 == 0 else min(values)

    hand = _position(7, 0, True)
    moves, values = make_euchre_player("oracle").card_values(hand.state)
    sign = 1 if int(hand.state[S.TO_ACT]) % 2 == 0 else -1
    for move, value in zip(moves, values):
        child = hand.state.copy()
        apply_move(child, int(move))
        assert value == sign * minimax(child)


def test_the_spec_names_it_and_its_bidder():
    oracle = make_euchre_player("oracle")
    assert isinstance(oracle, TrickOraclePlayer) and oracle.sees_all is True
    assert oracle.name == "oracle" and type(oracle.bidder).__name__ == "EuchreHeuristicPlayer"
    other = make_euchre_player("Oracle,bid=random", 3)
    assert other.name == "Oracle,bid=random" and type(other.bidder).__name__ == \
        "RandomPlayer"
    for spec, message in (("oracle,bid=oracle", "cannot be an oracle"),
                          ("oracle,bid=", "bid= needs"), ("oracle:5", "expected oracle"),
                          ("oracle,bid=chess", "unknown Euchre player 'chess'")):
        with pytest.raises(EuchreSpecError, match=message) as caught:
            make_euchre_player(spec)
        assert "\n" not in str(caught.value)
    for spec in ("random", "heuristic"):  # no other player declares it
        assert getattr(make_euchre_player(spec), "sees_all", False) is False


def test_it_refuses_to_play_from_a_seats_view():
    hand = _position(3, 4, False)
    with pytest.raises(OracleRefused):
        make_euchre_player("oracle").choose(_view(hand))


def test_it_bids_as_its_bidder_and_plays_a_single_card_unsolved():
    oracle = make_euchre_player("oracle")
    heuristic = make_euchre_player("heuristic")
    hand = Hand.random(11, "S")
    while int(hand.state[S.PHASE]) != S.PHASE_PLAY:
        view = _view(hand)
        move = oracle.choose_seeing_all(hand.state.copy(), view)
        assert move == heuristic.choose(view)
        hand.play(Hand.format_move(move))
    while not hand.is_over:
        view = _view(hand)
        oracle.solver.reset_nodes()
        hand.play(Hand.format_move(oracle.choose_seeing_all(hand.state.copy(), view)))
        if view.legal_moves().size == 1:
            assert oracle.solver.nodes == 0
    with pytest.raises(ValueError, match="card play"):
        oracle.card_values(Hand.random(11, "S").state)


def test_the_game_loops_hand_it_the_true_hand_and_it_wins():
    """The oracle on both sides of one hand scores as the loop says; against the heuristic with
    the heuristic's own bids, the card play alone wins most duplicate games."""
    oracle, heuristic = make_euchre_player("oracle"), make_euchre_player("heuristic")
    points = play_game({s: oracle for s in "WNES"}, 5, "S", max_hands=1).hands[0]["points"]
    assert sum(points.values()) > 0
    rows = run_tournament([oracle, heuristic], 30, seed=3, duplicate=True,
                          progress=False, game="euchre")
    # deterministic: 44 of the 60 games (73.3 %), 550 points to 385 over 665 hands (the
    # heuristic against itself: exactly even on these pairs)
    win_rate = rows[:, 0].mean()
    assert rows.shape[0] == 60 and win_rate > 0.65, win_rate
    assert rows[:, 2].sum() > 1.3 * rows[:, 3].sum()


def test_the_cli_tournament_and_rating_run_it(tmp_path, capsys):
    status, out, err = run_cli(capsys, ["tournament", "--game", "euchre", "--ew", "oracle",
                                        "--ns", "heuristic", "--games", "3", "--duplicate",
                                        "--seed", "2", "--no-progress"])
    assert status == 0, err
    assert "A = oracle" in out
    status, _, err = run_cli(capsys, ["tournament", "--game", "euchre", "--ew",
                                      "oracle,bid=oracle", "--ns", "heuristic", "--games", "1",
                                      "--no-progress"])
    assert status == 2 and "cannot be an oracle" in err and len(err.strip().splitlines()) == 1
    status, out, err = run_cli(capsys, ["rating", "--game", "euchre", "oracle", "heuristic",
                                        "--games", "3", "--store", tmp_path / "ladder.db",
                                        "--seed", "1", "--no-progress"])
    assert status == 0, err
    assert "oracle" in out and "3 pairs played now" in out


def test_serve_and_decide_refuse_it_in_one_line(tmp_path, capsys):
    pytest.importorskip("fastapi")
    from play.player_spec import PlayerSpecError
    from web.game_tables import web_game

    EuchreBots = web_game("euchre").load("bots")  # the game's bots class

    with pytest.raises(PlayerSpecError, match="sees every hand"):
        EuchreBots("oracle,bid=heuristic")
    status, out, err = run_cli(capsys, ["serve", "--game", "euchre", "--bots", "oracle",
                                        "--games", tmp_path / "g.db"])
    assert status == 2 and out == ""
    assert "sees every hand" in err and len(err.strip().splitlines()) == 1
    # decide reads a Euchre position, and refuses the oracle as serve does
    import json

    from games.euchre.table_view import API

    (tmp_path / "p.json").write_text(json.dumps(API["position"]["example"]))
    status, out, err = run_cli(capsys, ["decide", tmp_path / "p.json", "--game", "euchre",
                                        "--bots", "oracle"])
    assert status == 2 and out == ""
    assert "sees every hand" in err and len(err.strip().splitlines()) == 1


def test_the_euchre_moves_it_plays_are_legal_in_lone_hands():
    """Alone hands: a seat sits out, so the solver's trick has three cards."""
    oracle = make_euchre_player("oracle")
    for seed in range(4):
        hand = _position(200 + seed, 0, True)
        assert int(hand.state[S.OUT]) >= 0
        while not hand.is_over:
            move = oracle.choose_seeing_all(hand.state.copy(), _view(hand))
            assert move in [int(m) for m in _view(hand).legal_moves()]
            hand.play(Hand.format_move(move))
