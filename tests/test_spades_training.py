"""Spades trained through the same runner as Setback and Euchre (`train baseline --game
spades`): the game and abstraction recorded, bid and play keys trained, resume and workers bit
for bit, another game refused in one line; export and `db load` round trip; the `db:` player
plays legal moves only and beats random in points a hand."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from cli_runner import run_cli
from train_runs import same_run

from cfr import checkpoint

ITERATIONS = 400


def spades(capsys, run, iterations, *extra):
    return run_cli(capsys, ["train", "baseline", "--game", "spades", "--run", str(run),
                            "--iterations", str(iterations), "--seed", "3", "--batch", "8",
                            "--no-progress", *extra])


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A run of ITERATIONS hands in one go, one worker, exported and loaded: (run, strategy
    file, database)."""
    from cli.main import main

    base = tmp_path_factory.mktemp("spades")
    run, strategy, db = base / "run", base / "spades.strat", base / "spades.db"
    assert main(["train", "baseline", "--game", "spades", "--run", str(run), "--iterations",
                 str(ITERATIONS), "--seed", "3", "--batch", "8", "--no-progress"]) == 0
    assert main(["export", "--run", str(run), "--out", str(strategy)]) == 0
    assert main(["db", "load", str(strategy), "--db", str(db), "--no-progress"]) == 0
    return run, strategy, db


def test_the_run_records_the_game_and_trains_bid_and_play_keys(trained):
    run = trained[0]
    with open(os.path.join(run, "run.json"), encoding="utf-8") as handle:
        settings = json.load(handle)["settings"]
    assert settings["game"] == "spades" and settings["abstraction"] == "spades-basic"
    assert settings["algorithm"] == "es-mccfr"
    ckpt = checkpoint.load(os.path.join(run, "checkpoint.ckpt"))
    assert ckpt.game == "spades-baseline" and ckpt.iteration == ITERATIONS
    keys = ckpt.table.keys[np.flatnonzero(ckpt.table.meta), 0]
    kinds = np.bincount((keys >> np.uint64(62)).astype(np.int64), minlength=2)
    assert kinds.size == 2 and (kinds > 0).all()  # bid and play keys, nothing else


def test_resume_and_workers_are_bit_for_bit(trained, tmp_path, capsys):
    part = tmp_path / "part"
    assert spades(capsys, part, ITERATIONS // 2)[0] == 0
    assert spades(capsys, part, ITERATIONS, "--workers", "2")[0] == 0  # resumed, two workers
    assert same_run(str(part), str(trained[0]))


def test_another_game_and_setback_options_are_refused_in_one_line(trained, tmp_path, capsys):
    status, _, err = run_cli(capsys, ["train", "baseline", "--game", "euchre", "--run",
                                      str(trained[0]), "--iterations", "1", "--no-progress"])
    assert status == 2 and "is a spades run, not euchre" in err and len(err.splitlines()) == 1
    status, _, err = spades(capsys, tmp_path / "x", 1, "--abstraction", "bidder")
    assert status == 2 and "--abstraction is Setback's" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "x").exists() or not os.listdir(tmp_path / "x")


def test_export_and_db_load_round_trip(trained, capsys):
    from games.spades.abstraction.codec import action_names
    from cfr.strategy_file import read_strategy

    _, strategy, db = trained
    header, entries = read_strategy(str(strategy))
    assert header["game"] == "spades" and header["abstraction"] == "spades-basic"
    status, out, _ = run_cli(capsys, ["db", "info", "--db", str(db)])
    assert status == 0 and "game           spades, abstraction spades-basic version 1" in out
    assert f"{len(entries):,}" in out
    for text in (next(t for t in entries if t[0] == "B"), next(t for t in entries if t[0] == "P")):
        status, out, _ = run_cli(capsys, ["db", "query", "--db", str(db), "--json", text])
        assert status == 0, out
        answer = json.loads(out)
        probs = [a["probability"] for a in answer["actions"]]
        assert np.allclose(probs, entries[text], atol=1e-6)
        assert [a["action"] for a in answer["actions"]] == action_names(text, len(probs))


def test_the_database_player_plays_legally_and_beats_random(trained, capsys):
    db = str(trained[2])
    status, out, err = run_cli(capsys, ["tournament", "--game", "spades", "--ew", f"db:{db}",
                                        "--ns", "random", "--hands", "--duplicate", "--games",
                                        "40", "--seed", "17", "--json", "--no-progress"])
    assert status == 0, err  # an illegal move would have stopped the tournament
    summary = json.loads(out)
    assert summary["difference_low"] > 0, summary  # points a hand, paired interval above 0
    status, _, err = run_cli(capsys, ["tournament", "--game", "spades", "--ew", "db:nowhere.db",
                                      "--ns", "random", "--hands", "--games", "1"])
    assert status == 2 and len(err.splitlines()) == 1
