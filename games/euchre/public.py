"""What every seat knows of the hidden cards of a Euchre hand: the hooks the one world sampler
(`search/world_sampler.py`) is driven by.

A seat knows its own hand, every card played, the upcard (always seen) and its fate (turned
down: out of play; ordered up: in the dealer's hand until the dealer plays it), the dealer's
discard (the dealer alone; for the others it is one of the unseen cards), how many cards each
seat holds (five less those it played; six for the dealer between the order-up and the discard;
five for the partner sitting out a lone hand), and the voids shown (`state.SHOWN_VOIDS`: a seat
that did not follow the effective suit led holds none of it, the left bower counting as a
trump; so the suits are the effective suits once trump is named). The maker, the trump and
alone fix no card. The unseen cards no seat gets are the three undealt ones and, when the seat
does not know it, the dealer's discard, drawn uniformly among them (`complete`: four cards,
always, so every layout has the same number of ways and the pair stays uniform). A Euchre hand
always plays its five tricks, so no layout contradicts the hand still being played.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import popcount
from games.euchre.cards import effective_suit_mask, suit_mask
from games.euchre.rules import PASS_MOVE, apply_move, next_active
from games.euchre.state import (DEALT, DISCARD, HAND, HAND_SIZE, LEADER, MAKER, N_IN_TRICK,
                                N_PASSES, OUT, PHASE, PHASE_ALONE, PHASE_DISCARD, PLAYED,
                                SHOWN_VOIDS, STICK, TO_ACT, TRICK_NUMBER, TRUMP, UPCARD, new_state, reset_hand)
from games.rng import below

N_CARDS = 24
SIZE = HAND_SIZE + 2  # the sampler's table bound: the dealer holds six between order-up and discard


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
def suit_masks(view_state, out):
    """The four suits' card masks: effective suits once trump is named, printed ones before."""
    trump = view_state[TRUMP]
    for s in range(4):
        out[s] = effective_suit_mask(s, trump) if trump >= 0 else suit_mask(s)


@njit(cache=True, nogil=True)
def _unseen(view_state, seat):
    """The cards hidden from `seat`: neither its own, nor played, nor the upcard, nor its own
    discard."""
    known = view_state[HAND + seat] | view_state[PLAYED] | (np.int64(1) << view_state[UPCARD])
    if seat == 0 and view_state[DISCARD] >= 0:
        known |= np.int64(1) << view_state[DISCARD]
    return ((np.int64(1) << N_CARDS) - 1) & ~known


@njit(cache=True, nogil=True)
def constraints(view_state, seat, use_voids, extra_voids, needs, voids, holds):
    """The cards hidden from `seat` (returned) and, for the seats seat+1..seat+3, the hidden
    cards each holds (`needs`: the dealer's count less the upcard it holds), its shown voids
    (`voids`, 4 bits of effective suits; empty unless `use_voids`) and the cards everyone
    knows it holds (`holds`: the upcard, in the dealer's hand after an order-up until played).
    `extra_voids` is another game's; Euchre's moves show no more than `SHOWN_VOIDS`."""
    upcard = view_state[UPCARD]
    holds_upcard = ordered_up(view_state) and not (view_state[PLAYED] >> upcard & 1)
    for i in range(3):
        other = (seat + 1 + i) % 4
        needs[i] = cards_held(view_state, other)
        holds[i] = 0
        if other == 0 and holds_upcard:
            needs[i] -= 1
            holds[i] = np.int64(1) << upcard
        voids[i] = (view_state[SHOWN_VOIDS] >> (4 * other)) & 0xF if use_voids else 0
    return _unseen(view_state, seat)


@njit(cache=True, nogil=True)
def complete(view_state, seat, hands, played_by, rng, out):
    """A drawn layout (`hands`, by seat, the upcard in the dealer's where it holds it) as a full
    state: the view's public fields, the hidden hands, `DEALT` rebuilt for the other seats (the
    cards held and those played, `played_by`; the dealer's with its discard and without the
    upcard it picked up, as the engine keeps them) and, when `seat` does not know it, the
    dealer's discard drawn uniformly among the unseen cards no seat holds."""
    for j in range(out.shape[0]):
        out[j] = view_state[j]
    rest = _unseen(view_state, seat)
    for i in range(3):
        other = (seat + 1 + i) % 4
        rest &= ~hands[other]
        out[HAND + other] = hands[other]
        out[DEALT + other] = hands[other] | played_by[other]
    took = ordered_up(view_state)
    if seat != 0 and took and view_state[PHASE] > PHASE_DISCARD:
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
        out[DEALT] = dealt & ~(np.int64(1) << view_state[UPCARD])


@njit(cache=True, nogil=True)
def start_of_hand(world, played_by, out):
    """Set `out` to the start of the hand whose cards are `world`'s: each seat dealt its
    `DEALT` (the cards held and played; the dealer's with its discard, without the upcard),
    the same upcard and stick-the-dealer rule, the first call to make. (`played_by` is already
    in `DEALT`.)"""
    hands = np.zeros(4, np.int64)
    for seat in range(4):
        hands[seat] = world[DEALT + seat]
    reset_hand(out, hands, world[UPCARD], world[STICK])


@njit(cache=True, nogil=True)
def in_auction(state):
    """Whether `state` is a decision before the play (the calls of both rounds, the dealer's
    discard, the alone decision): what `bids=` covers and a `belief=bids` likelihood weighs."""
    return state[PHASE] <= PHASE_ALONE


@njit(cache=True, nogil=True)
def unweighed_move(state, world, move):
    """The move a replay of `world` makes of the history's `move` without weighing it, or -1
    when it weighs as it is (the likelihood's, `search/likelihood.py`): the dealer's discard,
    hidden (-1) from the others, is the world's own, and the abstraction makes it by rule (no
    key), so it says nothing of the hands."""
    if state[PHASE] == PHASE_DISCARD:
        return world[DISCARD] if move < 0 else move
    return -1


def replay_public(view_state, history) -> tuple[np.ndarray, int]:
    """(int64[4]: the cards each seat, relative to the dealer, played in the hand of
    `view_state` whose moves are `history`, replayed on empty hands, the turn order depending
    only on the moves; the voids the moves show beyond `SHOWN_VOIDS`: none). The dealer's
    discard (hidden, -1, or not) is not a card played."""
    out = np.zeros(4, dtype=np.int64)
    replay = new_state()
    reset_hand(replay, np.zeros(4, dtype=np.int64), int(view_state[UPCARD]),
               int(view_state[STICK]))
    for move in history:
        move = int(move)
        if replay[PHASE] == PHASE_DISCARD:
            apply_move(replay, max(move, 0))  # hidden (-1): which card does not matter here
            continue
        if 0 <= move < PASS_MOVE:
            out[replay[TO_ACT]] |= np.int64(1) << move
        apply_move(replay, move)  # the empty hands lose nothing: the turns are all it needs
    return out, 0
