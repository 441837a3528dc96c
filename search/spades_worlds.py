"""Spades worlds for search: full hand states consistent with a seat's view and every public fact.

What a seat knows of the hidden cards (its hand, every card played and by whom, the hand sizes,
the voids shown by not following and by a spade lead) is Spades' declaration,
`games/spades/public.py`; the one world sampler (`world_sampler.py`) draws the layouts exactly
and uniformly over those consistent with it. Uniform means the seats' strategies are not used as
evidence: the bids and the cards chosen say nothing here about the hands. A belief
(`belief=policy`, or a bid-inference table's log-weight, `play/spades_search_player.py`'s
`log_weight` slot) reweights a pool of these worlds.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.spades import public
from games.spades.rules import apply_move
from games.spades.state import TO_ACT
from search import likelihood, world_sampler
from search.rollout import policy_move_log_prob

NOBODY_PLAYED = np.zeros(4, np.int64)  # `public.start_of_hand` reads the played cards in `DEALT`


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


@njit(cache=True, nogil=True)
def policy_log_weights(current_player, decision, worlds, first, stop, history, n_moves,
                       modelled, keys, offsets, probs, floor, out):
    """The log-probability that the players, modelled by a `db:` base's table (keys built by
    the abstract game's `decision`), make the moves of `history` that the seats in `modelled`
    (bit s: seat s, relative to the dealer) made, for the worlds `worlds[first:stop]` (a slice
    a thread computes; hands: `DEALT`) into `out[first:stop]`: the sum of
    `rollout.policy_move_log_prob` over those bids and cards (`belief=policy`,
    `likelihood.log_weights`), until the abstract game's hand is settled."""
    likelihood.log_weights(
        public.start_of_hand, likelihood.as_seen, apply_move, TO_ACT, likelihood.settled,
        policy_move_log_prob, current_player, decision, worlds, first, stop, NOBODY_PLAYED,
        history, n_moves, modelled, keys, offsets, probs, floor, out)
