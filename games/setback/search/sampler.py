"""Worlds of a Setback deal for PIMC, single-dummy and the toolkits: the other seats' hidden
hands, drawn uniformly over every layout consistent with what the seat to move has seen, by the
one world sampler (`search/world_sampler.py`) on Setback's declaration of what is public
(`games/setback/public.py`: its hand, every card played, the hand sizes, the voids shown).

`sample_worlds` fills rows of hands, `log_layouts` counts the layouts; `layout_table`,
`sample_layout` and `constraints` are the shared sampler's with Setback's suits and sizes, for the
modules that count layouts themselves (the card-location model, the tables belief, the web
position check). Every consistent layout is equally likely (`test_search_sampler` checks it with
a chi-square test).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.setback import public
from games.scaffold.suits import SUITS_52 as SUITS
from games.setback.public import ALL_CARDS, world_state  # noqa: F401 (re-exported)
from games.setback.public import SIZE as NEED
from games.setback.state import HAND
from search import world_sampler
from search.world_sampler import binomial_table, uniform01  # noqa: F401 (re-exported)


@njit(cache=True)
def constraints(state, seat, use_voids, needs, voids):
    """The unseen cards of `seat` (returned) and, for the other seats seat+1..seat+3, the cards
    each still holds (`needs`) and its shown voids (`voids`, empty unless `use_voids`)."""
    holds = np.zeros(3, np.int64)
    return public.constraints(state, seat, use_voids, 0, needs, voids, holds)


@njit(cache=True)
def layout_table(unseen, needs, voids):
    """Counts of consistent layouts (`world_sampler.layout_table` with Setback's suits):
    `table[s, a, b, c]` = ways to deal the unseen cards of suits s..3 so that the three other
    seats get a, b, c more cards; the position's layouts are `table[0, needs...]`."""
    return world_sampler.layout_table(unseen, SUITS, needs, voids, NEED)


@njit(cache=True)
def sample_layout(rng, unseen, needs, voids, table, out):
    """Draw one layout uniformly (`world_sampler.sample_layout`): `out[i]` gets the hand of the
    i-th other seat. Returns False (out untouched) when no layout is consistent."""
    return world_sampler.sample_layout(rng, unseen, SUITS, needs, voids, table, out)


@njit(cache=True)
def sample_worlds(state, seat, rng, use_voids, hands_out):
    """Fill `hands_out[w, 0..3]` (hands by seat relative to the dealer) with uniform layouts
    consistent with `seat`'s view in `state`; returns how many were drawn (0 when the view is
    inconsistent, else all rows)."""
    needs = np.zeros(3, np.int64)
    voids = np.zeros(3, np.int64)
    unseen = constraints(state, seat, use_voids, needs, voids)
    table = layout_table(unseen, needs, voids)
    three = np.zeros(3, np.int64)
    for w in range(hands_out.shape[0]):
        if not sample_layout(rng, unseen, needs, voids, table, three):
            return 0
        hands_out[w, seat] = state[HAND + seat]
        for i in range(3):
            hands_out[w, (seat + 1 + i) % 4] = three[i]
    return hands_out.shape[0]


@njit(cache=True)
def log_layouts(state, seat, use_voids):
    """Natural log of the number of layouts consistent with `seat`'s view (-inf if none)."""
    needs = np.zeros(3, np.int64)
    voids = np.zeros(3, np.int64)
    unseen = constraints(state, seat, use_voids, needs, voids)
    return np.log(layout_table(unseen, needs, voids)[0, needs[0], needs[1], needs[2]])


@njit(cache=True)
def toolkit_worlds(view_state, seat, played_by, extra_voids, rng, use_voids, states_out):
    """Full states of uniform layouts consistent with `seat`'s view (`sample_worlds` made
    states by `world_state`), the deal's being settled not tested: the toolkits' draw
    (`envs.adapters.GameAdapter` on `games/setback/toolkit.py`), as it was before the samplers were
    one. Returns (drawn, 0), under the signature every game's worlds module shares."""
    return world_sampler.consistent_worlds(
        public.constraints, public.suit_masks, public.complete, world_sampler.always_possible,
        NEED, view_state, seat, played_by, extra_voids, rng, use_voids, states_out)
