"""The trainer's aggregating pass (`cfr.episode_pass`) against straightforward accumulations.

Two references:
- a plain-Python recursive pass that keeps, per info set met in the episode, its frozen
  strategy and the float64 sums of its increments in visit order, and adds them to the table
  once per episode: the episode pass must equal it bit for bit (same additions, same order);
- the unaggregated pass (`cfr.traversal`, one log entry per visit, each merged on its own into
  the table): equal to 1e-12 (relative to the largest sum), not bit for bit, because the
  aggregated pass adds a visit's increment to the episode's running sum and the sum to the
  table, where the plain pass adds each increment to the table; float64 addition is not
  associative, so the two differ by a few units in the last place of each sum.
"""

from __future__ import annotations

import numpy as np
import pytest

from cfr import rng
from cfr.episode_pass import (
    STOP,
    EpisodeLog,
    EpisodeMap,
    EpisodeStopped,
    run_episode,
)
from cfr.game import CHANCE, TERMINAL
from cfr.increment_log import IncrementLog, merge
from cfr.rng import mix_word
from cfr.table import ACTIONS_MASK, InfoSetTable
from cfr.traversal import Scratch, traverse
from games.leduc import GAME as LEDUC
from pass_reference import child_of, enter, regret_matching
from games.setback.train.game import GAME as SETBACK


def reference_episode(game, table, root, sampled, word):
    """Plain-Python simultaneous-update CFR pass; returns (v0, {key: [player, sigma, dR, dS]})
    with keys in first-visit order and float64 sums formed in visit (post-)order."""
    entries = {}

    def sigma_of(key, n):
        offset = table.offset(key)
        if offset < 0:
            return [1.0 / n] * n
        return regret_matching([float(table.regrets[offset + a]) for a in range(n)])

    def walk(state, reach, k):
        v, node = enter(game, state, reach, k, sampled, word, walk)
        if node is None:
            return v
        p, n, actions, key = node
        if key not in entries:
            entries[key] = [p, sigma_of(key, n), [0.0] * n, [0.0] * n]
        sigma = entries[key][1]
        values = []
        value = 0.0
        for a in range(n):
            r = list(reach)
            r[p] = reach[p] * sigma[a]
            values.append(walk(child_of(game, state, actions[a]), tuple(r), k))
            value += sigma[a] * values[a]
        _, _, d_regret, d_strategy = entries[key]
        cf_reach = reach[1 - p] * reach[2]
        for a in range(n):
            d_regret[a] += cf_reach * ((values[a] - value) if p == 0 else (value - values[a]))
        for a in range(n):
            d_strategy[a] += reach[p] * sigma[a]
        return value

    v0 = walk(np.ascontiguousarray(root, dtype=np.int64), (1.0, 1.0, 1.0), 0)
    return v0, entries


def reference_merge(table, entries):
    """Add one episode's sums to the table, a key at a time, in first-visit order."""
    for key, (player, _, d_regret, d_strategy) in entries.items():
        offset = table.insert(key, len(d_regret), player)
        for a, (dr, ds) in enumerate(zip(d_regret, d_strategy)):
            table.regrets[offset + a] += dr
            table.strategy[offset + a] += ds


def by_key(table):
    """{key: (player, n, regrets, strategy)} of a table (layout-independent comparison)."""
    return {key: (player, n, table.regrets[o:o + n].tolist(), table.strategy[o:o + n].tolist())
            for key, player, n, o in table.entries()}


def episode_pass_training(game, roots, tables=None, sampled=True, batch=1, log_size=None):
    """Train a float64 table with the episode pass, `batch` episodes per frozen table."""
    table = InfoSetTable(game.key_words, np.float64, capacity=16)
    scratch = Scratch(game)
    episode_map = EpisodeMap(game.key_words, slots=16)  # forces map growth too
    values = []
    for start in range(0, len(roots), batch):
        log = EpisodeLog(game.key_words, entries=4, values=8) if log_size is None \
            else EpisodeLog(game.key_words, *log_size)
        segments = []
        for root, word in roots[start:start + batch]:
            e0, v0 = len(log), int(log.counts[1])
            values.append(run_episode(game, table, log, episode_map, scratch, root,
                                      sampled, word))
            segments.append((e0, len(log), v0))
        for segment in segments:
            merge(table, log, segment)
    return table, values


def reference_training(game, roots, sampled=True, batch=1):
    table = InfoSetTable(game.key_words, np.float64, capacity=16)
    values = []
    for start in range(0, len(roots), batch):
        episodes = [reference_episode(game, table, root, sampled, word)
                    for root, word in roots[start:start + batch]]
        for v0, entries in episodes:
            values.append(v0)
            reference_merge(table, entries)
    return table, values


def leduc_roots(count, seed=3):
    return [(LEDUC.initial_state(), int(rng.word(np.uint64(seed), np.uint64(t))))
            for t in range(1, count + 1)]


