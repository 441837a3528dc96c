"""The coarse key of a fine key, for a pair of layouts where one refines the other
(`layouts.refines`; issue 38, warm start across layouts).

Every layout but `reference` only adds fields to the playout key, in bits the reference's
playout key leaves clear (`layout_bidder.py`, `layout_contract.py`: bits 56-61), and `contract`
writes `bidder`'s bits 56-58 exactly as `bidder` does. So the coarse key of a fine key is the
fine key with the fine layout's own fields that the coarse layout lacks cleared, on playout keys
only; auction, establish-trump and bootstrap keys are every layout's reference keys, unchanged.
`tests/test_warm_start.py` checks this on random deals for every registered pair: the coarse
layout's own key of a decision is always the mapped fine key of the same decision.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.setback.abstraction import layouts
from games.setback.abstraction.key_layout import KIND_PLAYOUT, KIND_SHIFT
from games.setback.abstraction.layout_bidder import CONTRACT_BID_SHIFT, SIDE_SHIFT
from games.setback.abstraction.layout_contract import SECURED_SHIFT, SET_SHIFT


def _bits(first: int, last: int) -> int:
    return ((1 << (last - first + 1)) - 1) << first


# the playout-key bits each layout adds to the reference's
PLAYOUT_FIELDS = {
    "reference": 0,
    "bidder": _bits(SIDE_SHIFT, CONTRACT_BID_SHIFT + 1),  # side, bid - 2
    "contract": _bits(SIDE_SHIFT, CONTRACT_BID_SHIFT + 1) | _bits(SECURED_SHIFT, SET_SHIFT),
}
assert set(PLAYOUT_FIELDS) == set(layouts.LAYOUTS), "every layout needs its playout fields"


def clear_mask(fine: str, coarse: str) -> np.uint64:
    """The bits `coarse_key` clears to map a `fine` playout key to its `coarse` key;
    `layouts.LayoutError` (one line) when `fine` does not refine `coarse`."""
    layouts.check_refines(fine, coarse, "warm start")
    return np.uint64(PLAYOUT_FIELDS[fine] & ~PLAYOUT_FIELDS[coarse])


@njit(cache=True, inline="always", _nrt=False)
def coarse_key(key, mask):
    """The coarse key of the fine `key` (uint64): a playout key with the bits `mask`
    (`clear_mask`) cleared, any other kind unchanged."""
    if key >> np.uint64(KIND_SHIFT) == np.uint64(KIND_PLAYOUT):
        return key & ~mask
    return key


def coarse_key_of(key: int, fine: str, coarse: str) -> int:
    """`coarse_key` from Python (tests, debugging): the `coarse` key of a `fine` key."""
    return int(coarse_key(np.uint64(key), clear_mask(fine, coarse)))
