"""Checkpoints: resume equals an uninterrupted run bit for bit; bad files give one clear line."""

from __future__ import annotations

import msgpack
import numpy as np
import pytest

from cfr import checkpoint
from cfr.errors import CfrFileError
from cfr.solver import Solver
from games.kuhn import GAME as KUHN
from games.leduc import GAME as LEDUC

SETTINGS = [
    ("cfr", {}),
    ("cfr+", {}),
    ("lcfr", {}),
    ("dcfr", {}),
    ("dcfr", {"alpha": 2.0, "beta": 0.5, "gamma": 3.0}),
    ("cfr", {"simultaneous": True}),
    ("cfr+", {"simultaneous": True}),
    ("cfr", {"sampled_chance": True, "seed": 11}),
    ("dcfr", {"sampled_chance": True, "seed": 5, "simultaneous": True}),
    ("cfr+", {"dtype": np.float32}),
]


@pytest.mark.parametrize("algorithm,kw", SETTINGS)
def test_resume_equals_uninterrupted(tmp_path, algorithm, kw):
    n = 15
    path = str(tmp_path / "run.ckpt")
    straight = Solver(LEDUC, algorithm, **kw)
    straight.iterate(2 * n)
    first = Solver(LEDUC, algorithm, **kw)
    first.iterate(n)
    first.save(path)
    resumed = Solver.resume(LEDUC, path)
    assert resumed.iteration == n
    assert resumed.settings() == straight.settings()
    resumed.iterate(n)
    assert resumed.table.same_contents(straight.table)
    assert resumed.table.capacity == straight.table.capacity


def test_resume_with_tree_equals_interface_walk(tmp_path):
    path = str(tmp_path / "run.ckpt")
    straight = Solver(LEDUC, "cfr+")
    straight.iterate(20)
    first = Solver(LEDUC, "cfr+", use_tree=True)
    first.iterate(10)
    first.save(path)
    resumed = Solver.resume(LEDUC, path, use_tree=True)
    resumed.iterate(10)
    assert resumed.table.same_contents(straight.table)


def test_header_records_everything(tmp_path):
    path = str(tmp_path / "h.ckpt")
    s = Solver(KUHN, "dcfr", seed=9, sampled_chance=True)
    s.iterate(3)
    s.save(path)
    doc, _ = checkpoint.read_header(path)
    assert doc["magic"] == checkpoint.MAGIC and doc["version"] == checkpoint.FORMAT_VERSION
    assert doc["game"] == "kuhn" and doc["algorithm"] == "dcfr" and doc["iteration"] == 3
    assert doc["settings"] == {"algorithm": "dcfr", "regret_matching_plus": False,
                               "linear_averaging": False, "discount": True, "alpha": 1.5,
                               "beta": 0.0, "gamma": 2.0, "simultaneous": False,
                               "sampled_chance": True, "seed": 9, "dtype": "float64"}
    assert doc["rng"] == {"kind": "splitmix64-counter", "seed": 9, "counter": 3}
    assert not list(tmp_path.glob(".tmp-*")), "temporary file left behind"


@pytest.fixture
def good_file(tmp_path) -> str:
    path = str(tmp_path / "good.ckpt")
    s = Solver(KUHN, "cfr")
    s.iterate(5)
    s.save(path)
    return path


def expect_one_line(path: str, fragment: str) -> None:
    with pytest.raises(CfrFileError) as info:
        checkpoint.load(path)
    message = str(info.value)
    assert "\n" not in message and path in message and fragment in message, message


def test_truncated(good_file):
    data = open(good_file, "rb").read()
    for cut in (len(data) - 1, len(data) // 2, 10):
        with open(good_file, "wb") as f:
            f.write(data[:cut])
        expect_one_line(good_file, "truncated or corrupt")


def test_corrupt_byte(good_file):
    data = bytearray(open(good_file, "rb").read())
    data[-40] ^= 0xFF  # inside the array bytes or the checksum
    open(good_file, "wb").write(bytes(data))
    expect_one_line(good_file, "corrupt")


def test_foreign(tmp_path):
    path = str(tmp_path / "foreign.ckpt")
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + bytes(100))
    expect_one_line(path, "not a setback-cfr checkpoint")
    open(path, "wb").write(msgpack.packb({"magic": "something-else", "version": 1}))
    expect_one_line(path, "not a setback-cfr checkpoint")
    open(path, "wb").write(b"")
    expect_one_line(path, "not a setback-cfr checkpoint")


def test_newer_version(good_file):
    doc, _ = checkpoint.read_header(good_file)
    doc["version"] = checkpoint.FORMAT_VERSION + 1
    open(good_file, "wb").write(msgpack.packb(doc, use_bin_type=True))
    expect_one_line(good_file, "newer")


def test_trailing_bytes(good_file):
    data = open(good_file, "rb").read()
    open(good_file, "wb").write(data + b"x")
    expect_one_line(good_file, "trailing bytes")


def test_format_1_is_still_read(good_file):
    import hashlib

    doc, offset = checkpoint.read_header(good_file)
    want = checkpoint.load(good_file)
    raw = open(good_file, "rb").read()[offset:]
    arrays, at = {}, 0
    for name, _, nbytes in doc["arrays"]:
        arrays[name] = raw[at:at + nbytes]
        at += nbytes
    h = hashlib.blake2b(digest_size=16)
    for name in ("keys", "meta", "offsets", "regrets", "strategy"):
        h.update(arrays[name])
    doc.update(version=1, arrays=arrays, checksum=h.digest())
    open(good_file, "wb").write(msgpack.packb(doc, use_bin_type=True))
    got = checkpoint.load(good_file)
    assert got.table.same_contents(want.table) and got.iteration == want.iteration
    # A format-1 file larger than any format-2 header is read whole.
    doc["extra"] = {"padding": "x" * (2 << 20)}
    open(good_file, "wb").write(msgpack.packb(doc, use_bin_type=True))
    assert checkpoint.load(good_file).table.same_contents(want.table)


def test_save_and_load_hold_no_second_copy_of_the_table(tmp_path):
    import tracemalloc

    s = Solver(LEDUC, "cfr")
    s.iterate(2)
    table = s.table
    table.grow_values(4_000_000)  # a table large enough to dominate every other allocation
    table.n_values = table.value_capacity  # ... and all of it written (zeros past the sets)
    path = str(tmp_path / "big.ckpt")
    tracemalloc.start()
    s.save(path)
    _, save_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    tracemalloc.start()
    loaded = checkpoint.load(path)
    current, load_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    size = table.memory_bytes()
    assert save_peak < 0.1 * size  # arrays are written from the table's own memory
    assert load_peak < 1.1 * size  # and read straight into the new table
    assert loaded.table.same_contents(table)


def test_missing_file(tmp_path):
    expect_one_line(str(tmp_path / "nope.ckpt"), "cannot read")


def test_wrong_game(good_file):
    with pytest.raises(CfrFileError, match="for game 'kuhn'"):
        Solver.resume(LEDUC, good_file)
