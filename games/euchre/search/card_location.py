"""Euchre's declaration to the learned card-location model (`search.card_location`): what a
seat's view says, encoded for the network; the hard facts of who may hold each hidden card are
the world sampler's (`games.euchre.public`: effective suits, the upcard's fate).

The holder columns are the model's, relative to the viewer: 0 the seat to its left, 1 its
partner, 2 its right, 3 (`UNDEALT`, the kitty) the cards no seat holds: the three never dealt
and, once the dealer picked the upcard up, its discard (known to the dealer alone). The upcard
is public (turned down: out of play; ordered up: in the dealer's hand until played), so it is
never a hidden card; nor is the dealer's own discard to the dealer.

The view is encoded (`euchre_features`, the F_* layout) with the suits renamed so that the
reference suit (trump once named, the upcard's suit before) is suit slot 0 and its colour-mate
slot 1 (the left bower is then always the Jack of slot 1): the network learns a bower once
whatever the suit. The calls in order are in the state (the first round's passes from the
dealer's left, the order-up; the second round's passes and the suit named); the cards each seat
played, led and let pass, and the tricks each seat took, come from the hand's history
(`public_record`, replayed on empty hands: the turn order depends only on the moves).

Pair features (`pair_features`, the P_* constants) add, for each card and each other seat, a
few facts with one weight shared by every card: the seat played a higher or lower card of the
card's effective suit, let it pass, led the suit, made trump (and the card is trump, or a bower
or the Ace of trump), went alone, passed the upcard's suit in the first round, is the dealer
and the card is of the upcard's suit, passed in the second round while the card is trump.

`GAME` gathers what the game-generic model, its training, its data and the benchmark need
(the registry's `card_location` names it).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.euchre import public
from games.euchre import state as S
from games.euchre.cards import card_rank, card_suit, effective_suit, power
from games.euchre.rules import apply_move
from games.euchre.scoring import hand_score, is_over
from games.euchre.state import (ALONE, DISCARD, HAND, LEADER, MAKER, N_IN_TRICK, N_PASSES,
                                OUT, PHASE, PHASE_DISCARD, PHASE_PLAY, PLAYED, TO_ACT, TRICK,
                                TRICK_NUMBER, TRUMP, UPCARD, WINNING)
from search.card_location import (RECORD, R_DUCKED, R_LED, R_PLAYED, Declaration,
                                  encode_rows, play_pairs, put_cards, seat_features)
from games.euchre.search.worlds import constraints, ordered_up

N_CARDS = 24
LAYOUT = "euchre-v1"
COLUMNS = ("left", "partner", "right", "kitty")
MAX_MOVES = 32  # a hand's moves: eight calls, the discard, alone, twenty cards
PHASE_NAMES = ("calls", "tricks 1-2", "tricks 3-4", "trick 5")


F_HAND = 0  # 24: the viewer's hand
F_PLAYED = 24  # 4 x 24: the cards seat r played this hand
F_UPCARD = 120  # 24: the upcard
F_DISCARD = 144  # 24: the viewer's own discard (the dealer's)
F_CALLS = 168  # 4 x 6: seat r's first-round call (none, pass, order), second (none, pass, name)
F_MAKER = 192  # 4: who made trump
F_ALONE = 196  # 4: the maker, if it went alone
F_OUT = 200  # 4: the seat sitting the hand out
F_DEALER = 204  # 4: the dealer
F_VOIDS = 208  # 4 x 4: seat r has shown a void in suit slot k
F_NEEDS = 224  # 4: cards seat r still holds / 5
F_TRICKS = 228  # 4: tricks seat r has taken / 5
F_LEADER = 232  # 4: who led the current trick (a card on the table)
F_WINNING = 236  # 4: who is winning it
F_LED = 240  # 4: the suit slot led
F_PHASE = 244  # 5: order, name, discard, alone, play
F_FLAGS = 249  # trump known, tricks done / 5, cards in trick / 3, us / 10, them / 10,
#                the dealer holds the upcard unplayed, the upcard was turned down
N_FEATURES = 256

P_HIGHER = 0  # the seat played a higher card of the card's effective suit
P_LOWER = 1  # ... a lower one
P_SUIT = 2  # ... a card of that suit
P_DUCKED = 3  # the seat let the card pass (`public_record`)
P_LED_SUIT = 4  # the seat led a card of the card's suit
P_MAKER = 5  # the seat made trump
P_MAKER_TRUMP = 6  # ... and the card is trump
P_MAKER_HIGH = 7  # ... and the card is a bower or the Ace of trump
P_PASSED_UP = 8  # the seat passed the upcard's suit in the first round; the card is of it
P_DEALER_UP = 9  # the seat is the dealer and the card is of the upcard's suit
P_PASSED_NAMED = 10  # the seat passed in the second round and the card is trump
P_ALONE = 11  # the seat went alone and the card is trump
N_PAIR = 12


@njit(cache=True, inline="always")
def _suit_of(card, trump):
    """The card's effective suit once trump is named, its printed suit before."""
    return effective_suit(card, trump) if trump >= 0 else card_suit(card)


