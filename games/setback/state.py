"""The state of one Setback deal: a flat int64 array, and how to start one.

Every field is indexed relative to the dealer (seat 0 = dealer, 1 = dealer's left, 2 = partner,
3 = dealer's right; team = seat % 2, team 0 = dealer's team). Card sets are 52-bit masks
(see `cards.py`). The layout is the contract shared by the rules, the abstraction and the
trainers; everything reads it through these names.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.scaffold.deck import shuffle_top

HAND = 0  # HAND + seat: the cards the seat still holds
DEALT = 4  # DEALT + seat: the six cards the seat was dealt
BID = 8  # BID + seat: -1 not yet bid, 0 pass, 2..4
PHASE = 12
TO_ACT = 13  # seat to act
N_BIDS = 14  # bids made so far
HIGH_BID = 15  # 0 when nobody has bid
HIGH_BIDDER = 16  # -1 when nobody has bid
TRUMP = 17  # -1 until the first card is led
TRICK_NUMBER = 18  # completed tricks (0..6)
LEADER = 19  # seat that led the current trick (after the last trick: its winner)
N_IN_TRICK = 20  # cards played to the current trick (0..3)
TRICK = 21  # TRICK + i: i-th card of the current trick from the leader, -1 if not played
WON = 25  # WON + team: cards captured by the team in completed tricks
PLAYED = 27  # every card played so far
FIRST_LEAD = 28  # the first card of trick 1, -1 before it
SHOWN_VOIDS = 29  # bit (4 * seat + suit): the seat showed it holds no card of that suit
WINNING = 30  # position from the leader of the card now winning the trick, -1 if none
EXHAUSTED = 31  # 1 once the deal's score can no longer change (set when a trick completes)
STATE_SIZE = 32
TRICK_WORDS = (HAND, PLAYED, TRICK, N_IN_TRICK, WINNING, LEADER, TO_ACT, TRICK_NUMBER)

PHASE_AUCTION = 0
PHASE_PLAY = 1
PHASE_OVER = 2

HAND_SIZE = 6
CARDS_DEALT = 24


@njit(cache=True)
def reset_deal(state, hands):
    """Start a deal in `state` from the four hands (masks by seat relative to the dealer)."""
    for i in range(STATE_SIZE):
        state[i] = 0
    for seat in range(4):
        state[HAND + seat] = hands[seat]
        state[DEALT + seat] = hands[seat]
    start_auction(state)


@njit(cache=True, _nrt=False)
def start_auction(state):
    """Open the auction on a state whose hands are dealt and whose other fields are zero:
    nobody has bid, the dealer's left bids first, no trump, no trick."""
    for seat in range(4):
        state[BID + seat] = -1
    state[PHASE] = PHASE_AUCTION
    state[TO_ACT] = 1  # the dealer's left bids first
    state[HIGH_BIDDER] = -1
    state[TRUMP] = -1
    for i in range(4):
        state[TRICK + i] = -1
    state[FIRST_LEAD] = -1
    state[WINNING] = -1


@njit(cache=True)
def deal_hands(deck, hands):
    """Deal 3+3 from a shuffled deck, starting at the dealer's left, into `hands` by seat.

    The dealer's left gets deck cards 0-2 and 12-14, the partner 3-5 and 15-17, the dealer's
    right 6-8 and 18-20 and the dealer 9-11 and 21-23.
    """
    for seat in range(4):
        hands[seat] = 0
    for packet in range(8):
        seat = (packet + 1) % 4
        for k in range(3):
            hands[seat] |= np.int64(1) << deck[3 * packet + k]


@njit(cache=True)
def random_deal(rng, state):
    """Shuffle with `rng`, deal, and start the deal in `state`."""
    deck = np.empty(52, np.int64)
    hands = np.empty(4, np.int64)
    shuffle_top(rng, deck, CARDS_DEALT)
    deal_hands(deck, hands)
    reset_deal(state, hands)


def new_state() -> np.ndarray:
    """An empty deal state array."""
    return np.zeros(STATE_SIZE, dtype=np.int64)
