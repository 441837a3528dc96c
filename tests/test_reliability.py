"""One writer per run and per database, full disks, and the memory limit."""

import errno
import os
import signal
import subprocess
import sys
import time

import pytest

from cfr import checkpoint
from cfr.file_lock import LockedError, WriterLock
from cli_runner import run_cli
from games.setback.db.synthetic import write_synthetic_strategy
from train.run_directory import RunDirectory
from train_runs import SEED, baseline, baseline_argv

@pytest.fixture(scope="module")
def base_run(tmp_path_factory):
    run = tmp_path_factory.mktemp("rel") / "run"
    from cli.main import main

    assert main(baseline_argv(run, 1)) == 0
    return run


# ---- one writer ------------------------------------------------------------------------------
def test_a_second_writer_is_refused_naming_the_holder(base_run, capsys):
    with RunDirectory(str(base_run)).writer_lock():
        status, _, err = baseline(capsys, base_run, 2)
        # export and status only read: they go on while the run is locked
        assert run_cli(capsys, ["train", "status", "--run", base_run])[0] == 0
    assert status == 2 and err.count("\n") == 1
    assert f"run directory {base_run} is in use by process {os.getpid()}" in err
    assert not (base_run / "writer.lock").exists()  # released and removed


def test_a_second_training_process_is_refused(tmp_path):
    run = tmp_path / "run"
    argv = [sys.executable, "-m", "cli.main", "train", "baseline", "--run", str(run),
            "--iterations", "1000", "--seed", str(SEED), "--checkpoint-every", "0.01",
            "--algorithm", "cfr", "--no-progress"]
    first = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 120
        while not (run / "log.csv").exists() and time.time() < deadline:
            time.sleep(0.05)
        second = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        assert second.returncode == 2
        assert f"is in use by process {first.pid}" in second.stderr
        assert second.stderr.count("\n") == 1
        rows = (run / "log.csv").read_text().splitlines()
        iterations = [int(r.split(",")[0]) for r in rows[1:]]
        assert iterations == sorted(set(iterations))  # one writer: no duplicate rows
    finally:
        first.kill()  # SIGKILL: the kernel drops the lock with the process
        first.wait()
    lock = WriterLock(str(run / "writer.lock"), "run").acquire()  # no stale lock
    lock.release()


def test_the_lock_is_per_open_and_released_on_close(tmp_path):
    path = str(tmp_path / "x.lock")
    with WriterLock(path, "thing"):
        with pytest.raises(LockedError, match=f"thing is in use by process {os.getpid()}"):
            WriterLock(path, "thing").acquire()
    with WriterLock(path, "thing"):
        pass


def test_a_second_db_load_is_refused(tmp_path, capsys):
    src = tmp_path / "a.strategy"
    write_synthetic_strategy(str(src), "baseline", 500, seed=1)
    db = tmp_path / "s.db"
    with WriterLock(str(db) + ".lock", "x"):
        status, _, err = run_cli(capsys, ["db", "load", src, "--db", db, "--no-progress"])
    assert status == 2 and f"database {db} is in use by process {os.getpid()}" in err
    assert not db.exists()
    assert run_cli(capsys, ["db", "load", src, "--db", db, "--no-progress"])[0] == 0