def setback_late_roots(count, seed=5, cards_played=9):
    """Roots inside random Setback deals: dealt, bid by the first abstract action, then
    `cards_played` cards played the same way (small trees a Python walk can afford)."""
    roots = []
    actions = np.zeros(SETBACK.max_actions, dtype=np.int64)
    key = np.zeros(2, dtype=np.uint64)
    for t in range(1, count + 1):
        word = np.uint64(rng.word(np.uint64(seed), np.uint64(t)))
        state = SETBACK.initial_state()
        child = np.zeros_like(state)
        k = 0
        played = 0
        while played < cards_played:
            p = SETBACK.current_player(state)
            if p == TERMINAL:
                break
            if p == CHANCE:
                SETBACK.chance_sample(state, mix_word(word, np.uint64(k)), child)
                k += 1
            else:
                n = SETBACK.decision(state, actions, key)
                SETBACK.apply(state, actions[(t + played) % n], child)
                played += 1
            state, child = child.copy(), state
        if SETBACK.current_player(state) >= 0:
            roots.append((state, 0))
    return roots


@pytest.mark.parametrize("batch", [1, 3])
def test_leduc_equals_the_plain_python_accumulation_bit_for_bit(batch):
    roots = leduc_roots(12)
    table, values = episode_pass_training(LEDUC, roots, batch=batch)
    expected, expected_values = reference_training(LEDUC, roots, batch=batch)
    assert values == expected_values
    assert by_key(table) == by_key(expected)
    assert table.count == expected.count > 0


def test_setback_equals_the_plain_python_accumulation_bit_for_bit():
    roots = setback_late_roots(8)
    assert len(roots) >= 4
    table, values = episode_pass_training(SETBACK, roots, sampled=False, batch=2)
    expected, expected_values = reference_training(SETBACK, roots, sampled=False, batch=2)
    assert values == expected_values
    got, want = by_key(table), by_key(expected)
    assert got == want and len(got) > 20


def test_setback_young_deals_equal_the_unaggregated_pass_to_1e_12():
    """Whole young deals (the trees the trainer meets first), two deals per frozen table."""
    words = [int(rng.word(np.uint64(2), np.uint64(t))) for t in range(1, 5)]
    roots = [(SETBACK.initial_state(), w) for w in words]
    table, values = episode_pass_training(SETBACK, roots, batch=2,
                                          log_size=(1 << 14, 1 << 17))
    plain = InfoSetTable(1, np.float64, capacity=1 << 16)
    scratch = Scratch(SETBACK)
    plain_values = []
    log = IncrementLog(1, entries=1 << 18, values=1 << 21)
    for start in (0, 2):
        logs = []
        for w in words[start:start + 2]:
            out = np.zeros(1)
            log_w = IncrementLog(1, entries=1 << 18, values=1 << 21)
            traverse(SETBACK, plain, log_w, -1, 1.0, True, (w,), scratch=scratch,
                     word_values=out)
            plain_values.append(float(out[0]))
            logs.append(log_w)
        for log in logs:
            merge(plain, log)
    assert values == plain_values  # root values do not depend on the accumulation
    got, want = by_key(table), by_key(plain)
    assert got.keys() == want.keys() and len(got) > 10_000
    scale = max(max(abs(x) for x in r + s) for _, _, r, s in want.values())
    worst = max(abs(a - b) for key in want
                for a, b in zip(got[key][2] + got[key][3], want[key][2] + want[key][3]))
    assert worst <= 1e-12 * scale
    assert worst > 0  # the sums really are associated differently (else the test is moot)


def test_a_stop_request_abandons_the_episode_and_rolls_the_log_back():
    table = InfoSetTable(1, np.float32)
    log, episode_map, scratch = EpisodeLog(1), EpisodeMap(1), Scratch(SETBACK)
    word = int(rng.word(np.uint64(2), np.uint64(1)))
    run_episode(SETBACK, table, log, episode_map, scratch, SETBACK.initial_state(), True, word)
    before = (len(log), int(log.counts[1]))
    episode_map.control[STOP] = 1
    with pytest.raises(EpisodeStopped):
        run_episode(SETBACK, table, log, episode_map, scratch, SETBACK.initial_state(), True,
                    word)
    assert (len(log), int(log.counts[1])) == before


def test_one_entry_per_key_and_episode():
    table = InfoSetTable(1, np.float32)
    log, episode_map, scratch = EpisodeLog(1), EpisodeMap(1), Scratch(SETBACK)
    word = int(rng.word(np.uint64(2), np.uint64(1)))
    run_episode(SETBACK, table, log, episode_map, scratch, SETBACK.initial_state(), True, word)
    first = len(log)
    keys = log.key[:first, 0]
    assert len(np.unique(keys)) == first
    run_episode(SETBACK, table, log, episode_map, scratch, SETBACK.initial_state(), True, word)
    assert len(log) == 2 * first  # a new episode starts a new entry for every key
    assert (log.meta[:first] & ACTIONS_MASK).min() >= 2
