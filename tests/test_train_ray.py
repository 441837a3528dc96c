"""Training on Ray: the same table as one local thread, through a killed worker and a stopped
driver. One local Ray session with 2 CPUs serves the module (SETBACK_TEST_RAY_ADDRESS joins a
running cluster instead, for a machine too loaded to start one within Ray's 30 s)."""

import functools
import os
import signal
import subprocess
import sys
import time

import pytest
import ray

from cfr import checkpoint
from cli.main import main
from cli_runner import run_cli
from games.setback.train.baseline import baseline_stage
from train.ray_backend import RayBatches, table_checksum
from train.run_directory import RunDirectory
from train.runner import Trainer
import train_runs
from train_runs import SEED, same_run

@pytest.fixture(scope="module")
def ray_session():
    address = os.environ.get("SETBACK_TEST_RAY_ADDRESS")
    if address:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    else:
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray.get_runtime_context().gcs_address
    ray.shutdown()


def baseline(capsys, run, iterations, *extra):
    """The shared tiny run (`train_runs.baseline`) at batch 2."""
    return train_runs.baseline(capsys, run, iterations, "--batch", 2, *extra)


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    """3 deals of seed 2 at batch 2 on one local thread: the reference table."""
    run = tmp_path_factory.mktemp("ray") / "local"
    assert main(train_runs.baseline_argv(run, 3, "--batch", 2, "--workers", 1)) == 0
    return str(run)


def test_a_ray_run_equals_one_local_worker_bit_for_bit(ray_session, local_run, tmp_path, capsys):
    run = tmp_path / "ray"
    status, out, err = baseline(capsys, run, 3, "--ray", "--workers", 2)
    assert status == 0, err
    assert same_run(str(run), local_run)
    # and a Ray run resumes a local one (and vice versa) as if nothing changed
    mixed = tmp_path / "mixed"
    assert baseline(capsys, mixed, 2, "--workers", 1)[0] == 0
    assert baseline(capsys, mixed, 3, "--ray", "--workers", 2)[0] == 0
    assert same_run(str(mixed), local_run)


def test_the_bootstrap_stage_on_ray_equals_one_local_worker(ray_session, local_run, tmp_path,
                                                           capsys):
    def bootstrap(run, *extra):
        return run_cli(capsys, ["train", "bootstrap", "--run", run, "--baseline", local_run,
                                "--iterations", 24, "--seed", 3, "--batch", 4,
                                "--no-progress", *extra])

    assert bootstrap(tmp_path / "one", "--workers", 1)[0] == 0
    status, _, err = bootstrap(tmp_path / "ray", "--ray", "--workers", 2)
    assert status == 0, err
    assert same_run(str(tmp_path / "one"), str(tmp_path / "ray"))


def test_a_worker_killed_mid_batch_changes_nothing(ray_session, local_run, tmp_path):
    stage = functools.partial(baseline_stage, SEED, 2, "simultaneous", "cfr")
    executor = RayBatches(stage, workers=2, checksum_every=1)
    killed = []

    def kill_a_busy_worker(ex):
        # a deal takes seconds: the task just handed to worker 0 is surely still running
        if not killed and ex.version == 0:
            os.kill(ex.pids[0], signal.SIGKILL)
            killed.append(ex.pids[0])

    executor.fault_hook = kill_a_busy_worker
    trainer = Trainer(RunDirectory(str(tmp_path / "run")), stage(), checkpoint_every=1e9,
                      show_progress=False, executor=executor)
    summary = trainer.run(3)
    assert killed and summary["ray_replaced_actors"] == 1
    assert summary["ray_retried_episodes"] >= 1
    assert summary["ray_checksums_ok"] == 2  # every replica equal to the driver's table
    assert same_run(str(tmp_path / "run"), local_run)
    assert summary["ray_bytes_per_deal"] > 0 and summary["ray_update_bytes"] > 0
    reference = checkpoint.load(os.path.join(local_run, "checkpoint.ckpt")).table
    assert table_checksum(trainer.progress.table) == table_checksum(reference)


def test_a_stopped_driver_resumes_bit_for_bit(ray_session, tmp_path, capsys):
    """SIGINT in the middle of a run: the batch in flight is abandoned, the last merged one is
    checkpointed, and a local run resumes it to the table of a run never stopped."""
    run = tmp_path / "run"
    out_file, err_file = open(tmp_path / "out", "w"), open(tmp_path / "err", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "train", "baseline", "--run", str(run),
         "--iterations", "400", "--batch", "2", "--seed", str(SEED), "--algorithm", "cfr",
         "--no-progress",
         "--checkpoint-every", "0.01", "--ray", ray_session, "--workers", "2"],
        stdout=out_file, stderr=err_file, text=True)  # files: a full pipe would block it
    log = run / "log.csv"
    deadline = time.time() + 600
    while not (log.exists() and log.read_text().count("\n") >= 2) \
            and time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)  # wait for the first checkpoint: training on Ray is under way
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=120)
    took = time.monotonic() - sent
    err = (tmp_path / "err").read_text()
    assert proc.returncode == 130, err
    assert took < 15.0, f"Ctrl-C took {took:.1f} s"
    stopped_at = checkpoint.load(str(run / "checkpoint.ckpt")).iteration
    assert 2 <= stopped_at < 400 and stopped_at % 2 == 0
    assert baseline(capsys, run, stopped_at + 2, "--workers", 1)[0] == 0
    straight = tmp_path / "straight"
    assert baseline(capsys, straight, stopped_at + 2, "--workers", 1)[0] == 0
    assert same_run(str(run), str(straight))


