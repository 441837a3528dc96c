"""Euchre worlds for search: full hand states consistent with a seat's view and every public fact.

What a seat knows of the hidden cards: its own hand, every card played, the upcard (always
seen) and its fate (turned down: out of play; ordered up: in the dealer's hand until the dealer
plays it), the dealer's discard (the dealer alone; for the others it is one of the unseen
cards), how many cards each seat holds (five less those it played; six for the dealer between
the order-up and the discard; five for the partner sitting out a lone hand), and the voids shown
(`state.SHOWN_VOIDS`: a seat that did not follow the effective suit led holds none of it, the
left bower counting as a trump). The maker, the trump and alone fix no card. Unlike Setback no
layout can contradict the hand still being played (a Euchre hand always plays its five
tricks), so nothing is rejected.

The draw is exact and uniform over the consistent layouts, a layout being the three other
seats' hidden cards plus, when the seat does not know it, the dealer's discard: the unseen cards
are renumbered by effective suit into Setback's 13-card suit blocks (no effective suit has more
than 7 cards) and dealt by `sampler.py`'s suit-by-suit dynamic programme (voids give a seat no
card of the suit), the cards no seat gets being the discard and the three undealt ones, of which
the discard is drawn uniformly (four cards, always: every hand has the same number of ways, so
the pair stays uniform). Uniform means the seats' strategies are not used as evidence: the
dealer's discard, a pass or an order-up say nothing here about the hidden cards.

`consistent_worlds` fills rows of full states: the view's public fields, the hidden hands, the
discard, and `DEALT` rebuilt for the other seats (the cards held, plus those played, which the
hand's history attributes: `cards_played_by`; the dealer's with the discard and without the
upcard it picked up, as the engine keeps them).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import popcount
from games.euchre.cards import effective_suit_mask, suit_mask
from games.euchre.rules import PASS_MOVE, apply_move, next_active
from games.euchre.state import (
    DEALT,
    DISCARD,
    HAND,
    HAND_SIZE,
    LEADER,
    MAKER,
    N_IN_TRICK,
    N_PASSES,
    OUT,
    PHASE,
    PHASE_ALONE,
    PHASE_DISCARD,
    PLAYED,
    SHOWN_VOIDS,
    STICK,
    TO_ACT,
    TRICK_NUMBER,
    TRUMP,
    UPCARD,
    new_state,
    reset_hand,
)
from games.rng import below
from search.rollout import TERMINAL, move_log_prob, policy_move_log_prob
from search.sampler import layout_table, sample_layout

N_CARDS = 24
BLOCK = 13  # the Setback sampler's cards a suit


@njit(cache=True, nogil=True)
def _suit_masks(trump, out):
    """The four suits' card masks: effective suits once trump is named, printed ones before."""
    for s in range(4):
        out[s] = effective_suit_mask(s, trump) if trump >= 0 else suit_mask(s)


@njit(cache=True, nogil=True)
def _to_blocks(mask, masks):
    """`mask` (Euchre cards) renumbered: the i-th card (ascending) of suit s becomes bit
    13 s + i."""
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
def _from_blocks(blocks, masks):
    """The inverse of `_to_blocks`."""
    out = np.int64(0)
    for s in range(4):
        i = 0
        for card in range(N_CARDS):
            if masks[s] >> card & 1:
                if blocks >> (BLOCK * s + i) & 1:
                    out |= np.int64(1) << card
                i += 1
    return out


@njit(cache=True, nogil=True)
def cards_held(state, seat):
    """How many cards `seat` (relative to the dealer) holds: public (module docstring)."""
    if seat == state[OUT]:
        return HAND_SIZE
    held = HAND_SIZE - state[TRICK_NUMBER]
    player = state[LEADER]
    for _ in range(state[N_IN_TRICK]):
        if player == seat:
            held -= 1
        player = next_active(state, player)
    if seat == 0 and state[PHASE] == PHASE_DISCARD:
        held += 1
    return held


@njit(cache=True, nogil=True)
def ordered_up(state):
    """Whether the upcard was ordered up (trump made in the first round): the dealer took it."""
    return state[MAKER] >= 0 and state[N_PASSES] < 4


@njit(cache=True, nogil=True)
def constraints(view_state, seat, use_voids, needs, voids):
    """The cards hidden from `seat` (returned: neither its own, nor played, nor the upcard, nor
    its own discard) and, for the seats seat+1..seat+3, the hidden cards each holds (`needs`:
    the dealer's count less the upcard it holds) and its shown voids (`voids`, 4 bits of
    effective suits; empty unless `use_voids`)."""
    upcard = view_state[UPCARD]
    known = view_state[HAND + seat] | view_state[PLAYED] | (np.int64(1) << upcard)
    if seat == 0 and view_state[DISCARD] >= 0:
        known |= np.int64(1) << view_state[DISCARD]
    holds_upcard = ordered_up(view_state) and not (view_state[PLAYED] >> upcard & 1)
    for i in range(3):
        other = (seat + 1 + i) % 4
        needs[i] = cards_held(view_state, other)
        if other == 0 and holds_upcard:
            needs[i] -= 1
        voids[i] = (view_state[SHOWN_VOIDS] >> (4 * other)) & 0xF if use_voids else 0
    return ((np.int64(1) << N_CARDS) - 1) & ~known


