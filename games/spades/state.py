"""The state of one Spades hand: a flat int64 array, and how to start one.

Every seat field is relative to the dealer (seat 0 = dealer, 1 = dealer's left, 2 = partner,
3 = dealer's right; team = seat % 2, team 0 = the dealer's team). Card sets are 52-bit masks
(see `cards.py`). The layout is the contract shared by the rules, the scoring and whatever is
built on them; everything reads it through these names.

The decision sequence is OpenSpiel's: one bid a seat (`PHASE_BID`) from the dealer's left
round to the dealer, then thirteen tricks (`PHASE_PLAY`), the first led by the dealer's left.
OpenSpiel's North bids and leads first, so its dealer is West. The game score before the hand
(`SCORE`, by team) is part of the state because OpenSpiel reads a team's bags from its last
digit when it scores the hand.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.scaffold.deck import deal_blocks, shuffle_top

HAND = 0  # HAND + seat: the cards the seat holds now
DEALT = 4  # DEALT + seat: the thirteen cards the seat was dealt
PHASE = 8
TO_ACT = 9  # seat to act
BID = 10  # BID + seat: its bid (0 = Nil, 1..13), -1 before it bids
TRICK_NUMBER = 14  # completed tricks (0..13)
LEADER = 15  # seat that led the current trick (after the last trick: its winner)
N_IN_TRICK = 16  # cards played to the current trick
TRICK = 17  # TRICK + i: i-th card of the current trick from the leader, -1 if not played
WINNING = 21  # position from the leader of the card now winning the trick, -1 if none
TAKEN = 22  # TAKEN + seat: tricks the seat has taken (a Nil bidder's count matters)
PLAYED = 26  # every card played so far
SHOWN_VOIDS = 27  # bit (4 * seat + suit): the seat did not follow that suit
SCORE = 28  # SCORE + team: the team's game score before this hand (its bags: the last digit)
STATE_SIZE = 30
TRICK_WORDS = (HAND, PLAYED, TRICK, N_IN_TRICK, WINNING, LEADER, TO_ACT, TRICK_NUMBER)

PHASE_BID = 0
PHASE_PLAY = 1
PHASE_OVER = 2

HAND_SIZE = 13
N_TRICKS = 13


@njit(cache=True)
def reset_hand(state, hands, score0, score1):
    """Start a hand in `state` from the four hands (masks by seat relative to the dealer) and
    the game score of the dealer's team (`score0`) and of the other (`score1`): nobody has bid,
    the dealer's left speaks first."""
    for i in range(STATE_SIZE):
        state[i] = 0
    for seat in range(4):
        state[HAND + seat] = hands[seat]
        state[DEALT + seat] = hands[seat]
    start_hand(state)
    state[SCORE] = score0
    state[SCORE + 1] = score1


@njit(cache=True, inline="always")
def start_hand(state):
    """Open the hand on dealt hands and zero words: nobody has bid, the dealer's left speaks
    and leads first (also the abstract game's, which deals card by card)."""
    for seat in range(4):
        state[BID + seat] = -1
        state[TRICK + seat] = -1
    state[PHASE] = PHASE_BID
    state[TO_ACT] = 1
    state[LEADER] = 1
    state[WINNING] = -1


@njit(cache=True)
def random_hand(rng, state, score0, score1):
    """Shuffle with `rng` (Fisher-Yates), deal thirteen cards a seat (deck cards 13s..13s+12 to
    seat s) and start the hand in `state` at the game score (`score0`, `score1`)."""
    deck = np.empty(52, np.int64)
    hands = np.zeros(4, np.int64)
    shuffle_top(rng, deck, 51)
    deal_blocks(deck, HAND_SIZE, hands)
    reset_hand(state, hands, score0, score1)


def new_state() -> np.ndarray:
    """An empty hand state array."""
    return np.zeros(STATE_SIZE, dtype=np.int64)


@njit(cache=True)
def random_deal(rng, state):
    """Shuffle with `rng` and start a hand at a game score of 0 to 0: the registry's
    game-independent deal."""
    random_hand(rng, state, 0, 0)
