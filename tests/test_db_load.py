"""`db load`: what goes in (by stage and kind), how it is stored, atomicity, bad inputs."""

import os
import sqlite3

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfr.errors import CfrFileError
from cfr.strategy_file import StrategyChunk, read_strategy
from db.action_names import action_names
from db.database import StrategyDatabase
from db.errors import DatabaseError
from db.key_kind import AUCTION, BOOTSTRAP, ESTABLISH, PLAYOUT, UNKNOWN, key_kind, key_kinds
from db.loader import best_actions, load_strategies, statement_params
from games.setback.db.synthetic import write_synthetic_strategy, write_table

BASELINE = {
    "0AJx2": [0.1, 0.2, 0.6, 0.1],
    "E3AJx2": [0.5, 0.5],
    "...+0At4t..0TTTQ": [0.75, 0.25],
    "Hx.+0.......TxT2TJS.W": [0.1, 0.1, 0.1, 0.6, 0.1],
    "H4.-0Kx....0l2lT": [0.9, 0.1],
    "H4.+0KxQx..0TQw4l0": [0.2, 0.7, 0.1],
}
BOOTSTRAP_TABLE = {"x./0/-1/0/AJx2........": [0.0, 0.1, 0.2, 0.7],
                   "3./3/1/1/QT..........": [0.4, 0.6]}


@pytest.fixture
def files(tmp_path):
    base, boot = str(tmp_path / "base.strategy"), str(tmp_path / "boot.strategy")
    write_table(base, "baseline", BASELINE, iterations=1234)
    write_table(boot, "bootstrap", BOOTSTRAP_TABLE, iterations=99)
    return base, boot


def test_key_kinds_follow_the_spec_layouts():
    cases = {"0AJx2": AUCTION, "2Kx7": AUCTION, "3QT": AUCTION, "DAJx2": AUCTION,
             "E3AJx2": ESTABLISH, "...+0At4t..0TTTQ": PLAYOUT, "Hx.+0.......TxT2TJS.W": PLAYOUT,
             "x./0/-1/0/AJx2........": BOOTSTRAP, "2!/2/1/1/AJx2........": BOOTSTRAP,
             "": UNKNOWN, "zz": UNKNOWN, "05": AUCTION}
    for key, kind in cases.items():
        assert key_kind(key) == kind, key
    keys = list(cases)
    np.testing.assert_array_equal(key_kinds(keys), [cases[k] for k in keys])


def test_action_names_read_back_from_the_key():
    assert action_names("0AJx2", 4) == ["Pass", "Two", "Three", "Four"]
    assert action_names("0Kx7", 3) == ["Pass", "Two", "Three"]  # Four dropped (no Jack)
    assert action_names("2AJx2", 3) == ["Pass", "Three", "Four"]
    assert action_names("DAJx2", 2) == ["Pass", "Four"]
    assert action_names("x./0/-1/0/AJx2........", 4) == ["Pass", "Two", "Three", "Four"]
    assert action_names("3./3/1/1/QT..........", 2) == ["Pass", "Four"]
    assert action_names("E3AJx2", 2) == ["E0", "E1"]
    assert action_names("...+0At4t..0TTTQ", 2) == ["TT", "TQ"]
    assert action_names("Hx.+0.......TxT2TJS.W", 5) == ["Tx", "T2", "TJ", "S.", "W."]
    assert action_names("zz", 2) == ["?0", "?1"]


def test_best_action_is_the_first_maximum():
    n = np.array([2, 3, 1, 4], np.uint8)
    probs = np.float32([0.5, 0.5, 0.1, 0.2, 0.7, 1.0, 0.25, 0.25, 0.4, 0.1])
    np.testing.assert_array_equal(best_actions(n, probs), [0, 2, 0, 2])


def test_statement_parameters_locate_every_blob():
    chunk = StrategyChunk(["a", "b", "c", "d", "e"], np.array([2, 3, 1, 4, 2], np.uint8),
                          np.arange(12, dtype=np.float32))
    statements = list(statement_params(chunk, rows=2))
    assert len(statements) == 3
    blobs = {}
    for params in statements:
        data, rows = params[0], params[1:]
        for key, best, start, length in zip(*[iter(rows)] * 4):
            blobs[key] = data[start - 1:start - 1 + length]
    assert blobs == {k: v.tobytes() for k, v in chunk.items()}


def test_load_stores_every_vector_and_the_metadata(files, tmp_path):
    base, boot = files
    path = str(tmp_path / "s.db")
    report = load_strategies([boot, base], path, progress=False)
    assert report.n_keys == 8
    assert report.kind_counts == {"auction": 1, "establish": 1, "playout": 4, "bootstrap": 2}
    with StrategyDatabase(path) as db:
        for key, probs in {**BASELINE, **BOOTSTRAP_TABLE}.items():
            stored, best = db.lookup(key)
            np.testing.assert_array_equal(stored, np.float32(probs))
            assert best == int(np.argmax(probs))
        assert db.lookup("0AJx") is None
        info = db.info()
        assert info["schema_version"] == 1 and info["abstraction_version"] == 1
        assert info["n_keys"] == 8 and db.has_bootstrap
        assert [(s["stage"], s["iterations"], s["source"]) for s in info["stages"]] == [
            ("baseline", 1234, os.path.abspath(base)), ("bootstrap", 99, os.path.abspath(boot))]
    # the stored blob is the float32 vector, the table has no rowid
    conn = sqlite3.connect(path)
    blob, best = conn.execute("SELECT probs, best FROM strategy WHERE key = ?",
                              ("0AJx2",)).fetchone()
    assert blob == np.float32([0.1, 0.2, 0.6, 0.1]).tobytes() and best == 2
    sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'strategy'").fetchone()[0]
    assert "WITHOUT ROWID" in sql
    conn.close()


