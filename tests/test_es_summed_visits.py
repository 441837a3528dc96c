"""External sampling with summed visits (`SamplingOptions.sum_visits`): one log entry per info
set and word, the same table as the per-visit pass up to the association of the float sums,
workers and log or map growth changing nothing, and Setback runs made before the option
resuming without it, bit for bit."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cfr import rng
from cfr.episode_pass import EpisodeLog, EpisodeMap
from cfr.external_sampling import SamplingOptions, external_sampling_pass
from cfr.increment_log import IncrementLog, merge
from cfr.table import InfoSetTable
from games.kuhn import GAME as KUHN
from games.leduc import GAME as LEDUC

SUMMED = SamplingOptions(sum_visits=True)
GAMES = {"kuhn": KUHN, "leduc": LEDUC}


def words(seed: int, n: int) -> list[int]:
    return [int(rng.word(np.uint64(seed), np.uint64(j))) for j in range(1, n + 1)]


def table_as_dict(table: InfoSetTable) -> dict:
    """key -> (regret sums, strategy sums), whatever the slot and value layout."""
    out = {}
    for key, _, n, o in table.entries():
        out[key] = (table.regrets[o:o + n].copy(), table.strategy[o:o + n].copy())
    return out


def train(game, options: SamplingOptions, passes: int, seed: int = 5, weight_of=None,
          log=None, episode_map=None) -> InfoSetTable:
    """`passes` alternating passes, each merged before the next."""
    table = InfoSetTable(game.key_words)
    if log is None:
        log = EpisodeLog(game.key_words) if options.sum_visits else IncrementLog(game.key_words)
    for j, word in enumerate(words(seed, passes), start=1):
        weight = 1.0 if weight_of is None else weight_of(j)
        external_sampling_pass(game, table, log, (j - 1) % 2, (word,), weight, options,
                               episode_map=episode_map)
        merge(table, log)
    return table


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("linear, threshold", [(False, None), (True, -0.5)])
def test_summed_visits_give_the_per_visit_table_up_to_float_association(name, linear,
                                                                         threshold):
    game = GAMES[name]
    per_visit = SamplingOptions(linear=linear, prune_threshold=threshold)
    summed = SamplingOptions(linear=linear, prune_threshold=threshold, sum_visits=True)
    weight_of = (lambda j: float(j)) if linear else None
    a = table_as_dict(train(game, per_visit, 400, weight_of=weight_of))
    b = table_as_dict(train(game, summed, 400, weight_of=weight_of))
    assert a.keys() == b.keys()
    scale = max(float(np.abs(r).max()) for r, _ in a.values())
    for key, (r, s) in a.items():
        np.testing.assert_allclose(b[key][0], r, rtol=1e-12, atol=1e-12 * scale)
        np.testing.assert_allclose(b[key][1], s, rtol=1e-12, atol=1e-12 * scale)


def test_one_entry_per_info_set_and_word_holding_the_sum_of_its_visits():
    """Setback's abstraction forgets (one info set is met several times a deal): each word's
    summed log has one entry per distinct key of the per-visit log of the same word, holding
    that key's increments summed, and fewer entries."""
    from games.setback.train.game import GAME as SETBACK

    table = InfoSetTable(SETBACK.key_words)
    for j, word in enumerate(words(9, 6), start=1):
        if j > 3:  # later words against a table that has learned something
            lg = EpisodeLog(SETBACK.key_words)
            external_sampling_pass(SETBACK, table, lg, j % 2, (word,), 1.0, SUMMED)
            merge(table, lg)
        per_visit = IncrementLog(SETBACK.key_words)
        external_sampling_pass(SETBACK, table, per_visit, j % 2, (word,), 1.0)
        summed = EpisodeLog(SETBACK.key_words)
        external_sampling_pass(SETBACK, table, summed, j % 2, (word,), 1.0, SUMMED)
        sums: dict = {}
        pos = 0
        for e in range(len(per_visit)):
            n = int(per_visit.meta[e] & 0x7F)
            key = tuple(per_visit.key[e].tolist())
            add = per_visit.values[pos:pos + 2 * n]
            sums[key] = sums[key] + add if key in sums else add.copy()
            pos += 2 * n
        assert len(summed) == len(sums) < len(per_visit)
        pos = 0
        for e in range(len(summed)):
            n = int(summed.meta[e] & 0x7F)
            key = tuple(summed.key[e].tolist())
            np.testing.assert_allclose(summed.values[pos:pos + 2 * n], sums[key], rtol=1e-12,
                                       atol=1e-9)
            assert summed.offset[e] == table.offset(key)
            pos += 2 * n


