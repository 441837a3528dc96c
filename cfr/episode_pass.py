"""The trainer's pass: one episode against a frozen table, its repeated info sets aggregated.

Same formulas as `cfr.traversal` (simultaneous updates: both players' regrets and strategy
sums in one pass; see that module's docstring), with the work per keyed decision cut to what
the key kernel costs. In a sampled Setback deal one info set is met many times (an abstraction
with imperfect recall: a young deal walks ~10^6 keyed decisions over ~10^4 distinct keys), so:

- an *episode map* (a small open-addressing table, private to the worker, cleared in O(1)
  per episode by a generation stamp) remembers every key met in the episode: its slot points
  to the key's entry in the increment log, which holds the frozen strategy sigma(I) (regret
  matching done once per key and episode, not per visit) and the key's running increments;
- the big frozen table is probed once per key and episode instead of once per visit: that
  probe is a cache miss once the table outgrows the cache, the map's is not;
- a revisit adds its regret and strategy increments into the entry in place, so the log holds
  one entry per distinct key of the episode: its size follows the episode's distinct keys,
  not its tree.

Each episode's increments are therefore sums over its visits, formed in visit (post-)order in
float64, and the merge adds one sum per key and episode to the table, episodes in order. That
is the same float64 sum as adding each visit's increment to the table directly, up to the
association of the additions (tested to 1e-12 against the unaggregated pass); and since an
episode's sums depend only on the episode and the frozen table, the table after a batch
depends on the seed and the batch, never on how many workers traversed its episodes.

A pass can be stopped from outside (Ctrl-C): it polls `control[STOP]` every few thousand
nodes and returns with status `STOPPED`; nothing of a stopped episode may be merged.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from cfr.game import CHANCE, TERMINAL, Game
from cfr.increment_log import ENTRIES, VALUES, IncrementLog
from cfr.regret_matching import regret_matching
from cfr.table import InfoSetTable, find_offset, key_hash
from cfr.walk import (FRAME_DECISION, LOG_TYPES, WALK_TYPES, decision_weights, enter_history,
                      frame_columns, next_child, open_decision, parent_frame,
                      regret_increment, start_walk, table_types)

# control[] fields
STATUS, GENERATION, MAP_COUNT, STOP, VISITS = 0, 1, 2, 3, 4
CONTROL_SIZE = 5
# control[STATUS] after a pass
DONE, LOG_FULL, MAP_FULL, STOPPED = 0, 1, 2, 3
# the map may hold at most this share of its slots (linear probing stays short)
MAP_LOAD = 0.5
# nodes between two looks at control[STOP] (a power of two)
_STOP_POLL_MASK = (1 << 14) - 1


@njit(cache=True, inline="always", _nrt=False)
def map_slot(m_keys, m_gen, gen, key):
    """The episode map's slot holding `key`, or the free slot where it would go."""
    mask = np.uint64(m_gen.shape[0] - 1)
    kw = m_keys.shape[1]
    slot = np.int64(key_hash(key, kw) & mask)
    while m_gen[slot] == gen:
        same = True
        for w in range(kw):
            if m_keys[slot, w] != key[w]:
                same = False
        if same:
            return slot
        slot = np.int64((np.uint64(slot) + np.uint64(1)) & mask)
    return slot


@njit(cache=True, inline="always", _nrt=False)
def new_entry(t_keys, t_meta, t_offsets, t_regrets, lg_offset, lg_key, lg_meta, lg_values,
              lg_sigma, lg_counts, m_keys, m_gen, m_pos, gen, slot, key, n, p, probs):
    """A key's first visit in an episode (the caller checked the log has room): its frozen
    sigma into `probs` (from the table, uniform when the table lacks the key), a new log
    entry holding it with zero increments, and the map's free `slot` pointing at it."""
    e = lg_counts[ENTRIES]
    pos = lg_counts[VALUES]
    o = find_offset(t_keys, t_meta, t_offsets, key)
    regret_matching(t_regrets, o, n, probs)
    lg_offset[e] = o
    for w in range(lg_key.shape[1]):
        lg_key[e, w] = key[w]
        m_keys[slot, w] = key[w]
    lg_meta[e] = n | (p << 7)
    for a in range(n):
        lg_sigma[pos + a] = probs[a]
        lg_values[pos + a] = 0.0
        lg_values[pos + n + a] = 0.0
    lg_counts[ENTRIES] = e + 1
    lg_counts[VALUES] = pos + 2 * n
    m_gen[slot] = gen
    m_pos[slot] = pos


