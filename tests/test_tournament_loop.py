"""The one tournament loop (`play.tournament.run_tournament`), game by game: every registered
game with a tournament plays duplicate games (and hands, where it has them) through it, with
the same rows whatever the workers and the chunks, the two games of a pair on the same deals
with the seats swapped, a stop keeping the units finished, and the results store scoring its
pairs through the game's plug-in."""

from __future__ import annotations

import numpy as np
import pytest

from games import registry
from play.tournament import TournamentGame, run_tournament, tournament_game

GAMES = registry.names(("tournament",))


def players(game: TournamentGame, seed: int = 0):
    """Two players every game knows: its heuristic (A) and random (B)."""
    return game.make_player("heuristic", seed), game.make_player("random", seed)


def test_every_game_with_rules_and_players_has_a_tournament():
    assert GAMES == ("setback", "euchre", "spades")
    for name in GAMES:
        game = tournament_game(name)
        assert isinstance(game, TournamentGame) and game.name == name
        assert game.make_player("random", 1).name == "random"
    with pytest.raises(registry.UnknownGameError, match="unknown game 'chess'"):
        tournament_game("chess")


def unit_modes(name):
    """(game, hands) for each mode the game's tournament has."""
    return [(name, False)] + ([(name, True)] if tournament_game(name).hands else [])


MODES = [mode for name in GAMES for mode in unit_modes(name)]


@pytest.mark.parametrize("name, hands", MODES, ids=[f"{g}-{'hands' if h else 'games'}"
                                                   for g, h in MODES])
def test_duplicate_units_through_the_one_loop_whatever_the_workers(name, hands):
    game = tournament_game(name)
    units = 3 if hands or name != "setback" else 2
    serial = run_tournament(players(game), units, seed=7, duplicate=True, progress=False,
                            game=name, hands=hands)
    assert serial.shape == (2 * units, game.width) and serial.dtype == np.int64
    parallel = run_tournament(players(game), units, seed=7, duplicate=True, workers=2,
                              chunk=2, progress=False, game=name, hands=hands)
    assert np.array_equal(serial, parallel)  # the seed decides, never the workers or chunks
    # a unit is the same whoever plays the units around it: unit 2 alone, and the pairs'
    # first games equal a non-duplicate run
    alone = run_tournament(players(game), [units - 1], seed=7, duplicate=True,
                           progress=False, game=name, hands=hands)
    assert np.array_equal(alone, serial[-2:])
    single = run_tournament(players(game), units, seed=7, progress=False, game=name,
                            hands=hands)
    assert np.array_equal(single, serial[0::2])
    other = run_tournament(players(game), units, seed=8, duplicate=True, progress=False,
                           game=name, hands=hands)
    assert not np.array_equal(other, serial)
    scores = game.pair_scores(serial.reshape(units, 2, game.width))
    assert scores.shape == (units,) and np.all((scores >= 0) & (scores <= 1))


@pytest.mark.parametrize("name", [g for g in GAMES if tournament_game(g).hands])
def test_the_two_hands_of_a_pair_swap_the_seats_on_the_same_cards(name):
    """The same player on both sides: the pair's two hands are one hand seen from the two
    teams, so A's points in the first are B's in the second."""
    game = tournament_game(name)
    same = (game.make_player("heuristic"), game.make_player("heuristic"))
    rows = run_tournament(same, 4, seed=3, duplicate=True, progress=False, game=name,
                          hands=True).reshape(4, 2, game.width)
    a, b = 2, 3  # POINTS_A, POINTS_B of the points rows
    assert np.array_equal(rows[:, 0, a], rows[:, 1, b])
    assert np.array_equal(rows[:, 0, b], rows[:, 1, a])


@pytest.mark.parametrize("name", GAMES)
def test_a_stop_keeps_the_units_finished_and_on_chunk_sees_them_in_order(name):
    game = tournament_game(name)
    asked, seen = [], []

    def stop():
        asked.append(1)
        return len(asked) > 2

    interrupted: list = []
    rows = run_tournament(players(game), 5, seed=2, duplicate=True, progress=False,
                          game=name, stop=stop, interrupted=interrupted,
                          on_chunk=lambda units, r: seen.append((units, r.shape[0])))
    whole = run_tournament(players(game), 2, seed=2, duplicate=True, progress=False,
                           game=name)
    assert interrupted == [True] and np.array_equal(rows, whole)
    assert seen == [([0], 2), ([1], 2)]


def test_a_spec_of_another_game_is_its_games_one_line_error():
    for name in GAMES:
        game = tournament_game(name)
        with pytest.raises(game.spec_error) as caught:
            game.make_player("bogus")
        assert "\n" not in str(caught.value) and "bogus" in str(caught.value)


def test_sigterm_stops_a_tournament_with_workers_and_prints_what_was_played():
    """The command's stop request reaches the loop; the pool's workers, which inherit the
    command's handler, still end when the pool terminates them (they once kept it waiting)."""
    import json
    import os
    import re
    import signal
    import subprocess
    import sys

    code = "import sys; from cli.main import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "tournament", "--game", "spades", "--ew", "heuristic",
         "--ns", "random", "--games", "1000000", "--duplicate", "--workers", "2", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=os.path.dirname(
            os.path.dirname(os.path.abspath(__file__))))
    try:
        seen = b""  # the progress bar, drawn once the stop handler is in place
        while not re.search(rb"[1-9][0-9]*/1000000", seen):  # a chunk of pairs is done
            more = os.read(proc.stderr.fileno(), 4096)
            assert more, "the tournament ended before it was stopped"
            seen += more
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err.decode()[-500:]
    figures = json.loads(out)
    assert figures["units_played"] > 0 and figures["units_played"] % 2 == 0
    assert b"interrupted: the figures below are for the" in err


def test_points_a_hand_interval_is_centred_on_the_printed_figure():
    """Games of unequal length: the interval is the ratio estimator's, around the points over
    the hands that the report prints (a mean of each pair's own ratio is not); with one hand a
    unit it is the plain mean's interval."""
    from play.tournament import POINTS_WIDTH, summarize_points

    rng = np.random.default_rng(3)
    rows = np.zeros((400, POINTS_WIDTH), np.int64)
    rows[:, 1] = rng.integers(4, 20, 400)  # hands a game
    rows[:, 2] = rows[:, 1] * 50 + rng.integers(-200, 400, 400)
    rows[:, 3] = rows[:, 1] * 40
    s = summarize_points(rows, ("A", "B"), duplicate=True, hands=False, seed=0, seconds=1.0)
    assert s.difference_low < s.difference_per_hand < s.difference_high
    assert (s.difference_low + s.difference_high) / 2 == pytest.approx(s.difference_per_hand)
    one = rows.copy()
    one[:, 1] = 1
    diffs = (one[:, 2] - one[:, 3]).reshape(-1, 2).sum(axis=1) / 2.0
    half = 1.959964 * diffs.std(ddof=1) / np.sqrt(diffs.size)
    s = summarize_points(one, ("A", "B"), duplicate=True, hands=True, seed=0, seconds=1.0)
    assert s.difference_low == pytest.approx(diffs.mean() - half, rel=1e-4)
    assert s.difference_high == pytest.approx(diffs.mean() + half, rel=1e-4)
