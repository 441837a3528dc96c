"""`train baseline --algorithm`: every algorithm on Setback resumes bit for bit, is recorded in
the run, keeps the worker contract, and changes what it should (cfr stays the reference's pass:
tests/test_train.py and tests/test_episode_pass.py pin it)."""

import json

import numpy as np
import pytest

from cfr import checkpoint
from cfr.table import InfoSetTable
from cfr.variants import average_discount, end_iteration, make_variant
from cli_runner import run_cli
from test_train import SEED, same_run

ALGORITHMS = ("cfr", "cfr+", "lcfr", "dcfr", "es-mccfr")


def baseline(capsys, run, iterations, *extra):
    return run_cli(capsys, ("train", "baseline", "--run", str(run), "--iterations",
                            str(iterations), "--seed", str(SEED), "--no-progress", *extra))


def table_of(run):
    return checkpoint.load(str(run / "checkpoint.ckpt")).table


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_algorithm_resumes_bit_for_bit_and_is_recorded(algorithm, tmp_path, capsys):
    part, whole = tmp_path / "part", tmp_path / "whole"
    assert baseline(capsys, part, 2, "--algorithm", algorithm, "--batch", "2")[0] == 0
    assert baseline(capsys, part, 4)[0] == 0  # the run's own algorithm and batch are kept
    assert baseline(capsys, whole, 4, "--algorithm", algorithm, "--batch", "2")[0] == 0
    assert same_run(str(part), str(whole))
    settings = json.loads((part / "run.json").read_text())["settings"]
    assert settings["algorithm"] == algorithm
    assert checkpoint.load(str(part / "checkpoint.ckpt")).algorithm == algorithm
    other = "cfr" if algorithm != "cfr" else "dcfr"
    status, _, err = baseline(capsys, part, 5, "--algorithm", other)
    assert status == 2 and err.count("\n") == 1
    assert f"algorithm {algorithm!r} (asked {other!r})" in err


def test_the_algorithms_differ_where_they_should(tmp_path, capsys):
    tables = {}
    for algorithm in ALGORITHMS:
        run = tmp_path / algorithm
        assert baseline(capsys, run, 2, "--algorithm", algorithm)[0] == 0
        tables[algorithm] = table_of(run)
    cfr = tables["cfr"]
    default = tmp_path / "default"
    assert baseline(capsys, default, 2)[0] == 0
    assert table_of(default).same_contents(tables["es-mccfr"])  # the race's winner
    # cfr+ clamps regrets at 0 after every iteration (batch 1: every deal)
    plus = tables["cfr+"]
    assert (plus.regrets[:plus.n_values] >= 0).all() and (cfr.regrets[:cfr.n_values] < 0).any()
    # the full-width variants visit the same info sets as cfr in the same deals
    for name in ("cfr+", "lcfr", "dcfr"):
        assert tables[name].count == cfr.count and not tables[name].same_contents(cfr)
    # external sampling walks a fraction of the tree: far fewer info sets in two deals
    assert 0 < tables["es-mccfr"].count < cfr.count // 2


def test_es_mccfr_tables_do_not_depend_on_the_workers(tmp_path, capsys):
    runs = [tmp_path / f"w{k}" for k in (1, 2)]
    for k, run in enumerate(runs, start=1):
        assert baseline(capsys, run, 12, "--algorithm", "es-mccfr", "--batch", "6",
                        "--workers", str(k), "--linear-weighting")[0] == 0
    assert same_run(str(runs[0]), str(runs[1]))
    settings = json.loads((runs[0] / "run.json").read_text())["settings"]
    assert settings["linear_weighting"] is True and settings["prune_threshold"] is None


def test_es_mccfr_options_are_recorded_and_refused_for_other_algorithms(tmp_path, capsys):
    run = tmp_path / "pruned"
    assert baseline(capsys, run, 4, "--algorithm", "es-mccfr", "--prune-threshold", "-1",
                    "--prune-probability", "0.5")[0] == 0
    settings = json.loads((run / "run.json").read_text())["settings"]
    assert settings["prune_threshold"] == -1.0 and settings["prune_probability"] == 0.5
    status, _, err = baseline(capsys, tmp_path / "x", 1, "--algorithm", "cfr",
                              "--prune-threshold", "-1")
    assert status == 2 and err.count("\n") == 1 and "es-mccfr only" in err
    status, _, err = baseline(capsys, tmp_path / "y", 1, "--algorithm", "dcfr", "--updates",
                              "reference")
    assert status == 2 and err.count("\n") == 1 and "only with --algorithm cfr" in err
    # --updates reference alone makes a cfr run (the default algorithm is es-mccfr)
    assert baseline(capsys, tmp_path / "z", 1, "--updates", "reference")[0] == 0
    settings = json.loads((tmp_path / "z" / "run.json").read_text())["settings"]
    assert settings["algorithm"] == "cfr" and settings["updates"] == "reference"


def test_end_iteration_weights_the_average_like_the_variant():
    """Unweighted increments plus `end_iteration`'s discount give the average the variant's
    weights w_t would: after T iterations increment k carries (k / (T+1))^gamma."""
    for name in ("cfr+", "lcfr", "dcfr"):
        variant = make_variant(name)
        table = InfoSetTable(key_words=1, dtype=np.float64)
        offset = table.insert(np.array([7], np.uint64), 2, 0)
        weighted = np.zeros(2)
        rng = np.random.default_rng(0)
        for t in range(1, 30):
            increment = rng.random(2)
            table.strategy[offset:offset + 2] += increment
            weighted += variant.strategy_weight(t) * increment
            end_iteration(table, variant, t)
        got = table.strategy[offset:offset + 2]
        np.testing.assert_allclose(got / got.sum(), weighted / weighted.sum(), rtol=1e-12)
        assert average_discount(make_variant("cfr"), 5) == 1.0


@pytest.mark.parametrize("algorithm", ("dcfr", "es-mccfr"))
def test_the_bootstrap_stage_takes_the_algorithms_and_resumes_bit_for_bit(algorithm, tmp_path,
                                                                         capsys):
    base = tmp_path / "base"
    assert baseline(capsys, base, 1)[0] == 0

    def bootstrap(run, iterations, *extra):
        return run_cli(capsys, ("train", "bootstrap", "--baseline", str(base), "--run",
                                str(run), "--iterations", str(iterations), "--seed", "3",
                                "--no-progress", *extra))

    assert bootstrap(tmp_path / "part", 60, "--algorithm", algorithm, "--batch", "4")[0] == 0
    assert bootstrap(tmp_path / "part", 120, "--workers", "2")[0] == 0
    assert bootstrap(tmp_path / "whole", 120, "--algorithm", algorithm, "--batch", "4")[0] == 0
    assert same_run(str(tmp_path / "part"), str(tmp_path / "whole"))
    settings = json.loads((tmp_path / "part" / "run.json").read_text())["settings"]
    assert settings["algorithm"] == algorithm
