"""Setback worlds for search: full deal states consistent with a seat's view and every public fact.

The one world sampler (`world_sampler.py`, on Setback's hooks: `games/setback/public.py`)
draws layouts uniformly among those consistent with the seat's hand, the cards played, the hand
sizes and the voids shown. One more public fact is not in those counts: the deal is still being
played (`public.possible`). The rules end a deal as soon as its score is settled (Low taken,
the Jack taken or never dealt, Game decided: `scoring.exhaustion_test`, applied at every
completed trick), so while the deal goes on, a layout under which it would already be settled
(say the Jack in the undealt cards, once Low is taken and Game decided) is impossible. About one
layout in eight contradicts it late in a deal; such layouts are redrawn (rejection keeps the
draw uniform over the consistent layouts). The test is monotone (a settled deal stays settled),
so checking it on the current tricks covers every earlier trick too.

The auction is evidence too: a seat that bid Four holds more than one that passed. A world can
be weighted by the probability that the blueprint would have made the bids seen with that
world's hands (`belief=bids`); the player draws a larger pool of uniform worlds and
resamples its worlds in proportion to those weights, tempered (`play/search_base.py`).
`belief=policy` goes further: every move of the seats it models, bids and
cards, weighs the world by the blueprint's probability of it, read as a model of the players
(Rebstock et al. 2019, policy-based inference). Both are the one likelihood of every game,
`search/likelihood.py`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.setback import public
from games.setback.public import start_of_hand as deal_of_world  # noqa: F401 (re-exported)
from search import world_sampler


@njit(cache=True, nogil=True)
def consistent_worlds(view_state, seat, rng, use_voids, states_out):
    """Fill `states_out[w]` with full deal states drawn uniformly among the layouts consistent
    with `seat`'s view (hands, played cards, voids when `use_voids`) under which the deal is not
    yet settled (when the view's is not): the one sampler (`world_sampler.consistent_worlds`) on
    Setback's hooks (`games.setback.public`). Returns (worlds drawn, layouts rejected): fewer
    worlds than rows only when the view admits no layout at all. Where unsettled layouts are too
    rare to draw, the rows repeat those found (or, with none found, take a settled one)."""
    return world_sampler.consistent_worlds(
        public.constraints, public.suit_masks, public.complete, public.possible, public.SIZE,
        view_state, seat, np.zeros(4, np.int64), 0, rng, use_voids, states_out)


@njit(cache=True, nogil=True)
def public_worlds(view_state, seat, played_by, extra_voids, rng, use_voids, states_out):
    """`consistent_worlds` under the signature every game's worlds module shares (who played
    which card and the moves' extra voids are not needed in Setback): (drawn, rejected)."""
    return consistent_worlds(view_state, seat, rng, use_voids, states_out)
