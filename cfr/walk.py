"""The frame stack's steps, written once for every CFR pass that walks the game interface.

A pass (`cfr.traversal`, `cfr.episode_pass`, `cfr.threaded_pass`, `cfr.external_sampling`)
walks the tree depth first with an explicit stack of frames: frame d holds history d's state
(`states[d]`), its actions, the probabilities it plays them with (chance probabilities or
sigma, `probs[d]`), its children's values (`cvals[d]`), its kind, its running value and, in
the full-width passes, its reaches pi_0, pi_1, pi_c (`reach[d]`) and how many chance nodes lie
above it (`chance_k[d]`: the k-th chance node of a path draws from `mix_word(word, k)`).
This module holds the steps all of them take: entering a history (terminal, chance, a
decision nobody reaches), opening a decision frame, handing a child's value back up to the
frame that receives it, moving on to the next child, and the counterfactual weights and
regret of a decision. They are `inline="always"`: numba pastes them into each kernel, so a
step costs what it cost written out, and a constant argument (a weight of 1.0) folds away.

Why each kernel still writes its own loop (a dozen lines: descend, return, the decision in
between), the one copy numba forces: the decision step differs from pass to pass in what it
reads and writes (a log entry, the table in place, an episode map), and numba can hand a step
to a shared loop only as a compiled function, passed as an argument or closed over by a
factory; a kernel made either way is never found again in numba's on-disk cache (checked with
numba 0.68: it compiles anew in every process, tens of seconds per kernel at every start). The
other way, one loop holding every pass's steps behind a mode flag, would take the union of
their arguments (some forty). So the loops stay apart, every step they share lives here, and
a kernel's docstring points here instead of saying this again.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from cfr.game import CHANCE, FUNCTION_TYPES, TERMINAL, Game
from cfr.rng import mix_word

# frame kinds: what a stack frame holds
FRAME_PASS, FRAME_CHANCE, FRAME_DECISION = 0, 1, 2

# The kernels' leading parameter types: the game's six functions, the root state and the work
# arrays of `Scratch` (states, actions, probs, child values, keys, floats, ints).
WALK_TYPES = (
    *FUNCTION_TYPES,
    types.int64[::1],
    types.int64[:, ::1], types.int64[:, ::1], types.float64[:, ::1], types.float64[:, ::1],
    types.uint64[:, ::1], types.float64[:, ::1], types.int64[:, ::1],
)


def table_types(val) -> tuple:
    """The parameter types of a table's slot arrays and regret sums (keys, meta, offsets,
    regrets) for values of type `val` (float64 or float32)."""
    return (types.uint64[:, ::1], types.uint8[::1], types.uint32[::1], val[::1])


# an increment log's arrays: offset, key, meta, values
LOG_TYPES = (types.int64[::1], types.uint64[:, ::1], types.uint8[::1], types.float64[::1])


class Scratch:
    """The per-depth work arrays of one pass (depth x ...), allocated by the caller.

    The kernels are compiled without numba's reference counting (`_nrt=False`), which saves
    an atomic increment and decrement on every array view and call; so they allocate nothing
    and every array they use comes from here (one per worker thread).
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


def pass_inputs(game: Game, words, root, word_values) -> tuple:
    """A pass's `words` (uint64), `root` (int64, the game's initial state when None) and
    `word_values` (float64, one per word, new when None) as the kernels take them."""
    words = np.ascontiguousarray(words, dtype=np.uint64).reshape(-1)
    if root is None:
        root = game.initial_state()
    root = np.ascontiguousarray(root, dtype=np.int64)
    if word_values is None:
        word_values = np.zeros(words.shape[0], dtype=np.float64)
    return words, root, word_values


@njit(cache=True, inline="always", _nrt=False)
def frame_columns(floats, ints):
    """`Scratch.floats` and `Scratch.ints` by column: (reach (pi_0, pi_1, pi_c in columns 0 to
    2), value, kind, count, index, offset, player, chance_k)."""
    return (floats, floats[:, 3], ints[:, 0], ints[:, 1], ints[:, 2], ints[:, 3], ints[:, 4],
            ints[:, 5])


@njit(cache=True, inline="always", _nrt=False)
def start_walk(root, states, reach, chance_k):
    """Frame 0 holds the root: reached with probability 1 by everyone, no chance node above."""
    for i in range(root.shape[0]):
        states[0, i] = root[i]
    reach[0, 0] = 1.0
    reach[0, 1] = 1.0
    reach[0, 2] = 1.0
    chance_k[0] = 0


