"""`train baseline --game spades --eval-every`: the shared plug-in evaluation
(`train.evaluation.PluginEvaluation`, named by Spades' registry entry) plays the live table in
duplicate games to 500, its win rate the one `tournament --game spades --duplicate` gives the
same players on the same seed (a bad opponent: `test_euchre_eval.py`)."""

import numpy as np

from cfr import checkpoint
from test_euchre_eval import SEED, euchre_run


def test_a_spades_run_evaluates_as_its_duplicate_tournament(tmp_path, capsys):
    from games.spades.play.tournament import make_spades_player
    from games.spades.train.game import spades_baseline_stage
    from play.tournament import WON, pair_interval, run_tournament
    from train.evaluation import EvalOptions, PluginEvaluation, make_evaluation, read_eval_log

    run = tmp_path / "run"
    status, out, err = euchre_run(capsys, run, "--iterations", "8", "--eval-every", "0.00001",
                                  "--eval-games", "1", "--eval-against", "random", game="spades")
    assert status == 0, err
    rows = read_eval_log(str(run))
    assert rows and all(r["games"] == 2 and r["opponent"] == "random" and r["infosets"] > 0
                        for r in rows)

    table = checkpoint.load(str(run / "checkpoint.ckpt")).table
    (tmp_path / "again").mkdir()
    evaluation = make_evaluation(str(tmp_path / "again"), spades_baseline_stage(SEED, 4),
                                 EvalOptions(60.0, 3, "heuristic"), show_progress=False)
    assert isinstance(evaluation, PluginEvaluation)
    row = evaluation.run(table, 8, 1.0)
    live, store = evaluation.player(table)
    games = run_tournament((live, make_spades_player("heuristic")), 3, seed=evaluation.seed,
                           duplicate=True, progress=False, game="spades")
    store.close()
    rate, low, high = pair_interval(games[:, WON].reshape(-1, 2).mean(axis=1))
    assert (row["win_rate"], row["ci_low"], row["ci_high"], row["games"]) == (
        round(rate, 4), round(low, 4), round(high, 4), 6)
    assert live.counts["lookups"] > 0 and np.isfinite(row["infosets"])

