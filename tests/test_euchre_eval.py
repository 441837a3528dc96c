"""`train baseline --game euchre --eval-every`: the Euchre run's live table played in duplicate
games to 10 while it trains, rows in eval.csv as Setback's, the live player the one `export`
+ `db load` would build, a bad opponent refused before training (Euchre's and Spades')."""

import sqlite3

import numpy as np
import pytest

from cfr import checkpoint
from cli_runner import run_cli

SEED = 4


def euchre_run(capsys, run, *extra, game="euchre"):
    """A tiny baseline of `game` (es-mccfr, batch 4) with `extra` options."""
    return run_cli(capsys, ["train", "baseline", "--game", game, "--run", str(run),
                            "--seed", str(SEED), "--batch", "4", "--no-progress", *extra])


def test_a_euchre_run_evaluates_while_it_trains_and_plays_its_export(tmp_path, capsys):
    from db.database import StrategyDatabase
    from db.plugin_player import PluginDatabasePlayer
    from games.euchre.play.tournament import make_euchre_player
    from play.tournament import run_tournament
    from games.euchre.train.game import euchre_baseline_stage
    from train.evaluation import EvalOptions, make_evaluation, read_eval_log

    run = tmp_path / "run"
    status, out, err = euchre_run(capsys, run, "--iterations", "40", "--eval-every", "0.00001",
                                  "--eval-games", "1", "--eval-against", "random")
    assert status == 0, err
    assert "eval at " in out and "evaluations" in out
    lines = (run / "eval.csv").read_text().splitlines()
    assert lines[:2] == ["# setback-cfr/eval 1", "iteration,train_cpu_seconds,win_rate,ci_low,"
                         "ci_high,games,eval_cpu_seconds,opponent,infosets"]
    rows = read_eval_log(str(run))
    assert rows and all(r["games"] == 2 and r["opponent"] == "random" and r["iteration"] % 4 == 0
                        and 0 <= r["win_rate"] <= 1 and r["infosets"] > 0 for r in rows)
    status, out, err = run_cli(capsys, ["train", "status", "--run", str(run)])
    assert status == 0 and f"evaluations {len(rows)} (eval.csv)" in out

    # the live player is the database player of the run's export, move for move
    strategy, db = tmp_path / "e.msgpack", tmp_path / "e.db"
    assert run_cli(capsys, ["export", "--run", str(run), "--out", str(strategy)])[0] == 0
    assert run_cli(capsys, ["db", "load", str(strategy), "--db", str(db),
                            "--no-progress"])[0] == 0
    table = checkpoint.load(str(run / "checkpoint.ckpt")).table
    evaluation = make_evaluation(str(run), euchre_baseline_stage(SEED, 4),
                                 EvalOptions(60.0, 1, "heuristic"))
    live, store = evaluation.player(table)
    database = StrategyDatabase(str(db))
    with sqlite3.connect(str(db)) as conn:
        keys = [k for (k,) in conn.execute("SELECT key FROM strategy ORDER BY key LIMIT 300")]
    assert len(keys) == 300
    for key in keys:
        probs, best = database.lookup(key)
        got = store.lookup(key)
        assert got is not None and np.allclose(got[0], probs, atol=1e-6) and got[1] == best, key
    exported = PluginDatabasePlayer(database, game="euchre")
    results = [run_tournament((player, make_euchre_player("heuristic")), 2, seed=9,
                              duplicate=True, progress=False, game="euchre")
               for player in (live, exported)]
    assert np.array_equal(results[0], results[1])
    assert live.counts["found"] == exported.counts["found"] > 0


@pytest.mark.parametrize("game, says", [("euchre", "unknown Euchre player 'pimc:20'"),
                                        ("spades", "'pimc:20': Spades has no pimc player")])
def test_a_bad_opponent_is_refused_before_training(tmp_path, capsys, game, says):
    status, out, err = euchre_run(capsys, tmp_path / "r", "--iterations", "4", "--eval-every",
                                  "1", "--eval-against", "pimc:20", game=game)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert f"--eval-against: {says}" in err
    assert not (tmp_path / "r" / "checkpoint.ckpt").exists()
