"""The all-seeing `oracle` (issue 37): double-dummy card play on the true deal, handed the deal
only by the tournament's game loop, refused everywhere a person plays or a view is all there is."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cli_runner import run_cli
from games.setback import state as S
from games.setback.view import SeatView
from games.setback.play.oracle import OraclePlayer, OracleRefused
from play.player_spec import PlayerSpecError, make_player
from games.setback.play.tournament import A_WON, WINNER, deal_state, play_game


def test_the_spec_names_it_and_its_bidder():
    oracle = make_player("oracle")
    assert isinstance(oracle, OraclePlayer) and oracle.sees_all is True
    assert oracle.name == "oracle" and type(oracle.bidder).__name__ == "HeuristicPlayer"
    other = make_player("oracle,bid=random", 3)
    assert other.name == "oracle,bid=random" and type(other.bidder).__name__ == "RandomPlayer"
    for spec in ("heuristic,bid=oracle", "oracle,bid=oracle", "oracle,bid=", "oracle:5"):
        with pytest.raises(PlayerSpecError):
            make_player(spec)
    # no other player declares it
    for spec in ("random", "heuristic"):
        assert getattr(make_player(spec), "sees_all", False) is False


def test_it_refuses_to_play_from_a_seats_view():
    state = deal_state(1, 0)
    with pytest.raises(OracleRefused):
        make_player("oracle").choose(SeatView.of(state, 0, (0, 0), []))


def test_its_card_is_the_best_on_the_true_deal():
    """At a card decision the oracle plays a card of the greatest exact value for its team,
    which a search seeing the true deal confirms card by card."""
    from games.setback.rules import apply_move
    from games.setback.search.capture_solver import Solver, solve_value

    oracle = make_player("oracle")
    rng = np.random.default_rng(5)
    checked = 0
    for deal in range(6):
        state = deal_state(100, deal)
        while int(state[S.PHASE]) == S.PHASE_AUCTION:
            apply_move(state, int(oracle.choose_seeing_all(state, SeatView.of(state, 0, (0, 0),
                                                                               []))))
        if int(state[S.PHASE]) != S.PHASE_PLAY:
            continue
        for _ in range(int(rng.integers(0, 6))):  # a few cards in
            view = SeatView.of(state, 0, (0, 0), [])
            apply_move(state, int(oracle.choose_seeing_all(state, view)))
        view = SeatView.of(state, 0, (0, 0), [])
        if view.legal_moves().size < 2:
            continue
        move = oracle.choose_seeing_all(state, view)
        solver = Solver()
        values = {}
        team = int(state[S.TO_ACT]) % 2
        sign = 1 if team == int(state[S.HIGH_BIDDER]) % 2 else -1
        for card in view.legal_moves():
            child = state.copy()
            apply_move(child, int(card))
            if int(child[S.PHASE]) != S.PHASE_PLAY:
                continue
            values[int(card)] = sign * solve_value(child, *solver.buffers(),
                                                   solver._moves_out, solver._values_out)
        if len(values) == view.legal_moves().size:
            assert values[move] == max(values.values())
            checked += 1
    assert checked >= 2


def test_the_tournament_hands_it_the_deal_and_it_wins():
    """Two duplicate pairs against the heuristic with the heuristic's own bids: the cards
    alone make the oracle win every game here (deterministic)."""
    players = (make_player("oracle"), make_player("heuristic"))
    rows = [play_game(players, 17, g, swapped) for g in range(2) for swapped in (False, True)]
    assert sum(int(r[WINNER] == A_WON) for r in rows) >= 3


def test_serve_and_decide_refuse_it_in_one_line(tmp_path, capsys):
    pytest.importorskip("fastapi")
    from cli.errors import UserError
    from cli.serve import build_app
    from web.game_tables import web_game

    Bots = web_game("setback").load("bots")  # the game's bots class

    with pytest.raises(PlayerSpecError, match="sees every hand"):
        Bots("oracle,bid=heuristic")
    with pytest.raises(UserError, match="sees every hand"):
        build_app("oracle", str(tmp_path / "games"), 0)
    position = {"dealer": "S", "score": {"EW": 0, "NS": 0},
                "hands": {"W": ["AH", "TS", "6H", "2C", "JD", "QS"]}, "moves": []}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(position))
    status, out, err = run_cli(capsys, ["decide", path, "--bots", "oracle"])
    assert status == 2
    assert "sees every hand" in err and len(err.strip().splitlines()) == 1
