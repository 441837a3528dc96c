"""The reference's CFR pass: the table threaded through the walk and updated in place
(`--updates reference`; the walk of the reference's CFR library 2.x, brianberns/Cfrm).

The formulas are those of `cfr.traversal` (vanilla CFR: regret matching, counterfactual regret
dR(I, a) = pi_{-p}(h) * pi_c(h) * (v_p(h a) - v_p(h)), strategy increment
dS(I, a) = (w * pi_p(h)) * sigma(I, a)); only when the table is read and written differs.
At a decision h of player p with two or more actions, when p is updated in this pass:
    entry:  E_R, E_S = R(I), S(I) as the table holds them now, which includes every update
            made earlier in the same pass (a key the table lacks is inserted with zeros);
            sigma(I) = regret matching on E_R
    walk:   every child, each of which may update the table, I included
    exit:   R(I) <- E_R + dR(I),  S(I) <- E_S + dS(I)
So the write-back restores the info set as it was on entry plus this node's own update: an
update of the same key made deeper in its own subtree (an imperfect-recall key met twice on
one path) is lost, while updates to it made earlier in the pass, in other subtrees, are kept.
(The reference threads an immutable map through the recursion: it fetches the info set on
entry, passes the map down the children in turn, then stores `entry + own update` into the
map the last child returned.) A player that is not updated only reads the table. A history
where both players' reach is 0 is skipped (returns 0) without reading the table, as there.
Chance is enumerated or sampled exactly as in `cfr.traversal` (the k-th chance node on a path
draws from `mix_word(word, k)`), so the deal of a word is the same under both passes.

Because it writes as it walks there is no increment log and no parallelism: the passes of a
batch run one after the other (so the batch size does not matter), on one thread. The table
grows mid-pass: when a new key finds no room the kernel suspends (its whole state is in the
scratch arrays and a small control array), the wrapper grows the table (value offsets never
move, so the suspended frames stay valid) and the kernel resumes where it stopped; the result
is the one an unbounded table would give.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from cfr.game import CHANCE, TERMINAL, Game
from cfr.regret_matching import regret_matching
from cfr.table import ACTIONS_MASK, InfoSetTable, find_offset, find_slot
from cfr.walk import (FRAME_DECISION, WALK_TYPES, Scratch, decision_weights, enter_history,
                      frame_columns, next_child, open_decision, parent_frame, pass_inputs,
                      regret_increment, start_walk, table_types)

# ctl[] fields and states: the kernel's control block, kept across a suspension
_STATE, _WORD, _DEPTH, _ACTIONS = 0, 1, 2, 3
_RUNNING, _SUSPENDED, _DONE, _MISMATCH = 0, 1, 2, 3


def _threaded_sig(val):
    """`threaded_kernel`'s signature for a table of value type `val` (float64 or float32)."""
    return types.void(
        *WALK_TYPES, types.float64[:, ::1], types.float64[:, ::1],  # entry values
        *table_types(val), val[::1], types.int64[::1],  # table and its strategy, counts
        types.int64, types.float64, types.int64,  # update player, weight, sampled
        types.uint64[::1],  # words
        types.float64[::1], types.int64[::1],  # out: each word's root value; control block
    )


@njit(cache=True, nogil=True, _nrt=False)
def _threaded_walk(current_player, decision, apply, utility, chance_outcomes, chance_sample,
                   root, states, actions, probs, cvals, keys, reach, value, kind, count, index,
                   offset, player, chance_k, entry_r, entry_s,
                   t_keys, t_meta, t_offsets, t_regrets, t_strategy, tcounts,
                   update_player, weight, sampled, word, ctl):
    """One pass (see `threaded_kernel`), or its continuation when ctl says it was suspended;
    returns the root's v_0, or suspends (ctl[_STATE] = _SUSPENDED) when a key needs room."""
    if ctl[_STATE] == _SUSPENDED:
        d = ctl[_DEPTH]
    else:
        start_walk(root, states, reach, chance_k)
        d = 0
    ctl[_STATE] = _RUNNING
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
                if n >= 2 and (update_player < 0 or update_player == p):
                    slot = find_slot(t_keys, t_meta, keys[d])
                    if t_meta[slot] == 0:
                        if tcounts[0] + 1 > tcounts[2] or tcounts[1] + n > t_regrets.shape[0]:
                            ctl[_STATE] = _SUSPENDED
                            ctl[_DEPTH] = d
                            ctl[_ACTIONS] = n
                            return 0.0
                        for w in range(t_keys.shape[1]):
                            t_keys[slot, w] = keys[d, w]
                        t_meta[slot] = n | (p << 7)
                        t_offsets[slot] = tcounts[1]
                        tcounts[0] += 1
                        tcounts[1] += n
                    elif np.int64(t_meta[slot] & ACTIONS_MASK) != n:
                        ctl[_STATE] = _MISMATCH
                        ctl[_DEPTH] = d
                        ctl[_ACTIONS] = n
                        return 0.0
                    o = np.int64(t_offsets[slot])
                    for a in range(n):  # the info set as it is on entry
                        entry_r[d, a] = t_regrets[o + a]
                        entry_s[d, a] = t_strategy[o + a]
                elif n >= 2:
                    o = find_offset(t_keys, t_meta, t_offsets, keys[d])
                else:
                    o = -1
                offset[d] = o
                if n >= 2:
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
                # write back: the entry values plus this node's own update
                n = count[d]
                o = offset[d]
                cf_reach, wr = decision_weights(reach, d, p, weight)
                for a in range(n):
                    t_regrets[o + a] = entry_r[d, a] + regret_increment(p, cf_reach,
                                                                        cvals[d, a], ret)
                for a in range(n):
                    t_strategy[o + a] = entry_s[d, a] + wr * probs[d, a]


