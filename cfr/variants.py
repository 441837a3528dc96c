"""The CFR variants: vanilla CFR, CFR+, linear CFR and discounted CFR, as a few flags.

Every variant runs the same pass (`cfr.traversal`); a variant only chooses
- the weight w_t of iteration t's strategy-sum increments dS = (w_t * pi_p) * sigma:
  1 (vanilla), t (CFR+ "linear averaging", as OpenSpiel's `CFRPlusSolver`), t^gamma (DCFR/LCFR);
- what happens to the regret sums of the updated player after its pass:
  nothing (vanilla), R <- max(R, 0) (regret matching+, `clamp_regrets`), or
  R <- R * t^alpha / (t^alpha + 1) where R >= 0 and R * t^beta / (t^beta + 1) where R < 0
  (`discount_regrets`, Brown & Sandholm 2019, as OpenSpiel's `discounted_cfr.py`).
Linear CFR is DCFR with alpha = beta = gamma = 1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from cfr.table import ACTIONS_MASK


@dataclass(frozen=True)
class Variant:
    """One algorithm's flags and hyper-parameters (all recorded in checkpoints)."""

    name: str
    regret_matching_plus: bool = False
    linear_averaging: bool = False
    discount: bool = False
    alpha: float = 1.5
    beta: float = 0.0
    gamma: float = 2.0

    def strategy_weight(self, t: int) -> float:
        """w_t: 1, t (linear averaging) or t^gamma (discounted)."""
        if self.discount:
            return float(t) ** self.gamma
        if self.linear_averaging:
            return float(t)
        return 1.0

    def hyper_parameters(self) -> dict:
        """The flags and numbers that define the algorithm, for headers and reports."""
        return {
            "regret_matching_plus": self.regret_matching_plus,
            "linear_averaging": self.linear_averaging,
            "discount": self.discount,
            "alpha": self.alpha,
            "beta": self.beta,
            "gamma": self.gamma,
        }


ALGORITHMS = ("cfr", "cfr+", "lcfr", "dcfr")


def make_variant(algorithm: str, alpha: float | None = None, beta: float | None = None,
                 gamma: float | None = None) -> Variant:
    """The named algorithm; alpha, beta, gamma override DCFR's defaults (1.5, 0, 2)."""
    if algorithm == "cfr":
        return Variant("cfr")
    if algorithm == "cfr+":
        return Variant("cfr+", regret_matching_plus=True, linear_averaging=True)
    if algorithm == "lcfr":
        return Variant("lcfr", discount=True, alpha=1.0, beta=1.0, gamma=1.0)
    if algorithm == "dcfr":
        return Variant(
            "dcfr",
            discount=True,
            alpha=1.5 if alpha is None else float(alpha),
            beta=0.0 if beta is None else float(beta),
            gamma=2.0 if gamma is None else float(gamma),
        )
    raise ValueError(f"unknown algorithm {algorithm!r} (expected one of {', '.join(ALGORITHMS)})")


@njit(cache=True, inline="always", _nrt=False)
def _values_of(meta, offsets, slot, player):
    """(offset, action count) of the info set in `slot` when it is `player`'s (-1: anyone's),
    else (0, 0): no values to touch."""
    m = meta[slot]
    if m == 0 or (player >= 0 and (m >> 7) != player):
        return np.int64(0), np.int64(0)
    return np.int64(offsets[slot]), np.int64(m & ACTIONS_MASK)


@njit(cache=True, _nrt=False)
def clamp_regrets(meta, offsets, regrets, player):
    """Regret matching+: R(I, a) <- max(R(I, a), 0) for the info sets of `player` (-1: all)."""
    for slot in range(meta.shape[0]):
        o, n = _values_of(meta, offsets, slot, player)
        for a in range(n):
            if regrets[o + a] < 0:
                regrets[o + a] = 0.0


@njit(cache=True, _nrt=False)
def discount_regrets(meta, offsets, regrets, player, t, alpha, beta):
    """DCFR: R <- R * t^alpha / (t^alpha + 1) if R >= 0, else R * t^beta / (t^beta + 1).

    Applied to the info sets of `player` (-1: all) after that player's pass of iteration t.
    """
    ta = float(t) ** alpha
    tb = float(t) ** beta
    pos = ta / (ta + 1.0)
    neg = tb / (tb + 1.0)
    for slot in range(meta.shape[0]):
        o, n = _values_of(meta, offsets, slot, player)
        for a in range(n):
            if regrets[o + a] >= 0:
                regrets[o + a] *= pos
            else:
                regrets[o + a] *= neg


def average_discount(variant: Variant, t: int) -> float:
    """The factor by which a trainer shrinks the strategy sums after iteration t, when it adds
    the increments unweighted: (t / (t + 1))^gamma (discounted), t / (t + 1) (linear
    averaging) or 1. After iteration T the increment of iteration k has then been scaled by
    (k / (T + 1))^gamma: in proportion to `strategy_weight(k)`, which is all an average
    (normalized per info set) depends on."""
    if variant.discount:
        return (t / (t + 1.0)) ** variant.gamma
    if variant.linear_averaging:
        return t / (t + 1.0)
    return 1.0


def end_iteration(table, variant: Variant, t: int) -> None:
    """The variant's step over the whole table after iteration t (simultaneous updates: every
    player's info sets): RM+ clamp or DCFR regret discount, then the strategy sums' discount
    (`average_discount`). Nothing for vanilla CFR. Costs one sweep of the table."""
    if variant.regret_matching_plus:
        clamp_regrets(table.meta, table.offsets, table.regrets, -1)
    if variant.discount:
        discount_regrets(table.meta, table.offsets, table.regrets, -1, t, variant.alpha,
                         variant.beta)
    factor = average_discount(variant, t)
    if factor != 1.0:
        used = table.strategy[:table.n_values]
        used *= used.dtype.type(factor)
