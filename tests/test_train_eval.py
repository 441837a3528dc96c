"""Strength while training (`train --eval-every`) and the training-time budget (`--for`):
evaluation leaves the table bit for bit as it is, a resumed evaluated run equals one never
evaluated, the live player plays what `export` + `db load` would, the evaluation's CPU is not
training time, `--for` stops on its budget and resumes to it, bad values are one line."""

import argparse
import json
import os
import time
from types import SimpleNamespace

import numpy as np
import pytest

from cfr import checkpoint
from cli_runner import run_cli

SEED = 2


def cli(capsys, *argv):
    return run_cli(capsys, argv)


def es_baseline(capsys, run, *extra):
    """`train baseline` (es-mccfr, batch 4: deals of milliseconds) with `extra` options."""
    return cli(capsys, "train", "baseline", "--run", str(run), "--seed", str(SEED),
               "--batch", "4", "--no-progress", *extra)


def same_run(a, b):
    ca = checkpoint.load(os.path.join(a, "checkpoint.ckpt"))
    cb = checkpoint.load(os.path.join(b, "checkpoint.ckpt"))
    return (ca.iteration == cb.iteration and ca.table.same_contents(cb.table)
            and ca.extra["payoff_sum"] == cb.extra["payoff_sum"])


EVAL = ("--eval-every", "0.00001", "--eval-games", "2", "--eval-against", "random")


def test_a_resumed_evaluated_run_equals_one_never_evaluated(tmp_path, capsys):
    evaluated, plain = tmp_path / "evaluated", tmp_path / "plain"
    status, out, err = es_baseline(capsys, evaluated, "--iterations", "24", *EVAL)
    assert status == 0, err
    assert "eval at " in out and "evaluations" in out
    status, out, err = es_baseline(capsys, evaluated, "--iterations", "48", *EVAL)
    assert status == 0, err
    assert es_baseline(capsys, plain, "--iterations", "48")[0] == 0
    assert same_run(str(evaluated), str(plain))
    assert not (plain / "eval.csv").exists()

    lines = (evaluated / "eval.csv").read_text().splitlines()
    assert lines[0] == "# setback-cfr/eval 1"
    assert lines[1] == ("iteration,train_cpu_seconds,win_rate,ci_low,ci_high,games,"
                        "eval_cpu_seconds,opponent,infosets")
    from train.evaluation import read_eval_log

    rows = read_eval_log(str(evaluated))
    assert len(rows) >= 4  # a grid point of 0.6 ms: nearly every batch of both invocations
    assert all(r["iteration"] % 4 == 0 and r["games"] == 4 and r["opponent"] == "random"
               for r in rows)
    assert all(0 <= r["ci_low"] <= r["win_rate"] <= r["ci_high"] <= 1 for r in rows)
    assert all(r["infosets"] > 100 for r in rows)
    assert any(r["iteration"] > 24 for r in rows) and any(r["iteration"] <= 24 for r in rows)
    # one row per grid point, in training order, across the resume
    cpu = [r["train_cpu_seconds"] for r in rows]
    iterations = [r["iteration"] for r in rows]
    assert cpu == sorted(cpu) and iterations == sorted(set(iterations))
    # the run's recorded training time is the checkpoint's, and ends past the last row
    ckpt = checkpoint.load(str(evaluated / "checkpoint.ckpt"))
    assert ckpt.extra["cpu_seconds"] >= cpu[-1] - 0.001  # (the row is rounded to ms)

    status, out, err = cli(capsys, "train", "status", "--run", str(evaluated), "--json",
                           "--plot", str(tmp_path / "curve.png"))
    assert status == 0, err
    figures = json.loads(out)
    assert len(figures["evaluations"]) == len(rows)
    assert figures["cpu_seconds"] == pytest.approx(ckpt.extra["cpu_seconds"], abs=0.01)
    assert (tmp_path / "curve.png").read_bytes()[:4] == b"\x89PNG"
    status, out, err = cli(capsys, "train", "status", "--run", str(evaluated))
    assert f"evaluations {len(rows)} (eval.csv)" in out and " random " in out


