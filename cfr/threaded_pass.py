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

from cfr.game import CHANCE, FUNCTION_TYPES, TERMINAL, Game
from cfr.regret_matching import regret_matching
from cfr.rng import mix_word
from cfr.table import ACTIONS_MASK, InfoSetTable, find_offset, find_slot

# ctl[] fields and states: the kernel's control block, kept across a suspension
_STATE, _WORD, _DEPTH, _ACTIONS = 0, 1, 2, 3
_RUNNING, _SUSPENDED, _DONE, _MISMATCH = 0, 1, 2, 3

# frame kinds
_PASS_THROUGH, _CHANCE, _DECISION = 0, 1, 2


def _threaded_sig(val):
    """`threaded_kernel`'s signature for a table of value type `val` (float64 or float32)."""
    return types.void(
        *FUNCTION_TYPES,
        types.int64[::1],  # root state
        types.int64[:, ::1], types.int64[:, ::1], types.float64[:, ::1], types.float64[:, ::1],
        types.uint64[:, ::1], types.float64[:, ::1], types.int64[:, ::1],
        types.float64[:, ::1], types.float64[:, ::1],  # scratch (see ThreadedScratch)
        types.uint64[:, ::1], types.uint8[::1], types.uint32[::1], val[::1], val[::1],
        types.int64[::1],  # table: keys, meta, offsets, regrets, strategy, counts
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
        for i in range(root.shape[0]):
            states[0, i] = root[i]
        reach[0, 0] = 1.0
        reach[0, 1] = 1.0
        reach[0, 2] = 1.0
        chance_k[0] = 0
        d = 0
    ctl[_STATE] = _RUNNING
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
                if sampled != 0:
                    chance_sample(state, mix_word(word, k), child)
                    kind[d] = _PASS_THROUGH
                    reach[d + 1, 0] = reach[d, 0]
                    reach[d + 1, 1] = reach[d, 1]
                    reach[d + 1, 2] = reach[d, 2]
                else:
                    n = chance_outcomes(state, actions[d], probs[d])
                    kind[d] = _CHANCE
                    count[d] = n
                    index[d] = 0
                    value[d] = 0.0
                    apply(state, actions[d, 0], child)
                    reach[d + 1, 0] = reach[d, 0]
                    reach[d + 1, 1] = reach[d, 1]
                    reach[d + 1, 2] = reach[d, 2] * probs[d, 0]
                chance_k[d + 1] = k + 1
                d += 1
            elif reach[d, 0] == 0.0 and reach[d, 1] == 0.0:
                ret = 0.0
                entering = False
            else:
                n = decision(state, actions[d], keys[d])
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
                chance_k[d + 1] = k
                reach[d + 1, 0] = reach[d, 0]
                reach[d + 1, 1] = reach[d, 1]
                reach[d + 1, 2] = reach[d, 2]
                if n == 1:
                    kind[d] = _PASS_THROUGH
                else:
                    kind[d] = _DECISION
                    count[d] = n
                    index[d] = 0
                    value[d] = 0.0
                    player[d] = p
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
            if kd == _PASS_THROUGH:
                continue
            i = index[d]
            if kd == _CHANCE:
                value[d] += probs[d, i] * ret
            else:
                cvals[d, i] = ret
                value[d] += probs[d, i] * ret
            i += 1
            if i < count[d]:
                index[d] = i
                apply(states[d], actions[d, i], states[d + 1])
                if kd == _CHANCE:
                    reach[d + 1, 2] = reach[d, 2] * probs[d, i]
                else:
                    p = player[d]
                    reach[d + 1, p] = reach[d, p] * probs[d, i]
                d += 1
                entering = True
                continue
            ret = value[d]
            if kd == _DECISION:
                p = player[d]
                if update_player < 0 or update_player == p:
                    # write back: the entry values plus this node's own update
                    n = count[d]
                    o = offset[d]
                    v = value[d]
                    if p == 0:
                        cf_reach = reach[d, 1] * reach[d, 2]
                        wr = weight * reach[d, 0]
                        for a in range(n):
                            t_regrets[o + a] = entry_r[d, a] + cf_reach * (cvals[d, a] - v)
                    else:
                        cf_reach = reach[d, 0] * reach[d, 2]
                        wr = weight * reach[d, 1]
                        for a in range(n):
                            t_regrets[o + a] = entry_r[d, a] + cf_reach * (v - cvals[d, a])
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
    reach = floats  # columns 0, 1, 2: pi_0, pi_1, pi_c; column 3: the running value
    value = floats[:, 3]
    kind = ints[:, 0]
    count = ints[:, 1]
    index = ints[:, 2]
    offset = ints[:, 3]
    player = ints[:, 4]
    chance_k = ints[:, 5]
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


class ThreadedScratch:
    """The per-depth work arrays of a threaded pass, allocated by the caller (the kernel
    allocates nothing): `cfr.traversal.Scratch`'s arrays plus the info sets' entry values."""

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
        self.entry_regrets = np.zeros((d, a), dtype=np.float64)
        self.entry_strategy = np.zeros((d, a), dtype=np.float64)


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
    words = np.ascontiguousarray(words, dtype=np.uint64).reshape(-1)
    if root is None:
        root = game.initial_state()
    root = np.ascontiguousarray(root, dtype=np.int64)
    s = scratch if scratch is not None else ThreadedScratch(game)
    if word_values is None:
        word_values = np.zeros(words.shape[0], dtype=np.float64)
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
