"""The back-off smoothing every game's bid tables use (what is counted is a game's: its tables
module, named by `games/<game>/bid_tables.py`).

A figure counted in a context is pulled towards the same figure one context coarser (its
parent), with a prior worth K deals (or positions):

    p(context) = (n / m + K * p(parent)) / (N + K)     (n count, m trials a deal, N deals)

so a context never seen gets exactly its parent's figure, and no figure is 0 when the root of
the chain is positive. A game's tables chain `shrink` from a uniform root down to its finest
context.
"""

from __future__ import annotations


def shrink(n, total, parent, prior: float, trials=1.0):
    """(n / trials + prior * parent) / (total + prior), element-wise (module docstring)."""
    return (n / trials + prior * parent) / (total + prior)