@pytest.mark.parametrize("layout", ["reference", "bidder"])
def test_the_live_player_plays_what_export_and_db_load_would(layout, tmp_path, capsys):
    from games.setback.abstraction import layouts
    from cfr.table import InfoSetTable
    from games.setback.db.strategy_store import StrategyStore
    from games.setback.train.evaluation import layout_store

    run = tmp_path / "run"
    assert es_baseline(capsys, run, "--iterations", "16", "--abstraction", layout)[0] == 0
    out_file = tmp_path / "base.strategy"
    assert cli(capsys, "export", "--run", str(run), "--out", str(out_file))[0] == 0
    exported = StrategyStore([str(out_file)])
    live = layout_store(checkpoint.load(str(run / "checkpoint.ckpt")).table, "live",
                        layout=layouts.layout(layout))
    assert exported.layout == live.layout
    assert exported.n_keys > 1000
    for key, (probs, best) in exported.table.items():
        got = live.lookup(key)
        assert got is not None and np.array_equal(got[0], probs) and got[1] == best, key
    # the evaluation's player builds the run's keys and finds them in the live table
    from games.setback.play.tournament import play_game
    from games.setback.train.baseline import baseline_stage
    from games.setback.train.evaluation import SetbackEvaluation
    from train.evaluation import EvalOptions, make_opponent

    stage = baseline_stage(SEED, 4, abstraction=layout)
    evaluation = SetbackEvaluation(str(run), stage, EvalOptions(60.0, 1, "random"))
    player, _ = evaluation.player(live.table)
    assert player.layout == live.layout
    play_game((player, make_opponent("random")), 0, 0)
    assert player.counts["found"] > 0
    # a key the table does not hold is absent, as in the database
    empty = InfoSetTable(key_words=1, dtype=np.float32)
    assert layout_store(empty, "empty").lookup(next(iter(exported.table))) is None


def test_a_bootstrap_is_evaluated_with_its_baseline(tmp_path, capsys):
    from games.setback.train.bootstrap import bootstrap_stage
    from games.setback.train.evaluation import SetbackEvaluation
    from train.evaluation import EvalOptions, read_eval_log

    base, boot = tmp_path / "base", tmp_path / "boot"
    assert es_baseline(capsys, base, "--iterations", "16")[0] == 0
    status, out, err = cli(capsys, "train", "bootstrap", "--baseline", str(base), "--run",
                           str(boot), "--iterations", "8", "--batch", "4", "--no-progress",
                           "--eval-every", "0.00001", "--eval-games", "2")
    assert status == 0, err
    rows = read_eval_log(str(boot))
    assert rows and all(r["opponent"] == "heuristic" and r["games"] == 4 for r in rows)

    stage = bootstrap_stage(str(base), SEED, 4)
    table = checkpoint.load(str(boot / "checkpoint.ckpt")).table
    player, _ = SetbackEvaluation(str(boot), stage, EvalOptions(60.0)).player(table)
    assert player.use_bootstrap  # bids look up the live bootstrap keys first
    base_table = checkpoint.load(str(base / "checkpoint.ckpt")).table
    from games.setback.abstraction.codec import key_text

    base_key = key_text(int(base_table.keys[np.flatnonzero(base_table.meta)[0], 0]))
    boot_key = key_text(int(table.keys[np.flatnonzero(table.meta)[0], 0]))
    assert "/" in boot_key and "/" not in base_key
    assert player.db.lookup(base_key) is not None and player.db.lookup(boot_key) is not None


def test_evaluation_cpu_is_not_training_time(tmp_path):
    """The runner counts the batches' CPU only: an evaluation burning CPU adds nothing."""
    from games.setback.train.baseline import baseline_stage
    from train.run_directory import RunDirectory
    from train.runner import Trainer

    stage = baseline_stage(SEED, 4)
    Trainer(RunDirectory(str(tmp_path / "warm")), stage, show_progress=False).run(4)

    class Burner:
        rows, cpu_seconds, calls = [], 0.0, 0

        def start(self, cpu):
            pass

        def due(self, cpu):
            return True

        def run(self, table, iteration, cpu, stop=None):
            Burner.calls += 1
            end = time.process_time() + 0.3
            while time.process_time() < end:
                pass

    plain = Trainer(RunDirectory(str(tmp_path / "plain")), stage, show_progress=False)
    plain_cpu = plain.run(16)["cpu_seconds"]
    burnt = Trainer(RunDirectory(str(tmp_path / "burnt")), stage, show_progress=False)
    summary = burnt.run(16, evaluation=Burner())
    assert Burner.calls == 4
    assert summary["cpu_seconds"] < plain_cpu + 0.6  # while 1.2 s were burnt between


