"""Warm start across layouts (issue 38; `games/setback/train/warm_start.py`,
`games/setback/abstraction/ refinement.py`): every registered pair of refining layouts maps each
fine key to the coarse key of the same decision; a table seeded from a coarse one plays as its
source at every decision of random deals; a warm-started run resumes bit for bit; a pair that does
not refine is refused in one line."""

import itertools
import json
import os

import numpy as np
import pytest

from games.setback.abstraction import layouts
from games.setback.abstraction.refinement import clear_mask, coarse_key_of
from cfr import checkpoint
from cfr.increment_log import IncrementLog
from cfr.regret_matching import average_strategy, regret_matching
from cfr.table import InfoSetTable
from cli_runner import run_cli
from games.setback import state as S
from games.setback.rules import apply_move
from train.errors import RunError
from games.setback.train.warm_start import WarmStart, parse_rule

PAIRS = [(fine, coarse) for fine, coarse in itertools.permutations(layouts.names(), 2)
         if layouts.refines(fine, coarse)]
REFUSED = [(fine, coarse) for fine, coarse in itertools.permutations(layouts.names(), 2)
           if not layouts.refines(fine, coarse)]


def decisions(n_deals: int, seed: int, layout):
    """(state, n, moves, key) of every decision (both teams) along one random playout of each
    of `n_deals` random deals, the actions and keys by `layout`'s kernel."""
    rng = np.random.default_rng(seed)
    word = np.array([seed + 1], np.uint64)
    moves = np.zeros(8, np.int64)
    for _ in range(n_deals):
        state = S.new_state()
        S.random_deal(word, state)
        while int(state[S.PHASE]) != S.PHASE_OVER:
            n, _, _, key = layout.abstract_decision(state, moves)
            yield state.copy(), int(n), moves[:n].copy(), int(key)
            apply_move(state, int(moves[rng.integers(n)]))


def test_the_registry_names_the_refining_pairs():
    assert ("bidder", "reference") in PAIRS and ("contract", "reference") in PAIRS
    assert ("contract", "bidder") in PAIRS
    assert {("reference", "bidder"), ("reference", "contract"), ("bidder", "contract")} \
        <= set(REFUSED)


@pytest.mark.parametrize("fine,coarse", PAIRS)
def test_each_fine_key_maps_to_the_coarse_key_of_its_decision(fine, coarse):
    fine_layout, coarse_layout = layouts.load(fine), layouts.load(coarse)
    mapped: dict[int, set] = {}
    coarse_moves = np.zeros(8, np.int64)
    for state, n, moves, key in decisions(150, 5, fine_layout):
        nc, _, _, ckey = coarse_layout.abstract_decision(state, coarse_moves)
        assert nc == n and list(coarse_moves[:n]) == list(moves)  # the same abstract actions
        if n >= 2:
            assert coarse_key_of(key, fine, coarse) == int(ckey)
            mapped.setdefault(key, set()).add(int(ckey))
    assert mapped and all(len(c) == 1 for c in mapped.values())
    if fine != coarse:  # the fine layout does split coarse keys
        assert len(mapped) > len(set().union(*mapped.values()))


@pytest.mark.parametrize("fine,coarse", REFUSED)
def test_a_pair_that_does_not_refine_has_no_map(fine, coarse):
    with pytest.raises(layouts.LayoutError) as info:
        clear_mask(fine, coarse)
    assert "\n" not in str(info.value) and "do not refine" in str(info.value)


def _coarse_table(keys: dict, rng) -> InfoSetTable:
    """A float32 table holding random regrets (some negative, some all-negative) and strategy
    sums for nine keys in ten of `keys` (key -> (n, player)): the rest stay unknown."""
    table = InfoSetTable(dtype=np.float32)
    for key, (n, player) in sorted(keys.items()):
        if rng.random() < 0.1:
            continue
        o = table.insert(key, n, player)
        table.regrets[o:o + n] = rng.normal(0, 100, n) - (50 if rng.random() < 0.2 else 0)
        table.strategy[o:o + n] = rng.random(n) * 1000
    return table


