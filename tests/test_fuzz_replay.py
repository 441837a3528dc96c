"""Fuzzed `setback-cfr replay` input: never a traceback, always status 0 or 2 with one line."""

import json

from hypothesis import HealthCheck, given, settings

from fuzz_cases import WORKED, replay_specs, replay_texts, run_main

FAST = settings(max_examples=100, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


def test_a_null_hand_is_one_line(tmp_path):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps({**WORKED, "hands": {**WORKED["hands"], "W": None}}))
    outcome = run_main(["replay", path])
    assert outcome.problem() is None and outcome.status == 2
    assert "hand W: expected a list of 6 cards, got null" in outcome.err


def test_non_utf8_and_deeply_nested_input_are_one_line(tmp_path):
    path = tmp_path / "deal.json"
    path.write_bytes(b'{"dealer": "\xff"}')
    outcome = run_main(["replay", path])
    assert outcome.status == 2 and "not UTF-8" in outcome.err and outcome.problem() is None
    path.write_bytes(b"[" * 100_000)
    outcome = run_main(["replay", path])
    assert outcome.status == 2 and outcome.problem() is None


@FAST
@given(spec=replay_specs())
def test_fuzzed_replay_specs(tmp_path, spec):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(spec))
    outcome = run_main(["replay", path])
    assert outcome.problem() is None, (spec, outcome.problem())


@FAST
@given(data=replay_texts())
def test_fuzzed_replay_bytes(tmp_path, data):
    path = tmp_path / "deal.json"
    path.write_bytes(data)
    outcome = run_main(["replay", path])
    assert outcome.problem() is None, (data[:200], outcome.problem())
