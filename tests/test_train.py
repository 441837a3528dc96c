"""Training stages end to end on tiny runs: CLI, resume bit for bit, workers, signals, export."""

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from cfr import checkpoint
from cfr.strategy_file import read_strategy
from cli.main import main
from cli_runner import run_cli
from train.export import average_strategy
from train_runs import SEED, baseline, baseline_argv, same_run

def cli(capsys, *argv):
    return run_cli(capsys, argv)


@pytest.fixture(scope="module")
def base_run(tmp_path_factory):
    """A 2-deal baseline run shared by the tests that only read it."""
    run = tmp_path_factory.mktemp("base") / "run"
    assert main(baseline_argv(run, 2)) == 0
    return run


def test_baseline_end_to_end(base_run, tmp_path, capsys):
    status, out, err = cli(capsys, "train", "status", "--run", str(base_run), "--json")
    assert status == 0, err
    figures = json.loads(out)
    assert figures["stage"] == "baseline" and figures["iteration"] == 2
    assert figures["infosets"] > 1000 and figures["settings"]["seed"] == SEED
    with open(base_run / "log.csv") as handle:
        header, *rows = handle.read().splitlines()
    assert header == "iteration,payoff,infosets,seconds,rss_bytes,target,cpu_seconds,cpu_budget"
    assert rows[-1].startswith("2,")
    out_file = tmp_path / "base.strategy"
    status, out, err = cli(capsys, "export", "--run", str(base_run), "--out", str(out_file))
    assert status == 0, err
    header, table = read_strategy(str(out_file))
    assert header["stage"] == "baseline" and header["iterations"] == 2
    assert header["n_keys"] == figures["infosets"] == len(table)
    kinds = {key[0] for key in table}
    assert {"0", "E"} <= kinds or "0" in kinds  # auction keys (and usually establish keys)
    for probs in table.values():
        assert abs(float(probs.sum()) - 1.0) < 1e-5 and (probs == 0).sum() < probs.size


