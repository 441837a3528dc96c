"""Playing a deal out with a fixed baseline policy: the best abstract action at every key.

A policy is two arrays sorted by key: `policy_keys` (uint64 baseline keys) and `policy_best`
(uint8, the index of the key's best action in canonical order). A key the policy lacks plays
its first abstract action, as the reference does; `misses[0]` counts those.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.setback.abstraction.decision import abstract_decision
from games.setback.rules import apply_move
from games.setback.scoring import deal_score, is_exhausted
from games.setback.state import PHASE, PHASE_OVER

MAX_ABSTRACT_ACTIONS = 8


@njit(cache=True)
def policy_action(policy_keys, policy_best, key, misses):
    """Index of the policy's best action at `key` (0 and one more miss when it is absent)."""
    i = np.searchsorted(policy_keys, key)
    if i < policy_keys.shape[0] and policy_keys[i] == key:
        return np.int64(policy_best[i])
    misses[0] += 1
    return np.int64(0)


@njit(cache=True)
def play_out(state, policy_keys, policy_best, misses):
    """Play `state` (a deal whose auction is over) with the policy until its score is settled
    (over or exhausted); return the deal score (team 0, team 1). Modifies `state`."""
    moves = np.empty(MAX_ABSTRACT_ACTIONS, np.int64)
    while state[PHASE] != PHASE_OVER and not is_exhausted(state):
        n, situation, tokens, key = abstract_decision(state, moves)
        choice = 0 if n == 1 else policy_action(policy_keys, policy_best, key, misses)
        apply_move(state, moves[choice])
    return deal_score(state)
