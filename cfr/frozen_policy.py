"""A fixed policy for one player, read by the external-sampling pass instead of the table.

An approximate best response (issue 37; Timbers et al., "Approximate exploitability", IJCAI
2022) trains one player with external-sampling MCCFR while the other plays a fixed target. The
target costs a lookup, not a traversal: at a decision of the frozen player the pass
(`cfr.external_sampling`) asks `frozen_action` for one action and walks only that child, as it
does for an opponent's sampled action, and logs nothing there; so the learner's table never
holds a key of the target's decisions, and the target's arrays are only read.

The policy is plain arrays, so the core stays game-agnostic:
    keys     uint64[n]    the policy's info-set keys, sorted ascending (one-word keys)
    offsets  int64[n+1]   key i's probabilities are probs[offsets[i]:offsets[i+1]] (CSR)
    probs    float32[m]   in the game's canonical action order
and two numba functions from the game plug-in:
    decision(state, actions_out, key_out) -> n   `cfr/game.py`'s DECISION_SIG: the legal
        actions (the same as the game's own `decision`) with the key *in the target's key
        layout* (a best response may learn with finer keys than its target holds)
    default(state, actions, n) -> index          DEFAULT_SIG: the action the target plays at a
        key it lacks (a database player's fallback rule)
At a found key with n actions the action is the first a with u < p_0 + ... + p_a (u from the
pass's next random draw, `external_sampling.sample_index`); a key stored with another number
of actions than the game gives is treated as missing (the default).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Callable

import numpy as np
from numba import njit, types

from cfr.game import DECISION_SIG, FUNCTION_TYPES, FunctionAddress

DEFAULT_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64)
DEFAULT_TYPE = types.FunctionType(DEFAULT_SIG)
DECISION_TYPE = FUNCTION_TYPES[1]
NO_PLAYER = -1  # the frozen player of a pass without a frozen policy


@njit(DEFAULT_SIG, cache=True, _nrt=False)
def first_action(state, actions, n):
    """The default of a policy that says nothing else: the first action."""
    return 0


# games/policy_table.find_key is the same search for the players and the search: the layering
# (tests/test_package_boundaries.py) lets neither cfr/ import games/ nor search/ import cfr/,
# and a dozen lines do not earn a package of their own below both.
@njit(cache=True, inline="always", _nrt=False)
def find_key(keys, key):
    """The index of `key` in the ascending `keys`, or -1 (binary search, no allocation)."""
    lo = 0
    hi = keys.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < keys.shape[0] and keys[lo] == key:
        return lo
    return -1


@njit(cache=True, _nrt=False)
def frozen_action(f_default, f_keys, f_offsets, f_probs, state, actions, n, key, u):
    """The frozen policy's action index at a decision with n >= 2 actions and key `key`:
    sampled from the stored probabilities with the uniform u in [0, 1) (the last action of
    positive probability when rounding leaves the sum below u), or `f_default`'s where the key
    is missing or stored with another number of actions."""
    i = find_key(f_keys, key)
    if i >= 0:
        o = f_offsets[i]
        if f_offsets[i + 1] - o == n:
            c = 0.0
            last = -1
            for a in range(n):
                pa = np.float64(f_probs[o + a])
                if pa > 0.0:
                    c += pa
                    last = a
                    if u < c:
                        return a
            if last >= 0:
                return last
    return f_default(state, actions, n)


@dataclass(frozen=True)
class FrozenPolicy:
    """A fixed policy as the external-sampling kernel reads it (module docstring).

    `decision` (DECISION_SIG) builds the policy's keys; `default` (DEFAULT_SIG) plays where a
    key is missing. The arrays are copied to the kernel's dtypes, contiguous and writeable
    (numba types a read-only array differently), and checked once here."""

    keys: np.ndarray
    offsets: np.ndarray
    probs: np.ndarray
    decision: Callable
    default: Callable = first_action

    def __post_init__(self):
        keys = np.array(self.keys, dtype=np.uint64, copy=True).reshape(-1)
        offsets = np.array(self.offsets, dtype=np.int64, copy=True).reshape(-1)
        probs = np.array(self.probs, dtype=np.float32, copy=True).reshape(-1)
        if offsets.shape[0] != keys.shape[0] + 1 or (offsets.size and offsets[0] != 0):
            raise ValueError("a frozen policy's offsets must be n + 1 values from 0")
        if np.any(np.diff(offsets) < 1) or offsets[-1] != probs.shape[0]:
            raise ValueError("a frozen policy's offsets must rise and end at len(probs)")
        if keys.size > 1 and np.any(keys[1:] <= keys[:-1]):
            raise ValueError("a frozen policy's keys must be sorted ascending, without repeats")
        object.__setattr__(self, "keys", keys)
        object.__setattr__(self, "offsets", offsets)
        object.__setattr__(self, "probs", probs)

    @cached_property
    def addresses(self) -> tuple:
        """(decision, default) as `FunctionAddress`es, what the kernel is passed."""
        return (FunctionAddress(self.decision, DECISION_TYPE),
                FunctionAddress(self.default, DEFAULT_TYPE))

    def kernel_arguments(self, player: int) -> tuple:
        """The kernel's frozen-side arguments with `player` (0 or 1) frozen."""
        if player not in (0, 1):
            raise ValueError("the frozen player must be 0 or 1")
        return (np.int64(player), *self.addresses, self.keys, self.offsets, self.probs)


_EMPTY_KEYS = np.zeros(0, dtype=np.uint64)
_EMPTY_OFFSETS = np.zeros(1, dtype=np.int64)
_EMPTY_PROBS = np.zeros(0, dtype=np.float32)
_NO_DEFAULT = None


def no_frozen_arguments(game) -> tuple:
    """The kernel's frozen-side arguments of an ordinary pass: no frozen player (the functions
    are never called: the game's own decision and `first_action` stand in)."""
    global _NO_DEFAULT
    if _NO_DEFAULT is None:
        _NO_DEFAULT = FunctionAddress(first_action, DEFAULT_TYPE)
    return (np.int64(NO_PLAYER), game.addresses[1], _NO_DEFAULT, _EMPTY_KEYS, _EMPTY_OFFSETS,
            _EMPTY_PROBS)
