"""Plain-Python pieces the CFR passes' references and tests share: regret matching, a decision's
actions and key, a chance node's value, a pass's random word, and the bit-for-bit comparison of
a table with a reference dict key -> (regrets list, strategy list).

Written for clarity, one node at a time, through the same game functions the kernels call and
with sums in the kernels' order, so a reference built from them matches a kernel bit for bit.
"""

from __future__ import annotations

import numpy as np

from cfr import rng
from cfr.game import CHANCE, TERMINAL
from cfr.rng import mix_word
from games.kuhn import GAME as KUHN
from games.leduc import GAME as LEDUC

GAMES = {"kuhn": KUHN, "leduc": LEDUC}


def pass_word(seed: int, j: int) -> int:
    """The random word of pass (or iteration) j of a run seeded `seed`."""
    return int(rng.word(np.uint64(seed), np.uint64(j)))


def regret_matching(r):
    """sigma(a) = R+(a) / sum R+, or uniform; sums in action order (as the kernel)."""
    total = 0.0
    for x in r:
        if x > 0:
            total += x
    if total > 0:
        return [x / total if x > 0 else 0.0 for x in r]
    return [1.0 / len(r)] * len(r)


def child_of(game, state, action):
    """A new state: `state` after `action`."""
    child = np.zeros_like(state)
    game.apply(state, action, child)
    return child


def decision(game, state):
    """(n, actions, key) of the decision at `state`: its action count, its actions (an array
    of which the first n count) and its info-set key as a tuple of `game.key_words` ints."""
    actions = np.zeros(game.max_actions, dtype=np.int64)
    key = np.zeros(2, dtype=np.uint64)
    n = game.decision(state, actions, key)
    return n, actions, tuple(int(x) for x in key[:game.key_words])


def chance_value(game, state, reach, k, sampled, word, walk):
    """The value of chance node `state`, the k-th on its path: walk(child, reach, k + 1) of
    the child drawn from mix_word(word, k) when `sampled`, else the sum over the outcomes of
    P(o) * walk(child, reach with pi_c scaled by P(o), k + 1), in outcome order."""
    if sampled:
        child = np.zeros_like(state)
        game.chance_sample(state, mix_word(np.uint64(word), np.uint64(k)), child)
        return walk(child, reach, k + 1)
    outcomes = np.zeros(game.max_actions, dtype=np.int64)
    probs = np.zeros(game.max_actions)
    v = 0.0
    for i in range(game.chance_outcomes(state, outcomes, probs)):
        q = float(probs[i])
        v += q * walk(child_of(game, state, outcomes[i]), (reach[0], reach[1], reach[2] * q),
                      k + 1)
    return v


def enter(game, state, reach, k, sampled, word, walk):
    """What a full-width reference does at `state` short of a decision of two or more actions
    (the kernels' `cfr.walk.enter_history`): (v, None) when the history returns v (terminal,
    chance, a decision neither player reaches, a forced move), else (None, (p, n, actions,
    key)): player p's decision, the caller's to walk."""
    p = game.current_player(state)
    if p == TERMINAL:
        return game.utility(state), None
    if p == CHANCE:
        return chance_value(game, state, reach, k, sampled, word, walk), None
    if reach[0] == 0.0 and reach[1] == 0.0:
        return 0.0, None
    n, actions, key = decision(game, state)
    if n == 1:
        return walk(child_of(game, state, actions[0]), reach, k), None
    return None, (p, n, actions, key)


def assert_table_equals_dict(table, ref: dict) -> None:
    """Same keys, and every regret and strategy sum equal bit for bit."""
    assert table.count == len(ref)
    for key, (r, s) in ref.items():
        o = table.offset(key)
        assert o >= 0, key
        n = len(r)
        assert table.regrets[o:o + n].tolist() == r, key
        assert table.strategy[o:o + n].tolist() == s, key