@njit([_threaded_sig(types.float64), _threaded_sig(types.float32)], cache=True, nogil=True,
      _nrt=False)
def threaded_kernel(current_player, decision, apply, utility, chance_outcomes, chance_sample,
                    root, states, actions, probs, cvals, keys, floats, ints, entry_r, entry_s,
                    t_keys, t_meta, t_offsets, t_regrets, t_strategy, tcounts,
                    update_player, weight, sampled, words, word_values, ctl):
    """Threaded-table passes from `root`, one per word, in order, each updating the table in
    place (formulas in the module docstring); writes each word's root v_0 into `word_values`.

    `tcounts` = [info sets, used values, most info sets before the slots must grow]: the
    kernel inserts keys itself. When a key needs room it returns with ctl[0] = 1 (suspended;
    ctl[3] = the key's action count): the caller grows the table, refreshes `tcounts` and
    calls again with the same scratch and ctl, and the walk continues where it stopped. It
    returns with ctl[0] = 2 when every word is done, 3 when a key arrives with another action
    count than the table holds (ctl[2]: the depth whose key it is). A depth-first walk with an explicit stack
    of frames, as `cfr.traversal.pass_kernel`, whose frames also keep the info set's values
    on entry (`entry_r`, `entry_s`).
    """
    reach, value, kind, count, index, offset, player, chance_k = frame_columns(floats, ints)
    b = ctl[_WORD]
    while b < words.shape[0]:
        v = _threaded_walk(current_player, decision, apply, utility, chance_outcomes,
                           chance_sample, root, states, actions, probs, cvals, keys, reach,
                           value, kind, count, index, offset, player, chance_k,
                           entry_r, entry_s, t_keys, t_meta, t_offsets, t_regrets, t_strategy,
                           tcounts, update_player, weight, sampled, words[b], ctl)
        if ctl[_STATE] == _SUSPENDED or ctl[_STATE] == _MISMATCH:
            ctl[_WORD] = b
            return
        word_values[b] = v
        b += 1
    ctl[_WORD] = b
    ctl[_STATE] = _DONE


class ThreadedScratch(Scratch):
    """The per-depth work arrays of a threaded pass, allocated by the caller (the kernel
    allocates nothing): `cfr.walk.Scratch`'s arrays plus the info sets' entry values."""

    def __init__(self, game: Game):
        super().__init__(game)
        self.entry_regrets = np.zeros_like(self.probs)
        self.entry_strategy = np.zeros_like(self.probs)


def threaded_traverse(game: Game, table: InfoSetTable, update_player: int = -1,
                      weight: float = 1.0, sampled: bool = False, words=(0,),
                      scratch: ThreadedScratch | None = None, root: np.ndarray | None = None,
                      word_values: np.ndarray | None = None) -> float:
    """Run one threaded-table pass per word of `words`, in order, updating `table` in place.

    The arguments mean what they mean for `cfr.traversal.traverse` (minus the log, which a
    pass that writes as it walks has no use for): `update_player` 0, 1 or -1 (both),
    `weight` w of the strategy increments, `sampled` chance drawn from each word (else
    enumerated), `scratch` reused work arrays, `root` a prepared root state, `word_values`
    receives each word's root value. Grows the table as keys arrive (`TableFullError` past
    its memory cap, leaving the table part-way through a pass). Returns the sum over the
    words of player 0's root value.
    """
    words, root, word_values = pass_inputs(game, words, root, word_values)
    s = scratch if scratch is not None else ThreadedScratch(game)
    ctl = np.zeros(4, dtype=np.int64)
    tcounts = np.zeros(3, dtype=np.int64)
    while True:
        tcounts[0], tcounts[1], tcounts[2] = table.count, table.n_values, table.max_count
        threaded_kernel(*game.addresses, root, s.states, s.actions, s.probs, s.child_values,
                        s.keys, s.floats, s.ints, s.entry_regrets, s.entry_strategy,
                        table.keys, table.meta, table.offsets, table.regrets, table.strategy,
                        tcounts, int(update_player), float(weight), int(bool(sampled)), words,
                        word_values, ctl)
        table.count, table.n_values = int(tcounts[0]), int(tcounts[1])
        if ctl[_STATE] == _DONE:
            break
        if ctl[_STATE] == _MISMATCH:
            key = s.keys[int(ctl[_DEPTH]), :game.key_words].tolist()
            raise ValueError(f"info-set key {key} arrived with {int(ctl[_ACTIONS])} actions, "
                             "the table holds another count")
        n = int(ctl[_ACTIONS])
        if table.count + 1 > table.max_count:
            table.grow_slots()
        if table.n_values + n > table.value_capacity:
            table.grow_values(table.n_values + n)
    total = 0.0
    for v in word_values:
        total += float(v)
    return total