def test_for_stops_on_its_budget_and_a_second_invocation_resumes_to_it(tmp_path, capsys):
    run, again = tmp_path / "run", tmp_path / "again"
    status, out, err = es_baseline(capsys, run, "--for", "0.5s")
    assert status == 0, err
    first = checkpoint.load(str(run / "checkpoint.ckpt"))
    assert first.extra["cpu_seconds"] >= 0.5 and first.iteration % 4 == 0
    assert "(budget 0.01 min)" in out
    status, out, err = es_baseline(capsys, run, "--for", "1s")
    assert status == 0, err
    second = checkpoint.load(str(run / "checkpoint.ckpt"))
    assert second.extra["cpu_seconds"] >= 1.0 and second.iteration > first.iteration
    # the same command again: the run has its budget, nothing more is trained
    assert es_baseline(capsys, run, "--for", "1s")[0] == 0
    assert checkpoint.load(str(run / "checkpoint.ckpt")).iteration == second.iteration
    # stopped on the batch grid: one uninterrupted run to the same deal is the same table
    assert es_baseline(capsys, again, "--iterations", str(second.iteration))[0] == 0
    assert same_run(str(run), str(again))
    log = (run / "log.csv").read_text().splitlines()
    assert log[0].endswith(",cpu_seconds,cpu_budget") and log[-1].endswith(",1.0")
    # --iterations and --for together: whichever comes first
    assert es_baseline(capsys, run, "--for", "1h", "--iterations",
                       str(second.iteration + 8))[0] == 0
    assert checkpoint.load(str(run / "checkpoint.ckpt")).iteration == second.iteration + 8


@pytest.mark.parametrize("text, seconds", [("20s", 20.0), ("90m", 5400.0), ("2h", 7200.0),
                                           ("1.5h", 5400.0), ("0.5s", 0.5)])
def test_durations(text, seconds):
    from cli.arguments import duration

    assert duration(text) == seconds


@pytest.mark.parametrize("text", ["90", "5x", "1h30m", "-5s", "0s", "s", " 5s", "5 s", "1e3s",
                                  "inf", "20000h"])
def test_bad_durations_are_refused(text):
    from cli.arguments import duration

    with pytest.raises(argparse.ArgumentTypeError):
        duration(text)


@pytest.mark.parametrize("argv, message", [
    (("--for", "90"), "argument --for: not a duration: '90'"),
    (("--eval-games", "4"), "--eval-games needs --eval-every MINUTES"),
    (("--eval-every", "1", "--eval-against", "nobody"), "--eval-against: unknown player"),
    (("--eval-every", "0"), "argument --eval-every: must be a finite number above 0"),
])
def test_bad_options_are_one_line(tmp_path, capsys, argv, message):
    status, out, err = es_baseline(capsys, tmp_path / "run", "--iterations", "4", *argv)
    assert status == 2
    assert message in err.strip().splitlines()[-1]
    assert "Traceback" not in err
    assert not (tmp_path / "run" / "checkpoint.ckpt").exists()


def test_the_next_evaluation_is_due_on_the_run_s_grid(tmp_path):
    """A resumed run evaluates at the next grid point past both its training CPU and its
    last logged evaluation (a row of work a crash lost is not played twice)."""
    from games.setback.train.evaluation import SetbackEvaluation
    from train.evaluation import EvalOptions, append_eval_row

    run = tmp_path / "run"
    run.mkdir()
    stage = SimpleNamespace(name="baseline", settings={"seed": 1})
    evaluation = SetbackEvaluation(str(run), stage, EvalOptions(60.0, 2, "random"))
    evaluation.start(50.0)
    assert evaluation.next_due == 60.0 and not evaluation.due(59.9) and evaluation.due(60.0)
    evaluation.start(125.0)
    assert evaluation.next_due == 180.0
    append_eval_row(str(run), {"iteration": 8, "train_cpu_seconds": "130.0", "win_rate": "0.5",
                               "ci_low": "0.4", "ci_high": "0.6", "games": 4,
                               "eval_cpu_seconds": "1.0", "opponent": "random",
                               "infosets": 100})
    evaluation.start(50.0)  # the checkpoint is older than the last evaluation
    assert evaluation.next_due == 180.0


def test_a_newer_or_foreign_eval_log_is_refused_in_one_line(tmp_path, capsys):
    run = tmp_path / "run"
    assert es_baseline(capsys, run, "--iterations", "4")[0] == 0
    for text, message in (("# setback-cfr/eval 9\niteration\n", "is newer than this program"),
                          ("iteration,win_rate\n1,0.5\n", "not a setback-cfr evaluation log")):
        (run / "eval.csv").write_text(text)
        status, out, err = cli(capsys, "train", "status", "--run", str(run))
        assert status == 2 and message in err and err.count("\n") == 1, err
        status, out, err = es_baseline(capsys, run, "--iterations", "8", *EVAL)
        assert status == 2 and message in err and err.count("\n") == 1, err


