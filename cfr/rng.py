"""Counter-based random words (splitmix64): the generator's whole state is (seed, counter).

Iteration t of a run with seed s draws its chance outcomes from `word(s, t)`; the k-th chance
node on a path uses `mix_word(word(s, t), k)`. Nothing else is stored, so a checkpoint that
records the seed and the iteration count resumes the exact same stream.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def splitmix64(x):
    """The splitmix64 output function of state x (Steele, Lea, Flood 2014)."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def word(seed, counter):
    """The random 64-bit word number `counter` of stream `seed`."""
    return splitmix64(np.uint64(seed) * _GOLDEN ^ splitmix64(np.uint64(counter)))


@njit(cache=True)
def mix_word(base, k):
    """Derive the k-th word from a base word (k-th chance node on a path)."""
    return splitmix64(base + np.uint64(k) * _GOLDEN)
