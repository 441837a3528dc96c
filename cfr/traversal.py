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

from cfr.game import CHANCE, TERMINAL, Game
from cfr.increment_log import IncrementLog, log_entry
from cfr.regret_matching import regret_matching
from cfr.table import InfoSetTable, find_offset
from cfr.walk import (FRAME_DECISION, LOG_TYPES, WALK_TYPES, Scratch, decision_weights,
                      enter_history, frame_columns, next_child, open_decision, parent_frame,
                      pass_inputs, regret_increment, start_walk, table_types)

def _pass_sig(val):
    """`pass_kernel`'s signature for a table of value type `val` (float64 or float32)."""
    return types.float64(
        *WALK_TYPES, *table_types(val),  # the frozen table
        *LOG_TYPES, types.int64[::1],  # the log and its counts
        types.int64, types.float64, types.int64, types.uint64[::1],  # update player, weight, sampled, words
        types.float64[::1],  # out: each word's root value
    )


@njit(cache=True, nogil=True, _nrt=False)
def _one_pass(current_player, decision, apply, utility, chance_outcomes, chance_sample,
              root, states, actions, probs, cvals, keys, reach, value, kind, count, index,
              offset, player, chance_k, t_keys, t_meta, t_offsets, t_regrets,
              lg_offset, lg_key, lg_meta, lg_values, lg_counts,
              update_player, weight, sampled, word):
    """The explicit-stack walk of one pass (see `pass_kernel`); returns the root's v_0."""
    start_walk(root, states, reach, chance_k)
    d = 0
    entering = True
    ret = 0.0
    while True:  # the kernel's own loop over `cfr.walk`'s steps (why: that module)
        if entering:
            # ---- evaluate history d: either descend into its first child or return a value
            p, ret = enter_history(current_player, utility, chance_outcomes, chance_sample,
                                   apply, states, d, sampled, word, actions, probs, reach,
                                   value, kind, count, index, chance_k)
            if p == TERMINAL:
                entering = False
                continue
            if p != CHANCE:
                n = decision(states[d], actions[d], keys[d])
                if n >= 2:
                    o = find_offset(t_keys, t_meta, t_offsets, keys[d])
                    offset[d] = o
                    regret_matching(t_regrets, o, n, probs[d])
                open_decision(apply, states, d, n, p, actions, probs, reach, value, kind,
                              count, index, player, chance_k)
            d += 1
        else:
            # ---- history d returned `ret` to the frame that receives it
            d = parent_frame(kind, d)
            if d < 0:
                return ret
            if next_child(apply, states, d, ret, actions, probs, cvals, reach, value, kind,
                          count, index, player):
                d += 1
                entering = True
                continue
            ret = value[d]
            if kind[d] != FRAME_DECISION:
                continue
            p = player[d]
            if update_player < 0 or update_player == p:
                n = count[d]
                pos = log_entry(lg_offset, lg_key, lg_meta, lg_values, lg_counts, offset[d],
                                keys[d], n | (p << 7), n)
                if pos >= 0:
                    cf_reach, wr = decision_weights(reach, d, p, weight)
                    for a in range(n):
                        lg_values[pos + a] = regret_increment(p, cf_reach, cvals[d, a], ret)
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

    A depth-first walk with an explicit stack of frames (`cfr.walk`; no recursion, no
    allocation per node): frame d holds history d's state, its actions, the probabilities it
    plays them with (chance probabilities or sigma), its children's values, its reaches and
    its running value. `update_player` is 0 or 1 (alternating) or -1 (both, simultaneous).
    With `sampled`, the k-th chance node of every path draws its outcome from
    `mix_word(word, k)`, so one pass sees one deal; without `sampled` the words' values are
    ignored.
    """
    reach, value, kind, count, index, offset, player, chance_k = frame_columns(floats, ints)
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
    words, root, word_values = pass_inputs(game, words, root, word_values)
    s = scratch if scratch is not None else Scratch(game)
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
