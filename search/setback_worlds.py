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
world's hands (`bids_log_weights`); the player draws a larger pool of uniform worlds and
resamples its worlds in proportion to those weights, tempered (`play/search_player.py`).
`belief=policy` goes further (`policy_log_weights`): every move of the seats it models, bids and
cards, weighs the world by the blueprint's probability of it, read as a model of the players
(Rebstock et al. 2019, policy-based inference).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.setback import public
from games.setback.public import start_of_hand as deal_of_world  # noqa: F401 (re-exported)
from games.setback.rules import BID_MOVE, apply_move
from games.setback.state import STATE_SIZE, TO_ACT
from search import world_sampler
from search.rollout import move_log_prob, policy_move_log_prob


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


@njit(cache=True, nogil=True)
def bids_log_likelihood(decision, world, played_by, history, n_moves, keys, offsets, probs,
                        floor, state, actions, key_out):
    """The log-probability that the blueprint (a policy table whose keys `decision` builds)
    makes the deal's bids in `history` when the hands are `world`'s (each seat's dealt hand is
    what it holds in `world` and what it played, `played_by`). A bid whose key the blueprint
    lacks says nothing (0); a probability below `floor` counts as `floor`. The acting seat's
    own bids add the same term in every world, so only the others' move the weights.
    `played_by`: `search.inference.cards_played_by(history)`."""
    public.start_of_hand(world, played_by, state)
    total = 0.0
    for i in range(n_moves):
        move = history[i]
        if move < BID_MOVE:
            break
        total += move_log_prob(decision, state, move, keys, offsets, probs, floor, actions,
                               key_out)
        apply_move(state, move)
    return total


@njit(cache=True, nogil=True)
def bids_log_weights(decision, worlds, played_by, history, n_moves, keys, offsets, probs, floor,
                     out):
    """`bids_log_likelihood` of every world (rows of `worlds`) into `out`."""
    state = np.zeros(STATE_SIZE, np.int64)
    actions = np.zeros(64, np.int64)
    key_out = np.zeros(2, np.uint64)
    for w in range(worlds.shape[0]):
        out[w] = bids_log_likelihood(decision, worlds[w], played_by, history, n_moves, keys,
                                     offsets, probs, floor, state, actions, key_out)


@njit(cache=True, nogil=True)
def policy_log_likelihood(decision, world, played_by, history, n_moves, modelled, keys, offsets,
                          probs, floor, state, actions, key_out):
    """The log-probability that the players, modelled by the blueprint, make the moves of
    `history` that the seats in `modelled` (bit s: seat s, relative to the dealer) made, when
    the hands are `world`'s (each seat's dealt hand: what it holds in `world` and what it
    played, `played_by`): the sum of `rollout.policy_move_log_prob` over those moves, bids and
    cards, the deal replayed from its first bid. The other seats' moves are replayed unscored
    (the observer's own say nothing of the others' hands)."""
    public.start_of_hand(world, played_by, state)
    total = 0.0
    for i in range(n_moves):
        move = history[i]
        if (modelled >> state[TO_ACT]) & 1:
            total += policy_move_log_prob(decision, state, move, keys, offsets, probs, floor,
                                          actions, key_out)
        apply_move(state, move)
    return total


@njit(cache=True, nogil=True)
def policy_log_weights(decision, worlds, first, stop, played_by, history, n_moves, modelled,
                       keys, offsets, probs, floor, out):
    """`policy_log_likelihood` of the worlds `worlds[first:stop]` into `out[first:stop]` (a
    slice a thread computes)."""
    state = np.zeros(STATE_SIZE, np.int64)
    actions = np.zeros(64, np.int64)
    key_out = np.zeros(2, np.uint64)
    for w in range(first, stop):
        out[w] = policy_log_likelihood(decision, worlds[w], played_by, history, n_moves,
                                       modelled, keys, offsets, probs, floor, state, actions,
                                       key_out)
