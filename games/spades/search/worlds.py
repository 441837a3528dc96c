"""Spades worlds for search: full hand states consistent with a seat's view and every public fact.

What a seat knows of the hidden cards (its hand, every card played and by whom, the hand sizes,
the voids shown by not following and by a spade lead) is Spades' declaration,
`games/spades/public.py`; the one world sampler (`world_sampler.py`) draws the layouts exactly
and uniformly over those consistent with it. Uniform means the seats' strategies are not used as
evidence: the bids and the cards chosen say nothing here about the hands. A belief
(`belief=policy`, or a bid-inference table's log-weight, `games/spades/play/search_player.py`'s
`log_weight` slot) reweights a pool of these worlds.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.spades import public
from search import world_sampler


@njit(cache=True, nogil=True)
def consistent_worlds(view_state, seat, played_by, extra_voids, rng, use_voids, states_out):
    """Fill `states_out[w]` with full hand states drawn uniformly among the layouts consistent
    with `seat`'s view `view_state` (module docstring); `played_by[s]`: the cards seat s played
    and `extra_voids` the spade leads' voids (both `replay_public`). Returns the worlds drawn:
    all rows, or 0 when no layout is consistent (an impossible view)."""
    drawn, _ = world_sampler.consistent_worlds(
        public.constraints, public.suit_masks, public.complete, world_sampler.always_possible,
        public.SIZE, view_state, seat, played_by, extra_voids, rng, use_voids, states_out)
    return drawn


@njit(cache=True, nogil=True)
def public_worlds(view_state, seat, played_by, extra_voids, rng, use_voids, states_out):
    """`consistent_worlds` under the signature every game's worlds module shares: (drawn, 0)."""
    return consistent_worlds(view_state, seat, played_by, extra_voids, rng, use_voids,
                             states_out), 0


def replay_public(history) -> tuple[np.ndarray, int]:
    """(int64[4]: the cards each seat, relative to the dealer, played; the voids the spade
    leads show, 4 bits a seat) of a hand's public `history` (`games.spades.public`)."""
    return public.replay_public(None, history)
