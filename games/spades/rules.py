"""The rules of a Spades hand: legal moves, applying a move, who wins a trick.

A move is OpenSpiel's action number: a card 0..51 (played), or `BID_MOVE + bid` (52..65: Nil,
then 1..13). The legal moves are written in ascending move number, which is OpenSpiel's order.
All functions work on the state array of `state.py`; they are the only place the rules are
written.

As OpenSpiel 2.0.2 plays them (spades.cc, `BiddingLegalActions`, `PlayLegalActions`): a seat
whose partner has bid may bid at most 13 minus the partner's bid; a follower follows the suit
led if it can, else plays anything; a leader must lead a heart, diamond or club while it holds
one. OpenSpiel never sets `is_spades_broken_`, so spades are never "broken": a spade is led
only from a hand of spades alone (docs/games/spades.md).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import mask_bits
from games.scaffold.trick import close_trick, put_in_trick
from games.spades.cards import N_RANKS, SPADE_MASK, power, suit_mask
from games.spades.state import (BID, HAND, LEADER, N_IN_TRICK, N_TRICKS, PHASE, PHASE_BID,
                                PHASE_OVER, PHASE_PLAY, SHOWN_VOIDS, TAKEN, TO_ACT, TRICK,
                                TRICK_WORDS, WINNING)

BID_MOVE = 52  # + bid: 0 (Nil) .. 13
N_MOVES = BID_MOVE + 14
MAX_MOVES = 14  # fourteen bids, or at most thirteen cards


@njit(cache=True)
def highest_bid(state):
    """The highest bid the seat to act may make: 13, less its partner's bid if made."""
    partner_bid = state[BID + (state[TO_ACT] + 2) % 4]
    return 13 - partner_bid if partner_bid >= 0 else 13


@njit(cache=True)
def legal_cards(state):
    """Mask of the cards the seat to act may play: the suit led if it holds any (else any
    card); when leading, any card but a spade unless it holds spades only."""
    hand = state[HAND + state[TO_ACT]]
    if state[N_IN_TRICK] > 0:
        follow = hand & suit_mask(state[TRICK] // N_RANKS)
    else:
        follow = hand & ~SPADE_MASK
    return follow if follow != 0 else hand


@njit(cache=True)
def legal_moves(state, moves):
    """Write the legal moves of the seat to act into `moves` (ascending); return their count."""
    if state[PHASE] == PHASE_BID:
        n = highest_bid(state) + 1
        for bid in range(n):
            moves[bid] = BID_MOVE + bid
        return n
    if state[PHASE] == PHASE_PLAY:
        return mask_bits(legal_cards(state), moves)
    return 0


@njit(cache=True)
def is_legal(state, move):
    """Whether `move` is legal for the seat to act."""
    if state[PHASE] == PHASE_BID:
        return BID_MOVE <= move <= BID_MOVE + highest_bid(state)
    if state[PHASE] == PHASE_PLAY:
        return 0 <= move < BID_MOVE and (legal_cards(state) >> move & 1) == 1
    return False


@njit(cache=True)
def apply_bid(state, bid):
    """The seat to act bids `bid`; after the dealer (the fourth bid) the play starts, led by
    the dealer's left."""
    seat = state[TO_ACT]
    state[BID + seat] = bid
    state[TO_ACT] = (seat + 1) % 4
    if seat == 0:
        state[PHASE] = PHASE_PLAY


@njit(cache=True)
def apply_card(state, card):
    """The seat to act plays `card`. The last card of a trick gives it to the winner, who
    leads next; after thirteen tricks the hand is over."""
    seat = state[TO_ACT]
    position = put_in_trick(state, TRICK_WORDS, seat, card)
    if position > 0:
        led = state[TRICK] // N_RANKS
        if card // N_RANKS != led:
            state[SHOWN_VOIDS] |= np.int64(1) << (4 * seat + led)
        if power(card, led) > power(state[TRICK + state[WINNING]], led):
            state[WINNING] = position
    if position < 3:
        state[N_IN_TRICK] = position + 1
        state[TO_ACT] = (seat + 1) % 4
        return
    winner = (state[LEADER] + state[WINNING]) % 4
    state[TAKEN + winner] += 1
    if close_trick(state, TRICK_WORDS, winner) == N_TRICKS:
        state[PHASE] = PHASE_OVER


@njit(cache=True)
def apply_move(state, move):
    """Apply a legal `move` for the seat to act."""
    if move >= BID_MOVE:
        apply_bid(state, move - BID_MOVE)
    else:
        apply_card(state, move)


@njit(cache=True, inline="always")
def is_over(state):
    """Whether the hand is over (thirteen tricks played)."""
    return state[PHASE] == PHASE_OVER
