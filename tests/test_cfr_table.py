"""The info-set table: lookups, inserts, growth that keeps every value, memory cap."""

from __future__ import annotations

import numpy as np
import pytest

from cfr.errors import TableFullError
from cfr.table import MAX_LOAD, InfoSetTable, key_hash, mix64


def fill(table: InfoSetTable, keys, rng) -> dict:
    """Insert keys with random values; return key -> (player, regrets, strategy)."""
    expect = {}
    for i, key in enumerate(keys):
        n = int(rng.integers(2, 6))
        off = table.insert(key, n, i % 2)
        r = rng.normal(size=n).astype(table.dtype)
        s = rng.random(n).astype(table.dtype)
        table.regrets[off:off + n] = r
        table.strategy[off:off + n] = s
        expect[key] = (i % 2, r, s)
    return expect


def check(table: InfoSetTable, expect: dict) -> None:
    assert len(table) == len(expect)
    for key, (player, r, s) in expect.items():
        off = table.offset(key)
        assert off >= 0
        n = len(r)
        assert table.regrets[off:off + n].tobytes() == r.tobytes()
        assert table.strategy[off:off + n].tobytes() == s.tobytes()
    seen = {k if len(k) > 1 else k[0]: (p, n) for k, p, n, _ in table.entries()}
    assert {k: (p, len(r)) for k, (p, r, _) in expect.items()} == seen


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_growth_keeps_every_value(dtype):
    rng = np.random.default_rng(1)
    table = InfoSetTable(dtype=dtype, capacity=16, value_capacity=8)
    keys = sorted({int(k) for k in rng.integers(0, 2**62, size=3000)} | {0, 1, 2**64 - 1})
    expect = fill(table, keys, rng)
    assert table.capacity >= len(keys) / MAX_LOAD
    check(table, expect)
    table.grow_slots()  # one more rehash, and more values
    table.grow_values(table.value_capacity * 2)
    check(table, expect)


def test_two_word_keys_are_distinct_pairs():
    rng = np.random.default_rng(2)
    table = InfoSetTable(key_words=2, capacity=16)
    keys = [(a, b) for a in range(20) for b in (0, 1, 2**64 - 1)]
    expect = fill(table, keys, rng)
    check(table, expect)
    assert table.offset((5, 3)) == -1


def test_missing_key_and_reinsert():
    table = InfoSetTable()
    assert table.offset(42) == -1
    off = table.insert(42, 3, 1)
    assert table.insert(42, 3, 1) == off
    assert len(table) == 1 and table.n_values == 3


def test_memory_bytes_counts_every_array():
    table = InfoSetTable(capacity=1024, value_capacity=3000, dtype=np.float32)
    assert table.memory_bytes() == 1024 * (8 + 1 + 4) + 2 * 3000 * 4


def test_memory_cap_fails_clearly_before_it_is_exceeded():
    table = InfoSetTable(capacity=16, value_capacity=64, max_bytes=4000)
    with pytest.raises(TableFullError, match="memory cap of"):
        for k in range(1000):
            table.insert(k, 3, 0)
            assert table.memory_bytes() <= 4000
    assert table.memory_bytes() <= 4000
    assert len(table) > 10  # everything inserted before the failure is still there
    for k in range(len(table)):
        assert table.offset(k) >= 0


def test_mix_and_hash_are_deterministic_and_spread():
    a = np.array([1], dtype=np.uint64)
    b = np.array([2], dtype=np.uint64)
    assert key_hash(a, 1) == key_hash(a.copy(), 1)
    assert key_hash(a, 1) != key_hash(b, 1)
    assert mix64(np.uint64(0)) == 0  # the finalizer fixes 0; keys 0 still work (meta marks use)
    low_bits = {int(key_hash(np.array([k], dtype=np.uint64), 1)) & 1023 for k in range(1024)}
    assert len(low_bits) > 600
