"""A tiny, fast, seedable random stream for numba code: SplitMix64.

The whole generator state is one uint64 held in a 1-element array, so it can be copied,
checkpointed and restored exactly. `mix64` turns (seed, index) into an independent stream seed,
which lets deal number i be generated without generating deals 0..i-1 first.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, inline="always")
def mix64(x):
    """SplitMix64's finaliser: a bijective scramble of a uint64."""
    z = np.uint64(x)
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def stream_seed(seed, index):
    """Seed of the independent stream number `index` derived from `seed` (both non-negative)."""
    return mix64(mix64(np.uint64(seed)) + np.uint64(index) * _GOLDEN)


@njit(cache=True, inline="always")
def next_u64(rng):
    """Advance the generator held in `rng` (uint64[1]) and return 64 random bits."""
    rng[0] += _GOLDEN
    return mix64(rng[0])


@njit(cache=True, inline="always")
def below(rng, n):
    """A random integer in [0, n) for 0 < n < 2**32 (multiply-shift on the top 32 bits)."""
    top = next_u64(rng) >> np.uint64(32)
    return np.int64((top * np.uint64(n)) >> np.uint64(32))


def new_rng(seed: int) -> np.ndarray:
    """A generator state array for `seed`."""
    return np.array([np.uint64(seed % 2**64)], dtype=np.uint64)