@njit(cache=True, nogil=True)
def public_record(history, n_moves, upcard, record, tricks_won):
    """What the hand's moves `history[:n_moves]` (from the first call; the dealer's discard may
    be hidden, -1) say beyond the state, by seat relative to the dealer: the cards each seat
    played (`record[R_PLAYED, s]`), led (`R_LED`) and let pass (`R_DUCKED`: it followed under
    the winning card while the other side was winning, the cards of the suit led above it; it
    neither followed nor trumped, the trumps above the winning card), and `tricks_won[s]`.
    Replayed on empty hands with `upcard` turned up."""
    for s in range(4):
        for k in range(RECORD):
            record[k, s] = 0
        tricks_won[s] = 0
    state = np.zeros(S.STATE_SIZE, np.int64)
    S.reset_hand(state, np.zeros(4, np.int64), upcard, 1)
    for i in range(n_moves):
        move = history[i]
        if state[PHASE] == PHASE_DISCARD:
            apply_move(state, max(move, 0))  # which card does not matter to the turns
            continue
        if state[PHASE] != PHASE_PLAY:
            apply_move(state, move)
            continue
        seat = state[TO_ACT]
        trump = state[TRUMP]
        record[R_PLAYED, seat] |= np.int64(1) << move
        if state[N_IN_TRICK] == 0:
            record[R_LED, seat] |= np.int64(1) << move
        else:
            led = effective_suit(state[TRICK], trump)
            best = state[TRICK + state[WINNING]]
            winner = state[LEADER]
            for _ in range(state[WINNING]):
                winner = (winner + 1) % 4
                if winner == state[OUT]:
                    winner = (winner + 1) % 4
            top = power(best, trump, led)
            suit = effective_suit(move, trump)
            if winner % 2 != seat % 2 and power(move, trump, led) <= top:
                ducked = np.int64(0)
                for card in range(N_CARDS):
                    cs = effective_suit(card, trump)
                    if suit == led and cs == led and power(card, trump, led) > top:
                        ducked |= np.int64(1) << card
                    elif suit != led and suit != trump and cs == trump and \
                            power(card, trump, led) > top:
                        ducked |= np.int64(1) << card
                record[R_DUCKED, seat] |= ducked
        done = state[TRICK_NUMBER]
        apply_move(state, move)
        if state[TRICK_NUMBER] > done:
            tricks_won[state[LEADER]] += 1


def record_of(history, view_state, record, tricks_won) -> None:
    """`public_record` of a hand's whole `history` (the upcard from the view)."""
    public_record(history, history.size, np.int64(view_state[UPCARD]), record, tricks_won)


