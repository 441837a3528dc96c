"""Euchre worlds for search: full hand states consistent with a seat's view and every public fact.

What a seat knows of the hidden cards (its hand, the cards played, the upcard and its fate, the
dealer's discard for the dealer alone, the hand sizes, the voids shown by effective suit) is
Euchre's declaration, `games/euchre/public.py`; the one world sampler (`world_sampler.py`) draws
the layouts exactly and uniformly over those consistent with it, the discard (for a seat that
does not know it) uniformly among the four unseen cards no seat holds. Uniform means the seats'
strategies are not used as evidence: the dealer's discard, a pass or an order-up say nothing
here about the hidden cards; a belief (`belief=bids` or `policy`: the one likelihood,
`search/likelihood.py`) reweights a pool of these worlds.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.euchre import public
from games.euchre.public import ordered_up  # noqa: F401 (re-exported)
from search import world_sampler


@njit(cache=True, nogil=True)
def constraints(view_state, seat, use_voids, needs, voids):
    """The cards hidden from `seat` and, for the seats seat+1..seat+3, the hidden cards each
    holds and its shown voids (`games.euchre.public.constraints`, without the known holdings)."""
    holds = np.zeros(3, np.int64)
    return public.constraints(view_state, seat, use_voids, 0, needs, voids, holds)


@njit(cache=True, nogil=True)
def consistent_worlds(view_state, seat, played_by, rng, use_voids, states_out):
    """Fill `states_out[w]` with full hand states drawn uniformly among the layouts consistent
    with `seat`'s view `view_state` (module docstring); `played_by[s]`: the cards seat s played
    (for `DEALT` only; `cards_played_by`). Returns the worlds drawn: all rows, or 0 when no
    layout is consistent (an impossible view)."""
    drawn, _ = world_sampler.consistent_worlds(
        public.constraints, public.suit_masks, public.complete, world_sampler.always_possible,
        public.SIZE, view_state, seat, played_by, 0, rng, use_voids, states_out)
    return drawn


@njit(cache=True, nogil=True)
def public_worlds(view_state, seat, played_by, extra_voids, rng, use_voids, states_out):
    """`consistent_worlds` under the signature every game's worlds module shares (Euchre's
    moves show no extra voids): (drawn, 0)."""
    return consistent_worlds(view_state, seat, played_by, rng, use_voids, states_out), 0


def cards_played_by(view) -> np.ndarray:
    """int64[4]: the cards each seat (relative to the dealer) played in `view`'s hand
    (`games.euchre.public.replay_public`); the dealer's discard is not a card played."""
    return public.replay_public(view.state, view.history)[0]