@njit(cache=True, nogil=True)
def consistent_worlds(view_state, seat, played_by, rng, use_voids, states_out):
    """Fill `states_out[w]` with full hand states drawn uniformly among the layouts consistent
    with `seat`'s view `view_state` (module docstring); `played_by[s]`: the cards seat s played
    (for `DEALT` only; `cards_played_by`). Returns the worlds drawn: all rows, or 0 when no
    layout is consistent (an impossible view)."""
    needs = np.zeros(3, np.int64)
    voids = np.zeros(3, np.int64)
    masks = np.zeros(4, np.int64)
    three = np.zeros(3, np.int64)
    _suit_masks(view_state[TRUMP], masks)
    unseen = constraints(view_state, seat, use_voids, needs, voids)
    blocks = _to_blocks(unseen, masks)
    table = layout_table(blocks, needs, voids)
    upcard_bit = np.int64(1) << view_state[UPCARD]
    took = ordered_up(view_state)
    holds_upcard = took and not (view_state[PLAYED] & upcard_bit)
    hidden_discard = seat != 0 and took and view_state[PHASE] > PHASE_DISCARD
    for w in range(states_out.shape[0]):
        if not sample_layout(rng, blocks, needs, voids, table, three):
            return 0
        out = states_out[w]
        for j in range(out.shape[0]):
            out[j] = view_state[j]
        rest = unseen
        for i in range(3):
            hand = _from_blocks(three[i], masks)
            rest &= ~hand
            other = (seat + 1 + i) % 4
            if other == 0 and holds_upcard:
                hand |= upcard_bit
            out[HAND + other] = hand
            out[DEALT + other] = hand | played_by[other]
        if hidden_discard:  # one of the four cards no seat holds, uniformly
            k = below(rng, popcount(rest))
            card = -1
            for c in range(N_CARDS):
                if rest >> c & 1:
                    if k == 0:
                        card = c
                        break
                    k -= 1
            out[DISCARD] = card
        if seat != 0 and took:  # the dealer's dealt cards: with its discard, not the upcard
            dealt = out[DEALT]
            if out[DISCARD] >= 0:
                dealt |= np.int64(1) << out[DISCARD]
            out[DEALT] = dealt & ~upcard_bit
    return states_out.shape[0]


def cards_played_by(view) -> np.ndarray:
    """int64[4]: the cards each seat (relative to the dealer) played in `view`'s hand, from
    its history replayed on empty hands (the turn order depends only on the moves); the
    dealer's discard (hidden or not) is not a card played."""
    out = np.zeros(4, dtype=np.int64)
    state = view.state
    replay = new_state()
    reset_hand(replay, np.zeros(4, dtype=np.int64), int(state[UPCARD]), int(state[STICK]))
    for move in view.history:
        move = int(move)
        if replay[PHASE] == PHASE_DISCARD:
            apply_move(replay, max(move, 0))  # hidden (-1): which card does not matter here
            continue
        if 0 <= move < PASS_MOVE:
            out[replay[TO_ACT]] |= np.int64(1) << move
        apply_move(replay, move)  # the empty hands lose nothing: the turns are all it needs
    return out


@njit(cache=True, nogil=True)
def calls_log_likelihood(decision, world, history, n_moves, keys, offsets, probs, floor, state,
                         actions, key_out):
    """The log-probability that the blueprint (a policy table whose keys `decision`, the
    abstract game's, builds) makes the hand's calls and alone decision in `history` (its first
    `n_moves` moves) when the hands are `world`'s (each seat's dealt cards: `DEALT`). The
    dealer's discard is the abstraction's rule (no key: it weighs nothing; hidden, -1, it is
    the world's). A call whose key the blueprint lacks says nothing (0); a probability below
    `floor` counts as `floor`. The acting seat's own calls add the same term in every world."""
    hands = np.zeros(4, np.int64)
    for seat in range(4):
        hands[seat] = world[DEALT + seat]
    reset_hand(state, hands, world[UPCARD], world[STICK])
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
    hands = np.zeros(4, np.int64)
    for seat in range(4):
        hands[seat] = world[DEALT + seat]
    reset_hand(state, hands, world[UPCARD], world[STICK])
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
