"""The Euchre abstraction's kernel: one decision's abstract actions and its uint64 key.

`abstract_decision(state, moves_out) -> (n, kind, key)` works on any Euchre hand state of
`games/euchre/state.py`, including a `SeatView`'s (other seats' cards erased, the dealer's
discard erased for the others): it reads only the acting seat's own cards and public fields
(the upcard, the passes, the maker, alone, the tricks, the cards played), so a key depends only
on what the acting seat knows. The moves are written in the abstraction's action order (below),
not the engine's ascending order; `moves_out` must hold at least `MOVES_BUFFER` (24) entries
(the play kernel sorts its card classes in slots 8..23).

Key layout (bits, least significant first; every field is a fixed width, so keys are
collision-free by construction; bits 62-63 hold the kind):

| kind (bits 62-63) | bits | field |
|--|--|--|
| 0 order (round 1) | 0-1 | acting seat relative to the dealer (0 dealer, 1 left, 2 partner, 3 right) |
| | 2-4 | upcard rank 0..5 (9 T J Q K A; J = the right bower if ordered) |
| | 5-14 | `hand_summary` of the hand with the upcard's suit as trump |
| 1 name (round 2) | 0-1 | acting seat relative to the dealer (seat 0 is stuck: no pass) |
| | 2 | the turned-down upcard was a jack (the next suit's left bower is buried) |
| | 3-9, 10-16, 17-23 | `candidate_summary` for the next suit (same colour as the upcard), then the two other-colour suits in ascending suit order |
| 2 alone | 0-1 | the maker's seat relative to the dealer |
| | 2 | trump named in round 2 (0: ordered up in round 1) |
| | 3-12 | `hand_summary` of the maker's hand (after the dealer's pick-up and discard) |
| 3 play | 0-1 | role: (seat - maker) mod 4 (0 maker, 2 maker's partner, 1 and 3 defenders) |
| | 2 | the maker went alone |
| | 3-5, 6-8 | tricks won by my team, by the other team (0..4) |
| | 9-10 | position in the trick (0 leads) |
| | 11 | the suit led is trump |
| | 12-13 | who wins the trick so far: 0 nobody (leading), 1 my partner, 2 an opponent |
| | 14 | the card winning so far is a trump |
| | 15-16 | trumps unseen by me (not in my hand, not played), capped at 3 |
| | 17-19 | number of abstract actions n (1..5) |
| | 20+4i .. 23+4i | token of action i (i < n), ascending |
| | 40 | my team is the dealer's (team 0: the two CFR players never share a key) |

`hand_summary(hand, trump)` (10 bits): right bower (bit 0), left bower (1), ace of trump (2),
count of the trump K Q T 9 (3-5), aces of the other suits (6-7), other suits void (8-9).
`candidate_summary(hand, suit)` (7 bits): right bower (0), left bower (1), trumps held
counting both bowers (2-4), aces of the other suits (5-6).

A card's token (4 bits): trump (bit 3), the number of unseen cards of its effective suit
that outrank it, capped at 3 (bits 1-2), and (following only) whether it beats the card winning
the trick so far (bit 0). "Unseen" for the acting seat: not in its hand, not played, and not
the upcard once it was turned down (round 2); the dealer's discard counts as unseen (only the
dealer knows it, and every seat is keyed alike).

Abstract actions, in the order written to `moves_out`:
- order: pass, order up (the engine's moves P and the upcard's suit);
- name: pass (unless the dealer is stuck), then the next suit, then the two other-colour suits
  ascending (the key's candidate order);
- alone: alone, partner;
- discard: one forced action, `discard_rule` (no key): the dealer's discard is not learnt;
- play: one action per distinct token of the legal cards, ascending by token, represented by
  the lowest card (by its strength in its own suit, then card index) holding that token.
A decision with one action (a forced card, the discard) has no key.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import bit_at, lowest_bit, popcount
from games.euchre.cards import (
    ALL_CARDS,
    JACK,
    card_rank,
    card_suit,
    effective_suit,
    effective_suit_mask,
    left_bower,
    make_card,
    power,
    suit_mask,
)
from games.euchre.rules import (
    ALONE_MOVE,
    PARTNER_MOVE,
    PASS_MOVE,
    TRUMP_MOVE,
    legal_cards,
    next_active,
)
from games.euchre.state import (
    ALONE,
    HAND,
    LEADER,
    MAKER,
    N_IN_TRICK,
    N_PASSES,
    PHASE,
    PHASE_ALONE,
    PHASE_DISCARD,
    PHASE_NAME,
    PHASE_ORDER,
    PHASE_PLAY,
    PLAYED,
    TO_ACT,
    TRICK,
    TRICKS_WON,
    TRUMP,
    UPCARD,
    WINNING,
)

KIND_ORDER = 0
KIND_NAME = 1
KIND_ALONE = 2
KIND_PLAY = 3
KIND_DISCARD = 4  # forced: never in a key
KIND_SHIFT = 62
ACE = 5
MOVES_BUFFER = 24
TOKEN_SLOTS = 8  # moves_out[8 + token]: the play kernel's scratch for each token's card
NO_CARD = -1


@njit(cache=True)
def hand_summary(hand, trump):
    """The 10-bit summary of `hand` with `trump` as trump (module docstring)."""
    right = bit_at(hand, make_card(JACK, trump))
    left = bit_at(hand, left_bower(trump))
    ace = bit_at(hand, make_card(ACE, trump))
    low = popcount(hand & suit_mask(trump)) - right - ace
    aces = 0
    voids = 0
    for s in range(4):
        if s == trump:
            continue
        aces += bit_at(hand, make_card(ACE, s))
        if hand & effective_suit_mask(s, trump) == 0:
            voids += 1
    return right | (left << 1) | (ace << 2) | (low << 3) | (aces << 6) | (voids << 8)


@njit(cache=True)
def candidate_summary(hand, trump):
    """The 7-bit summary of `hand` for a suit it might name in round 2 (module docstring)."""
    right = bit_at(hand, make_card(JACK, trump))
    left = bit_at(hand, left_bower(trump))
    trumps = popcount(hand & effective_suit_mask(trump, trump))
    aces = 0
    for s in range(4):
        if s != trump:
            aces += bit_at(hand, make_card(ACE, s))
    return right | (left << 1) | (trumps << 2) | (aces << 5)


@njit(cache=True)
def cross_suits(upcard_suit):
    """The two suits of the other colour than `upcard_suit`, ascending."""
    first = -1
    second = -1
    for s in range(4):
        if s != upcard_suit and s != 3 - upcard_suit:
            if first < 0:
                first = s
            else:
                second = s
    return first, second


@njit(cache=True)
def discard_rule(hand, upcard, trump):
    """The dealer's discard after an order-up (`hand` holds the upcard, which stays): void an
    off suit if a single non-ace card does it (the lowest such), else the lowest-ranked
    non-ace off-suit card, else the lowest off-suit card, else the lowest trump."""
    candidates = hand & ~(np.int64(1) << upcard)
    trumps = effective_suit_mask(trump, trump)
    best = NO_CARD
    best_score = 1 << 30
    for card in range(24):
        if not bit_at(candidates, card) or bit_at(trumps, card):
            continue
        suit = effective_suit(card, trump)
        rank = card_rank(card)
        alone = popcount(hand & effective_suit_mask(suit, trump)) == 1
        score = rank  # lower is better to throw
        if rank == ACE:
            score += 100
        elif not alone:
            score += 10
        if score < best_score:
            best_score = score
            best = card
    if best != NO_CARD:
        return best
    for card in range(24):
        if bit_at(candidates, card):
            p = power(card, trump, trump)
            if p < best_score:
                best_score = p
                best = card
    return best


@njit(cache=True, inline="always")
def _round_two(state):
    return state[N_PASSES] >= 4


@njit(cache=True)
def card_token(card, hand_unseen, trump, led, best_power):
    """The 4-bit token of `card` (module docstring): `hand_unseen` the cards the seat has not
    seen, `led` the suit led (-1 when leading), `best_power` the winning card's power."""
    suit = effective_suit(card, trump)
    own = power(card, trump, suit)
    higher = 0
    rest = hand_unseen & effective_suit_mask(suit, trump)
    while rest:
        other = lowest_bit(rest)
        rest &= rest - 1
        if power(other, trump, suit) > own:
            higher += 1
    if higher > 3:
        higher = 3
    beats = 0
    if led >= 0 and power(card, trump, led) > best_power:
        beats = 1
    return (np.int64(suit == trump) << 3) | (higher << 1) | beats


