"""One CFR pass through the game interface, against a frozen table, into an increment log.

The pass computes, at every history h reached (pi_i = player i's reach, pi_c = chance's):
    v(h)      = sum_a sigma(I, a) * v(h a)                         (decision of player p)
    v(h)      = sum_o P(o) * v(h o)                                (chance, full enumeration)
    v(h)      = v(h o), o drawn from the iteration's random word   (chance, sampled)
    v(z)      = u_0(z)                                             (terminal; player 1 gets -u_0)
and, when p is updated in this pass, logs for I = I(h)
    dR(I, a)  = pi_{-p}(h) * pi_c(h) * (v_p(h a) - v_p(h))         (the counterfactual regret;
                                                                    pi_c is 1 when sampled)
    dS(I, a)  = (w * pi_p(h)) * sigma(I, a)                        (w = the variant's weight)
where sigma(I) is regret matching on the frozen table's regret sums (uniform for a key the
table lacks). The table is only read, so sigma(I) is the strategy from before the pass however
often the pass revisits I (imperfect recall): exact, and no per-info-set current-policy array.
Player 1's values are the exact negations of player 0's, so only v_0 is carried.
A history where both players' reach is 0 is skipped (returns 0): its increments are all 0.
Multiplications and sums happen in OpenSpiel's order, so a float64 table reproduces
`pyspiel.CFRSolver` bit for bit.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from cfr.game import CHANCE, FUNCTION_TYPES, TERMINAL, Game
from cfr.increment_log import IncrementLog, log_entry
from cfr.regret_matching import regret_matching
from cfr.rng import mix_word
from cfr.table import InfoSetTable, find_offset


def _pass_sig(val):
    """`pass_kernel`'s signature for a table of value type `val` (float64 or float32)."""
    return types.float64(
        *FUNCTION_TYPES,
        types.int64[::1],  # root state
        types.int64[:, ::1], types.int64[:, ::1], types.float64[:, ::1], types.float64[:, ::1],
        types.uint64[:, ::1], types.float64[:, ::1], types.int64[:, ::1],  # scratch (see Scratch)
        types.uint64[:, ::1], types.uint8[::1], types.uint32[::1], val[::1],  # frozen table
        types.int64[::1], types.uint64[:, ::1], types.uint8[::1], types.float64[::1],
        types.int64[::1],  # log: offset, key, meta, values, counts
        types.int64, types.float64, types.int64, types.uint64[::1],  # update player, weight, sampled, words
        types.float64[::1],  # out: each word's root value
    )


# frame kinds
FRAME_PASS, FRAME_CHANCE, FRAME_DECISION = 0, 1, 2  # what a stack frame holds


@njit(cache=True, inline="always", _nrt=False)
def enter_chance(chance_outcomes, chance_sample, apply, state, child, d, k, sampled, word,
                 actions, probs, reach, value, kind, count, index, chance_k):
    """Frame d is a chance node: write its first (or, sampled, its only) child into `child`
    with the child's reaches; the caller then descends into it."""
    if sampled != 0:
        chance_sample(state, mix_word(word, k), child)
        kind[d] = FRAME_PASS
        reach[d + 1, 0] = reach[d, 0]
        reach[d + 1, 1] = reach[d, 1]
        reach[d + 1, 2] = reach[d, 2]
    else:
        n = chance_outcomes(state, actions[d], probs[d])
        kind[d] = FRAME_CHANCE
        count[d] = n
        index[d] = 0
        value[d] = 0.0
        apply(state, actions[d, 0], child)
        reach[d + 1, 0] = reach[d, 0]
        reach[d + 1, 1] = reach[d, 1]
        reach[d + 1, 2] = reach[d, 2] * probs[d, 0]
    chance_k[d + 1] = k + 1


@njit(cache=True, inline="always", _nrt=False)
def next_child(apply, states, d, ret, actions, probs, cvals, reach, value, kind, count, index,
               player):
    """Frame d (a chance or decision frame) receives its current child's value `ret`; if it
    has another child, write it into states[d + 1] with its reaches and return True (the
    caller descends), else False (value[d] is complete)."""
    kd = kind[d]
    i = index[d]
    if kd == FRAME_CHANCE:
        value[d] += probs[d, i] * ret
    else:
        cvals[d, i] = ret
        value[d] += probs[d, i] * ret
    i += 1
    if i >= count[d]:
        return False
    index[d] = i
    apply(states[d], actions[d, i], states[d + 1])
    if kd == FRAME_CHANCE:
        reach[d + 1, 2] = reach[d, 2] * probs[d, i]
    else:
        p = player[d]
        reach[d + 1, p] = reach[d, p] * probs[d, i]
    return True


