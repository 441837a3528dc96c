"""Spades info-set keys and abstract actions: one numba kernel, `abstract_decision`, for any
hand state of `games/spades/state.py` (seats relative to the dealer; team = seat % 2).

A key is a uint64: the kind in bits 62-63 (0 bid, 1 play), the body below. Bodies:

| kind | bits | field |
|--|--|--|
| bid | 0-1 | place in the bidding order (0 = the dealer's left, first to bid .. 3 = the dealer) |
| | 2-5 | partner's bid: 0 not yet, 1 Nil, 1 + bid for 1..13 |
| | 6 | an opponent bid Nil |
| | 7-8 | opponents' bids so far, summed: 0 none yet, 1 up to 3, 2 four or five, 3 six or more |
| | 9-12 | the expected tricks E (`expected_tricks`: the heuristic's count, 1..13) |
| | 13-15 | spade honours held: ace (13), king (14), queen (15) |
| | 16-18 | spades held, capped at 5 |
| play | 0-1 | position in the trick (0 leads) |
| | 2-3 | tricks completed (0 .. `LEARNED_TRICKS` - 1) |
| | 4 | a spade was led |
| | 5-6 | winning the trick so far: 0 nobody (leading), 1 my partner, 2 an opponent |
| | 7 | the card winning so far is a spade |
| | 8-10 | tricks my team still needs for its contract (its bids less its tricks), capped at 7 |
| | 11-13 | the same for the opponents |
| | 14 | I bid Nil and have taken no trick |
| | 15 | my partner bid Nil and has taken no trick |
| | 16 | an opponent bid Nil and has taken no trick |
| | 17 | a spade has been played |
| | 18-19 | spades unseen by me (not in my hand, not played), 0, 1-2, 3-5, 6 or more |
| | 20-35 | the set of tokens of the legal cards (bit t: some legal card has token t) |
| | 36 | my team is the dealer's (the two CFR players never share a key) |

The bid key's hand part is the hand's strength for a trick count: the trick count of the
heuristic (`games/spades/heuristic.py`: sure and quick tricks, long spades, voids and
singletons beside spades, high side cards), and the spade honours and length beside it. Its
context (place, partner's bid, the opponents') is public.

A card's token (4 bits, as Euchre's): a spade (bit 3), the number of cards unseen by me of its
suit that outrank it, capped at 3 (bits 1-2), and (following only) whether it beats the card
winning the trick so far (bit 0). So `S0-` is a boss card of a side suit, `T0+` the highest
spade out.

Abstract actions, in the order written to `moves_out`:
- bid: Nil, then four bids `low` .. `low + 3`, with low = max(1, min(E - 1, highest - 3)), E
  the key's expected tricks and highest the highest legal bid (13 less the partner's bid):
  Nil or one trick under, at, one or two over the estimate; when the partner's bid leaves
  fewer than four bids, Nil and every legal bid;
- play, in the first `LEARNED_TRICKS` tricks: one action per token of the legal cards,
  ascending by token, represented by the lowest card (by rank, then suit) holding it;
- play afterwards: one forced action, the heuristic's card (`games.spades.heuristic`, the
  heuristic in numba, which search's rollouts play too): the play past the first tricks is
  not learnt, so the tree the trainer walks stays small (every action of the traverser's team
  is walked: 26 decisions a hand would be 2^26 paths and more).
A decision with one action has no key.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import bit_at, lowest_bit, popcount
from games.spades.cards import N_RANKS, SPADE_MASK, SPADES, power, suit_mask
from games.spades.heuristic import count_tricks2, heuristic_move
from games.spades.rules import BID_MOVE, highest_bid, legal_cards
from games.spades.state import (BID, HAND, LEADER, N_IN_TRICK, PHASE, PHASE_BID, PHASE_PLAY,
                                PLAYED, TAKEN, TO_ACT, TRICK, TRICK_NUMBER, WINNING)

KIND_BID = 0
KIND_PLAY = 1
KIND_RULE = 2  # forced (the heuristic's card): never in a key
KIND_SHIFT = 62
LEARNED_TRICKS = 2
BID_ACTIONS = 5
MOVES_BUFFER = 32  # moves_out[16 + token]: the play kernel's scratch for each token's card
TOKEN_SLOTS = 16
NO_CARD = -1
ACE, KING, QUEEN = 12, 11, 10  # rank indices


@njit(cache=True)
def expected_tricks(hand):
    """The tricks `games/spades/heuristic.py` counts in `hand` (`count_tricks2`: each ace; a
    king with another card of its suit; the spade queen with two more spades; a trick a spade
    past the third; beside three spades or more, a trick a void side suit and half a trick a
    singleton), rounded half up, at least 1 and at most 13."""
    return min(max(1, (count_tricks2(hand) + 1) // 2), 13)


@njit(cache=True)
def hand_fields(hand):
    """The bid key's hand part (bits 9-18 of the body, shifted down to 0): the expected
    tricks, spade honours, spades held (module docstring)."""
    spades = hand & SPADE_MASK
    top = SPADES * N_RANKS
    honours = bit_at(spades, top + ACE) | bit_at(spades, top + KING) << 1 \
        | bit_at(spades, top + QUEEN) << 2
    return expected_tricks(hand) | honours << 4 | min(popcount(spades), 5) << 7


@njit(cache=True)
def bid_decision(state, moves_out):
    """The bidding: (n, key) with Nil and the bids in `moves_out[:n]` (n = 5 unless the
    partner's bid leaves fewer than four bids)."""
    seat = state[TO_ACT]
    partner = state[BID + (seat + 2) % 4]
    order = (seat + 3) % 4  # the dealer's left (seat 1) bids first
    opp_sum = 0
    opp_nil = 0
    opp_bids = 0
    for other in (seat + 1) % 4, (seat + 3) % 4:
        bid = state[BID + other]
        if bid >= 0:
            opp_bids += 1
            opp_sum += bid
            opp_nil |= np.int64(bid == 0)
    opp_bucket = 0
    if opp_bids > 0:
        opp_bucket = 1 if opp_sum <= 3 else 2 if opp_sum <= 5 else 3
    fields = hand_fields(state[HAND + seat])
    highest = highest_bid(state)
    low = max(1, min((fields & 15) - 1, highest - 3))
    n = 1 + min(BID_ACTIONS - 1, highest)
    moves_out[0] = BID_MOVE
    for i in range(n - 1):
        moves_out[1 + i] = BID_MOVE + low + i
    key = np.uint64(order | (partner + 1) << 2 | opp_nil << 6 | opp_bucket << 7 | fields << 9)
    return n, key | (np.uint64(KIND_BID) << np.uint64(KIND_SHIFT))


@njit(cache=True)
def card_token(card, unseen, led, best_power):
    """The 4-bit token of `card` (module docstring): `unseen` the cards the seat has not
    seen, `led` the suit led (-1 when leading), `best_power` the winning card's power."""
    suit = card // N_RANKS
    higher = popcount(unseen & suit_mask(suit) & ~((np.int64(2) << card) - 1))
    beats = 0
    if led >= 0 and power(card, led) > best_power:
        beats = 1
    return np.int64(suit == SPADES) << 3 | min(higher, 3) << 1 | beats


@njit(cache=True)
def _unseen_bucket(count):
    return 0 if count == 0 else 1 if count <= 2 else 2 if count <= 5 else 3


@njit(cache=True)
def _nil_alive(state, seat):
    return np.int64(state[BID + seat] == 0 and state[TAKEN + seat] == 0)


@njit(cache=True)
def _needed(state, team):
    bids = state[BID + team] + state[BID + team + 2]
    return min(max(0, bids - state[TAKEN + team] - state[TAKEN + team + 2]), 7)


@njit(cache=True)
def play_decision(state, moves_out):
    """A learned trick: (n, key) with the abstract actions' cards in `moves_out[:n]`."""
    seat = state[TO_ACT]
    hand = state[HAND + seat]
    unseen = (np.int64(1) << 52) - 1 & ~hand & ~state[PLAYED]
    position = state[N_IN_TRICK]
    led = -1
    best_power = 0
    winning = 0
    winning_spade = 0
    if position > 0:
        led = state[TRICK] // N_RANKS
        card = state[TRICK + state[WINNING]]
        best_power = power(card, led)
        winner = (state[LEADER] + state[WINNING]) % 4
        winning = 1 if winner % 2 == seat % 2 else 2
        winning_spade = np.int64(card // N_RANKS == SPADES)
    for t in range(16):
        moves_out[TOKEN_SLOTS + t] = NO_CARD
    rest = legal_cards(state)
    while rest:  # ascending card index: suit, then rank
        card = lowest_bit(rest)
        rest &= rest - 1
        t = card_token(card, unseen, led, best_power)
        held = moves_out[TOKEN_SLOTS + t]
        if held == NO_CARD or card % N_RANKS < held % N_RANKS:
            moves_out[TOKEN_SLOTS + t] = card
    n = 0
    tokens = 0
    for t in range(16):
        card = moves_out[TOKEN_SLOTS + t]
        if card != NO_CARD:
            moves_out[n] = card
            tokens |= 1 << t
            n += 1
    us = seat % 2
    key = position | state[TRICK_NUMBER] << 2 | np.int64(led == SPADES) << 4 | winning << 5
    key |= winning_spade << 7 | _needed(state, us) << 8 | _needed(state, 1 - us) << 11
    key |= _nil_alive(state, seat) << 14 | _nil_alive(state, (seat + 2) % 4) << 15
    key |= (_nil_alive(state, (seat + 1) % 4) | _nil_alive(state, (seat + 3) % 4)) << 16
    key |= np.int64(state[PLAYED] & SPADE_MASK != 0) << 17
    key |= _unseen_bucket(popcount(unseen & SPADE_MASK)) << 18
    key |= tokens << 20 | np.int64(us == 0) << 36
    return n, np.uint64(key) | (np.uint64(KIND_PLAY) << np.uint64(KIND_SHIFT))


@njit(cache=True)
def abstract_decision(state, moves_out):
    """The decision of the seat to act: (n, kind, key), the abstract actions' moves in
    `moves_out[:n]` in the abstraction's order (module docstring); the key is meaningful when
    n >= 2 (0 otherwise)."""
    phase = state[PHASE]
    if phase == PHASE_BID:
        n, key = bid_decision(state, moves_out)
        return n, KIND_BID, key if n >= 2 else np.uint64(0)  # after a partner's 13: Nil
    if phase != PHASE_PLAY:
        return 0, -1, np.uint64(0)
    if state[TRICK_NUMBER] >= LEARNED_TRICKS:
        moves_out[0] = heuristic_move(state)
        return 1, KIND_RULE, np.uint64(0)
    n, key = play_decision(state, moves_out)
    if n < 2:
        key = np.uint64(0)
    return n, KIND_PLAY, key