@njit(cache=True)
def play_decision(state, moves_out):
    """The play phase: (n, key) with the abstract actions' cards in `moves_out[:n]`."""
    seat = state[TO_ACT]
    hand = state[HAND + seat]
    trump = state[TRUMP]
    legal = legal_cards(state)
    unseen = ALL_CARDS & ~hand & ~state[PLAYED]
    if _round_two(state):
        unseen &= ~(np.int64(1) << state[UPCARD])
    position = state[N_IN_TRICK]
    led = -1
    best_power = 0
    winning = 0
    winning_trump = 0
    if position > 0:
        led = effective_suit(state[TRICK], trump)
        w = state[WINNING]
        card = state[TRICK + w]
        best_power = power(card, trump, led)
        winner = state[LEADER]
        for _ in range(w):
            winner = next_active(state, winner)
        winning = 1 if winner % 2 == seat % 2 else 2
        winning_trump = np.int64(effective_suit(card, trump) == trump)
    for t in range(16):
        moves_out[TOKEN_SLOTS + t] = NO_CARD
    rest = legal
    while rest:
        card = lowest_bit(rest)
        rest &= rest - 1
        t = card_token(card, unseen, trump, led, best_power)
        held = moves_out[TOKEN_SLOTS + t]
        if held == NO_CARD or power(card, trump, effective_suit(card, trump)) < \
                power(held, trump, effective_suit(held, trump)):
            moves_out[TOKEN_SLOTS + t] = card
    n = 0
    tokens = np.uint64(0)
    for t in range(16):
        card = moves_out[TOKEN_SLOTS + t]
        if card != NO_CARD:
            moves_out[n] = card
            tokens |= np.uint64(t) << np.uint64(4 * n)
            n += 1
    trump_mask = effective_suit_mask(trump, trump)
    us = seat % 2
    key = np.uint64((seat - state[MAKER]) % 4)
    key |= np.uint64(state[ALONE] == 1) << np.uint64(2)
    key |= np.uint64(state[TRICKS_WON + us]) << np.uint64(3)
    key |= np.uint64(state[TRICKS_WON + 1 - us]) << np.uint64(6)
    key |= np.uint64(position) << np.uint64(9)
    key |= np.uint64(led == trump and position > 0) << np.uint64(11)
    key |= np.uint64(winning) << np.uint64(12)
    key |= np.uint64(winning_trump) << np.uint64(14)
    key |= np.uint64(min(popcount(unseen & trump_mask), 3)) << np.uint64(15)
    key |= np.uint64(n) << np.uint64(17)
    key |= tokens << np.uint64(20)
    key |= np.uint64(seat % 2 == 0) << np.uint64(40)
    key |= np.uint64(KIND_PLAY) << np.uint64(KIND_SHIFT)
    return n, key


