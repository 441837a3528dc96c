"""External-sampling Monte Carlo CFR (Lanctot, Waugh, Zinkevich, Bowling, NIPS 2009), with
the optional linear weighting and negative-regret pruning of Pluribus (Brown and Sandholm,
Science 2019), as one pass per random word against a frozen table, into an increment log.

One pass has an updating player i (the traverser; callers alternate it between passes) and a
random word w. It walks from the root and computes, with v in player 0's terms (player 1's
values are their exact negation):
    v(z) = u_0(z)                                   terminal
    v(h) = v(h o),  o drawn from w                  chance (any chance node)
    v(h) = v(h a),  a ~ sigma(I), drawn from w      decision of the other player -i
    v(h) = sum_a sigma(I, a) * v(h a)               decision of i: every action walked
and logs, for I = I(h):
    at i's decisions      dR(I, a) = W * (v_i(h a) - v_i(h)),   dS(I, a) = 0
    at -i's decisions     dR(I, a) = 0,                         dS(I, a) = W * sigma(I, a)
where sigma(I) is regret matching on the frozen table's regret sums (uniform for a key the
table lacks) and W is the pass's weight: 1, or t for linear weighting (the caller passes one
weight per word). The sampled counterfactual regret needs no reach factor: the opponent's and
chance's reach are what the sampling draws with, so they cancel in expectation.

The average strategy is "simple averaging" (OpenSpiel's `AverageType.SIMPLE`, Pluribus's
choice): sigma(I) is added, unweighted by reach, at every node of the other player the pass
samples. In a two-player game the opponent's own reach is accounted for by the sampling; the
estimate is not the exactly reach-weighted average (the traverser's enumeration visits an
opponent node once per traverser branch), a bias OpenSpiel and Pluribus accept because it
converges as well or better in practice and costs nothing.

Randomness: the k-th random draw of a pass (k = 0, 1, ... in walk order, counting every chance
node and every opponent decision) uses `mix_word(w, k)`; an opponent's action is the first a
with u < sigma(I, 0) + ... + sigma(I, a), u = the draw's top 53 bits / 2^53. So a pass depends
on its word and the table only, and a batch of words (several passes against one frozen
table) merged in word order gives the same table whatever the number of workers. The first
chance node of a pass uses draw 0, as `cfr.traversal` does: Setback's deal for a word is the
same under both passes. Chance nodes are drawn independently wherever they are met (a chance
node below two traverser branches gets two draws), as OpenSpiel does.

Summed visits (optional, `SamplingOptions.sum_visits`, what training runs use): a pass meets
one info set many times (a Setback deal logs ~3.5 visits per distinct info set). With the
option, an episode map (`cfr.episode_pass.EpisodeMap`, one generation per word) gives each
info set one log entry per word, holding its frozen sigma (regret matching and the table
probe done once per word and key, not per visit) and the sum of its visits' increments,
formed in float64 in visit order. The merge then adds one sum per info set and word: the
same total up to the association of the float additions, so the option is recorded with a
run (a run made without it resumes without it, bit for bit), and the table still depends on
the words and the table only, not on how the words are split over workers.

A frozen player (optional, `cfr.frozen_policy`; approximate best responses, issue 37): one
player's decisions follow a fixed policy given as arrays instead of the table. At such a
decision the pass draws u from the next draw (as at an opponent's decision), takes the action
`frozen_action` gives (the stored probabilities, or the policy's default at a key it lacks),
walks that child only, and logs nothing: the table never receives a key of the frozen player,
who is sampled even in a pass where it is the traverser (that pass then samples one path and
logs the learner's average-strategy increments only). Without a frozen player (-1) nothing of
this runs and a pass is exactly as before.

Negative-regret pruning (optional, as Pluribus's MCCFR-P): a pass prunes with probability
`prune_probability` (the decision is draw number 2^63 of its word, which the running counter
never reaches). In a pruning pass, at the traverser's decisions, an action whose frozen regret
sum is below `prune_threshold` is not walked and its regret is not updated (dR = 0), and
v(h) sums over the walked actions only, as in Pluribus. Two exceptions, Pluribus's own made
game-agnostic: an action whose child is terminal is always walked (Pluribus always explores
actions leading to terminal nodes; its other exception, the last betting round, has no
game-agnostic meaning), and when every action would be pruned none is (a node keeps an
estimate). With linear weighting the regret sums grow like t^2, so the threshold is in the
units of the weighted sums.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, types

from cfr.episode_pass import MAP_LOAD, EpisodeLog, EpisodeMap, map_slot, new_entry
from cfr.frozen_policy import (DECISION_TYPE, DEFAULT_TYPE, FrozenPolicy, frozen_action,
                               no_frozen_arguments)
from cfr.game import CHANCE, TERMINAL, Game
from cfr.increment_log import (ENTRIES, OVERFLOW, VALUES, IncrementLog, log_entry,
                               log_has_room)
from cfr.regret_matching import regret_matching
from cfr.rng import mix_word
from cfr.table import InfoSetTable, find_offset
from cfr.walk import (FRAME_PASS, LOG_TYPES, WALK_TYPES, Scratch, add_child_value,
                      parent_frame, pass_inputs, regret_increment, table_types)

# The draw that decides whether a pass prunes: far beyond any running counter.
PRUNE_DRAW = np.uint64(1 << 63)
_UNIT = 1.0 / 9007199254740992.0  # 2^-53
# counts[OVERFLOW] of a summed pass whose episode map filled up (the log's own codes are 1, 2)
OVERFLOW_MAP = 3


@dataclass(frozen=True)
class SamplingOptions:
    """The options of external sampling, all off by default (recorded in checkpoints).

    `linear`: weight pass t's regret and strategy increments by t (linear CFR's weighting, as
    Pluribus's "linear MCCFR"). `prune_threshold`: None (no pruning) or the regret sum below
    which an action is pruned in a pruning pass; `prune_probability`: the chance that a pass
    prunes (Pluribus: 0.95). `sum_visits`: log one summed entry per info set and word instead
    of one per visit (module docstring; the trainer's runs turn it on).
    """

    linear: bool = False
    prune_threshold: float | None = None
    prune_probability: float = 0.95
    sum_visits: bool = False

    def __post_init__(self):
        if not 0.0 <= self.prune_probability <= 1.0:
            raise ValueError("prune_probability must be between 0 and 1")

    def weight(self, t: int) -> float:
        """W_t: t with linear weighting, else 1."""
        return float(t) if self.linear else 1.0

    def settings(self) -> dict:
        """The options as a flat dict (checkpoint headers, reports)."""
        return {"linear_weighting": self.linear, "prune_threshold": self.prune_threshold,
                "prune_probability": self.prune_probability, "sum_visits": self.sum_visits}

    @classmethod
    def from_settings(cls, settings: dict) -> "SamplingOptions":
        """The options a run or checkpoint recorded (`settings()`); an absent option takes
        the value it had before it existed (runs older than the option: off)."""
        probability = settings.get("prune_probability")
        return cls(bool(settings.get("linear_weighting", False)),
                   settings.get("prune_threshold"),
                   0.95 if probability is None else float(probability),
                   bool(settings.get("sum_visits", False)))

    def kernel_pruning(self) -> tuple[float, float]:
        """(threshold, probability) as the kernel takes them: (0, 0) without pruning."""
        if self.prune_threshold is None:
            return 0.0, 0.0
        return float(self.prune_threshold), float(self.prune_probability)


@njit(cache=True, inline="always", _nrt=False)
def unit_float(w):
    """A float in [0, 1) from a random word: its top 53 bits / 2^53."""
    return np.float64(w >> np.uint64(11)) * _UNIT


@njit(cache=True, _nrt=False)
def sample_index(probs, n, u):
    """The first a with u < probs[0] + ... + probs[a] (summed in order, zeros skipped), or the
    last action of positive probability when rounding leaves the sum below u."""
    c = 0.0
    last = 0
    for a in range(n):
        pa = probs[a]
        if pa > 0.0:
            c += pa
            last = a
            if u < c:
                return a
    return last


@njit(cache=True, _nrt=False)
def pass_prunes(word, prune_probability):
    """Whether the pass of `word` prunes: draw 2^63 of the word below `prune_probability`."""
    return prune_probability > 0.0 and unit_float(mix_word(word, PRUNE_DRAW)) < prune_probability


def _es_sig(val):
    """`es_kernel`'s signature for a table of value type `val` (float64 or float32)."""
    return types.float64(
        *WALK_TYPES, types.uint8[:, ::1],  # and the pruned actions
        *table_types(val),  # the frozen table
        *LOG_TYPES, types.int64[::1],  # the log and its counts
        types.float64[::1],  # log: sigma (summed visits only)
        types.uint64[:, ::1], types.uint32[::1], types.int64[::1],  # map: keys, gen, entry pos
        types.int64, types.int64,  # summed visits (0/1), the first word's map generation
        types.int64[::1], types.float64[::1], types.uint64[::1],  # per word: player, weight, word
        types.float64, types.float64,  # prune threshold, prune probability
        types.float64[::1],  # out: each word's root value
        # frozen player (-1: none), its key function and default, its keys, offsets, probs
        types.int64, DECISION_TYPE, DEFAULT_TYPE, types.uint64[::1], types.int64[::1],
        types.float32[::1],
    )


# frame kinds besides `cfr.walk.FRAME_PASS`: an opponent's sampled decision, the traverser's
# walked one
_SAMPLED, _WALKED = 3, 4


@njit(cache=True, _nrt=False)
def _mark_pruned(current_player, apply, state, child, actions, regrets, offset, n, threshold,
                 skip):
    """skip[a] = 1 for the actions a pruning pass leaves out (see the module docstring);
    returns the first walked action."""
    pruned = 0
    for a in range(n):
        skip[a] = 0
        if offset >= 0 and regrets[offset + a] < threshold:
            apply(state, actions[a], child)
            if current_player(child) != TERMINAL:
                skip[a] = 1
                pruned += 1
    if pruned == n:
        for a in range(n):
            skip[a] = 0
    for a in range(n):
        if skip[a] == 0:
            return a
    return 0


@njit(cache=True, inline="always", _nrt=False)
def _summed_entry(t_keys, t_meta, t_offsets, t_regrets, lg_offset, lg_key, lg_meta,
                  lg_values, lg_counts, lg_sigma, m_keys, m_gen, m_pos, gen, map_limit,
                  first_entry, key, n, p, probs):
    """A summed pass's entry for `key` (n actions, player p) in this word: its value position
    in the log, found through the episode map or made there (sigma from the frozen table
    into `probs` and the entry's sigma); -1 when the log or the map is full (counts[OVERFLOW]
    says which)."""
    slot = map_slot(m_keys, m_gen, gen, key)
    if m_gen[slot] == gen:
        pos = m_pos[slot]
        for a in range(n):
            probs[a] = lg_sigma[pos + a]
        return pos
    if not log_has_room(lg_offset, lg_values, lg_counts, n):
        return -1
    if lg_counts[ENTRIES] - first_entry >= map_limit:
        lg_counts[OVERFLOW] = OVERFLOW_MAP
        return -1
    pos = lg_counts[VALUES]
    new_entry(t_keys, t_meta, t_offsets, t_regrets, lg_offset, lg_key, lg_meta, lg_values,
              lg_sigma, lg_counts, m_keys, m_gen, m_pos, gen, slot, key, n, p, probs)
    return pos


@njit(cache=True, inline="always", _nrt=False)
def _visit_entry(summed, summed_pos, lg_offset, lg_key, lg_meta, lg_values, lg_counts, offset,
                 key, meta, n):
    """Where a visit's increments are added: its info set's entry for the word (summed), or
    an entry of its own, zeroed (-1 when the log is full)."""
    if summed:
        return summed_pos
    pos = log_entry(lg_offset, lg_key, lg_meta, lg_values, lg_counts, offset, key, meta, n)
    if pos >= 0:
        for a in range(2 * n):
            lg_values[pos + a] = 0.0
    return pos


@njit(cache=True, nogil=True, _nrt=False)
def _es_pass(current_player, decision, apply, utility, chance_outcomes, chance_sample,
             root, states, actions, probs, cvals, keys, value, kind, count, index, offset,
             entry_pos, skip, t_keys, t_meta, t_offsets, t_regrets,
             lg_offset, lg_key, lg_meta, lg_values, lg_counts, lg_sigma,
             m_keys, m_gen, m_pos, summed, gen,
             traverser, weight, prune, threshold, word,
             frozen, f_decision, f_default, f_keys, f_offsets, f_probs):
    """The explicit-stack walk of one pass (see `es_kernel`); returns the root's v_0, or
    stops early (value 0) when a summed pass finds its log or map full. Chance and the
    opponent are drawn from this pass's own draw counter, not from `cfr.walk`'s chance_k."""
    for i in range(root.shape[0]):
        states[0, i] = root[i]
    map_limit = np.int64(m_gen.shape[0] * MAP_LOAD)
    first_entry = lg_counts[ENTRIES]
    draw = np.uint64(0)
    d = 0
    entering = True
    ret = 0.0
    while True:  # the kernel's own loop over `cfr.walk`'s steps (why: that module)
        if entering:
            # ---- evaluate history d: descend into its (first) child or return a value
            state = states[d]
            p = current_player(state)
            child = states[d + 1]
            if p == TERMINAL:
                ret = utility(state)
                entering = False
                continue
            if p == CHANCE:
                chance_sample(state, mix_word(word, draw), child)
                draw += np.uint64(1)
                kind[d] = FRAME_PASS
                d += 1
                continue
            if p == frozen:  # the fixed policy's action: one child, nothing logged
                n = f_decision(state, actions[d], keys[d])
                a = 0
                if n >= 2:
                    a = frozen_action(f_default, f_keys, f_offsets, f_probs, state,
                                      actions[d], n, keys[d, 0],
                                      unit_float(mix_word(word, draw)))
                    draw += np.uint64(1)
                kind[d] = FRAME_PASS
                apply(state, actions[d, a], child)
                d += 1
                continue
            n = decision(state, actions[d], keys[d])
            if n == 1:
                kind[d] = FRAME_PASS
                apply(state, actions[d, 0], child)
                d += 1
                continue
            count[d] = n
            if summed:
                pos = _summed_entry(t_keys, t_meta, t_offsets, t_regrets, lg_offset, lg_key,
                                    lg_meta, lg_values, lg_counts, lg_sigma, m_keys, m_gen,
                                    m_pos, gen, map_limit, first_entry, keys[d], n, p,
                                    probs[d])
                if pos < 0:
                    return 0.0
                entry_pos[d] = pos
                # only pruning reads the table's regrets again
                o = find_offset(t_keys, t_meta, t_offsets, keys[d]) if prune else -1
            else:
                o = find_offset(t_keys, t_meta, t_offsets, keys[d])
                regret_matching(t_regrets, o, n, probs[d])
            offset[d] = o
            if p != traverser:
                a = sample_index(probs[d], n, unit_float(mix_word(word, draw)))
                draw += np.uint64(1)
                kind[d] = _SAMPLED
                index[d] = a | (p << 32)
                apply(state, actions[d, a], child)
            else:
                kind[d] = _WALKED
                value[d] = 0.0
                first = 0
                if prune:
                    first = _mark_pruned(current_player, apply, state, child, actions[d],
                                         t_regrets, o, n, threshold, skip[d])
                index[d] = first
                apply(state, actions[d, first], child)
            d += 1
        else:
            # ---- history d returned `ret` to the frame that receives it
            d = parent_frame(kind, d)
            if d < 0:
                return ret
            kd = kind[d]
            n = count[d]
            if kd == _SAMPLED:
                pos = _visit_entry(summed, entry_pos[d], lg_offset, lg_key, lg_meta, lg_values,
                                   lg_counts, offset[d], keys[d], n | ((index[d] >> 32) << 7), n)
                if pos >= 0:
                    for a in range(n):
                        lg_values[pos + n + a] += weight * probs[d, a]
                continue  # the sampled child's value is the node's
            i = index[d]
            add_child_value(d, i, ret, probs, cvals, value)
            i += 1
            if prune:
                while i < n and skip[d, i] != 0:
                    i += 1
            if i < n:
                index[d] = i
                apply(states[d], actions[d, i], states[d + 1])
                d += 1
                entering = True
                continue
            ret = value[d]
            pos = _visit_entry(summed, entry_pos[d], lg_offset, lg_key, lg_meta, lg_values,
                               lg_counts, offset[d], keys[d], n | (traverser << 7), n)
            if pos >= 0:
                for a in range(n):
                    if prune and skip[d, a] != 0:
                        continue  # a pruned action's regret is not updated
                    # sampled: W stands where the full-width passes' reach factor stands
                    lg_values[pos + a] += regret_increment(traverser, weight, cvals[d, a], ret)


@njit([_es_sig(types.float64), _es_sig(types.float32)], cache=True, nogil=True, _nrt=False)
def es_kernel(current_player, decision, apply, utility, chance_outcomes, chance_sample,
              root, states, actions, probs, cvals, keys, floats, ints, skip,
              t_keys, t_meta, t_offsets, t_regrets,
              lg_offset, lg_key, lg_meta, lg_values, lg_counts, lg_sigma,
              m_keys, m_gen, m_pos, summed, gen,
              players, weights, words, threshold, prune_probability, word_values,
              frozen, f_decision, f_default, f_keys, f_offsets, f_probs):
    """External-sampling passes from `root`, pass b with traverser `players[b]`, weight
    `weights[b]` and word `words[b]` (formulas in the module docstring), all against the same
    frozen table and appended to the same log. Returns the sum of the words' root values v_0
    and writes each into `word_values`. Player `frozen` (-1: none) plays the fixed policy of
    the last six arguments (`cfr.frozen_policy`) and is never logged.

    With `summed` (1), each word's visits to one info set are summed into one entry, found
    through the episode map at generation `gen + b` (the caller reserves the generations);
    the log must then carry sigma (`EpisodeLog`). Without it (0) the map and sigma are not
    touched. A pass that finds its log or map full stops the kernel with counts[OVERFLOW]
    set (the caller grows what is short and runs the words again).

    A depth-first walk with an explicit stack of frames (no recursion, no allocation): frame d
    holds history d's state, actions, sigma, children's values, running value, kind (pass
    through, sampled opponent, walked traverser), the index of the action being walked, the
    table offset and the summed entry's position.
    """
    value = floats[:, 3]
    kind = ints[:, 0]
    count = ints[:, 1]
    index = ints[:, 2]
    offset = ints[:, 3]
    entry_pos = ints[:, 4]
    total = 0.0
    for b in range(words.shape[0]):
        word = words[b]
        prune = pass_prunes(word, prune_probability)
        v = _es_pass(current_player, decision, apply, utility, chance_outcomes, chance_sample,
                     root, states, actions, probs, cvals, keys, value, kind, count, index,
                     offset, entry_pos, skip, t_keys, t_meta, t_offsets, t_regrets,
                     lg_offset, lg_key, lg_meta, lg_values, lg_counts, lg_sigma,
                     m_keys, m_gen, m_pos, summed, np.uint32(gen + b),
                     players[b], weights[b], prune, threshold, word,
                     frozen, f_decision, f_default, f_keys, f_offsets, f_probs)
        if summed and lg_counts[OVERFLOW] != 0:
            return total
        word_values[b] = v
        total += v
    return total


class EsScratch(Scratch):
    """The per-depth work arrays of one external-sampling pass, allocated by the caller (the
    kernels allocate nothing; one per worker thread): `cfr.walk.Scratch`'s (of `floats` only
    the running value, column 3, is used) and the pruned actions."""

    def __init__(self, game: Game):
        super().__init__(game)
        self.skip = np.zeros(self.actions.shape, dtype=np.uint8)


def _per_word(x, n: int, dtype) -> np.ndarray:
    """`x` (a scalar or one value per word) as a contiguous array of n values."""
    arr = np.ascontiguousarray(np.broadcast_to(np.asarray(x, dtype=dtype), (n,)))
    return arr.copy() if not arr.flags.writeable else arr


# what the kernel gets for the summing arguments when it does not sum (never touched)
_NO_SIGMA = np.zeros(0, dtype=np.float64)
_NO_MAP = EpisodeMap(1, slots=1)


def _summing(log: IncrementLog, options: SamplingOptions, episode_map: EpisodeMap | None,
             key_words: int):
    """The kernel's summed-visits arguments: (flag, sigma, map), checking the log can sum."""
    if not options.sum_visits:
        return 0, _NO_SIGMA, _NO_MAP
    if not isinstance(log, EpisodeLog):
        raise TypeError("summed visits need an EpisodeLog (it carries each entry's sigma)")
    return 1, log.sigma, episode_map if episode_map is not None else EpisodeMap(key_words)


def _frozen_arguments(game: Game, frozen: FrozenPolicy | None, frozen_player: int) -> tuple:
    """The kernel's frozen-side arguments: none, or `frozen` played by `frozen_player`."""
    if frozen is None:
        if frozen_player != -1:
            raise ValueError("a frozen player needs its FrozenPolicy")
        return no_frozen_arguments(game)
    if game.key_words != 1:
        raise ValueError("a frozen policy needs one-word keys")
    return frozen.kernel_arguments(int(frozen_player))


def _run_kernel(game: Game, table: InfoSetTable, log: IncrementLog, scratch: EsScratch,
                root: np.ndarray, players, weights, words, options: SamplingOptions,
                episode_map: EpisodeMap | None, word_values: np.ndarray,
                frozen: FrozenPolicy | None = None, frozen_player: int = -1) -> float:
    """`es_kernel` over `words` appended to `log` after its current entries, growing the log
    (or the map) and running the words again until they fit; returns the sum of root values."""
    frozen_args = _frozen_arguments(game, frozen, frozen_player)
    summed, sigma, emap = _summing(log, options, episode_map, game.key_words)
    threshold, probability = options.kernel_pruning()
    start_entries, start_values = int(log.counts[ENTRIES]), int(log.counts[VALUES])
    while True:
        gen = emap.next_episodes(words.shape[0]) if summed else 0
        v = es_kernel(*game.addresses, root, scratch.states, scratch.actions, scratch.probs,
                      scratch.child_values, scratch.keys, scratch.floats, scratch.ints,
                      scratch.skip, table.keys, table.meta, table.offsets, table.regrets,
                      log.offset, log.key, log.meta, log.values, log.counts, sigma,
                      emap.keys, emap.gen, emap.pos, summed, gen,
                      players, weights, words, threshold, probability, word_values,
                      *frozen_args)
        overflow = int(log.counts[OVERFLOW])
        if not overflow:
            return float(v)
        # back to the entries before this call (an EpisodeLog keeps them as it grows)
        log.counts[ENTRIES], log.counts[VALUES] = start_entries, start_values
        if overflow == OVERFLOW_MAP:
            log.counts[OVERFLOW] = 0
            emap.grow()
        else:
            log.grow()
        sigma = log.sigma if summed else sigma


def external_sampling_pass(game: Game, table: InfoSetTable, log: IncrementLog, players, words,
                           weights=1.0, options: SamplingOptions | None = None,
                           scratch: EsScratch | None = None, root: np.ndarray | None = None,
                           word_values: np.ndarray | None = None,
                           episode_map: EpisodeMap | None = None,
                           frozen: FrozenPolicy | None = None,
                           frozen_player: int = -1) -> float:
    """Run one external-sampling pass per word of `words` against `table` (read only), filling
    `log` from empty; `cfr.increment_log.merge` then applies it.

    `players` is the traverser (0 or 1), one for all words or one per word; `weights` is W (a
    scalar or one per word; 1 for plain MCCFR, t for linear weighting); `options` supplies
    the pruning and whether visits are summed (its `linear` flag is the caller's business: it
    chooses `weights`); summing needs an `EpisodeLog` (and uses `episode_map`, made if None).
    Grows `log` and reruns the batch when it fills up. Returns the sum over the batch of
    player 0's root value estimate; `word_values` (float64, one per word) receives each.
    `scratch` saves allocating the work arrays on every call; `root` replaces the game's
    initial state. `frozen` (a `cfr.frozen_policy.FrozenPolicy`) makes `frozen_player`'s
    decisions follow it (module docstring); the traverser may be either player.
    """
    words, root, word_values = pass_inputs(game, words, root, word_values)
    n = words.shape[0]
    players = _per_word(players, n, np.int64)
    if np.any((players != 0) & (players != 1)):
        raise ValueError("the traverser must be player 0 or 1")
    weights = _per_word(weights, n, np.float64)
    log.clear()
    return _run_kernel(game, table, log, scratch if scratch is not None else EsScratch(game),
                       root, players, weights, words, options or SamplingOptions(),
                       episode_map, word_values, frozen, frozen_player)


def run_sampled_episode(game: Game, table: InfoSetTable, log: IncrementLog, scratch: EsScratch,
                        root: np.ndarray, word: int, traverser: int, weight: float = 1.0,
                        options: SamplingOptions | None = None,
                        episode_map: EpisodeMap | None = None,
                        frozen: FrozenPolicy | None = None, frozen_player: int = -1) -> float:
    """One external-sampling pass from `root` for `traverser` with random word `word`,
    appended to `log` after the entries already there (a trainer's batch collects its episodes
    in one log, as `cfr.episode_pass.run_episode` does); returns player 0's root value estimate.

    `log` must keep its entries when it grows (`cfr.episode_pass.EpisodeLog`): on overflow
    the log is cut back to where this episode began, grown, and the pass run again. With
    `options.sum_visits`, `episode_map` is the worker's (made if None). `frozen` and
    `frozen_player`: as `external_sampling_pass`.
    """
    return _run_kernel(game, table, log, scratch, root,
                       np.array([traverser], dtype=np.int64),
                       np.array([weight], dtype=np.float64),
                       np.array([word], dtype=np.uint64), options or SamplingOptions(),
                       episode_map, np.zeros(1, dtype=np.float64), frozen, frozen_player)
