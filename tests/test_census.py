"""`setback-cfr census`: the trainer's pass over abstract Setback, info sets counted by kind.

The census must see exactly the info sets of the full abstract trees of its deals: checked
against the benchmark's independent kernel walk of the same deals (bench/abstraction_speed.py).
Seed 19's first deals are small, to keep this fast.
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys

import numpy as np

from games.setback.abstraction.codec import key_text, text_key
from cli.main import main
from games.setback.train.census import count_by_kind, run_census

BENCH = pathlib.Path(__file__).resolve().parent.parent / "bench" / "abstraction_speed.py"
SEED = 19


def load_bench():
    if str(BENCH.parent) not in sys.path:
        sys.path.insert(0, str(BENCH.parent))
    return importlib.import_module("abstraction_speed")


def test_census_counts_every_info_set_of_the_full_trees():
    result = run_census(2, SEED)
    walk, _ = load_bench().walk_census(2, SEED)
    assert result.by_kind == walk.by_kind()
    assert result.info_sets == sum(result.by_kind.values()) > 1000
    assert result.by_kind["auction"] >= 1 and result.by_kind["playout"] > 0


def test_census_is_deterministic_and_grows_with_deals():
    one = run_census(1, SEED)
    assert run_census(1, SEED).by_kind == one.by_kind
    two = run_census(2, SEED)
    assert all(two.by_kind[k] >= one.by_kind[k] for k in one.by_kind)


def test_count_by_kind_reads_the_kind_tag():
    keys = np.array([text_key("0AJx2"), text_key("E3AJ....KQ"), text_key("...+0At4t..0TTTQ"),
                     text_key("Hx.+0.......TxT2TJS.W")], dtype=np.uint64)
    assert count_by_kind(keys) == {"auction": 1, "establish": 1, "playout": 2}
    assert key_text(int(keys[1])) == "E3AJ....KQ"


def test_cli_json(capsys):
    assert main(["census", "--deals", "1", "--seed", str(SEED), "--json", "--no-progress"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["deals"] == 1 and out["seed"] == SEED
    assert out["info_sets"] == sum(out["by_kind"].values())
    assert set(out["by_kind"]) == {"auction", "establish", "playout"}
    assert out["deals_per_second"] > 0


def test_cli_rejects_bad_arguments(capsys):
    import pytest

    with pytest.raises(SystemExit) as exc:
        main(["census", "--deals", "0"])
    assert exc.value.code == 2


def test_census_of_a_finer_layout_splits_only_the_playout_keys(capsys):
    reference = run_census(1, SEED)
    for name in ("bidder", "contract"):
        finer = run_census(1, SEED, abstraction=name)
        # the layouts refine the playout key alone: the same auction and establish keys, and
        # every reference playout key split into one or more (never merged)
        assert finer.by_kind["auction"] == reference.by_kind["auction"]
        assert finer.by_kind["establish"] == reference.by_kind["establish"]
        assert finer.by_kind["playout"] > reference.by_kind["playout"]
        assert finer.decisions == reference.decisions  # the same trees walked
    assert main(["census", "--deals", "1", "--seed", str(SEED), "--abstraction", "bidder",
                 "--json", "--no-progress"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["abstraction"] == "bidder"
    assert out["by_kind"] == run_census(1, SEED, abstraction="bidder").by_kind
