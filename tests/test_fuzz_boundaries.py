"""Every input boundary fuzzed with hypothesis (tests/fuzz_cases.py): checkpoints, strategy
files, databases, run.json and every command-line option. Each case is accepted or refused
with the documented status and one line; never a traceback, never a changed file.
`bench/fuzz.py` runs the same boundaries for >= 10,000 cases each."""

import os

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings

from cfr import checkpoint
from cfr.errors import CfrFileError
from fuzz_cases import (CheckpointBoundary, CliBoundary, DatabaseBoundary,
                        RunSettingsBoundary, StrategyBoundary)

FAST = dict(deadline=None, database=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def boundary(cls, tmp_path_factory):
    made = cls()
    made.setup(str(tmp_path_factory.mktemp(cls.__name__)))
    return made


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory):
    return boundary(CheckpointBoundary, tmp_path_factory)


def test_a_checkpoint_truncated_at_every_offset_is_refused_in_one_line(checkpoints, tmp_path):
    data = checkpoints.small_bytes
    path = str(tmp_path / "cut.ckpt")
    for cut in range(len(data)):
        with open(path, "wb") as handle:
            handle.write(data[:cut])
        with pytest.raises(CfrFileError) as info:
            checkpoint.load(path)
        assert "\n" not in str(info.value) and path in str(info.value)


def test_every_single_bit_flip_of_a_checkpoint_is_detected(checkpoints, tmp_path):
    """The header digest (format 3) and the arrays' checksum leave no bit unchecked (every
    third byte here, one bit each; bench/fuzz.py flips at random everywhere)."""
    data = checkpoints.small_bytes
    path = str(tmp_path / "flip.ckpt")
    for at in range(0, len(data), 3):
        flipped = bytearray(data)
        flipped[at] ^= 1 << (at % 8)
        with open(path, "wb") as handle:
            handle.write(flipped)
        with pytest.raises(CfrFileError):
            checkpoint.load(path)


def test_format_2_checkpoints_are_still_read(checkpoints, tmp_path):
    doc, offset = checkpoint.read_header(checkpoints.small)
    arrays = checkpoints.small_bytes[offset:]
    path = str(tmp_path / "v2.ckpt")
    with open(path, "wb") as handle:
        handle.write(msgpack.packb({**doc, "version": 2}, use_bin_type=True) + arrays)
    old, new = checkpoint.load(path), checkpoint.load(checkpoints.small)
    assert old.table.same_contents(new.table) and old.iteration == new.iteration


def fuzz(boundary_fixture, examples):
    """A test running `examples` cases of a boundary."""
    def run(request):
        made = request.getfixturevalue(boundary_fixture)

        @settings(max_examples=examples, **FAST)
        @given(case=made.cases())
        def one(case):
            problem = made.check(case)
            assert problem is None, problem

        one()
    return run


@pytest.fixture(scope="module")
def strategies(tmp_path_factory):
    return boundary(StrategyBoundary, tmp_path_factory)


@pytest.fixture(scope="module")
def databases(tmp_path_factory):
    return boundary(DatabaseBoundary, tmp_path_factory)


@pytest.fixture(scope="module")
def run_settings(tmp_path_factory):
    return boundary(RunSettingsBoundary, tmp_path_factory)


@pytest.fixture(scope="module")
def cli_options(tmp_path_factory):
    cwd = os.getcwd()
    made = boundary(CliBoundary, tmp_path_factory)
    os.chdir(made.workdir)  # relative paths among the fuzzed values land here
    yield made
    os.chdir(cwd)


test_fuzzed_checkpoints = fuzz("checkpoints", 60)
test_fuzzed_strategy_files = fuzz("strategies", 60)
test_fuzzed_databases = fuzz("databases", 60)
test_fuzzed_run_settings = fuzz("run_settings", 25)
test_fuzzed_cli_options = fuzz("cli_options", 120)
