"""`setback-cfr solve`: output formats, checkpoints, bad input (one line, exit 2)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cli.main import main


def run(capsys, *argv):
    status = main(["solve", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_text_output_curve_and_value(capsys):
    status, out, _ = run(capsys, "kuhn", "--iterations", "1000", "--report-every", "250")
    assert status == 0
    lines = out.strip().splitlines()
    rows = [line.split() for line in lines if line.strip()[:1].isdigit()]
    assert [int(r[0]) for r in rows] == [250, 500, 750, 1000]
    assert float(rows[-1][1]) == pytest.approx(0.0009376166469929614, rel=1e-5)
    assert lines[-1].startswith("game value (player 0) of the average strategy: -0.0556")


def test_json_lines(capsys):
    status, out, _ = run(capsys, "leduc", "--algorithm", "cfr+", "--iterations", "100",
                         "--report-every", "10", "--json")
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["iteration"] for r in rows] == list(range(10, 101, 10))
    assert set(rows[0]) == {"iteration", "exploitability", "value"}
    assert rows[0]["exploitability"] == pytest.approx(0.6104389015904066, rel=1e-9)
    assert rows[-1]["exploitability"] == pytest.approx(0.013415994970897835, rel=1e-9)


def test_report_at_the_end_when_not_a_multiple(capsys):
    _, out, _ = run(capsys, "kuhn", "--iterations", "25", "--report-every", "10", "--json")
    assert [json.loads(line)["iteration"] for line in out.splitlines()] == [10, 20, 25]


def test_checkpoint_resume_matches_straight_run(capsys, tmp_path):
    ckpt = str(tmp_path / "leduc.ckpt")
    _, straight, _ = run(capsys, "leduc", "--algorithm", "dcfr", "--iterations", "40",
                         "--report-every", "20", "--json")
    run(capsys, "leduc", "--algorithm", "dcfr", "--iterations", "20", "--report-every", "20",
        "--json", "--checkpoint", ckpt)
    _, resumed, _ = run(capsys, "leduc", "--algorithm", "dcfr", "--iterations", "40",
                        "--report-every", "20", "--json", "--checkpoint", ckpt)
    assert resumed.splitlines() == straight.splitlines()[1:]


def test_sampled_chance_with_seed_is_reproducible(capsys):
    args = ("leduc", "--iterations", "50", "--report-every", "50", "--json",
            "--sampled-chance", "--seed", "4", "--simultaneous")
    _, a, _ = run(capsys, *args)
    _, b, _ = run(capsys, *args)
    assert a == b and json.loads(a)["iteration"] == 50


@pytest.mark.parametrize("content", [b"", b"garbage", None])
def test_bad_checkpoint_is_one_line_exit_2(capsys, tmp_path, content):
    ckpt = tmp_path / "bad.ckpt"
    if content is None:  # truncated real checkpoint
        run(capsys, "kuhn", "--iterations", "5", "--checkpoint", str(ckpt))
        ckpt.write_bytes(ckpt.read_bytes()[:-20])
    else:
        ckpt.write_bytes(content)
    with pytest.raises(SystemExit) as info:
        run(capsys, "kuhn", "--iterations", "10", "--checkpoint", str(ckpt))
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("setback-cfr: error: ")


def test_checkpoint_with_other_settings_is_refused(capsys, tmp_path):
    ckpt = str(tmp_path / "a.ckpt")
    run(capsys, "kuhn", "--iterations", "5", "--checkpoint", ckpt)
    with pytest.raises(SystemExit) as info:
        run(capsys, "kuhn", "--algorithm", "cfr+", "--iterations", "10", "--checkpoint", ckpt)
    assert info.value.code == 2
    assert "other settings" in capsys.readouterr().err


def test_dcfr_parameters_only_for_dcfr(capsys):
    with pytest.raises(SystemExit) as info:
        run(capsys, "kuhn", "--iterations", "5", "--alpha", "2")
    assert info.value.code == 2


def test_es_mccfr_converges_and_depends_on_the_seed_only(capsys):
    args = ("kuhn", "--algorithm", "es-mccfr", "--iterations", "2000", "--report-every",
            "1000", "--json")
    _, a, _ = run(capsys, *args, "--seed", "3")
    _, b, _ = run(capsys, *args, "--seed", "3")
    _, c, _ = run(capsys, *args, "--seed", "4")
    rows = [json.loads(line) for line in a.splitlines()]
    assert a == b and a != c
    assert [r["iteration"] for r in rows] == [1000, 2000]
    assert rows[-1]["exploitability"] < 0.06  # uniform play is 0.458
    assert rows[-1]["value"] == pytest.approx(-1 / 18, abs=0.03)


def test_es_mccfr_checkpoint_resume_with_options(capsys, tmp_path):
    ckpt = str(tmp_path / "es.ckpt")
    opts = ("--algorithm", "es-mccfr", "--linear-weighting", "--prune-threshold", "-0.5",
            "--prune-probability", "0.9", "--seed", "2", "--report-every", "50", "--json")
    _, straight, _ = run(capsys, "leduc", "--iterations", "100", *opts)
    run(capsys, "leduc", "--iterations", "50", *opts, "--checkpoint", ckpt)
    _, resumed, _ = run(capsys, "leduc", "--iterations", "100", *opts, "--checkpoint", ckpt)
    assert resumed.splitlines() == straight.splitlines()[1:]
    with pytest.raises(SystemExit) as info:  # the options are part of the settings
        run(capsys, "leduc", "--iterations", "150", "--algorithm", "es-mccfr", "--seed", "2",
            "--checkpoint", ckpt)
    assert info.value.code == 2
    assert "other settings" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [
    ("--algorithm", "es-mccfr", "--simultaneous"),
    ("--linear-weighting",),
    ("--algorithm", "cfr+", "--prune-threshold", "-1"),
    ("--algorithm", "es-mccfr", "--prune-probability", "0.5"),
])
def test_es_mccfr_options_refused_where_they_do_not_apply(capsys, argv):
    with pytest.raises(SystemExit) as info:
        run(capsys, "kuhn", "--iterations", "5", *argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("setback-cfr: error: ")


def test_a_prune_probability_beyond_one_is_refused_by_the_parser(capsys):
    with pytest.raises(SystemExit) as info:
        run(capsys, "kuhn", "--iterations", "5", "--algorithm", "es-mccfr",
            "--prune-threshold", "-1", "--prune-probability", "2")
    assert info.value.code == 2
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.startswith("setback-cfr solve: error: ") and "must be in [0, 1]" in last


def test_memory_cap(capsys):
    with pytest.raises(SystemExit) as info:
        run(capsys, "leduc", "--iterations", "5", "--max-memory", "0.05")
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "memory cap of 0.05 MiB" in err


def test_help_lists_every_option():
    out = subprocess.run([sys.executable, "-m", "cli.main", "solve", "--help"],
                         capture_output=True, text=True, check=True).stdout
    for option in ("--algorithm", "--iterations", "--report-every", "--simultaneous", "--json",
                   "--checkpoint", "--sampled-chance", "--seed", "--alpha", "--beta", "--gamma",
                   "--float32", "--max-memory", "--interface-walk", "--linear-weighting",
                   "--prune-threshold", "--prune-probability", "es-mccfr"):
        assert option in out


def test_ctrl_c_saves_a_whole_iteration(tmp_path):
    """SIGINT: exit 130, checkpoint of completed iterations that resumes bit for bit.

    The signal is sent once the run is seen iterating (its first checkpoint, written every 50
    iterations, exists: the Ctrl-C handler is installed before the first iteration), never
    after a fixed sleep, so a loaded machine that starts it slowly cannot fail the test."""
    import re
    import signal
    import time

    from cfr.solver import Solver
    from games.leduc import GAME

    ckpt = tmp_path / "int.ckpt"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "solve", "leduc", "--algorithm", "cfr+",
         "--iterations", "10000000", "--report-every", "50", "--checkpoint", str(ckpt)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 600
    while not ckpt.exists():  # written atomically (a rename): whole once it exists
        assert proc.poll() is None, proc.communicate()[1]
        assert time.monotonic() < deadline, "the run wrote no checkpoint in 600 s"
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 130, err
    saved = re.search(r"saved (\d+) iterations", err)
    assert saved, err
    resumed = Solver.resume(GAME, str(ckpt), use_tree=True)
    n = resumed.iteration
    assert n == int(saved.group(1)) and n >= 50
    resumed.iterate(3)
    straight = Solver(GAME, "cfr+", use_tree=True)
    straight.iterate(n + 3)
    assert resumed.table.same_contents(straight.table)
