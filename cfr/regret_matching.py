"""Regret matching (current strategy) and the average strategy of one info set."""

from __future__ import annotations

from numba import njit


@njit(cache=True, _nrt=False)
def regret_matching(regrets, offset, n, out):
    """Current strategy from regret sums R: pi(a) = R+(a) / sum_b R+(b), or 1/n if that sum is 0.

    R+ = max(R, 0). The sum is taken in action order, as OpenSpiel does. Writes out[:n].
    `offset` -1 (`find_offset`'s answer for a key the table lacks) gives 1/n too.
    """
    total = 0.0
    if offset >= 0:
        for a in range(n):
            r = regrets[offset + a]
            if r > 0:
                total += r
    if total > 0:
        for a in range(n):
            r = regrets[offset + a]
            out[a] = r / total if r > 0 else 0.0
    else:
        for a in range(n):
            out[a] = 1.0 / n


@njit(cache=True, _nrt=False)
def average_strategy(strategy, offset, n, out):
    """Average strategy from strategy sums S: pi(a) = S(a) / sum_b S(b), or 1/n if that sum is 0.

    Writes out[:n]; `offset` -1 (a key the table lacks) gives 1/n too.
    """
    total = 0.0
    if offset >= 0:
        for a in range(n):
            total += strategy[offset + a]
    if total > 0:
        for a in range(n):
            out[a] = strategy[offset + a] / total
    else:
        for a in range(n):
            out[a] = 1.0 / n
