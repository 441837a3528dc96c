"""A fixed policy as sorted arrays, read by numba kernels: find a key, pick an action.

The table is three arrays (`db/policy_arrays.py` builds them from a database or strategy
files): `keys` (uint64, ascending), `offsets` (int64[n + 1]) and `probs` (float32; key i's
vector is `probs[offsets[i]:offsets[i + 1]]`, in the abstraction's canonical action order). It
sits at the bottom of the layers because every layer above reads it the same way: the search's
rollouts (`search/rollout.py`), best-response training (its frozen side) and anything else that
plays a blueprint inside a kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.rng import next_u64


@njit(cache=True, nogil=True, inline="always")
def find_key(keys, key):
    """The index of `key` in the ascending `keys`, or -1 when it is absent (binary search)."""
    lo = 0
    hi = keys.shape[0]
    k = np.uint64(key)
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys[mid] < k:
            lo = mid + 1
        else:
            hi = mid
    if lo < keys.shape[0] and keys[lo] == k:
        return lo
    return -1


@njit(cache=True, nogil=True)
def pick_action(offsets, probs, index, n, greedy, rng):
    """An action index in [0, n) for the stored key `index`: its most probable action (the
    first on ties) when `greedy`, else one drawn from its probabilities with `rng` (uint64[1]).
    A vector whose length is not `n` (a table of another abstraction) gives -1."""
    start = offsets[index]
    if offsets[index + 1] - start != n:
        return -1
    if greedy:
        best = 0
        for i in range(1, n):
            if probs[start + i] > probs[start + best]:
                best = i
        return best
    total = 0.0
    for i in range(n):
        total += probs[start + i]
    u = (next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * total
    running = 0.0
    for i in range(n):
        running += probs[start + i]
        if u < running:
            return i
    return n - 1