@njit(cache=True, inline="always", _nrt=False)
def copy_reach(reach, d):
    """Frame d + 1 starts with frame d's reaches (the caller then scales the mover's)."""
    reach[d + 1, 0] = reach[d, 0]
    reach[d + 1, 1] = reach[d, 1]
    reach[d + 1, 2] = reach[d, 2]


@njit(cache=True, inline="always", _nrt=False)
def enter_chance(chance_outcomes, chance_sample, apply, state, child, d, k, sampled, word,
                 actions, probs, reach, value, kind, count, index, chance_k):
    """Frame d is a chance node: write its first (or, sampled, its only) child into `child`
    with the child's reaches; the caller then descends into it."""
    copy_reach(reach, d)
    if sampled != 0:
        chance_sample(state, mix_word(word, k), child)
        kind[d] = FRAME_PASS
    else:
        n = chance_outcomes(state, actions[d], probs[d])
        kind[d] = FRAME_CHANCE
        count[d] = n
        index[d] = 0
        value[d] = 0.0
        apply(state, actions[d, 0], child)
        reach[d + 1, 2] = reach[d, 2] * probs[d, 0]
    chance_k[d + 1] = k + 1


@njit(cache=True, inline="always", _nrt=False)
def enter_history(current_player, utility, chance_outcomes, chance_sample, apply, states, d,
                  sampled, word, actions, probs, reach, value, kind, count, index, chance_k):
    """Evaluate history d as far as every pass does: returns (p, v). p = TERMINAL: the history
    returns v (its utility, or 0 for a decision neither player reaches: everything below it
    adds nothing); p = CHANCE: frame d is a chance node whose child is now frame d + 1
    (descend); p = 0 or 1: a decision of that player, the caller's to open."""
    state = states[d]
    p = current_player(state)
    if p == TERMINAL:
        return p, utility(state)
    if p == CHANCE:
        enter_chance(chance_outcomes, chance_sample, apply, state, states[d + 1], d,
                     chance_k[d], sampled, word, actions, probs, reach, value, kind, count,
                     index, chance_k)
        return p, 0.0
    if reach[d, 0] == 0.0 and reach[d, 1] == 0.0:
        return np.int64(TERMINAL), 0.0
    return p, 0.0


@njit(cache=True, inline="always", _nrt=False)
def open_decision(apply, states, d, n, p, actions, probs, reach, value, kind, count, index,
                  player, chance_k):
    """Frame d is a decision of player p with n actions (sigma in probs[d] when n >= 2): write
    its first child into frame d + 1 with the child's reaches; the caller then descends."""
    chance_k[d + 1] = chance_k[d]
    copy_reach(reach, d)
    if n == 1:
        kind[d] = FRAME_PASS
    else:
        kind[d] = FRAME_DECISION
        count[d] = n
        index[d] = 0
        value[d] = 0.0
        player[d] = p
        reach[d + 1, p] = reach[d, p] * probs[d, 0]
    apply(states[d], actions[d, 0], states[d + 1])


@njit(cache=True, inline="always", _nrt=False)
def parent_frame(kind, d):
    """The frame that receives history d's value: the nearest above d that is not a pass-
    through (a pass-through hands its only child's value straight up); -1 when none is (the
    root's value is the pass's)."""
    d -= 1
    while d >= 0 and kind[d] == FRAME_PASS:
        d -= 1
    return d


@njit(cache=True, inline="always", _nrt=False)
def add_child_value(d, i, ret, probs, cvals, value):
    """Frame d's child i returned `ret`: keep it, and add it to the frame's running value."""
    cvals[d, i] = ret
    value[d] += probs[d, i] * ret


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
        add_child_value(d, i, ret, probs, cvals, value)
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


@njit(cache=True, inline="always", _nrt=False)
def decision_weights(reach, h, p, weight):
    """(pi_{-p}(h) * pi_c(h), w * pi_p(h)) from row h of `reach`: what player p's regret and
    strategy-sum increments at history h are scaled by."""
    return reach[h, 1 - p] * reach[h, 2], weight * reach[h, p]


@njit(cache=True, inline="always", _nrt=False)
def regret_increment(p, cf_reach, child_value, node_value):
    """Player p's counterfactual regret for one action, cf_reach * (v_p(h a) - v_p(h)), from
    values in player 0's terms (player 1's are their negation)."""
    if p == 0:
        return cf_reach * (child_value - node_value)
    return cf_reach * (node_value - child_value)