@njit(cache=True, nogil=True)
def suit_slots(view_state, slots):
    """`slots[suit]`: the suit's place in the network's order: the reference suit (trump or
    the upcard's) first, its colour-mate second, the others after."""
    trump = view_state[TRUMP]
    ref = trump if trump >= 0 else card_suit(view_state[UPCARD])
    k = 2
    for s in range(4):
        if s == ref:
            slots[s] = 0
        elif s == 3 - ref:
            slots[s] = 1
        else:
            slots[s] = k
            k += 1


@njit(cache=True, nogil=True)
def card_order(view_state, order):
    """`order[card]`: the card's group in the network: its suit's slot (`suit_slots`) times six
    plus its rank."""
    slots = np.empty(4, np.int64)
    suit_slots(view_state, slots)
    for card in range(N_CARDS):
        order[card] = slots[card_suit(card)] * 6 + card_rank(card)


@njit(cache=True, nogil=True)
def _calls(view_state, seat):
    """(first-round call, second-round call) of `seat`: 0 none yet, 1 pass, 2 order / name."""
    passes = view_state[N_PASSES]
    maker = view_state[MAKER]
    turn = (seat + 3) % 4  # its place in the order of speaking: the dealer's left first
    first = 1 if turn < min(passes, 4) else 0
    second = 1 if passes >= 4 and turn < passes - 4 else 0
    if maker == seat:
        if passes < 4:
            first = 2
        else:
            second = 2
    return first, second


@njit(cache=True, nogil=True)
def euchre_features(view_state, seat, record, tricks_won, us, them, out):
    """Encode `seat`'s view into `out` (float64[N_FEATURES], the F_* layout): `record` and
    `tricks_won` from `public_record`, `us`/`them` the game score from the seat's side."""
    for i in range(N_FEATURES):
        out[i] = 0.0
    slot = np.empty(4, np.int64)
    suit_slots(view_state, slot)
    trump = view_state[TRUMP]
    needs = np.zeros(3, np.int64)
    voids = np.zeros(3, np.int64)
    constraints(view_state, seat, True, needs, voids)
    put_cards(view_state[HAND + seat], slot, 6, out, F_HAND)
    put_cards(np.int64(1) << view_state[UPCARD], slot, 6, out, F_UPCARD)
    if seat == 0 and view_state[DISCARD] >= 0:
        put_cards(np.int64(1) << view_state[DISCARD], slot, 6, out, F_DISCARD)
    for r in range(4):
        s = (seat + r) % 4
        put_cards(record[R_PLAYED, s], slot, 6, out, F_PLAYED + N_CARDS * r)
        first, second = _calls(view_state, s)
        out[F_CALLS + 6 * r + first] = 1.0
        out[F_CALLS + 6 * r + 3 + second] = 1.0
    seat_features(view_state[HAND + seat], seat, tricks_won, needs, voids, slot, 5.0, out,
                  F_NEEDS, F_TRICKS, F_VOIDS)
    if view_state[MAKER] >= 0:
        out[F_MAKER + (view_state[MAKER] - seat) % 4] = 1.0
        if view_state[ALONE] == 1:
            out[F_ALONE + (view_state[MAKER] - seat) % 4] = 1.0
    if view_state[OUT] >= 0:
        out[F_OUT + (view_state[OUT] - seat) % 4] = 1.0
    out[F_DEALER + (0 - seat) % 4] = 1.0
    if view_state[PHASE] == PHASE_PLAY and view_state[N_IN_TRICK] > 0:
        leader = view_state[LEADER]
        winner = leader
        for _ in range(view_state[WINNING]):
            winner = (winner + 1) % 4
            if winner == view_state[OUT]:
                winner = (winner + 1) % 4
        out[F_LEADER + (leader - seat) % 4] = 1.0
        out[F_WINNING + (winner - seat) % 4] = 1.0
        out[F_LED + slot[effective_suit(view_state[TRICK], trump)]] = 1.0
    out[F_PHASE + min(view_state[PHASE], 4)] = 1.0
    took = ordered_up(view_state)
    out[F_FLAGS] = 1.0 if trump >= 0 else 0.0
    out[F_FLAGS + 1] = view_state[TRICK_NUMBER] / 5.0
    out[F_FLAGS + 2] = view_state[N_IN_TRICK] / 3.0
    out[F_FLAGS + 3] = min(max(us, 0), 10) / 10.0
    out[F_FLAGS + 4] = min(max(them, 0), 10) / 10.0
    out[F_FLAGS + 5] = 1.0 if took and not (view_state[PLAYED] >> view_state[UPCARD] & 1) \
        else 0.0
    out[F_FLAGS + 6] = 1.0 if view_state[N_PASSES] >= 4 else 0.0


