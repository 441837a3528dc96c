"""Euchre worlds for search: full hand states consistent with a seat's view and every public fact.

What a seat knows of the hidden cards (its hand, the cards played, the upcard and its fate, the
dealer's discard for the dealer alone, the hand sizes, the voids shown by effective suit) is
Euchre's declaration, `games/euchre/public.py`; the one world sampler (`world_sampler.py`) draws
the layouts exactly and uniformly over those consistent with it, the discard (for a seat that
does not know it) uniformly among the four unseen cards no seat holds. Uniform means the seats'
strategies are not used as evidence: the dealer's discard, a pass or an order-up say nothing
here about the hidden cards; a belief (`calls_log_weights`, `policy_log_weights`) reweights a
pool of these worlds.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.euchre import public
from games.euchre.cards import effective_suit_mask, suit_mask
from games.euchre.public import ordered_up  # noqa: F401 (re-exported)
from games.euchre.rules import apply_move
from games.euchre.state import DISCARD, PHASE, PHASE_ALONE, PHASE_DISCARD, TO_ACT
from search import world_sampler
from search.rollout import TERMINAL, move_log_prob, policy_move_log_prob

N_CARDS = 24
BLOCK = 13  # the Setback sampler's cards a suit (the card-location model's marginals)
NOBODY_PLAYED = np.zeros(4, np.int64)  # `public.start_of_hand` reads the played cards in `DEALT`


@njit(cache=True, nogil=True)
def _suit_masks(trump, out):
    """The four suits' card masks: effective suits once trump is named, printed ones before."""
    for s in range(4):
        out[s] = effective_suit_mask(s, trump) if trump >= 0 else suit_mask(s)


@njit(cache=True, nogil=True)
def _to_blocks(mask, masks):
    """`mask` (Euchre cards) renumbered into Setback's 13-card suit blocks (what the
    card-location model's Setback marginals read): the i-th card (ascending) of suit s becomes
    bit 13 s + i."""
    out = np.int64(0)
    for s in range(4):
        i = 0
        for card in range(N_CARDS):
            if masks[s] >> card & 1:
                if mask >> card & 1:
                    out |= np.int64(1) << (BLOCK * s + i)
                i += 1
    return out


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


@njit(cache=True, nogil=True)
def calls_log_likelihood(decision, world, history, n_moves, keys, offsets, probs, floor, state,
                         actions, key_out):
    """The log-probability that the blueprint (a policy table whose keys `decision`, the
    abstract game's, builds) makes the hand's calls and alone decision in `history` (its first
    `n_moves` moves) when the hands are `world`'s (each seat's dealt cards: `DEALT`). The
    dealer's discard is the abstraction's rule (no key: it weighs nothing; hidden, -1, it is
    the world's). A call whose key the blueprint lacks says nothing (0); a probability below
    `floor` counts as `floor`. The acting seat's own calls add the same term in every world."""
    public.start_of_hand(world, NOBODY_PLAYED, state)  # `DEALT` holds the cards played
    total = 0.0
    for i in range(n_moves):
        if state[PHASE] > PHASE_ALONE:
            break
        move = history[i]
        if state[PHASE] == PHASE_DISCARD:
            apply_move(state, world[DISCARD] if move < 0 else move)
            continue
        total += move_log_prob(decision, state, move, keys, offsets, probs, floor, actions,
                               key_out)
        apply_move(state, move)
    return total


@njit(cache=True, nogil=True)
def calls_log_weights(decision, worlds, history, n_moves, keys, offsets, probs, floor, out):
    """`calls_log_likelihood` of every world (rows of `worlds`) into `out`."""
    state = np.zeros(worlds.shape[1], np.int64)
    actions = np.zeros(64, np.int64)
    key_out = np.zeros(2, np.uint64)
    for w in range(worlds.shape[0]):
        out[w] = calls_log_likelihood(decision, worlds[w], history, n_moves, keys, offsets,
                                      probs, floor, state, actions, key_out)


@njit(cache=True, nogil=True)
def policy_log_likelihood(current_player, decision, world, history, n_moves, modelled, keys,
                          offsets, probs, floor, state, actions, key_out):
    """The log-probability that the players, modelled by the blueprint, make the moves of
    `history` that the seats in `modelled` (bit s: seat s, relative to the dealer) made, when
    the hands are `world`'s (`DEALT`): the sum of `rollout.policy_move_log_prob` over those
    calls, alone decisions and cards (`belief=policy`). The dealer's discard is replayed but
    weighs nothing (the abstraction's rule, as in `calls_log_likelihood`); moves once the
    hand's points are settled weigh nothing either (the blueprint has no keys past them: the
    abstract game's `current_player` calls them terminal)."""
    public.start_of_hand(world, NOBODY_PLAYED, state)  # `DEALT` holds the cards played
    total = 0.0
    for i in range(n_moves):
        if current_player(state) == TERMINAL:
            break
        move = history[i]
        if state[PHASE] == PHASE_DISCARD:
            apply_move(state, world[DISCARD] if move < 0 else move)
            continue
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
