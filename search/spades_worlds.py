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
from search import world_sampler
from search.rollout import TERMINAL, policy_move_log_prob

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
def policy_log_likelihood(current_player, decision, world, history, n_moves, modelled, keys,
                          offsets, probs, floor, state, actions, key_out):
    """The log-probability that the players, modelled by a `db:` base's table (keys built by
    the abstract game's `decision`), make the moves of `history` that the seats in `modelled`
    (bit s: seat s, relative to the dealer) made, when the hands are `world`'s (`DEALT`): the
    sum of `rollout.policy_move_log_prob` over those bids and cards (`belief=policy`)."""
    public.start_of_hand(world, NOBODY_PLAYED, state)  # `DEALT` holds the cards played
    total = 0.0
    for i in range(n_moves):
        if current_player(state) == TERMINAL:
            break
        move = history[i]
        if (modelled >> state[TO_ACT]) & 1:
            total += policy_move_log_prob(decision, state, move, keys, offsets, probs, floor,
                                          actions, key_out)
        apply_move(state, move)
    return total


@njit(cache=True, nogil=True)
def policy_log_weights(current_player, decision, worlds, first, stop, history, n_moves,
                       modelled, keys, offsets, probs, floor, out):
    """`policy_log_likelihood` of the worlds `worlds[first:stop]` into `out[first:stop]` (a
    slice a thread computes)."""
    state = np.zeros(worlds.shape[1], np.int64)
    actions = np.zeros(64, np.int64)
    key_out = np.zeros(2, np.uint64)
    for w in range(first, stop):
        out[w] = policy_log_likelihood(current_player, decision, worlds[w], history, n_moves,
                                       modelled, keys, offsets, probs, floor, state, actions,
                                       key_out)