@njit(cache=True, nogil=True)
def pair_features(view_state, seat, record, out):
    """`out[card, i, k]` (float64[N_CARDS, 3, N_PAIR], engine card order): pair feature k (the
    P_* constants) of `card` and the seat `seat + 1 + i`."""
    trump = view_state[TRUMP]
    up_suit = card_suit(view_state[UPCARD])
    maker = view_state[MAKER]
    suit_of, strength = np.empty(N_CARDS, np.int64), np.empty(N_CARDS, np.int64)
    for card in range(N_CARDS):
        suit_of[card] = _suit_of(card, trump)
        strength[card] = power(card, trump, suit_of[card]) if trump >= 0 else card_rank(card)
    play_pairs(record, seat, suit_of, strength, out, P_HIGHER, P_LOWER, P_SUIT, P_LED_SUIT,
               P_DUCKED)
    for card in range(N_CARDS):
        is_trump = trump >= 0 and suit_of[card] == trump
        for i in range(3):
            s = (seat + 1 + i) % 4
            first, second = _calls(view_state, s)
            if s == maker:
                out[card, i, P_MAKER] = 1.0
                if is_trump:
                    out[card, i, P_MAKER_TRUMP] = 1.0
                    out[card, i, P_MAKER_HIGH] = 1.0 if strength[card] >= 25 else 0.0
                    out[card, i, P_ALONE] = 1.0 if view_state[ALONE] == 1 else 0.0
            if first == 1 and _suit_of(card, up_suit) == up_suit:
                out[card, i, P_PASSED_UP] = 1.0
            if s == 0 and card_suit(card) == up_suit:
                out[card, i, P_DEALER_UP] = 1.0
            if second == 1 and is_trump:
                out[card, i, P_PASSED_NAMED] = 1.0


@njit(cache=True, nogil=True)
def encode_batch(rows, out):
    """Rows of a Euchre data set into the network's inputs (`card_location.encode_rows`)."""
    encode_rows(euchre_features, card_order, pair_features, public.constraints,
                public.suit_masks, rows, out)


def phase_of(states: np.ndarray) -> np.ndarray:
    """The phase bucket of each row (`PHASE_NAMES`): 0 the calls (and the discard), 1 tricks
    1-2, 2 tricks 3-4, 3 the last trick."""
    calls = states[:, PHASE] < PHASE_PLAY
    return np.where(calls, 0, 1 + np.minimum(states[:, TRICK_NUMBER], 4) // 2)


def trump_cards(state) -> int:
    """The mask of the trumps (effective) once trump is named, 0 before."""
    from games.euchre.cards import effective_suit_mask

    trump = int(state[TRUMP])
    return 0 if trump < 0 else int(effective_suit_mask(trump, trump))


def hand_points(state) -> tuple:
    """The finished hand's points by team relative to the dealer."""
    a, b = hand_score(state)
    return int(a), int(b)


GAME = Declaration(
    name="euchre", n_cards=N_CARDS, n_features=N_FEATURES, n_pair=N_PAIR, layout=LAYOUT,
    columns=COLUMNS, state_size=S.STATE_SIZE, max_moves=MAX_MOVES, played_field=PLAYED,
    size=public.SIZE, encode=encode_batch, public_record=record_of,
    constraints=public.constraints, suit_masks=public.suit_masks, phase_of=phase_of,
    phase_names=PHASE_NAMES, trump_cards=trump_cards, is_over=is_over, points=hand_points,
    hidden_moves=True)
