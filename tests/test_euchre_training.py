"""Euchre trained through the same runner as Setback (`train baseline --game euchre`): resume
bit for bit, workers that do not change the table, the game recorded and a resume under
another game refused in one line, and the export / database of the run."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from cli_runner import run_cli

from cfr import checkpoint
from train_runs import same_run


def cli(capsys, *argv):
    return run_cli(capsys, argv)


def euchre(capsys, run, iterations, *extra):
    return cli(capsys, "train", "baseline", "--game", "euchre", "--run", str(run),
               "--iterations", str(iterations), "--seed", "3", "--batch", "16", "--no-progress",
               *extra)


@pytest.fixture(scope="module")
def whole_run(tmp_path_factory):
    """64 hands in one go, one worker."""
    from cli.main import main

    run = tmp_path_factory.mktemp("euchre") / "run"
    assert main(["train", "baseline", "--game", "euchre", "--run", str(run), "--iterations",
                 "64", "--seed", "3", "--batch", "16", "--no-progress"]) == 0
    return run


def test_the_run_records_the_game_and_trains_euchre_keys(whole_run):
    with open(os.path.join(whole_run, "run.json"), encoding="utf-8") as handle:
        settings = json.load(handle)["settings"]
    assert settings["game"] == "euchre" and settings["abstraction"] == "euchre-basic"
    ckpt = checkpoint.load(os.path.join(whole_run, "checkpoint.ckpt"))
    assert ckpt.game == "euchre-baseline" and ckpt.iteration == 64
    keys = ckpt.table.keys[np.flatnonzero(ckpt.table.meta), 0]
    kinds = np.bincount((keys >> np.uint64(62)).astype(np.int64), minlength=4)
    assert (kinds > 0).all()  # order, name, alone and play keys were all visited


def test_resume_and_workers_are_bit_for_bit(whole_run, tmp_path, capsys):
    part = tmp_path / "part"
    assert euchre(capsys, part, 32)[0] == 0
    assert euchre(capsys, part, 64, "--workers", "2")[0] == 0  # resumed, with two workers
    assert same_run(str(part), str(whole_run))


def test_a_resume_under_another_game_is_refused_in_one_line(whole_run, tmp_path, capsys):
    status, _, err = cli(capsys, "train", "baseline", "--game", "setback", "--run",
                         str(whole_run), "--iterations", "65", "--no-progress")
    assert status == 2 and "is a euchre run, not setback" in err and len(err.splitlines()) == 1
    status, _, err = euchre(capsys, tmp_path / "x", 1, "--abstraction", "bidder")
    assert status == 2 and "--abstraction is Setback's" in err


@pytest.mark.parametrize("argv, message", [
    (("--warm-start-rule", "copy"), "--warm-start-rule is Setback's"),
    (("--warm-start", "coarse"), "--warm-start is Setback's"),
    (("--updates", "reference"), "--updates reference is the reference program's walk"),
])
def test_setback_s_baseline_options_are_refused_for_euchre(argv, message, tmp_path, capsys):
    """Setback's options of `train baseline` (its train module's `BASELINE_OPTIONS`) and the
    reference's walk are refused for a game trained by the registry's `trainer`, before any
    training: one line, no checkpoint."""
    status, _, err = euchre(capsys, tmp_path / "x", 1, *argv)
    assert status == 2 and message in err and len(err.splitlines()) == 1
    assert not (tmp_path / "x" / "checkpoint.ckpt").exists()
