"""The back-off smoothing every game's bid tables use (what is counted is a game's: its tables
module, named by `games/<game>/bid_tables.py`).

A figure counted in a context is pulled towards the same figure one context coarser (its
parent), with a prior worth K deals (or positions):

    p(context) = (n / m + K * p(parent)) / (N + K)     (n count, m trials a deal, N deals)

so a context never seen gets exactly its parent's figure, and no figure is 0 when the root of
the chain is positive. A game declares its chain of contexts (`back_off`: each context's parent
one level coarser, up to all contexts at once and a root it names) and what counts as N.
"""

from __future__ import annotations

import numpy as np


def shrink(n, total, parent, prior: float, trials=1.0):
    """(n / trials + prior * parent) / (total + prior), element-wise (module docstring)."""
    return (n / trials + prior * parent) / (total + prior)


def back_off(n, total, parents, root, prior: float, trials=1.0):
    """The smoothed figures of the finest contexts (axis 0 of `n`, the counts, and of `total`,
    the N each count is out of, broadcastable to `n`) down a chain of coarser ones:
    `parents[j]` maps each context of level j (0 the finest) to its parent at level j + 1,
    whose counts and N are the sums of its children's; above the coarsest level come all
    contexts at once, then `root`. Counts are whole numbers, so the sums (and the figures) do
    not depend on the order of adding."""
    levels = [(np.asarray(n, np.float64), np.asarray(total, np.float64))]
    for parent in parents:
        size = int(parent.max()) + 1
        levels.append(tuple(_sum_into(a, parent, size) for a in levels[-1]))
    counts, totals = levels[-1]
    p = shrink(counts, totals, shrink(counts.sum(axis=0), totals.sum(axis=0), root, prior,
                                      trials)[None], prior, trials)
    for (counts, totals), parent in zip(levels[-2::-1], parents[::-1]):
        p = shrink(counts, totals, p[parent], prior, trials)
    return p


def _sum_into(a, parent, size: int):
    """float64[size, ...]: the rows of `a` summed by their parent's index."""
    out = np.zeros((size,) + a.shape[1:])
    np.add.at(out, parent, a)
    return out
