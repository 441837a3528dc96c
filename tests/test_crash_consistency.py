"""SIGKILL at random moments: a resumed run ends byte for byte where an uninterrupted one does.

Each attempt forks this (already warm) test process and runs the command line in the child,
so a kill costs no interpreter start-up or numba compilation; the parent kills the child with
SIGKILL after a seeded random delay (during traversal, merge or checkpoint write, wherever it
lands), then starts the same command again. Two further kinds of kill are aimed: inside the
checkpoint write (after the temporary file is written, before its rename) and right after it.
"""

import os
import random
import signal
import sqlite3
import time

import pytest

from cli.main import main
from db.database import StrategyDatabase
from games.setback.db.synthetic import write_synthetic_strategy

SEED = 2
BASELINE = ["train", "baseline", "--iterations", "4", "--seed", str(SEED), "--batch", "1",
            "--algorithm", "cfr", "--checkpoint-every", "0.001", "--no-progress"]
KILLS = 20


def forked(argv, kill_after=None, in_child=None):
    """Run `setback-cfr argv` in a forked child; SIGKILL it after `kill_after` seconds if it
    is still running. Returns ("killed", None) or ("exited", status)."""
    pid = os.fork()
    if pid == 0:  # the child: run the command, never return into pytest
        status = 99
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            # tqdm guards its bars with a lock shared across fork (a semaphore); a child killed
            # while holding it would hang the parent's next bar: give the child its own.
            import threading

            from tqdm import tqdm

            tqdm.set_lock(threading.RLock())
            if in_child is not None:
                in_child()
            status = main([str(a) for a in argv])
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
        except BaseException:  # noqa: BLE001 - report through the status, never into pytest
            status = 98
        finally:
            os._exit(status or 0)
    if kill_after is not None:
        deadline = time.monotonic() + kill_after
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return "exited", os.waitstatus_to_exitcode(status)
            time.sleep(0.002)
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    return ("killed", None) if code == -signal.SIGKILL else ("exited", code)


def kill_self_on(name, after_calls, when):
    """A child hook: SIGKILL this process at the `after_calls`-th call of `os.<name>` whose
    first argument's text ends with `when` (the checkpoint's temporary file, say)."""
    def hook():
        real = getattr(os, name)
        calls = [0]

        def fake(*args, **kwargs):
            target = args[1] if name == "replace" else args[0]
            if str(target).endswith(when) or name == "fsync":
                calls[0] += 1
                if calls[0] == after_calls:
                    os.kill(os.getpid(), signal.SIGKILL)
            return real(*args, **kwargs)

        setattr(os, name, fake)
    return hook


def export_bytes(run, out):
    assert main(["export", "--run", str(run), "--out", str(out)]) == 0
    return out.read_bytes()


def leftovers(directory):
    return sorted(p for p in os.listdir(directory) if p.startswith(".tmp-") or
                  p == "writer.lock" or p.endswith(".lock"))


def train_until_done(argv, rng, longest, kills, limit=50):
    """Start, kill at random, restart ... until the command exits; return its status."""
    for attempt in range(limit):
        # The window widens with every attempt, so a slow start (a busy machine) still ends.
        outcome, status = forked(argv, kill_after=rng.uniform(0.0, longest) * (1 + attempt / 4))
        if outcome == "exited":
            return status
        kills.append(1)
    raise AssertionError("the run never finished")