@pytest.mark.parametrize("rule", ["copy", "sums:0.5", "discount:0.1"])
@pytest.mark.parametrize("fine,coarse", PAIRS)
def test_a_seeded_table_plays_as_its_source(fine, coarse, rule):
    """Every decision of 200 random deals, both teams: the seeded fine key's current and
    average strategy are its coarse key's (the seeding kernel the trainer runs before a merge,
    on a log holding every fine key as a new key)."""
    fine_layout, coarse_layout = layouts.load(fine), layouts.load(coarse)
    seen = []
    coarse_keys = {}
    coarse_moves = np.zeros(8, np.int64)
    for state, n, _, key in decisions(200, 11, fine_layout):
        if n >= 2:
            ckey = int(coarse_layout.abstract_decision(state, coarse_moves)[3])
            player = int(state[S.TO_ACT]) % 2
            seen.append((key, ckey, n, player))
            coarse_keys[ckey] = (n, player)
    assert {p for *_, p in seen} == {0, 1}
    source = _coarse_table(coarse_keys, np.random.default_rng(3))
    warm = WarmStart("coarse", coarse, parse_rule(rule)[0], source, 0, 0.0, 0.0, 0.0, "",
                     clear_mask(fine, coarse))
    log = IncrementLog.of(np.full(len(seen), -1), np.array([[k] for k, *_ in seen], np.uint64),
                          np.array([n | p << 7 for _, _, n, p in seen], np.uint8),
                          np.zeros(1))
    table = InfoSetTable(dtype=np.float32, capacity=16)  # grows while seeding
    warm.seed(table, log, (0, len(seen)))
    assert table.count == len({k for k, *_ in seen})
    exact = rule == "copy"
    got, want = np.zeros(8), np.zeros(8)
    for key, ckey, n, _ in seen:
        o, co = table.offset(key), source.offset(ckey)
        for strategy, sums, coarse_sums in ((regret_matching, table.regrets, source.regrets),
                                            (average_strategy, table.strategy,
                                             source.strategy)):
            strategy(sums, o, n, got)
            if co >= 0:
                strategy(coarse_sums, co, n, want)
            else:  # a coarse key the source never met: uniform, as any new key
                want[:n] = 1.0 / n
            if exact:
                assert list(got[:n]) == list(want[:n])
            else:
                np.testing.assert_allclose(got[:n], want[:n], rtol=1e-6, atol=1e-12)


def test_rules_are_parsed_and_bad_ones_refused():
    assert parse_rule("copy") == ("copy", 1.0, 1.0)
    assert parse_rule("sums:0.25") == ("sums:0.25", 1.0, 0.25)
    assert parse_rule("discount:0.5") == ("discount:0.5", 0.5, 0.5)
    for bad in ("scale", "copy:1", "sums", "sums:0", "discount:1.5", "sums:x"):
        with pytest.raises(RunError):
            parse_rule(bad)


# ---- the command line ---------------------------------------------------------------------
def _train(capsys, run, *more):
    status, out, err = run_cli(capsys, ["train", "baseline", "--run", run, "--no-progress",
                                        *more])
    assert status == 0, err
    return out


def test_a_warm_started_run_resumes_bit_for_bit(tmp_path, capsys):
    coarse, part, straight = (str(tmp_path / name) for name in ("coarse", "part", "straight"))
    _train(capsys, coarse, "--iterations", "30", "--seed", "4")
    warm = ["--abstraction", "bidder", "--warm-start", coarse]
    _train(capsys, straight, "--iterations", "70", *warm)
    _train(capsys, part, "--iterations", "50", *warm)
    _train(capsys, coarse, "--iterations", "40")  # the source trains on: the run keeps its own
    _train(capsys, part, "--iterations", "70")  # resumed: the warm start read from run.json
    one, two = (checkpoint.load(os.path.join(r, "checkpoint.ckpt")) for r in (straight, part))
    assert one.iteration == two.iteration == 70
    assert one.table.same_contents(two.table)
    assert one.extra["payoff_sum"] == two.extra["payoff_sum"]
    with open(os.path.join(part, "run.json"), encoding="utf-8") as handle:
        settings = json.load(handle)["settings"]
    assert settings["warm_start"] == os.path.abspath(coarse)
    assert settings["warm_start_abstraction"] == "reference"
    assert settings["warm_start_iteration"] == 30 and settings["warm_start_rule"] == "copy"
    assert settings["seed"] == 4  # the coarse run's, continued
    # the first checkpoint of the warm run continues the coarse run's count
    with open(os.path.join(part, "log.csv"), encoding="utf-8") as handle:
        assert handle.read().splitlines()[1].startswith("50,")
    # a resume naming another source or rule is refused
    status, _, err = run_cli(capsys, ["train", "baseline", "--run", part, "--iterations", "71",
                                      "--warm-start-rule", "sums:0.5", "--no-progress"])
    assert status == 2 and len(err.strip().splitlines()) == 1 and "copy" in err


def test_a_pair_that_does_not_refine_is_refused(tmp_path, capsys):
    coarse, fine = str(tmp_path / "coarse"), str(tmp_path / "fine")
    _train(capsys, coarse, "--iterations", "3", "--abstraction", "bidder")
    status, out, err = run_cli(capsys, ["train", "baseline", "--run", fine, "--abstraction",
                                        "reference", "--warm-start", coarse, "--no-progress"])
    assert status == 2
    assert len(err.strip().splitlines()) == 1 and "do not refine" in err
    assert not os.path.exists(fine)  # refused before anything is written
    for more in (["--warm-start", coarse],  # no --abstraction
                 ["--abstraction", "contract", "--warm-start", coarse, "--warm-start-rule",
                  "half"],
                 ["--abstraction", "contract", "--warm-start", str(tmp_path / "none")],
                 ["--warm-start-rule", "copy"]):
        status, _, err = run_cli(capsys, ["train", "baseline", "--run", fine, *more,
                                          "--no-progress"])
        assert status == 2 and len(err.strip().splitlines()) == 1, (more, err)
    assert not os.path.exists(os.path.join(fine, "run.json"))
