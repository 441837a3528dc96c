"""The database file: one clear error line for every bad file, read-only opening, and several
processes reading one database at once."""

import json
import multiprocessing
import sqlite3

import pytest

from db.database import StrategyDatabase
from db.errors import DatabaseError
from db.loader import load_strategies
from games.setback.db.synthetic import write_synthetic_strategy

N_KEYS = 20_000


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("db")
    src = str(tmp / "base.strategy")
    write_synthetic_strategy(src, "baseline", N_KEYS, seed=2)
    path = str(tmp / "good.db")
    load_strategies([src], path, progress=False)
    return path


def _expect(path, message):
    with pytest.raises(DatabaseError, match=message) as info:
        StrategyDatabase(str(path))
    assert "\n" not in str(info.value)
    return str(info.value)


def test_bad_files_give_one_clear_error(good, tmp_path):
    data = open(good, "rb").read()
    _expect(tmp_path / "missing.db", "no such strategy database")
    _expect(tmp_path, "is a directory")
    (tmp_path / "empty.db").write_bytes(b"")
    _expect(tmp_path / "empty.db", "empty file")
    (tmp_path / "text.db").write_text("hello, this is not a database\n" * 10)
    _expect(tmp_path / "text.db", "not a setback-cfr strategy database")
    (tmp_path / "truncated.db").write_bytes(data[: len(data) // 2])
    _expect(tmp_path / "truncated.db", "truncated strategy database")
    (tmp_path / "header-only.db").write_bytes(data[:60])
    _expect(tmp_path / "header-only.db", "truncated")
    garbled = bytearray(data)
    garbled[2 * 16384:-16384] = b"\xff" * (len(data) - 3 * 16384)
    (tmp_path / "corrupt.db").write_bytes(bytes(garbled))
    _expect(tmp_path / "corrupt.db", "corrupt strategy database")
    foreign = tmp_path / "foreign.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE things (a INTEGER)")
    conn.commit()
    conn.close()
    _expect(foreign, "not a setback-cfr strategy database")
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE metadata (name TEXT PRIMARY KEY, value TEXT)")
    conn.execute("INSERT INTO metadata VALUES ('format', '\"something-else\"')")
    conn.commit()
    conn.close()
    _expect(foreign, "not a setback-cfr strategy database")


def test_a_newer_schema_is_refused(good, tmp_path):
    newer = tmp_path / "newer.db"
    newer.write_bytes(open(good, "rb").read())
    conn = sqlite3.connect(newer)
    conn.execute("UPDATE metadata SET value = ? WHERE name = 'schema_version'", (json.dumps(2),))
    conn.commit()
    conn.close()
    message = _expect(newer, "schema version 2 is newer")
    assert "upgrade" in message


def test_a_database_of_another_abstraction_version_is_refused(good, tmp_path):
    other = tmp_path / "other.db"
    other.write_bytes(open(good, "rb").read())
    conn = sqlite3.connect(other)
    conn.execute("UPDATE metadata SET value = ? WHERE name = 'abstraction_version'",
                 (json.dumps(7),))
    conn.commit()
    conn.close()
    _expect(other, "built for abstraction version 7, but this program's keys are version 1")


def test_the_database_is_opened_read_only(good):
    with StrategyDatabase(good) as db:
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            db._cursor.execute("DELETE FROM strategy")


def test_keys_are_bound_parameters(good):
    with StrategyDatabase(good) as db:
        assert db.lookup("x' OR '1'='1") is None
        assert db.lookup("'; DROP TABLE strategy; --") is None
        assert db.n_keys == N_KEYS


def _count_found(path, keys, queue):
    with StrategyDatabase(path) as db:
        queue.put(sum(db.lookup(k) is not None for k in keys))


def test_several_processes_share_one_database(good):
    from cfr.strategy_file import read_strategy

    src = good.replace("good.db", "base.strategy")
    keys = list(read_strategy(src)[1])[:2000]
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    with StrategyDatabase(good):  # this process holds it open too
        procs = [ctx.Process(target=_count_found, args=(good, keys, queue)) for _ in range(3)]
        for p in procs:
            p.start()
        results = [queue.get(timeout=60) for _ in procs]
        for p in procs:
            p.join(timeout=60)
    assert results == [2000, 2000, 2000]


def test_a_forked_child_opens_its_own_connection(good):
    from cfr.strategy_file import read_strategy

    keys = list(read_strategy(good.replace("good.db", "base.strategy"))[1])[:500]
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    with StrategyDatabase(good) as db:
        assert db.lookup(keys[0]) is not None
        child = ctx.Process(target=_lookup_in_child, args=(db, keys, queue))
        child.start()
        assert queue.get(timeout=60) == 500
        child.join(timeout=60)
        assert sum(db.lookup(k) is not None for k in keys) == 500  # the parent's still works


def _lookup_in_child(db, keys, queue):
    queue.put(sum(db.lookup(k) is not None for k in keys))
