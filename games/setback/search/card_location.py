"""Setback's declaration to the learned card-location model (`search.card_location`): what a
seat's view says, encoded for the network (the F_* layout, `setback_features`), each card's
group (trump first), the pair features (the P_* constants) and the public record of the deal's
moves (`public_record`: who played, led and let pass which card, who took each trick).

The features are also the policy network's (`games.setback.search.net`). The hard facts (who
may hold a hidden card) are the world sampler's (`games.setback.public`); the rest of the model
is shared. `GAME` gathers what the model, its training, its data and the benchmark need (the
registry's `card_location` names it).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.setback import public
from games.setback.cards import card_suit
from games.setback.rules import BID_MOVE, beats
from games.setback.scoring import deal_score, is_exhausted
from games.setback.state import (BID, HAND, HIGH_BID, HIGH_BIDDER, LEADER, N_IN_TRICK, PHASE,
                                 PHASE_AUCTION, PLAYED, STATE_SIZE, TRICK,
                                 TRICK_NUMBER, TRUMP, WINNING)
from search.card_location import (RECORD, R_DUCKED, R_LED, R_PLAYED, Declaration,
                                  encode_rows, play_pairs, put_cards, seat_features)
from games.setback.search.sampler import constraints

N_CARDS = 52
LAYOUT = "setback-v3"  # the name of the feature layout below; a model records it

# Feature layout (float64[N_FEATURES]); "r" is a seat relative to the viewer (0 = itself),
# cards are in trump-first suit order (`suit_slots`).
F_HAND = 0  # 52: the viewer's hand
F_PLAYED = 52  # 4 x 52: the cards seat r played this deal
F_BIDS = 260  # 4 x 5: seat r's bid: not yet, pass, 2, 3, 4
F_HIGH = 280  # 4: who holds the contract (the high bidder so far)
F_POSITION = 284  # 4: the viewer's seat from the dealer (0 = dealer)
F_VOIDS = 288  # 4 x 4: seat r has shown a void in suit slot k
F_NEEDS = 304  # 4: cards seat r still holds / 6
F_TRICKS = 308  # 4: tricks seat r has won / 6
F_LEADER = 312  # 4: who led the current trick (when a card is on the table)
F_WINNING = 316  # 4: who is winning the current trick
F_LED = 320  # 4: the suit slot led to the current trick
F_FLAGS = 324  # trump known, auction, tricks done / 6, cards in trick / 3, us / 11,
#                them / 11, high bid / 4
N_FEATURES = 331

# Pair features: for each card and each other seat, the same few facts whatever the card, each
# with ONE weight shared by all 52 cards (added to the card's logit for that seat), so what a
# seat's play says about a card is learnt once for every card, from little data:
P_HIGHER = 0  # the seat played a higher card of the card's suit
P_LOWER = 1  # the seat played a lower card of the card's suit
P_SUIT = 2  # the seat played a card of the card's suit
P_BIDDER = 3  # the seat holds the contract (high bidder so far)
P_BIDDER_TRUMP = 4  # ... and the card is trump
P_BIDDER_HIGH = 5  # ... and the card is trump, Jack or higher
P_BID_TRUMP = 6  # the seat's bid / 4 when the card is trump
P_PASSED_TRUMP = 7  # the seat passed and the card is trump
P_DUCKED = 8  # the seat let the card pass (`public_record`'s R_DUCKED)
P_LED_SUIT = 9  # the seat led a card of the card's suit
N_PAIR = 10


# --- the view's public record -------------------------------------------------------------
@njit(cache=True)
def public_record(history, n_moves, record, tricks_won):
    """What the deal's moves `history[:n_moves]` (engine moves from the first bid) say beyond
    the state, by seat relative to the dealer: `record[R_PLAYED, s]` the cards seat s played,
    `record[R_LED, s]` the cards it led, `record[R_DUCKED, s]` the cards it let pass: when it
    followed the suit led under the winning card while the other side was winning, the cards
    of that suit above the winning one; when it played neither the suit led nor trump while
    the other side was winning, the trumps above the winning card (every trump if no trump
    was played). A seat holding those would usually have played one: evidence, not a fact.
    `tricks_won[s]`: the tricks it took. The state has the cards played and each team's
    captures but not these; the history has them (every Setback move is public)."""
    for s in range(4):
        for k in range(RECORD):
            record[k, s] = 0
        tricks_won[s] = 0
    to_act = 1  # the dealer's left bids first
    high = -1
    bids = 0
    trump = -1
    in_trick = 0
    best = -1
    winner = -1
    led = -1
    for i in range(n_moves):
        move = history[i]
        if move >= BID_MOVE:
            if move - BID_MOVE != 0:
                high = to_act
            bids += 1
            to_act = high if bids == 4 else (to_act + 1) % 4
            continue
        record[R_PLAYED, to_act] |= np.int64(1) << move
        if trump < 0:
            trump = card_suit(move)
        if in_trick == 0:
            record[R_LED, to_act] |= np.int64(1) << move
            led = card_suit(move)
            best = move
            winner = to_act
        else:
            if winner % 2 != to_act % 2 and not beats(move, best, trump):
                best_suit = card_suit(best)
                above = suit_cards_above(best)
                if card_suit(move) == led and best_suit == led:
                    record[R_DUCKED, to_act] |= above
                elif card_suit(move) != led and card_suit(move) != trump:
                    record[R_DUCKED, to_act] |= above if best_suit == trump else \
                        np.int64(0x1FFF) << (13 * trump)
            if beats(move, best, trump):
                best = move
                winner = to_act
        in_trick += 1
        if in_trick == 4:
            tricks_won[winner] += 1
            to_act = winner
            in_trick = 0
        else:
            to_act = (to_act + 1) % 4


@njit(cache=True, inline="always")
def suit_cards_above(card):
    """The cards of `card`'s suit ranked above it."""
    rank = card % 13
    return ((np.int64(0x1FFF) >> (rank + 1)) << (rank + 1)) << (13 * (card // 13))


# --- features -----------------------------------------------------------------------------
@njit(cache=True, inline="always")
def suit_slots(trump, slots):
    """`slots[suit]`: the suit's place in the model's order: trump first once it is known,
    then the others in their natural order; the natural order before."""
    k = 1
    for s in range(4):
        if trump < 0:
            slots[s] = s
        elif s == trump:
            slots[s] = 0
        else:
            slots[s] = k
            k += 1


@njit(cache=True, inline="always")
def slot_card(card, slots):
    """The card's index in the model's suit order (its group)."""
    return slots[card // 13] * 13 + card % 13


@njit(cache=True)
def setback_features(view_state, seat, record, tricks_won, us, them, out):
    """Encode `seat`'s view into `out` (float64[N_FEATURES], the layout in the F_* constants):
    `view_state` the seat's Setback state, `record`/`tricks_won` from `public_record` (by
    seat relative to the dealer), `us`/`them` the game score of the seat's team and the other."""
    for i in range(N_FEATURES):
        out[i] = 0.0
    slots = np.empty(4, np.int64)
    trump = view_state[TRUMP]
    suit_slots(trump, slots)
    needs = np.zeros(3, np.int64)
    voids = np.zeros(3, np.int64)
    constraints(view_state, seat, True, needs, voids)
    put_cards(view_state[HAND + seat], slots, 13, out, F_HAND)
    for r in range(4):
        s = (seat + r) % 4
        put_cards(record[R_PLAYED, s], slots, 13, out, F_PLAYED + 52 * r)
        bid = view_state[BID + s]
        out[F_BIDS + 5 * r + (0 if bid < 0 else 1 if bid == 0 else bid)] = 1.0
    seat_features(view_state[HAND + seat], seat, tricks_won, needs, voids, slots, 6.0, out,
                  F_NEEDS, F_TRICKS, F_VOIDS)
    if view_state[HIGH_BIDDER] >= 0:
        out[F_HIGH + (view_state[HIGH_BIDDER] - seat) % 4] = 1.0
    out[F_POSITION + seat] = 1.0
    n_in = view_state[N_IN_TRICK]
    if view_state[PHASE] != PHASE_AUCTION and n_in > 0:
        leader = view_state[LEADER]
        out[F_LEADER + (leader - seat) % 4] = 1.0
        out[F_WINNING + (leader + view_state[WINNING] - seat) % 4] = 1.0
        out[F_LED + slots[view_state[TRICK] // 13]] = 1.0
    out[F_FLAGS] = 1.0 if trump >= 0 else 0.0
    out[F_FLAGS + 1] = 1.0 if view_state[PHASE] == PHASE_AUCTION else 0.0
    out[F_FLAGS + 2] = view_state[TRICK_NUMBER] / 6.0
    out[F_FLAGS + 3] = n_in / 3.0
    out[F_FLAGS + 4] = min(max(us, -11), 11) / 11.0
    out[F_FLAGS + 5] = min(max(them, -11), 11) / 11.0
    out[F_FLAGS + 6] = view_state[HIGH_BID] / 4.0


@njit(cache=True)
def pair_features(view_state, seat, record, out):
    """`out[card, i, k]` (float64[N_CARDS, 3, N_PAIR], engine card order): pair feature k
    (the P_* constants) of `card` and the seat `seat + 1 + i`."""
    trump = view_state[TRUMP]
    high = view_state[HIGH_BIDDER]
    cards = np.arange(N_CARDS)
    play_pairs(record, seat, cards // 13, cards % 13, out, P_HIGHER, P_LOWER, P_SUIT,
               P_LED_SUIT, P_DUCKED)
    for card in range(N_CARDS):
        for i in range(3):
            s = (seat + 1 + i) % 4
            bidder = s == high
            out[card, i, P_BIDDER] = 1.0 if bidder else 0.0
            if card // 13 == trump:
                out[card, i, P_BIDDER_TRUMP] = 1.0 if bidder else 0.0
                out[card, i, P_BIDDER_HIGH] = 1.0 if bidder and card % 13 >= 9 else 0.0
                bid = view_state[BID + s]
                out[card, i, P_BID_TRUMP] = bid / 4.0 if bid > 0 else 0.0
                out[card, i, P_PASSED_TRUMP] = 1.0 if bid == 0 else 0.0


@njit(cache=True, nogil=True)
def card_order(view_state, order):
    """`order[card]`: the card's group in the network (`slot_card`: trump first)."""
    slots = np.empty(4, np.int64)
    suit_slots(view_state[TRUMP], slots)
    for card in range(N_CARDS):
        order[card] = slot_card(card, slots)


@njit(cache=True, nogil=True)
def encode_batch(rows, out):
    """Rows of a Setback data set into the network's inputs (`card_location.encode_rows`)."""
    encode_rows(setback_features, card_order, pair_features, public.constraints,
                public.suit_masks, rows, out)


def record_of(history, view_state, record, tricks_won) -> None:
    """`public_record` of a deal's whole `history` (every Setback move is public)."""
    public_record(history, history.size, record, tricks_won)


def phase_of(states: np.ndarray) -> np.ndarray:
    """The phase bucket of each row: 0 auction, 1 tricks 1-2, 2 tricks 3-4, 3 tricks 5-6 (the
    trick being played)."""
    auction = states[:, PHASE] == PHASE_AUCTION
    return np.where(auction, 0, 1 + np.minimum(states[:, TRICK_NUMBER], 5) // 2)


def trump_cards(state) -> int:
    """The mask of the trumps once trump is known, 0 before."""
    trump = int(state[TRUMP])
    return 0 if trump < 0 else 0x1FFF << (13 * trump)


def deal_points(state) -> tuple:
    """The finished deal's points by team relative to the dealer."""
    relative = deal_score(state)
    return int(relative[0]), int(relative[1])


GAME = Declaration(
    name="setback", n_cards=N_CARDS, n_features=N_FEATURES, n_pair=N_PAIR, layout=LAYOUT,
    columns=("left", "partner", "right", "undealt"), state_size=STATE_SIZE, max_moves=4 + 24,
    played_field=PLAYED, size=public.SIZE, encode=encode_batch, public_record=record_of,
    constraints=public.constraints, suit_masks=public.suit_masks, phase_of=phase_of,
    phase_names=("auction", "tricks 1-2", "tricks 3-4", "tricks 5-6"),
    trump_cards=trump_cards, is_over=is_exhausted, points=deal_points)