def test_an_unreadable_eval_log_is_refused_in_one_line_and_kept(tmp_path):
    """Bytes that are not UTF-8 after the format line: the append is refused with the file's
    name, and the file is left as it was."""
    from train.errors import RunError
    from train.evaluation import EVAL_FORMAT, EVAL_VERSION, append_eval_row

    run = tmp_path / "run"
    run.mkdir()
    damaged = f"# {EVAL_FORMAT} {EVAL_VERSION}\n".encode() + b"iteration,\xff\xfe\n"
    (run / "eval.csv").write_bytes(damaged)
    with pytest.raises(RunError, match=r"cannot read .*eval\.csv") as refused:
        append_eval_row(str(run), {"iteration": 8})
    assert "\n" not in str(refused.value)
    assert (run / "eval.csv").read_bytes() == damaged


@pytest.mark.parametrize("algorithm, iterations", [("es-mccfr", 8), ("cfr", 2)])
def test_warming_the_kernels_before_the_clock_changes_no_table(algorithm, iterations, tmp_path,
                                                               monkeypatch):
    """`Trainer._warm` runs an episode on a throwaway table: the run's table is the one a
    trainer that never warmed reaches, bit for bit."""
    from games.setback.train.baseline import baseline_stage
    from train.run_directory import RunDirectory
    from train.runner import Trainer

    stage = baseline_stage(SEED, 2, algorithm=algorithm)
    Trainer(RunDirectory(str(tmp_path / "warm")), stage, show_progress=False).run(iterations)
    monkeypatch.setattr(Trainer, "_warm", lambda self: None)
    Trainer(RunDirectory(str(tmp_path / "cold")), stage, show_progress=False).run(iterations)
    assert same_run(str(tmp_path / "warm"), str(tmp_path / "cold"))


def test_status_text_shows_the_latest_evaluations():
    from train.status import SHOWN_EVALUATIONS, format_status

    rows = [{"iteration": 100 * i, "train_cpu_seconds": 60.0 * i, "win_rate": 0.5,
             "ci_low": 0.4, "ci_high": 0.6, "games": 400, "eval_cpu_seconds": 3.0,
             "opponent": "heuristic", "infosets": 10 * i} for i in range(1, 26)]
    status = {"run": "r", "stage": "baseline", "settings": {}, "log_rows": 1, "iteration": 2500,
              "payoff": 0.1, "infosets": 250, "seconds": 100.0, "rss_bytes": 0,
              "deals_per_second": 25.0, "recent_deals_per_second": None, "target": None,
              "cpu_seconds": 1500.0, "cpu_budget": 1500.0, "evaluations": rows}
    text = format_status(status)
    assert "evaluations 25 (eval.csv)" in text and "... 5 earlier rows in eval.csv" in text
    assert "2,500     25.00   50.0% (40.0-60.0)" in text and "     500 " not in text
    assert text.count("heuristic") == SHOWN_EVALUATIONS
    assert "training    25.00 CPU-min of a 25.00 CPU-min budget (--for)" in text


def test_a_trainer_run_again_warms_without_touching_memory_it_does_not_own(tmp_path,
                                                                          monkeypatch):
    """A Trainer's second `run` (bench/race.py's snapshots) warms up again: the warm-up merges
    only its own episode's entries into its throwaway table (a log entry's offset points into
    the table it was traversed against; the last batch's entries would write past the
    throwaway table's arrays), and the run equals one trained in one go."""
    import train.runner as runner
    from games.setback.train.baseline import baseline_stage
    from train.run_directory import RunDirectory
    from train.runner import Trainer

    real_merge = runner.merge

    def checked_merge(table, log, segment=None, inserted=None):
        first, end = (0, int(log.counts[0])) if segment is None else segment[:2]
        offsets = log.offset[first:end]
        assert (offsets < table.n_values).all(), "an entry's offset is past the table's values"
        return real_merge(table, log, segment, inserted)

    monkeypatch.setattr(runner, "merge", checked_merge)
    stage = baseline_stage(SEED, 4)
    twice = Trainer(RunDirectory(str(tmp_path / "twice")), stage, show_progress=False)
    twice.run(8)
    twice.run(16)
    Trainer(RunDirectory(str(tmp_path / "once")), stage, show_progress=False).run(16)
    assert same_run(str(tmp_path / "twice"), str(tmp_path / "once"))
