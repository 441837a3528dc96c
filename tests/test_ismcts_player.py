"""OpenSpiel's ISMCTS bot as a Setback player (play/ismcts_player.py): its spec, a complete
game to 11 through the tournament's referee (which refuses any illegal move), the same game
again from the same seed, and a view without the deal's moves refused in one line."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pyspiel")

from games.setback import state as S  # noqa: E402
from games.setback.rules import apply_move, legal_moves  # noqa: E402
from games.setback.view import SeatView  # noqa: E402
from games.setback.play.heuristic import HeuristicPlayer  # noqa: E402
from play.ismcts_player import DEFAULT_SIMULATIONS, make_ismcts_player  # noqa: E402
from play.player_spec import PlayerSpecError  # noqa: E402
from games.setback.play.tournament import (  # noqa: E402
    ABANDONED, COLUMNS, DEALS, WINNER, deal_state, play_game)


def test_spec():
    assert make_ismcts_player("ismcts").simulations == DEFAULT_SIMULATIONS
    player = make_ismcts_player("ismcts:7", seed=1)
    assert player.simulations == 7 and player.name == "ismcts:7"
    for bad in ("ismcts:0", "ismcts:x", "ismcts:", "ismcts:-3", "mcts:5"):
        with pytest.raises(PlayerSpecError):
            make_ismcts_player(bad)


def test_plays_a_complete_game_legally():
    row = play_game((make_ismcts_player("ismcts:4"), HeuristicPlayer()), seed=3, game=0)
    assert row[WINNER] != ABANDONED and row[DEALS] >= 2


def test_same_seed_same_play():
    rows = [play_game((make_ismcts_player("ismcts:6"), HeuristicPlayer()), seed=5, game=1,
                      max_deals=2) for _ in range(2)]
    assert np.array_equal(rows[0], rows[1]), dict(zip(COLUMNS, rows[0]))


def test_a_view_without_the_moves_is_refused():
    state = deal_state(7, 0)
    buffer = np.empty(24, np.int64)
    history = []
    while state[S.PHASE] == S.PHASE_AUCTION:
        n = legal_moves(state, buffer)
        history.append(int(buffer[n - 1]))  # bid as high as allowed, so somebody plays
        apply_move(state, history[-1])
    player = make_ismcts_player("ismcts:3")
    assert player.choose(SeatView.of(state, 3, history=history)) in SeatView.of(
        state, 3).legal_moves()
    with pytest.raises(ValueError, match="needs the deal's moves"):
        player.choose(SeatView.of(state, 3))


def test_plays_a_complete_euchre_game_legally():
    from games.euchre.match import RandomPlayer, play_game as play_euchre

    bot = make_ismcts_player("ismcts:4", seed=2, game="euchre")
    players = {"W": bot, "E": bot, "N": RandomPlayer(1), "S": RandomPlayer(2)}
    record = play_euchre(players, seed=4)  # the referee refuses an illegal move
    assert record.winner in ("EW", "NS")
    assert max(record.score.values()) >= 10


def test_match_command_prints_the_win_rate_and_the_time(capsys):
    from play.ismcts_player import main

    assert main(["--sims", "2", "--pairs", "1", "--seed", "4"]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    assert line.startswith("setback ismcts:2 vs heuristic: 2 games (1 duplicate pairs), "
                           "win rate ")
    assert "95% " in line and "ms a decision" in line


def test_euchre_match_command(capsys):
    from play.ismcts_player import main

    assert main(["--game", "euchre", "--sims", "2", "--pairs", "1", "--seed", "3",
                 "--against", "random"]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    assert line.startswith("euchre ismcts:2 vs random: 2 games (1 duplicate pairs), win rate ")
    assert float(line.split("win rate ")[1].split()[0]) in (0.0, 0.5, 1.0)
