"""Game-agnostic numba CFR: info-set table, regret matching, traversal, checkpoints."""