def test_baseline_survives_sigkill_at_random_moments(tmp_path):
    reference = tmp_path / "reference"
    start = time.monotonic()
    assert forked(BASELINE + ["--run", reference]) == ("exited", 0)
    full = time.monotonic() - start
    want = export_bytes(reference, tmp_path / "reference.strategy")
    rng = random.Random(16)
    kills, episode = [], 0
    print(f"uninterrupted baseline: {full:.2f} s")
    while len(kills) < KILLS:
        run = tmp_path / f"run{episode}"
        if episode == 0:
            # Aimed kills first: inside the second checkpoint write (temporary file written,
            # not yet renamed), then on resume between a checkpoint and its log row (the
            # third fsync: the checkpoint's, its directory's, the log's).
            hook = kill_self_on("replace", 2, "checkpoint.ckpt")
            assert forked(BASELINE + ["--run", run], in_child=hook)[0] == "killed"
            assert [p for p in os.listdir(run) if p.startswith(".tmp-")]  # a crash leftover
            assert forked(BASELINE + ["--run", run],
                          in_child=kill_self_on("fsync", 3, ""))[0] == "killed"
            kills += [1, 1]
        assert train_until_done(BASELINE + ["--run", run], rng, 0.7 * full, kills) == 0
        assert leftovers(run) == []
        assert export_bytes(run, tmp_path / f"run{episode}.strategy") == want
        episode += 1
    print(f"{len(kills)} kills over {episode} runs")
    assert len(kills) >= KILLS


@pytest.fixture(scope="module")
def baseline_strategy(tmp_path_factory):
    root = tmp_path_factory.mktemp("crash-boot")
    run = root / "baseline"
    assert main(["train", "baseline", "--run", str(run), "--iterations", "1", "--seed", "2",
                 "--algorithm", "cfr", "--no-progress"]) == 0
    out = root / "baseline.strategy"
    assert main(["export", "--run", str(run), "--out", str(out)]) == 0
    return out


def test_bootstrap_survives_sigkill_at_random_moments(tmp_path, baseline_strategy):
    argv = ["train", "bootstrap", "--baseline", baseline_strategy, "--iterations", "3",
            "--seed", "3", "--batch", "1", "--checkpoint-every", "0.001", "--no-progress"]
    reference = tmp_path / "reference"
    start = time.monotonic()
    assert forked(argv + ["--run", reference]) == ("exited", 0)
    full = time.monotonic() - start
    want = export_bytes(reference, tmp_path / "reference.strategy")
    print(f"uninterrupted bootstrap: {full:.2f} s")
    rng = random.Random(17)
    kills, episode = [], 0
    while len(kills) < 5:
        run = tmp_path / f"run{episode}"
        assert train_until_done(argv + ["--run", run], rng, 0.8 * full, kills) == 0
        assert leftovers(run) == []
        assert export_bytes(run, tmp_path / f"run{episode}.strategy") == want
        episode += 1


def test_db_load_killed_leaves_the_previous_database(tmp_path):
    old_src, new_src = tmp_path / "old.strategy", tmp_path / "new.strategy"
    write_synthetic_strategy(str(old_src), "baseline", 2_000, seed=1)
    write_synthetic_strategy(str(new_src), "baseline", 300_000, seed=2)
    db = tmp_path / "s.db"
    assert main([str(a) for a in ("db", "load", old_src, "--db", db, "--no-progress")]) == 0
    before = db.read_bytes()
    start = time.monotonic()
    reference = tmp_path / "reference.db"
    assert forked(["db", "load", new_src, "--db", reference, "--no-progress"]) == ("exited", 0)
    full = time.monotonic() - start
    rng = random.Random(18)
    killed = 0
    for attempt in range(40):
        outcome, status = forked(["db", "load", new_src, "--db", db, "--no-progress"],
                                 kill_after=rng.uniform(0.0, 0.9 * full) * (1 + attempt / 8))
        if outcome == "exited":  # finished before the kill: put the old database back
            assert status == 0
            assert main([str(a) for a in ("db", "load", old_src, "--db", db,
                                          "--no-progress")]) == 0
            before = db.read_bytes()
            continue
        killed += 1
        if killed == 5:
            break
        assert db.read_bytes() == before  # the old database, whole, never a half-written one
        with StrategyDatabase(str(db)) as database:
            assert database.n_keys == 2_000
    assert killed == 5
    assert forked(["db", "load", new_src, "--db", db, "--no-progress"]) == ("exited", 0)
    assert sorted(os.listdir(tmp_path)) == ["new.strategy", "old.strategy", "reference.db",
                                            "s.db"]
    with sqlite3.connect(db) as a, sqlite3.connect(reference) as b:
        query = "SELECT key, best, probs FROM strategy ORDER BY key"
        assert a.execute(query).fetchall() == b.execute(query).fetchall()