@njit(cache=True, nogil=True, _nrt=False)
def _one_pass(current_player, decision, apply, utility, chance_outcomes, chance_sample,
              root, states, actions, probs, cvals, keys, reach, value, kind, count, index,
              offset, player, chance_k, t_keys, t_meta, t_offsets, t_regrets,
              lg_offset, lg_key, lg_meta, lg_values, lg_counts,
              update_player, weight, sampled, word):
    """The explicit-stack walk of one pass (see `pass_kernel`); returns the root's v_0."""
    for i in range(root.shape[0]):
        states[0, i] = root[i]
    reach[0, 0] = 1.0
    reach[0, 1] = 1.0
    reach[0, 2] = 1.0
    chance_k[0] = 0
    d = 0
    entering = True
    ret = 0.0
    while True:
        if entering:
            # ---- evaluate history d: either descend into its first child or return a value
            state = states[d]
            p = current_player(state)
            child = states[d + 1]
            k = chance_k[d]
            if p == TERMINAL:
                ret = utility(state)
                entering = False
            elif p == CHANCE:
                enter_chance(chance_outcomes, chance_sample, apply, state, child, d, k,
                             sampled, word, actions, probs, reach, value, kind, count, index,
                             chance_k)
                d += 1
            elif reach[d, 0] == 0.0 and reach[d, 1] == 0.0:
                ret = 0.0
                entering = False
            else:
                n = decision(state, actions[d], keys[d])
                chance_k[d + 1] = k
                reach[d + 1, 0] = reach[d, 0]
                reach[d + 1, 1] = reach[d, 1]
                reach[d + 1, 2] = reach[d, 2]
                if n == 1:
                    kind[d] = FRAME_PASS
                else:
                    kind[d] = FRAME_DECISION
                    count[d] = n
                    index[d] = 0
                    value[d] = 0.0
                    player[d] = p
                    o = find_offset(t_keys, t_meta, t_offsets, keys[d])
                    offset[d] = o
                    if o >= 0:
                        regret_matching(t_regrets, o, n, probs[d])
                    else:
                        for a in range(n):
                            probs[d, a] = 1.0 / n
                    reach[d + 1, p] = reach[d, p] * probs[d, 0]
                apply(state, actions[d, 0], child)
                d += 1
        else:
            # ---- history d returned `ret` to its parent d - 1
            if d == 0:
                return ret
            d -= 1
            kd = kind[d]
            if kd == FRAME_PASS:
                continue
            if next_child(apply, states, d, ret, actions, probs, cvals, reach, value, kind,
                          count, index, player):
                d += 1
                entering = True
                continue
            ret = value[d]
            if kd == FRAME_DECISION:
                p = player[d]
                if update_player < 0 or update_player == p:
                    n = count[d]
                    pos = log_entry(lg_offset, lg_key, lg_meta, lg_values, lg_counts,
                                    offset[d], keys[d], n | (p << 7), n)
                    if pos >= 0:
                        v = value[d]
                        if p == 0:
                            cf_reach = reach[d, 1] * reach[d, 2]
                            wr = weight * reach[d, 0]
                            for a in range(n):
                                lg_values[pos + a] = cf_reach * (cvals[d, a] - v)
                        else:
                            cf_reach = reach[d, 0] * reach[d, 2]
                            wr = weight * reach[d, 1]
                            for a in range(n):
                                lg_values[pos + a] = cf_reach * (v - cvals[d, a])
                        for a in range(n):
                            lg_values[pos + n + a] = wr * probs[d, a]


@njit([_pass_sig(types.float64), _pass_sig(types.float32)], cache=True, nogil=True,
      _nrt=False)