def test_export_round_trip_matches_the_table_and_is_deterministic(base_run, tmp_path, capsys):
    from games.setback.abstraction.codec import text_key

    a, b = tmp_path / "a.strategy", tmp_path / "b.strategy"
    for path in (a, b):
        assert cli(capsys, "export", "--run", str(base_run), "--out", str(path),
                   "--threshold", "0.001")[0] == 0
    assert a.read_bytes() == b.read_bytes()
    _, table = read_strategy(str(a))
    ckpt = checkpoint.load(str(base_run / "checkpoint.ckpt"))
    for key, probs in list(table.items())[:: max(1, len(table) // 200)]:
        offset = ckpt.table.offset(text_key(key))
        sums = ckpt.table.strategy[offset:offset + probs.size]
        expected = average_strategy(sums, np.array([probs.size], np.uint8), 0.001)
        np.testing.assert_array_equal(probs, expected)


def test_export_to_a_database_name_is_refused_with_the_two_steps(base_run, tmp_path, capsys):
    out = tmp_path / "q.db"
    code, _, err = cli(capsys, "export", "--run", str(base_run), "--out", str(out))
    assert code == 2 and not out.exists()
    assert "export writes a strategy file, not a database" in err
    assert f"db load --db {out} {tmp_path / 'q'}.strategy" in err


def test_average_strategy_thresholds_and_renormalises():
    sums = np.array([3.0, 1.0, 0.0004, 0.0, 0.0, 5.0, 5.0], np.float32)
    probs = average_strategy(sums, np.array([3, 2, 2], np.uint8), 0.001)
    np.testing.assert_allclose(probs[:3], [0.75, 0.25, 0.0], rtol=1e-6)  # 0.0004/4 < 0.001
    np.testing.assert_allclose(probs[3:5], [0.5, 0.5])  # no sums yet: uniform
    np.testing.assert_allclose(probs[5:], [0.5, 0.5])


def test_baseline_resume_is_bit_identical(base_run, tmp_path, capsys):
    part = tmp_path / "part"
    assert baseline(capsys, part, 1)[0] == 0
    assert baseline(capsys, part, 2)[0] == 0  # the same command shape resumes and finishes
    assert same_run(str(part), str(base_run))


def test_workers_do_not_change_the_table(tmp_path, capsys):
    runs = [tmp_path / f"w{k}" for k in (1, 2, 3)]
    for k, run in enumerate(runs, start=1):
        assert baseline(capsys, run, 4, "--batch", "3", "--workers", str(k))[0] == 0
    assert same_run(str(runs[0]), str(runs[1])) and same_run(str(runs[0]), str(runs[2]))


def test_status_shows_the_recent_rate_and_an_eta(tmp_path, capsys):
    run = tmp_path / "run"
    assert baseline(capsys, run, 1)[0] == 0
    assert baseline(capsys, run, 2)[0] == 0
    with open(run / "log.csv", "a") as handle:  # a later, unfinished leg of the run
        handle.write("3,0.1,100,1000.0,1,10\n4,0.1,100,1002.0,1,10\n")
    status, out, err = cli(capsys, "train", "status", "--run", str(run), "--json")
    figures = json.loads(out)
    assert figures["recent_deals_per_second"] == 0.5 and figures["target"] == 10
    assert figures["eta_seconds"] == 12.0
    status, out, err = cli(capsys, "train", "status", "--run", str(run))
    assert "0.50 deals/s between the last two checkpoints" in out
    assert "target      10 iterations: ETA 12 s at the recent rate" in out


def test_ctrl_c_stops_a_young_batch_within_seconds_and_resume_is_bit_identical(tmp_path, capsys):
    """A batch of young deals takes minutes; Ctrl-C abandons it (its start is what is saved)."""
    run = tmp_path / "run"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "train", "baseline", "--run", str(run),
         "--iterations", "64", "--batch", "64", "--seed", str(SEED), "--algorithm", "cfr",
         "--no-progress"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while not (run / "run.json").exists() and time.time() < deadline:
        time.sleep(0.05)
    time.sleep(2.0)  # well inside the first batch of 64 young deals
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    took = time.monotonic() - sent
    assert proc.returncode == 130, err
    assert took < 5.0, f"Ctrl-C took {took:.1f} s"
    assert checkpoint.load(str(run / "checkpoint.ckpt")).iteration == 0
    assert not [p for p in os.listdir(run) if p.startswith(".tmp-")]
    # resuming redoes the abandoned batch from its start: the same as never stopping
    assert baseline(capsys, run, 2, "--batch", "64")[0] == 0
    straight = tmp_path / "straight"
    assert baseline(capsys, straight, 2, "--batch", "64")[0] == 0
    assert same_run(str(run), str(straight))


def test_conflicting_settings_and_bad_runs_are_one_line(base_run, tmp_path, capsys):
    status, _, err = cli(capsys, "train", "baseline", "--run", str(base_run), "--iterations",
                         "3", "--seed", "5", "--no-progress")
    assert status == 2 and "created with other settings: seed 2 (asked 5)" in err
    assert err.count("\n") == 1
    status, _, err = cli(capsys, "train", "baseline", "--run", str(tmp_path / "w"),
                         "--workers", "3", "--no-progress")
    assert status == 2 and "exceeds the batch size" in err
    status, _, err = cli(capsys, "train", "status", "--run", str(tmp_path / "nothing"))
    assert status == 2 and "not a training run" in err


def test_a_directory_of_other_files_is_not_made_a_run(tmp_path, capsys):
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes.txt").write_text("mine")
    for stage in (["baseline"], ["bootstrap", "--baseline", str(home / "notes.txt")]):
        status, _, err = cli(capsys, "train", *stage, "--run", str(home), "--iterations", "0",
                             "--no-progress")
        assert status == 2 and "holds files but no run.json" in err and err.count("\n") == 1
        assert sorted(p.name for p in home.iterdir()) == ["notes.txt"]
    empty = tmp_path / "empty"
    empty.mkdir()  # an empty directory is a new run's home
    status, _, _ = cli(capsys, "train", "baseline", "--run", str(empty), "--iterations", "0",
                       "--no-progress")
    assert status == 0 and (empty / "run.json").exists()


def test_a_corrupt_checkpoint_gives_one_clear_error(base_run, tmp_path, capsys):
    import shutil

    broken = tmp_path / "broken"
    shutil.copytree(base_run, broken)
    ckpt = broken / "checkpoint.ckpt"
    data = ckpt.read_bytes()
    ckpt.write_bytes(data[: len(data) // 2])
    status, out, err = baseline(capsys, broken, 3)
    assert status == 2 and err.count("\n") == 1
    assert "checkpoint is truncated or corrupt" in err
    status, _, err = cli(capsys, "export", "--run", str(broken), "--out",
                         str(tmp_path / "x.strategy"))
    assert status == 2 and "truncated or corrupt" in err


def test_sigint_writes_a_loadable_checkpoint(tmp_path):
    run = tmp_path / "run"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "train", "baseline", "--run", str(run),
         "--iterations", "1000", "--seed", str(SEED), "--checkpoint-every", "0.01",
         "--algorithm", "cfr", "--no-progress"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    log = run / "log.csv"
    deadline = time.time() + 120
    while not (log.exists() and log.read_text().count("\n") >= 2) and time.time() < deadline:
        time.sleep(0.05)  # wait for the first checkpoint: training is under way
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "stopped by SIGINT; checkpoint written" in out
    ckpt = checkpoint.load(str(run / "checkpoint.ckpt"))
    rows = log.read_text().splitlines()
    assert ckpt.iteration >= 1 and rows[-1].startswith(f"{ckpt.iteration},")
    assert not [p for p in os.listdir(run) if p.startswith(".tmp-")]


def test_updates_reference_resumes_bit_for_bit_and_refuses_workers(tmp_path, capsys):
    """`--updates reference` (the reference's in-walk table updates): recorded, resumable."""
    part, whole = tmp_path / "part", tmp_path / "whole"
    assert baseline(capsys, part, 2, "--updates", "reference")[0] == 0
    assert baseline(capsys, part, 3)[0] == 0  # the run's own update rule is kept
    assert baseline(capsys, whole, 3, "--updates", "reference")[0] == 0
    assert same_run(str(part), str(whole))
    status, _, err = baseline(capsys, tmp_path / "w", 2, "--updates", "reference",
                              "--workers", "2", "--batch", "2")
    assert status == 2 and err.count("\n") == 1 and "one worker only" in err
    status, _, err = baseline(capsys, part, 4, "--updates", "simultaneous")
    assert status == 2 and "updates 'reference' (asked 'simultaneous')" in err
