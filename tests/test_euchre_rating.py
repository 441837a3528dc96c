"""`setback-cfr rating --game euchre` (the ladder on duplicate Euchre games to 10, its store
of one game) and `setback-cfr simulate --game euchre` (random games and hands), on tiny
counts."""

import json

import numpy as np

from cli_runner import run_cli
from games.euchre.play.tournament import make_euchre_player
from play.tournament import run_tournament
from play.ladder import run_ladder
from play.results_store import ResultsStore


def test_a_tiny_euchre_ladder_rates_the_heuristic_above_random(tmp_path):
    store = ResultsStore(str(tmp_path / "e.db"), "euchre")
    result = run_ladder(["random", "heuristic"], store, 4, seed=3, progress=False,
                        replicates=20)
    assert result.played_pairs == 4 and result.game == "euchre"
    rating = dict(zip([e.spec for e in result.entrants], result.ratings.rating))
    assert rating["heuristic"] > rating["random"] + 200
    # the stored rows are the duplicate tournament's ("heuristic" sorts first: player A)
    rows = [np.frombuffer(r[0], "<i8").reshape(2, -1)
            for r in store.conn.execute("SELECT rows FROM pairs ORDER BY game")]
    expected = run_tournament((make_euchre_player("heuristic", 3),
                               make_euchre_player("random", 3)), 4, seed=3,
                              duplicate=True, progress=False, game="euchre")
    assert np.array_equal(np.concatenate(rows), expected)
    assert store.conn.execute("SELECT DISTINCT rules, max_deals FROM matches").fetchall() == \
        [("euchre-1", 0)]
    # nothing stored is played again
    again = run_ladder(["heuristic", "random"], store, 4, seed=3, progress=False,
                       replicates=20)
    assert again.played_pairs == 0 and np.allclose(again.ratings.rating[::-1],
                                                   result.ratings.rating)
    store.close()


def test_the_euchre_ladder_is_deterministic_whatever_the_workers(tmp_path):
    scores = []
    for workers, chunk in ((1, 10), (2, 1)):
        store = ResultsStore(str(tmp_path / f"w{workers}.db"), "euchre")
        run_ladder(["heuristic", "random"], store, 3, seed=8, workers=workers, chunk=chunk,
                   progress=False, replicates=10)
        scores.append(store.scores(1, 3))
        store.close()
    assert scores[0].size == 3 and np.array_equal(scores[0], scores[1])


def test_a_store_of_one_game_refuses_the_other_in_one_line(tmp_path, capsys):
    euchre, setback = str(tmp_path / "e.db"), str(tmp_path / "s.db")
    status, out, err = run_cli(capsys, ["rating", "--game", "euchre", "random", "heuristic",
                                        "--games", "1", "--store", euchre, "--bootstrap", "5",
                                        "--no-progress", "--json"])
    assert status == 0, err
    assert json.loads(out)["game"] == "euchre"
    ResultsStore(setback).close()  # a Setback store (the default game)
    for store, argv, words in (
            (euchre, [], "a results store of euchre players, not setback"),
            (setback, ["--game", "euchre"], "a results store of setback players, not euchre")):
        status, out, err = run_cli(capsys, ["rating", "random", "heuristic", "--games", "1",
                                            "--store", store, "--no-progress", *argv])
        assert status == 2 and out == "" and err.count("\n") == 1 and words in err, err
    # a Setback player is no Euchre player
    status, out, err = run_cli(capsys, ["rating", "--game", "euchre", "pimc:20", "heuristic",
                                        "--games", "1", "--store", euchre, "--no-progress"])
    assert status == 2 and err.count("\n") == 1 and "unknown Euchre player 'pimc:20'" in err


# --- simulate --game euchre ------------------------------------------------------------------
def simulate(capsys, *argv):
    status, out, err = run_cli(capsys, ["simulate", "--game", "euchre", "--json",
                                        "--no-progress", *argv])
    assert status == 0, err
    return json.loads(out)


def test_simulate_euchre_games_are_random_plays_games_and_deterministic(capsys):
    from games.euchre import random_play

    report = simulate(capsys, "--games", "300", "--seed", "5")
    assert report == {**simulate(capsys, "--games", "300", "--seed", "5"),
                      "seconds": report["seconds"],
                      "games_per_second": report["games_per_second"],
                      "hands_per_second": report["hands_per_second"]}
    # the report reads the engine's own loop of random games (random_play.simulate_games)
    stats = np.zeros(random_play.STAT_SIZE, dtype=np.int64)
    random_play.simulate_games(np.uint64(5), 0, 300, stats)
    assert report["games"] == 300 and report["hands"] == stats[random_play.STAT_HANDS]
    assert report["ew_win_share"] == round(stats[random_play.STAT_EW_WINS] / 300, 5)
    assert report["points_per_game"]["EW"] == round(stats[random_play.STAT_POINTS] / 300, 3)
    # stick the dealer: somebody always names trump, and the shares add up
    assert report["all_pass_share"] == 0.0
    assert abs(report["ordered_round_1_share"] + report["named_round_2_share"] - 1) < 1e-4
    assert abs(sum(report["makers_result_share"].values()) - 1) < 1e-4
    assert report["makers_result_share"]["-2"] > 0.5  # random makers are mostly euchred
    assert 5 < report["hands_per_game"] < 19  # a game to 10 takes 5 hands at the fewest
    assert report != simulate(capsys, "--games", "300", "--seed", "6")


def test_simulate_euchre_hands(capsys):
    report = simulate(capsys, "--games", "2000", "--hands")
    assert report["unit"] == "hands" and report["hands"] == 2000 and "games" not in report
    free = simulate(capsys, "--games", "2000", "--hands", "--no-stick-the-dealer")
    assert free["all_pass_share"] > 0 and report["stuck_dealer_share"] > 0
    status, _, err = run_cli(capsys, ["simulate", "--hands", "--games", "1"])
    assert status == 2 and "--hands is for --game euchre" in err