def _sig(val):
    return types.float64(
        *WALK_TYPES, *table_types(val),  # the frozen table
        types.uint64[:, ::1], types.uint32[::1], types.int64[::1],  # map: keys, gen, entry pos
        *LOG_TYPES, types.float64[::1], types.int64[::1],  # log, its sigma and counts
        types.int64[::1],  # control
        types.int64, types.uint64,  # sampled, word
    )


@njit([_sig(types.float64), _sig(types.float32)], cache=True, nogil=True, _nrt=False)
def episode_kernel(current_player, decision, apply, utility, chance_outcomes, chance_sample,
                   root, states, actions, probs, cvals, keys, floats, ints,
                   t_keys, t_meta, t_offsets, t_regrets,
                   m_keys, m_gen, m_pos,
                   lg_offset, lg_key, lg_meta, lg_values, lg_sigma, lg_counts,
                   control, sampled, word):
    """One episode from `root` (chance drawn from `word` when `sampled`), appending one log
    entry per distinct key to the log after its current entries; returns the root's v_0.

    `control[STATUS]` says how it ended (DONE, or LOG_FULL / MAP_FULL: the caller grows that
    and reruns the episode from the same log position, or STOPPED). The caller advances
    `control[GENERATION]` before each episode (a map slot is live only with the current one).
    An explicit-stack walk with the steps of `cfr.walk`; frame d's `pos` is its key's value
    position in the log: sigma at lg_sigma[pos:pos+n], regret increments at
    lg_values[pos:pos+n], strategy increments at lg_values[pos+n:pos+2n].
    """
    reach, value, kind, count, index, pos_of, player, chance_k = frame_columns(floats, ints)
    gen = np.uint32(control[GENERATION])
    map_limit = np.int64(m_gen.shape[0] * MAP_LOAD)
    n_entries_max = lg_offset.shape[0]
    n_values_max = lg_values.shape[0]
    control[STATUS] = DONE
    control[MAP_COUNT] = 0
    visits = np.int64(0)
    steps = np.int64(0)
    start_walk(root, states, reach, chance_k)
    d = 0
    entering = True
    ret = 0.0
    while True:  # the kernel's own loop over `cfr.walk`'s steps (why: that module)
        steps += 1
        if (steps & _STOP_POLL_MASK) == 0 and control[STOP] != 0:
            control[STATUS] = STOPPED
            return 0.0
        if entering:
            p, ret = enter_history(current_player, utility, chance_outcomes, chance_sample,
                                   apply, states, d, sampled, word, actions, probs, reach,
                                   value, kind, count, index, chance_k)
            if p == TERMINAL:
                entering = False
                continue
            if p != CHANCE:
                key = keys[d]
                n = decision(states[d], actions[d], key)
                if n >= 2:
                    visits += 1
                    slot = map_slot(m_keys, m_gen, gen, key)
                    if m_gen[slot] == gen:
                        pos = m_pos[slot]
                        for a in range(n):
                            probs[d, a] = lg_sigma[pos + a]
                    else:
                        # first visit of this key in the episode: probe the frozen table
                        e = lg_counts[ENTRIES]
                        pos = lg_counts[VALUES]
                        if e >= n_entries_max or pos + 2 * n > n_values_max:
                            control[STATUS] = LOG_FULL
                            return 0.0
                        if control[MAP_COUNT] >= map_limit:
                            control[STATUS] = MAP_FULL
                            return 0.0
                        new_entry(t_keys, t_meta, t_offsets, t_regrets, lg_offset, lg_key,
                                  lg_meta, lg_values, lg_sigma, lg_counts, m_keys, m_gen,
                                  m_pos, gen, slot, key, n, p, probs[d])
                        control[MAP_COUNT] += 1
                    pos_of[d] = pos
                open_decision(apply, states, d, n, p, actions, probs, reach, value, kind,
                              count, index, player, chance_k)
            d += 1
        else:
            d = parent_frame(kind, d)
            if d < 0:
                control[VISITS] += visits
                return ret
            if next_child(apply, states, d, ret, actions, probs, cvals, reach, value, kind,
                          count, index, player):
                d += 1
                entering = True
                continue
            ret = value[d]
            if kind[d] == FRAME_DECISION:
                p = player[d]
                n = count[d]
                pos = pos_of[d]
                # an episode's strategy increments are reach-weighted only (w = 1)
                cf_reach, wr = decision_weights(reach, d, p, 1.0)
                for a in range(n):
                    lg_values[pos + a] += regret_increment(p, cf_reach, cvals[d, a], ret)
                for a in range(n):
                    lg_values[pos + n + a] += wr * probs[d, a]


