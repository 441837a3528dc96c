"""Setback worlds for search: full deal states consistent with a seat's view and every public fact.

`sampler.py` draws layouts uniformly among those consistent with the seat's hand, the cards
played, the hand sizes and the voids shown. One more public fact is not in those counts: the
deal is still being played. The rules end a deal as soon as its score is settled (Low taken,
the Jack taken or never dealt, Game decided: `scoring.exhaustion_test`, applied at every
completed trick), so while the deal goes on, a layout under which it would already be settled
(say the Jack in the undealt cards, once Low is taken and Game decided) is impossible. About one
layout in eight contradicts it late in a deal; such layouts are redrawn (rejection keeps the
draw uniform over the consistent layouts). The test is monotone (a settled deal stays settled),
so checking it on the current tricks covers every earlier trick too.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.setback.scoring import exhaustion_test, is_exhausted
from games.setback.state import HAND
from search.sampler import constraints, layout_table, sample_layout, world_state

MAX_DRAWS_PER_WORLD = 10_000  # far above need: the true layout is always consistent


@njit(cache=True, nogil=True)
def consistent_worlds(view_state, seat, rng, use_voids, states_out):
    """Fill `states_out[w]` with full deal states drawn uniformly among the layouts consistent
    with `seat`'s view (hands, played cards, voids when `use_voids`) under which the deal is not
    yet settled (when the view's is not). Returns (worlds drawn, layouts rejected): fewer worlds
    than rows only when no consistent layout was found."""
    needs = np.zeros(3, np.int64)
    voids = np.zeros(3, np.int64)
    unseen = constraints(view_state, seat, use_voids, needs, voids)
    table = layout_table(unseen, needs, voids)
    three = np.zeros(3, np.int64)
    hands = np.zeros(4, np.int64)
    going_on = not is_exhausted(view_state)
    rejected = 0
    for w in range(states_out.shape[0]):
        found = False
        for _ in range(MAX_DRAWS_PER_WORLD):
            if not sample_layout(rng, unseen, needs, voids, table, three):
                return w, rejected
            hands[seat] = view_state[HAND + seat]
            for i in range(3):
                hands[(seat + 1 + i) % 4] = three[i]
            world_state(view_state, seat, hands, states_out[w])
            if going_on and exhaustion_test(states_out[w]):
                rejected += 1
                continue
            found = True
            break
        if not found:
            return w, rejected
    return states_out.shape[0], rejected
