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

from games.setback.rules import BID_MOVE, apply_move
from games.setback.scoring import exhaustion_test, is_exhausted
from games.setback.state import HAND, STATE_SIZE, TO_ACT, reset_deal
from search.rollout import move_log_prob, policy_move_log_prob
from search.sampler import constraints, layout_table, sample_layout, world_state

MAX_DRAWS_PER_WORLD = 10_000  # far above need: the true layout is always consistent


@njit(cache=True, nogil=True)
def consistent_worlds(view_state, seat, rng, use_voids, states_out):
    """Fill `states_out[w]` with full deal states drawn uniformly among the layouts consistent
    with `seat`'s view (hands, played cards, voids when `use_voids`) under which the deal is not
    yet settled (when the view's is not). Returns (worlds drawn, layouts rejected): fewer worlds
    than rows only when the view admits no layout at all. Where unsettled layouts are too rare
    to draw, the rows repeat those found (or, with none, take a settled one)."""
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
            # The layouts that keep the deal open are too rare to draw (one in 10,000 or
            # fewer, as when only one seat's holding a card keeps Game undecided): the
            # worlds found are drawn again in turn, and with none found the rows take the
            # last layout drawn, settled or not; a search then still decides (a crash of the
            # match is what this replaces).
            for rest in range(w, states_out.shape[0]):
                if w > 0:
                    states_out[rest, :] = states_out[rest % w, :]
                else:
                    states_out[rest, :] = states_out[w, :]
            return states_out.shape[0], rejected
    return states_out.shape[0], rejected


@njit(cache=True, nogil=True)
def deal_of_world(world, played_by, state):
    """Set `state` to the start of the deal whose hands are `world`'s: each seat dealt what it
    holds in `world` and what it played (`played_by`), the first bid to make."""
    hands = np.zeros(4, np.int64)
    for seat in range(4):
        hands[seat] = world[HAND + seat] | played_by[seat]
    reset_deal(state, hands)


@njit(cache=True, nogil=True)
def bids_log_likelihood(decision, world, played_by, history, n_moves, keys, offsets, probs,
                        floor, state, actions, key_out):
    """The log-probability that the blueprint (a policy table whose keys `decision` builds)
    makes the deal's bids in `history` when the hands are `world`'s (each seat's dealt hand is
    what it holds in `world` and what it played, `played_by`). A bid whose key the blueprint
    lacks says nothing (0); a probability below `floor` counts as `floor`. The acting seat's
    own bids add the same term in every world, so only the others' move the weights.
    `played_by`: `search.inference.cards_played_by(history)`."""
    deal_of_world(world, played_by, state)
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
    deal_of_world(world, played_by, state)
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