# ---- full disks --------------------------------------------------------------------------------
def no_space(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_checkpoint_that_cannot_be_written_stops_the_run(base_run, tmp_path, capsys,
                                                           monkeypatch):
    import shutil

    run = tmp_path / "run"
    shutil.copytree(base_run, run)
    before = {p.name: p.read_bytes() for p in run.iterdir()}
    monkeypatch.setattr("cfr.atomic_file.os.fsync", no_space)
    status, out, err = baseline(capsys, run, 2)
    assert status == 1 and err.count("\n") == 1
    assert f"cannot write {run / 'checkpoint.ckpt'}: No space left on device; the previous " \
           "file is unchanged" in err
    assert {p.name: p.read_bytes() for p in run.iterdir()} == before  # nothing else changed
    monkeypatch.undo()
    assert baseline(capsys, run, 2)[0] == 0  # and the run goes on once there is space


def test_an_export_that_cannot_be_written_keeps_the_old_file(base_run, tmp_path, capsys,
                                                             monkeypatch):
    out = tmp_path / "s.strategy"
    out.write_bytes(b"old")
    monkeypatch.setattr("cfr.atomic_file.os.fsync", no_space)
    status, _, err = run_cli(capsys, ["export", "--run", base_run, "--out", out])
    assert status == 1 and "No space left on device; the previous file is unchanged" in err
    assert out.read_bytes() == b"old" and os.listdir(tmp_path) == ["s.strategy"]


def test_an_empty_output_path_is_refused_before_anything_is_written(tmp_path, capsys,
                                                                     monkeypatch):
    """`db load --db ''` once built the whole database as a temporary file in the parent of
    the working directory, then failed to rename it (bench/fuzz.py's confinement saw it)."""
    source = str(tmp_path / "s.strategy")
    write_synthetic_strategy(source, "baseline", 50, seed=1)
    work = tmp_path / "work"
    (work / "sub").mkdir(parents=True)
    monkeypatch.chdir(work)
    before = sorted(os.listdir(tmp_path)), sorted(os.listdir(work))
    status, _, err = run_cli(capsys, ["db", "load", source, "--db", "", "--no-progress"])
    assert status == 2 and "not a file name" in err and err.count("\n") == 1
    assert (sorted(os.listdir(tmp_path)), sorted(os.listdir(work))) == before


def test_a_full_log_is_cut_back_to_whole_rows(base_run, tmp_path, monkeypatch):
    import shutil

    run = tmp_path / "run"
    shutil.copytree(base_run, run)
    log = (run / "log.csv").read_bytes()
    monkeypatch.setattr("train.run_directory.os.fsync", no_space)
    with pytest.raises(Exception, match="cannot write .*log.csv: No space left"):
        RunDirectory(str(run)).append_log({"iteration": 9, "payoff": 0, "infosets": 1,
                                           "seconds": 0, "rss_bytes": 0})
    assert (run / "log.csv").read_bytes() == log


def test_a_real_full_disk(base_run, tmp_path, capsys):
    """On a 16 KiB tmpfs (root only; skipped elsewhere) neither checkpoint nor export fits."""
    mount = tmp_path / "small"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(mount)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        status, _, err = baseline(capsys, mount / "run", 1)
        assert status == 1 and err.count("\n") == 1 and "No space left on device" in err
        assert not [p for p in os.listdir(mount / "run") if p.startswith(".tmp-")]
        out = mount / "s.strategy"
        status, _, err = run_cli(capsys, ["export", "--run", base_run, "--out", out])
        assert status == 1 and "nothing was written" in err and not out.exists()
    finally:
        subprocess.run(["umount", str(mount)], check=True)


# ---- memory limit ------------------------------------------------------------------------------
def test_the_memory_limit_stops_at_the_last_checkpoint(tmp_path, capsys, monkeypatch):
    """A table that starts small (1024 slots, as a run resumed from a small checkpoint would)
    and a limit of about 1 MiB: the run stops at its last checkpoint, saying where and how
    much memory the table would need."""
    from cfr.table import InfoSetTable

    init = InfoSetTable.__init__

    def small(self, *args, **kwargs):
        kwargs["capacity"] = min(kwargs.get("capacity", 1024), 1024)
        init(self, *args, **kwargs)

    monkeypatch.setattr(InfoSetTable, "__init__", small)
    run = tmp_path / "run"
    status, out, err = baseline(capsys, run, 20, "--checkpoint-every", "0.001",
                                "--memory-limit", "0.0005")
    assert status == 2 and err.count("\n") == 1, err
    ckpt = checkpoint.load(str(run / "checkpoint.ckpt"))
    assert 1 <= ckpt.iteration < 20
    assert f"the run stays at its last checkpoint (iteration {ckpt.iteration})" in err
    assert "info-set table would need" in err and "over its memory cap of 0.51 MiB" in err
    rows = (run / "log.csv").read_text().splitlines()
    assert rows[-1].startswith(f"{ckpt.iteration},")