def pass_kernel(current_player, decision, apply, utility, chance_outcomes, chance_sample,
                root, states, actions, probs, cvals, keys, floats, ints,
                t_keys, t_meta, t_offsets, t_regrets,
                lg_offset, lg_key, lg_meta, lg_values, lg_counts,
                update_player, weight, sampled, words, word_values):
    """Passes from `root`, one per word of `words` (formulas in the module docstring).

    Every pass of the batch reads the same frozen table and appends to the same log, so a batch
    is "several iterations against the strategy frozen at its start"; one word is plain CFR.
    Returns the sum over the batch of player 0's root value, and writes each word's into
    `word_values`.

    A depth-first walk with an explicit stack of frames (no recursion, no allocation per
    node): frame d holds history d's state, its actions, the probabilities it plays them with
    (chance probabilities or sigma), its children's values, its reaches and its running value.
    `update_player` is 0 or 1 (alternating) or -1 (both, simultaneous). With `sampled`, the
    k-th chance node of every path draws its outcome from `mix_word(word, k)`, so one pass
    sees one deal; without `sampled` the words' values are ignored.
    """
    reach = floats  # columns 0, 1, 2: pi_0, pi_1, pi_c; column 3: the running value
    value = floats[:, 3]
    kind = ints[:, 0]
    count = ints[:, 1]
    index = ints[:, 2]
    offset = ints[:, 3]
    player = ints[:, 4]
    chance_k = ints[:, 5]
    total = 0.0
    for b in range(words.shape[0]):
        v = _one_pass(current_player, decision, apply, utility, chance_outcomes,
                      chance_sample, root, states, actions, probs, cvals, keys, reach,
                      value, kind, count, index, offset, player, chance_k,
                      t_keys, t_meta, t_offsets, t_regrets,
                      lg_offset, lg_key, lg_meta, lg_values, lg_counts,
                      update_player, weight, sampled, words[b])
        word_values[b] = v
        total += v
    return total


class Scratch:
    """The per-depth work arrays of one pass (depth x ...), allocated by the caller.

    The kernels are compiled without numba's reference counting (`_nrt=False`), which saves
    an atomic increment and decrement on every array view and call; so they allocate nothing
    and every array they use comes from here.
    """

    def __init__(self, game: Game):
        d = game.max_depth + 1
        a = game.max_actions
        self.states = np.zeros((d, game.state_size), dtype=np.int64)
        self.actions = np.zeros((d, a), dtype=np.int64)
        self.probs = np.zeros((d, a), dtype=np.float64)
        self.child_values = np.zeros((d, a), dtype=np.float64)
        self.keys = np.zeros((d, 2), dtype=np.uint64)
        self.floats = np.zeros((d, 4), dtype=np.float64)
        self.ints = np.zeros((d, 6), dtype=np.int64)


def traverse(game: Game, table: InfoSetTable, log: IncrementLog, update_player: int,
             weight: float = 1.0, sampled: bool = False, words=(0,),
             scratch: Scratch | None = None, root: np.ndarray | None = None,
             word_values: np.ndarray | None = None) -> float:
    """Run one pass per word in `words` against `table` (read only), filling `log` from empty.

    `table` is not modified: several workers (threads: the kernel releases the GIL) may
    traverse it at once, each into its own log, and `cfr.increment_log.merge` then applies
    the logs in a fixed order. Grows `log` and reruns the batch if it fills up. Returns the sum over the batch of player 0's root value
    under the frozen current strategy (a sampled estimate when `sampled`). `scratch` (one per
    worker thread) saves allocating the work arrays on every call. `root` replaces the game's
    initial state (a caller that prepares each episode's root itself). `word_values` (float64,
    one per word), when given, receives each word's root value.
    """
    words = np.ascontiguousarray(words, dtype=np.uint64)
    if root is None:
        root = game.initial_state()
    root = np.ascontiguousarray(root, dtype=np.int64)
    s = scratch if scratch is not None else Scratch(game)
    if word_values is None:
        word_values = np.zeros(words.shape[0], dtype=np.float64)
    while True:
        log.clear()
        v = pass_kernel(*game.addresses, root, s.states, s.actions, s.probs, s.child_values,
                        s.keys, s.floats, s.ints,
                        table.keys, table.meta, table.offsets, table.regrets,
                        log.offset, log.key, log.meta, log.values, log.counts,
                        int(update_player), float(weight), int(bool(sampled)), words,
                        word_values)
        if not log.overflowed:
            return float(v)
        log.grow()