def test_words_split_over_workers_and_grown_logs_and_maps_give_the_same_table():
    base = train(LEDUC, SUMMED, 50)
    batch = words(4, 12)
    players = [j % 2 for j in range(12)]
    one, two = base.copy(), base.copy()
    # a log of 8 entries and a map of 2 slots: both must grow, keeping nothing stale
    log, tiny_map = EpisodeLog(LEDUC.key_words, entries=8, values=16), EpisodeMap(1, slots=2)
    external_sampling_pass(LEDUC, base, log, players, batch, 3.0, SUMMED,
                           episode_map=tiny_map)
    assert tiny_map.gen.shape[0] > 2
    merge(one, log)
    for lo, hi in ((0, 5), (5, 12)):
        lg = EpisodeLog(LEDUC.key_words)
        external_sampling_pass(LEDUC, base, lg, players[lo:hi], batch[lo:hi], 3.0, SUMMED)
        merge(two, lg)
    assert one.same_contents(two)
    assert not one.same_contents(base)


def test_summing_needs_a_log_that_carries_sigma():
    with pytest.raises(TypeError, match="EpisodeLog"):
        external_sampling_pass(KUHN, InfoSetTable(1), IncrementLog(1), 0, (1,), 1.0, SUMMED)


def test_settings_older_than_the_option_mean_per_visit():
    old = {"linear_weighting": True, "prune_threshold": None, "prune_probability": 0.95}
    assert SamplingOptions.from_settings(old) == SamplingOptions(linear=True)
    assert SamplingOptions.from_settings(SUMMED.settings()) == SUMMED


def _run_json(run) -> dict:
    with open(run / "run.json", encoding="utf-8") as handle:
        return json.load(handle)


def _train(run, iterations: int) -> None:
    from cli.main import main

    assert main(["train", "baseline", "--run", str(run), "--iterations", str(iterations),
                 "--seed", "3", "--batch", "4", "--no-progress"]) == 0


def _table(run) -> InfoSetTable:
    from cfr import checkpoint
    from train.run_directory import RunDirectory

    return checkpoint.load(RunDirectory(str(run)).checkpoint_path).table


def test_new_setback_runs_sum_visits_and_runs_from_before_resume_per_visit(tmp_path):
    """`train baseline` records sum_visits on a new es-mccfr run; a run.json written before
    the option (no sum_visits) resumes per visit, bit for bit with an uninterrupted per-visit
    run."""
    from games.setback.train.baseline import baseline_stage
    from train.run_directory import RunDirectory
    from train.runner import Trainer

    def per_visit_run(run, iterations):
        stage = baseline_stage(3, 4, "simultaneous", "es-mccfr", SamplingOptions())
        Trainer(RunDirectory(str(run)), stage, show_progress=False).run(iterations)

    new, old, straight = tmp_path / "new", tmp_path / "old", tmp_path / "straight"
    _train(new, 8)
    assert _run_json(new)["settings"]["sum_visits"] is True
    per_visit_run(straight, 16)
    per_visit_run(old, 8)
    doc = _run_json(old)
    del doc["settings"]["sum_visits"]  # as a run written before the option recorded it
    (old / "run.json").write_text(json.dumps(doc), encoding="utf-8")
    _train(old, 16)
    assert _table(old).same_contents(_table(straight))
    _train(new, 16)  # and summing would have given another table: the check has teeth
    assert not _table(new).same_contents(_table(straight))