def test_a_baseline_alone_can_bid_and_each_stage_gives_its_kinds(tmp_path):
    base, boot = str(tmp_path / "b.strategy"), str(tmp_path / "s.strategy")
    write_table(base, "baseline", {**BASELINE, "x./0/-1/0/AJx2........": [0.5, 0.5, 0, 0]})
    write_table(boot, "bootstrap", {**BOOTSTRAP_TABLE, "0AJx2": [1, 0, 0, 0]})
    report = load_strategies([base, boot], str(tmp_path / "x.db"), progress=False)
    assert [s["n_keys_skipped"] for s in report.stages] == [1, 1]
    with StrategyDatabase(str(tmp_path / "x.db")) as db:
        assert db.lookup("0AJx2")[1] == 2  # the baseline's auction key, not the bootstrap's
        assert db.lookup("x./0/-1/0/AJx2........")[1] == 3
    load_strategies([base], str(tmp_path / "only.db"), progress=False)
    with StrategyDatabase(str(tmp_path / "only.db")) as db:
        assert db.lookup("0AJx2") is not None and not db.has_bootstrap


def test_a_synthetic_export_round_trips(tmp_path):
    src = str(tmp_path / "big.strategy")
    write_synthetic_strategy(src, "baseline", 30_000, seed=5, chunk_keys=7013)
    _, table = read_strategy(src)
    report = load_strategies([src], str(tmp_path / "big.db"), progress=False)
    assert report.n_keys == 30_000 and sum(report.kind_counts.values()) == 30_000
    with StrategyDatabase(str(tmp_path / "big.db")) as db:
        for key in table:  # every key: chunk and statement boundaries included
            probs, best = db.lookup(key)
            np.testing.assert_array_equal(probs, table[key])
            assert best == int(np.argmax(table[key]))


def test_a_failed_load_leaves_the_old_database_and_no_temporary_file(files, tmp_path):
    base, _ = files
    path = tmp_path / "s.db"
    load_strategies([base], str(path), progress=False)
    before = path.read_bytes()
    bad = tmp_path / "bad.strategy"
    write_table(str(bad), "baseline", {"0AJx2": [1.0, 0.0], "zzz": [1.0, 0.0]})
    with pytest.raises(DatabaseError, match="'zzz' is not a Setback key"):
        load_strategies([str(bad)], str(path), progress=False)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "bad.strategy", "base.strategy", "boot.strategy", "s.db"]


def test_inputs_that_do_not_belong_together_are_refused(files, tmp_path):
    base, boot = files
    other = str(tmp_path / "other.strategy")
    db = str(tmp_path / "s.db")
    with pytest.raises(DatabaseError, match="a second baseline"):
        load_strategies([base, base], db, progress=False)
    write_table(other, "bootstrap", BOOTSTRAP_TABLE, abstraction_version=2)
    with pytest.raises(DatabaseError, match="trained under abstraction version 2, but this "
                       "program's keys are version 1"):
        load_strategies([base, other], db, progress=False)
    write_table(other, "bootstrap", BOOTSTRAP_TABLE, abstraction="another")
    with pytest.raises(DatabaseError, match="abstraction 'another' differs"):
        load_strategies([base, other], db, progress=False)
    write_table(other, "baseline", BASELINE, game="kuhn")
    with pytest.raises(DatabaseError, match="game 'kuhn'"):
        load_strategies([other], db, progress=False)
    write_table(other, "final", BASELINE)
    with pytest.raises(DatabaseError, match="unknown stage"):
        load_strategies([other], db, progress=False)
    (tmp_path / "junk.strategy").write_bytes(b"not msgpack at all")
    with pytest.raises(CfrFileError, match="not a setback-cfr strategy file"):
        load_strategies([str(tmp_path / "junk.strategy")], db, progress=False)
    assert not os.path.exists(db)


def test_an_empty_export_gives_an_empty_database(tmp_path):
    src = str(tmp_path / "empty.strategy")
    write_table(src, "baseline", {})
    report = load_strategies([src], str(tmp_path / "e.db"), progress=False)
    assert report.n_keys == 0
    with StrategyDatabase(str(tmp_path / "e.db")) as db:
        assert db.lookup("0AJx2") is None and not db.has_bootstrap
    with pytest.raises(DatabaseError, match="does not exist"):
        load_strategies([src], str(tmp_path / "no" / "e.db"), progress=False)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="023DEH.x!/AKQJT98765421+-tWLwlSNGP", max_size=24),
                max_size=40))
def test_vectorized_key_kinds_agree_with_one_by_one(keys):
    np.testing.assert_array_equal(key_kinds(keys), [key_kind(k) for k in keys])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, 6), max_size=30), st.integers(1, 7), st.integers(0, 10**6))
def test_statement_parameters_for_any_sizes(n_actions, rows, seed):
    rng = np.random.default_rng(seed)
    n_actions = np.array(n_actions, np.uint8)
    probs = rng.random(int(n_actions.sum())).astype(np.float32)
    chunk = StrategyChunk([f"k{i}" for i in range(n_actions.size)], n_actions, probs)
    blobs, bests = {}, {}
    for params in statement_params(chunk, rows=rows):
        data = params[0]
        assert len(params) - 1 <= 4 * rows
        for key, best, start, length in zip(*[iter(params[1:])] * 4):
            blobs[key], bests[key] = data[start - 1:start - 1 + length], best
    assert blobs == {k: v.tobytes() for k, v in chunk.items()}
    assert bests == {k: int(np.argmax(v)) for k, v in chunk.items()}
