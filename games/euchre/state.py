"""The state of one Euchre hand: a flat int64 array, and how to start one.

Every seat field is relative to the dealer (seat 0 = dealer, 1 = dealer's left, 2 = partner,
3 = dealer's right; team = seat % 2, team 0 = dealer's team). Card sets are 24-bit masks (see
`cards.py`). The layout is the contract shared by the rules, the scoring and whatever is built
on them; everything reads it through these names.

The decision sequence is OpenSpiel's: the first round (`PHASE_ORDER`) from the dealer's left
round to the dealer, each passing or ordering up the upcard's suit; if all four pass, the
second round (`PHASE_NAME`) in the same order, each passing or naming another suit (with stick
the dealer, the dealer cannot pass last). An order-up puts the upcard in the dealer's hand and
the dealer discards (`PHASE_DISCARD`, any card but the upcard); then the maker decides to go
alone or with the partner (`PHASE_ALONE`); then five tricks (`PHASE_PLAY`), the first led by
the dealer's left (or the seat after, if that seat sits out).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.scaffold.deck import deal_blocks, shuffle_top

HAND = 0  # HAND + seat: the cards the seat holds now
DEALT = 4  # DEALT + seat: the five cards the seat was dealt
UPCARD = 8  # the card turned up
PHASE = 9
TO_ACT = 10  # seat to act
N_PASSES = 11  # passes so far in the naming of trump (0..8)
MAKER = 12  # seat that named trump, -1 before
TRUMP = 13  # trump suit, -1 before it is named
ALONE = 14  # -1 not decided, 0 with the partner, 1 alone
OUT = 15  # the maker's partner when the maker goes alone, else -1
DISCARD = 16  # the dealer's discard after an order-up, else -1
TRICK_NUMBER = 17  # completed tricks (0..5)
LEADER = 18  # seat that led the current trick (after the last trick: its winner)
N_IN_TRICK = 19  # cards played to the current trick
TRICK = 20  # TRICK + i: i-th card of the current trick from the leader, -1 if not played
WINNING = 24  # position from the leader of the card now winning the trick, -1 if none
TRICKS_WON = 25  # TRICKS_WON + team: tricks the team has taken
PLAYED = 27  # every card played so far
N_ACTIVE = 28  # seats playing this hand: 4, or 3 when the maker goes alone
SHOWN_VOIDS = 29  # bit (4 * seat + suit): the seat did not follow that (effective) suit
STICK = 30  # 1: stick the dealer (the dealer cannot pass in the second round)
STATE_SIZE = 31
TRICK_WORDS = (HAND, PLAYED, TRICK, N_IN_TRICK, WINNING, LEADER, TO_ACT, TRICK_NUMBER)

PHASE_ORDER = 0  # first round: pass or order up the upcard's suit
PHASE_NAME = 1  # second round: pass or name another suit
PHASE_DISCARD = 2  # the dealer discards after picking up the upcard
PHASE_ALONE = 3  # the maker goes alone or plays with the partner
PHASE_PLAY = 4
PHASE_OVER = 5

HAND_SIZE = 5
N_TRICKS = 5


@njit(cache=True)
def reset_hand(state, hands, upcard, stick):
    """Start a hand in `state` from the four hands (masks by seat relative to the dealer), the
    upcard and the stick-the-dealer rule (1 on, 0 off)."""
    for i in range(STATE_SIZE):
        state[i] = 0
    for seat in range(4):
        state[HAND + seat] = hands[seat]
        state[DEALT + seat] = hands[seat]
    start_hand(state, upcard, stick)


@njit(cache=True, inline="always")
def start_hand(state, upcard, stick):
    """Open the hand in `state` once the hands are in place: turn `upcard` up, the dealer's
    left to speak, nothing named or played yet, stick the dealer `stick` (1 on, 0 off). The
    abstract game deals card by card and opens the hand with this too."""
    state[UPCARD] = upcard
    state[PHASE] = PHASE_ORDER
    state[TO_ACT] = 1  # the dealer's left speaks first
    state[MAKER] = -1
    state[TRUMP] = -1
    state[ALONE] = -1
    state[OUT] = -1
    state[DISCARD] = -1
    state[LEADER] = -1
    for i in range(4):
        state[TRICK + i] = -1
    state[WINNING] = -1
    state[N_ACTIVE] = 4
    state[STICK] = stick


@njit(cache=True)
def random_hand(rng, state, stick):
    """Shuffle with `rng` (the top 21 cards), deal five cards a seat and turn the upcard, and
    start the hand in `state` (deck cards 5s..5s+4 go to seat s, card 20 is the upcard)."""
    deck = np.empty(24, np.int64)
    hands = np.zeros(4, np.int64)
    shuffle_top(rng, deck, 4 * HAND_SIZE + 1)
    deal_blocks(deck, HAND_SIZE, hands)
    reset_hand(state, hands, deck[4 * HAND_SIZE], stick)


def new_state() -> np.ndarray:
    """An empty hand state array."""
    return np.zeros(STATE_SIZE, dtype=np.int64)


@njit(cache=True)
def random_deal(rng, state):
    """Shuffle with `rng` and start a hand with OpenSpiel's default rules (stick the dealer):
    the registry's game-independent name for `random_hand`."""
    random_hand(rng, state, 1)