def test_an_unreachable_cluster_is_one_line(ray_session, tmp_path, capsys):
    status, _, err = baseline(capsys, tmp_path / "run", 2, "--ray", "127.0.0.1:1")
    assert status == 2 and err.count("\n") == 1
    assert "cannot reach the Ray cluster at 127.0.0.1:1" in err


@pytest.mark.parametrize("algorithm", ("dcfr", "es-mccfr"))
def test_other_algorithms_on_ray_equal_one_local_worker(algorithm, ray_session, tmp_path):
    """dcfr's end-of-batch step runs on the replicas too (each batch's replicas are checked
    against the driver's table); es-mccfr's passes run in the workers."""
    stage = functools.partial(baseline_stage, SEED, 2, "simultaneous", algorithm)
    local = Trainer(RunDirectory(str(tmp_path / "local")), stage(), show_progress=False)
    local.run(4)
    executor = RayBatches(stage, workers=2, checksum_every=1)
    remote = Trainer(RunDirectory(str(tmp_path / "ray")), stage(), show_progress=False,
                     executor=executor)
    summary = remote.run(4)
    assert summary["ray_checksums_ok"] == 2
    assert same_run(str(tmp_path / "local"), str(tmp_path / "ray"))


def test_es_mccfr_on_a_local_ray_says_threads_are_faster(ray_session, tmp_path, capsys):
    status, _, err = run_cli(capsys, ["train", "baseline", "--run", str(tmp_path / "es"),
                                      "--iterations", "4", "--seed", str(SEED), "--batch", "2",
                                      "--algorithm", "es-mccfr", "--no-progress", "--ray",
                                      "--workers", "2"])
    assert status == 0, err
    assert "note: es-mccfr deals take milliseconds" in err and err.count("\n") == 1


def test_a_worker_killed_after_part_of_the_batch_is_merged_changes_nothing(
        ray_session, tmp_path, monkeypatch):
    """The driver merges tasks as they arrive; a worker lost after some were merged puts the
    table back to the batch start for its replacement, and the run ends as a local one."""
    from cfr.ordered_merge import OrderedMerge

    undone = []
    real_undo = OrderedMerge.undo

    def recording_undo(self):
        undone.append(len(self.merged))
        real_undo(self)

    monkeypatch.setattr(OrderedMerge, "undo", recording_undo)
    stage = functools.partial(baseline_stage, SEED, 64, "simultaneous", "es-mccfr")
    local = Trainer(RunDirectory(str(tmp_path / "local")), stage(), show_progress=False)
    local.run(192)
    # tasks of a few deals each: many arrive, and merge, before the batch is complete
    executor = RayBatches(stage, workers=2, checksum_every=1, task_seconds=0.002)
    killed = []

    def kill_after_a_merge(ex):
        if not killed and ex.merging is not None and ex.merging.merged and ex.version == 1:
            os.kill(ex.pids[0], signal.SIGKILL)
            killed.append(len(ex.merging.merged))

    executor.fault_hook = kill_after_a_merge
    remote = Trainer(RunDirectory(str(tmp_path / "ray")), stage(), show_progress=False,
                     executor=executor)
    summary = remote.run(192)
    assert killed and summary["ray_replaced_actors"] == 1
    assert any(n > 0 for n in undone)  # the undo put merged tasks back
    assert summary["ray_checksums_ok"] == 3
    assert same_run(str(tmp_path / "local"), str(tmp_path / "ray"))


def test_euchre_on_ray_equals_one_local_worker_bit_for_bit(ray_session, tmp_path, capsys):
    """Euchre trains on Ray through the same runner as Setback, to the same table."""
    common = ["train", "baseline", "--game", "euchre", "--iterations", "32", "--seed", "3",
              "--batch", "16", "--no-progress"]
    status, _, err = run_cli(capsys, [*common, "--run", str(tmp_path / "local"),
                                      "--workers", "1"])
    assert status == 0, err
    status, out, err = run_cli(capsys, [*common, "--run", str(tmp_path / "ray"), "--ray",
                                        "--workers", "2"])
    assert status == 0, err
    assert "Ray: 2 workers" in out
    assert same_run(str(tmp_path / "local"), str(tmp_path / "ray"))
