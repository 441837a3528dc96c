"""The strategy file: round trip, determinism, and one clear error for every kind of bad file."""

import msgpack
import numpy as np
import pytest

from cfr.errors import CfrFileError
from cfr.strategy_file import FORMAT_VERSION, StrategyChunk, read_strategy, write_strategy

HEADER = {"game": "setback", "abstraction": "reference", "abstraction_version": 1,
          "stage": "baseline", "iterations": 10, "seed": 3, "threshold": 0.001}


def chunks():
    return [
        StrategyChunk(["0AJx2", "E3AJx2"], np.array([4, 2], np.uint8),
                      np.array([0.1, 0.2, 0.3, 0.4, 1.0, 0.0], np.float32)),
        StrategyChunk(["...+0At4t..0TTTQ"], np.array([2], np.uint8),
                      np.array([0.25, 0.75], np.float32)),
    ]


def test_round_trip_and_byte_for_byte_determinism(tmp_path):
    a, b = tmp_path / "a.strategy", tmp_path / "b.strategy"
    assert write_strategy(str(a), HEADER, chunks()) == 3
    write_strategy(str(b), HEADER, chunks())
    assert a.read_bytes() == b.read_bytes()
    header, table = read_strategy(str(a))
    assert header["n_keys"] == 3 and header["stage"] == "baseline"
    assert list(table) == ["0AJx2", "E3AJx2", "...+0At4t..0TTTQ"]
    np.testing.assert_array_equal(table["0AJx2"], np.float32([0.1, 0.2, 0.3, 0.4]))
    np.testing.assert_array_equal(table["...+0At4t..0TTTQ"], np.float32([0.25, 0.75]))


def test_no_temporary_file_is_left_behind(tmp_path):
    write_strategy(str(tmp_path / "s.strategy"), HEADER, chunks())
    assert [p.name for p in tmp_path.iterdir()] == ["s.strategy"]


def test_bad_files_give_one_clear_error(tmp_path):
    good = tmp_path / "good.strategy"
    write_strategy(str(good), HEADER, chunks())
    data = good.read_bytes()
    cases = {
        "truncated": (data[: len(data) - 20], "truncated|corrupt"),
        "corrupt": (data[:60] + bytes([data[60] ^ 0xFF]) + data[61:], "corrupt|truncated"),
        "foreign": (b"PK\x03\x04 this is a zip file", "not a setback-cfr strategy file"),
        "empty": (b"", "truncated"),
        "newer": (msgpack.packb({"magic": "setback-cfr/strategy",
                                 "version": FORMAT_VERSION + 1}), "newer"),
    }
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(data)
    records = list(unpacker)
    records[1]["keys"][0] = ["0AJx2"]  # a key that is not text (found by the fuzzer)
    cases["key not text"] = (b"".join(msgpack.packb(r, use_bin_type=True) for r in records),
                             "a key is not text")
    for name, (content, message) in cases.items():
        path = tmp_path / f"{name}.strategy"
        path.write_bytes(content)
        with pytest.raises(CfrFileError, match=message) as info:
            read_strategy(str(path))
        assert "\n" not in str(info.value)
    with pytest.raises(CfrFileError, match="cannot open"):
        read_strategy(str(tmp_path / "missing.strategy"))