class EpisodeLog(IncrementLog):
    """An increment log that keeps its entries when it grows (episodes of a batch accumulate
    in it) and carries each entry's frozen strategy beside its increments."""

    def __init__(self, key_words: int = 1, entries: int = 1 << 14, values: int = 1 << 17):
        super().__init__(key_words, entries, values)
        self.sigma = np.zeros(values, dtype=np.float64)

    def grow(self) -> None:
        """Double the entry and value capacities, keeping every entry."""
        e, v = int(self.counts[ENTRIES]), int(self.counts[VALUES])

        n_entries = self.offset.shape[0]
        for name in ("offset", "key", "meta"):
            old = getattr(self, name)
            new = np.zeros((2 * n_entries,) + old.shape[1:], dtype=old.dtype)
            new[:e] = old[:e]
            setattr(self, name, new)
        for name in ("values", "sigma"):
            old = getattr(self, name)
            new = np.zeros(2 * old.shape[0], dtype=old.dtype)
            new[:v] = old[:v]
            setattr(self, name, new)
        self.counts[2] = 0

    def memory_bytes(self) -> int:
        """Bytes held by the log's arrays."""
        return super().memory_bytes() + self.sigma.nbytes


class EpisodeMap:
    """The worker's map from an info-set key to its entry in the log, for one episode."""

    def __init__(self, key_words: int = 1, slots: int = 1 << 15):
        self.keys = np.zeros((slots, key_words), dtype=np.uint64)
        self.gen = np.zeros(slots, dtype=np.uint32)
        self.pos = np.zeros(slots, dtype=np.int64)
        self.control = np.zeros(CONTROL_SIZE, dtype=np.int64)

    def next_episode(self) -> None:
        """Forget every key (O(1): a new generation; the stamps are reset when it wraps)."""
        self.next_episodes(1)

    def next_episodes(self, n: int) -> int:
        """Reserve n fresh generations, one per episode of a kernel call, and return the first
        (the current one is then the last); the stamps are reset when they would wrap."""
        g = int(self.control[GENERATION]) + 1
        if g + n - 1 >= 2**32:
            self.gen[:] = 0
            g = 1
        self.control[GENERATION] = g + n - 1
        return g

    def grow(self) -> None:
        """Double the slots (contents dropped: the episode is run again)."""
        slots = 2 * self.gen.shape[0]
        self.keys = np.zeros((slots, self.keys.shape[1]), dtype=np.uint64)
        self.gen = np.zeros(slots, dtype=np.uint32)
        self.pos = np.zeros(slots, dtype=np.int64)

    def memory_bytes(self) -> int:
        """Bytes held by the map's arrays."""
        return self.keys.nbytes + self.gen.nbytes + self.pos.nbytes


class EpisodeStopped(Exception):
    """The pass was stopped from outside (`control[STOP]`) before its episode finished."""


def run_episode(game: Game, table: InfoSetTable, log: EpisodeLog, episode_map: EpisodeMap,
                scratch, root: np.ndarray, sampled: bool, word: int) -> float:
    """Traverse one episode against `table` (read only), appending its aggregated entries to
    `log` after the ones already there; return player 0's root value.

    Grows the log or the map and reruns the episode when one fills up. Raises
    `EpisodeStopped` (the log truncated back to where the episode began) when
    `episode_map.control[STOP]` was set during the pass.
    """
    control = episode_map.control
    start_entries, start_values = int(log.counts[ENTRIES]), int(log.counts[VALUES])
    while True:
        episode_map.next_episode()
        v = episode_kernel(*game.addresses, root, scratch.states, scratch.actions,
                           scratch.probs, scratch.child_values, scratch.keys, scratch.floats,
                           scratch.ints, table.keys, table.meta, table.offsets, table.regrets,
                           episode_map.keys, episode_map.gen, episode_map.pos,
                           log.offset, log.key, log.meta, log.values, log.sigma, log.counts,
                           control, int(bool(sampled)), np.uint64(word))
        status = int(control[STATUS])
        if status == DONE:
            return float(v)
        log.counts[ENTRIES], log.counts[VALUES] = start_entries, start_values
        if status == STOPPED:
            raise EpisodeStopped()
        if status == LOG_FULL:
            log.grow()
        else:
            episode_map.grow()
