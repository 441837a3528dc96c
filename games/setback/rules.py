"""The rules of a Setback deal: legal moves, applying a move, who wins a trick.

A move is an integer: a card 0..51 during the playout, or `BID_MOVE + b` during the auction,
with b = 0 for Pass and 2, 3, 4 for the bids. All functions work on the state array of
`state.py`; they are the only place the rules are written.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import mask_bits
from games.scaffold.trick import close_trick, put_in_trick
from games.setback.cards import card_rank, card_suit, suit_mask
from games.setback.scoring import exhaustion_test
from games.setback.state import (
    BID,
    EXHAUSTED,
    FIRST_LEAD,
    HAND,
    HIGH_BID,
    HIGH_BIDDER,
    LEADER,
    N_BIDS,
    N_IN_TRICK,
    PHASE,
    PHASE_AUCTION,
    PHASE_OVER,
    PHASE_PLAY,
    SHOWN_VOIDS,
    TO_ACT,
    TRICK,
    TRICK_WORDS,
    TRUMP,
    WINNING,
    WON,
)

BID_MOVE = 52  # moves 52, 54, 55, 56 are Pass, Two, Three, Four
PASS = 0
MAX_MOVES = 24  # never more legal moves than this (6 cards, or 4 bids)


@njit(cache=True)
def legal_bids(state):
    """Bit mask of the legal bids of the seat to act (bit b: 0 Pass, 2 Two, 3 Three, 4 Four).

    Pass is always legal. A bid must beat the high bid, except that the dealer (seat 0) may
    bid Four over a Four; facing a Four anyone else can only pass.
    """
    high = state[HIGH_BID]
    mask = 1  # Pass
    for bid in range(2, 5):
        if bid > high:
            mask |= 1 << bid
    if high == 4 and state[TO_ACT] == 0:
        mask |= 1 << 4
    return mask


@njit(cache=True)
def legal_cards(state):
    """Mask of the cards the seat to act may play.

    Leading: any card. Following: a seat holding the suit led plays that suit or a trump (on
    the first trick the trump is the suit led); a seat void in the suit led plays anything.
    """
    hand = state[HAND + state[TO_ACT]]
    if state[N_IN_TRICK] == 0:
        return hand
    led = card_suit(state[TRICK])
    of_led = hand & suit_mask(led)
    if of_led == 0:
        return hand
    return of_led | (hand & suit_mask(state[TRUMP]))


@njit(cache=True, inline="always")
def bid_moves(bids, moves):
    """Write the bids of a bid mask (bit b: 0 Pass, 2, 3, 4) into `moves` in the order Pass,
    Two, Three, Four, as moves; return their count."""
    n = 0
    for bid in range(5):
        if bids >> bid & 1:
            moves[n] = BID_MOVE + bid
            n += 1
    return n


@njit(cache=True)
def legal_moves(state, moves):
    """Write the legal moves of the seat to act into `moves` (ascending); return their count."""
    n = 0
    if state[PHASE] == PHASE_AUCTION:
        n = bid_moves(legal_bids(state), moves)
    elif state[PHASE] == PHASE_PLAY:
        n = mask_bits(legal_cards(state), moves)
    return n


@njit(cache=True)
def is_legal(state, move):
    """Whether `move` is legal for the seat to act."""
    if state[PHASE] == PHASE_AUCTION:
        bid = move - BID_MOVE
        return 0 <= bid <= 4 and (legal_bids(state) >> bid & 1) == 1
    if state[PHASE] == PHASE_PLAY:
        return 0 <= move < 52 and (legal_cards(state) >> move & 1) == 1
    return False


@njit(cache=True, inline="always")
def beats(card, best, trump):
    """Whether `card` beats `best`, the card now winning a trick, with `trump` as trump suit."""
    if card_suit(card) == card_suit(best):
        return card_rank(card) > card_rank(best)
    return card_suit(card) == trump


@njit(cache=True)
def apply_bid(state, bid):
    """The seat to act bids `bid` (0 Pass, 2..4). After four bids the playout starts, or the
    deal ends if everybody passed."""
    seat = state[TO_ACT]
    state[BID + seat] = bid
    if bid != PASS:
        state[HIGH_BID] = bid
        state[HIGH_BIDDER] = seat
    state[N_BIDS] += 1
    if state[N_BIDS] < 4:
        state[TO_ACT] = (seat + 1) % 4
    elif state[HIGH_BID] == 0:
        state[PHASE] = PHASE_OVER
    else:
        state[PHASE] = PHASE_PLAY
        state[TO_ACT] = state[HIGH_BIDDER]
        state[LEADER] = state[HIGH_BIDDER]


@njit(cache=True)
def apply_card(state, card):
    """The seat to act plays `card`. The first card of the deal sets trump; the fourth card of
    a trick gives it to the winner's team, and the winner leads next; a completed trick also
    records whether the deal is now exhausted (`scoring.exhaustion_test`)."""
    seat = state[TO_ACT]
    position = put_in_trick(state, TRICK_WORDS, seat, card)
    if state[TRUMP] < 0:
        state[TRUMP] = card_suit(card)
        state[FIRST_LEAD] = card
    trump = state[TRUMP]
    if position > 0:
        led = card_suit(state[TRICK])
        if card_suit(card) != led and card_suit(card) != trump:
            state[SHOWN_VOIDS] |= np.int64(1) << (4 * seat + led)
        if beats(card, state[TRICK + state[WINNING]], trump):
            state[WINNING] = position
    if position < 3:
        state[N_IN_TRICK] = position + 1
        state[TO_ACT] = (seat + 1) % 4
        return
    winner = (state[LEADER] + state[WINNING]) % 4
    trick_cards = np.int64(0)
    for i in range(4):
        trick_cards |= np.int64(1) << state[TRICK + i]
    state[WON + winner % 2] |= trick_cards
    if close_trick(state, TRICK_WORDS, winner) == 6:
        state[PHASE] = PHASE_OVER
    elif state[EXHAUSTED] == 0:
        state[EXHAUSTED] = exhaustion_test(state)


@njit(cache=True)
def apply_move(state, move):
    """Apply a legal `move` (a card, or BID_MOVE + bid) for the seat to act."""
    if move >= BID_MOVE:
        apply_bid(state, move - BID_MOVE)
    else:
        apply_card(state, move)
