"""The rules of a Euchre hand: legal moves, applying a move, who wins a trick.

A move is an integer 0..30, numbered as OpenSpiel's actions apart from the cards: a card 0..23
(played, or discarded by the dealer), `PASS_MOVE` (24), `TRUMP_MOVE + suit` (25..28: ordering
up the upcard's suit in the first round, naming a suit in the second), `ALONE_MOVE` (29) and
`PARTNER_MOVE` (30). The legal moves of a state are one int64 mask over those 31 move numbers,
so a legal-move test is one shift and the canonical order is ascending move number: cards by
suit then rank, then P, C, D, H, S, then alone, partner. All functions work on the state
array of `state.py`; they are the only place the rules are written.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import mask_bits
from games.scaffold.trick import close_trick, put_in_trick
from games.euchre.cards import card_suit, effective_suit, effective_suit_mask, power
from games.euchre.state import (
    ALONE,
    DISCARD,
    HAND,
    LEADER,
    MAKER,
    N_ACTIVE,
    N_IN_TRICK,
    N_PASSES,
    N_TRICKS,
    OUT,
    PHASE,
    PHASE_ALONE,
    PHASE_DISCARD,
    PHASE_NAME,
    PHASE_ORDER,
    PHASE_OVER,
    PHASE_PLAY,
    SHOWN_VOIDS,
    STICK,
    TO_ACT,
    TRICK,
    TRICK_WORDS,
    TRICKS_WON,
    TRUMP,
    UPCARD,
    WINNING,
)

PASS_MOVE = 24
TRUMP_MOVE = 25  # + suit
ALONE_MOVE = 29
PARTNER_MOVE = 30
N_MOVES = 31
MAX_MOVES = 8  # never more legal moves than this (5 discards, 5 cards, P and 3 suits)
ALL_SUITS_MOVES = np.int64(0xF) << TRUMP_MOVE


@njit(cache=True)
def legal_cards(state):
    """Mask of the cards the seat to act may play: any card when leading; when following, the
    cards of the (effective) suit led if it holds any (the left bower follows trump, not its
    printed suit), else any card."""
    hand = state[HAND + state[TO_ACT]]
    if state[N_IN_TRICK] == 0:
        return hand
    trump = state[TRUMP]
    led = effective_suit(state[TRICK], trump)
    follow = hand & effective_suit_mask(led, trump)
    if follow != 0:
        return follow
    return hand


@njit(cache=True)
def legal_mask(state):
    """The legal moves of the seat to act as a mask over move numbers (bit m: move m)."""
    phase = state[PHASE]
    if phase == PHASE_ORDER:
        upcard_suit = card_suit(state[UPCARD])
        return (np.int64(1) << PASS_MOVE) | (np.int64(1) << (TRUMP_MOVE + upcard_suit))
    if phase == PHASE_NAME:
        mask = ALL_SUITS_MOVES & ~(np.int64(1) << (TRUMP_MOVE + card_suit(state[UPCARD])))
        if not (state[STICK] != 0 and state[N_PASSES] == 7):  # the dealer is stuck
            mask |= np.int64(1) << PASS_MOVE
        return mask
    if phase == PHASE_DISCARD:
        return state[HAND] & ~(np.int64(1) << state[UPCARD])
    if phase == PHASE_ALONE:
        return (np.int64(1) << ALONE_MOVE) | (np.int64(1) << PARTNER_MOVE)
    if phase == PHASE_PLAY:
        return legal_cards(state)
    return np.int64(0)


@njit(cache=True)
def legal_moves(state, moves):
    """Write the legal moves of the seat to act into `moves` (ascending); return their count."""
    return mask_bits(legal_mask(state), moves)


@njit(cache=True)
def is_legal(state, move):
    """Whether `move` is legal for the seat to act."""
    return 0 <= move < N_MOVES and (legal_mask(state) >> move & 1) == 1


@njit(cache=True, inline="always")
def next_active(state, seat):
    """The next seat clockwise after `seat` that plays this hand (skipping a seat out)."""
    seat = (seat + 1) % 4
    if seat == state[OUT]:
        seat = (seat + 1) % 4
    return seat


@njit(cache=True)
def apply_pass(state):
    """The seat to act passes. After four passes the second round starts; after eight (only
    possible without stick the dealer) the hand is over, unplayed."""
    state[N_PASSES] += 1
    if state[N_PASSES] == 8:
        state[PHASE] = PHASE_OVER
        return
    if state[N_PASSES] == 4:
        state[PHASE] = PHASE_NAME
    state[TO_ACT] = (state[TO_ACT] + 1) % 4


@njit(cache=True)
def apply_trump(state, suit):
    """The seat to act makes `suit` trump. In the first round the dealer picks up the upcard
    and must discard; in the second the maker goes straight to the alone decision."""
    state[MAKER] = state[TO_ACT]
    state[TRUMP] = suit
    if state[PHASE] == PHASE_ORDER:
        state[HAND] |= np.int64(1) << state[UPCARD]
        state[PHASE] = PHASE_DISCARD
        state[TO_ACT] = 0
    else:
        state[PHASE] = PHASE_ALONE


@njit(cache=True)
def apply_discard(state, card):
    """The dealer discards `card`; the maker decides next whether to go alone."""
    state[HAND] &= ~(np.int64(1) << card)
    state[DISCARD] = card
    state[PHASE] = PHASE_ALONE
    state[TO_ACT] = state[MAKER]


@njit(cache=True)
def apply_alone(state, alone):
    """The maker goes alone (1: the partner sits the hand out) or plays with the partner (0);
    the dealer's left leads the first trick, or the next seat if that one sits out."""
    state[ALONE] = alone
    if alone:
        state[OUT] = (state[MAKER] + 2) % 4
        state[N_ACTIVE] = 3
    state[PHASE] = PHASE_PLAY
    leader = 1
    if leader == state[OUT]:
        leader = 2
    state[LEADER] = leader
    state[TO_ACT] = leader


@njit(cache=True)
def apply_card(state, card):
    """The seat to act plays `card`. The last card of a trick gives it to the winner's team
    and the winner leads next; after five tricks the hand is over."""
    seat = state[TO_ACT]
    position = put_in_trick(state, TRICK_WORDS, seat, card)
    trump = state[TRUMP]
    if position > 0:
        led = effective_suit(state[TRICK], trump)
        if effective_suit(card, trump) != led:
            state[SHOWN_VOIDS] |= np.int64(1) << (4 * seat + led)
        if power(card, trump, led) > power(state[TRICK + state[WINNING]], trump, led):
            state[WINNING] = position
    if position < state[N_ACTIVE] - 1:
        state[N_IN_TRICK] = position + 1
        state[TO_ACT] = next_active(state, seat)
        return
    winner = state[LEADER]
    for _ in range(state[WINNING]):
        winner = next_active(state, winner)
    state[TRICKS_WON + winner % 2] += 1
    if close_trick(state, TRICK_WORDS, winner) == N_TRICKS:
        state[PHASE] = PHASE_OVER


@njit(cache=True)
def apply_move(state, move):
    """Apply a legal `move` for the seat to act."""
    phase = state[PHASE]
    if move == PASS_MOVE:
        apply_pass(state)
    elif TRUMP_MOVE <= move < ALONE_MOVE:
        apply_trump(state, move - TRUMP_MOVE)
    elif move == ALONE_MOVE:
        apply_alone(state, 1)
    elif move == PARTNER_MOVE:
        apply_alone(state, 0)
    elif phase == PHASE_DISCARD:
        apply_discard(state, move)
    else:
        apply_card(state, move)