@njit(cache=True)
def abstract_decision(state, moves_out):
    """The decision of the seat to act: (n, kind, key), the abstract actions' moves in
    `moves_out[:n]` in the abstraction's order (module docstring); the key is meaningful when
    n >= 2 (0 otherwise)."""
    phase = state[PHASE]
    seat = state[TO_ACT]
    hand = state[HAND + seat]
    upcard = state[UPCARD]
    up_suit = card_suit(upcard)
    if phase == PHASE_ORDER:
        moves_out[0] = PASS_MOVE
        moves_out[1] = TRUMP_MOVE + up_suit
        key = np.uint64(seat) | (np.uint64(card_rank(upcard)) << np.uint64(2)) \
            | (np.uint64(hand_summary(hand, up_suit)) << np.uint64(5))
        return 2, KIND_ORDER, key | (np.uint64(KIND_ORDER) << np.uint64(KIND_SHIFT))
    if phase == PHASE_NAME:
        n = 0
        if state[N_PASSES] != 7:  # the dealer, last in round 2, is stuck
            moves_out[0] = PASS_MOVE
            n = 1
        first, second = cross_suits(up_suit)
        nxt = 3 - up_suit
        moves_out[n] = TRUMP_MOVE + nxt
        moves_out[n + 1] = TRUMP_MOVE + first
        moves_out[n + 2] = TRUMP_MOVE + second
        key = np.uint64(seat) | (np.uint64(card_rank(upcard) == JACK) << np.uint64(2))
        key |= np.uint64(candidate_summary(hand, nxt)) << np.uint64(3)
        key |= np.uint64(candidate_summary(hand, first)) << np.uint64(10)
        key |= np.uint64(candidate_summary(hand, second)) << np.uint64(17)
        return n + 3, KIND_NAME, key | (np.uint64(KIND_NAME) << np.uint64(KIND_SHIFT))
    if phase == PHASE_ALONE:
        moves_out[0] = ALONE_MOVE
        moves_out[1] = PARTNER_MOVE
        key = np.uint64(seat) | (np.uint64(_round_two(state)) << np.uint64(2)) \
            | (np.uint64(hand_summary(hand, state[TRUMP])) << np.uint64(3))
        return 2, KIND_ALONE, key | (np.uint64(KIND_ALONE) << np.uint64(KIND_SHIFT))
    if phase == PHASE_DISCARD:
        moves_out[0] = discard_rule(hand, upcard, state[TRUMP])
        return 1, KIND_DISCARD, np.uint64(0)
    if phase == PHASE_PLAY:
        n, key = play_decision(state, moves_out)
        if n < 2:
            key = np.uint64(0)
        return n, KIND_PLAY, key
    return 0, -1, np.uint64(0)
