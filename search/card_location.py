"""The learned card-location model: for every card a seat cannot see, the probability that each
other seat holds it, or that it was never dealt (Solinas, Rebstock and Buro 2019, "Improving
Search with Supervised Learning in Trick-Based Card Games").

What the model sees (a seat's whole view): its hand, the bids in order, every card played and
by whom, how many tricks each seat has won, the voids shown, the current trick, and the game
score. What it says: `log_probs(view_state, seat, history, score)` -> float64[N_CARDS, HOLDERS],
one row per card (the engine's card index), one column per possible holder.

**The holder columns are relative to the viewer**: column 0 is the seat to its left
(`(seat + 1) % 4`), 1 its partner (`seat + 2`), 2 the seat to its right (`seat + 3`), and
column 3 (`UNDEALT`) the cards nobody holds (Setback's 28 undealt cards). The rows of the cards
the seat sees (its own hand, the cards played) are all 0.0: they add nothing to a world's
weight. In a row of a hidden card, the probabilities (`exp`) sum to one over the holders that
may hold it, and are exactly zero (log -inf) where a seat has shown a void in the card's suit
or holds no more cards (the hard facts of `search.sampler.constraints`).

How it is computed:
1. `setback_features` (numba) encodes the view, with the suits renamed so trump is suit 0 once
   it is known (a Jack of trump is the same card whatever the suit, so the network learns it
   once).
2. A two-hidden-layer ReLU network (`search.mlp.MLP`, the numba forward pass `forward3`) gives
   one softmax per card (grouped softmax: 52 groups of 4 classes); to each card's logit for a
   seat it adds a few pair features (`pair_features`: the seat played a higher card of the
   suit, holds the contract and the card is trump, ...) times weights shared by every card,
   so what a seat's play says about a card is learnt once for all cards.
3. The hard facts: the probabilities of the holders a card cannot have are zeroed and the rest
   renormalised (`apply_facts`). Optionally (`fit` iterations, the model file's default) the
   matrix is then fitted by iterative proportional fitting (`fit_marginals`) so each seat's
   expected number of hidden cards equals the number it still holds, rows summing to one.

For search (the lead's `belief=model`): `world_log_weights(log_probs, worlds, seat, out)` is
the numba kernel giving each full-deal world (int64 rows of the Setback state: hands at
`state[HAND + s]`, the cards played at `state[PLAYED]`) the sum over the cards hidden from
`seat` of log p(card -> its holder in that world): the log-probability of the world under the
model's card marginals (a product of marginals, not a joint: the usual independence proposal).
A world where a card sits with a holder the facts forbid gets -inf. Worlds drawn uniformly
among the consistent layouts (`search.setback_worlds.consistent_worlds`) all have the same
proposal probability, so `exp(out - max(out))`, normalised, are their importance weights
under the model. With the model as the proposal that policy weights refine
(`belief=model+policy`), a world drawn in proportion to the model has the posterior weight
policy likelihood / model probability: its policy log-weight minus `out` (adding the two
would count the evidence twice).

Model files (`model_bytes`, `load_model`): a magic line, a JSON header (format, version, game,
the feature layout's name and size, the holders, the network's sizes, the training metadata, a
SHA-256 of the payload) and the weights as .npz. A model of another game, another feature
layout, a newer version or a damaged file is refused with `ModelFileError` in one line.
`play/belief_data.py` writes them atomically (search/ stays below cfr/ in the data flow).

Only Setback is implemented; the game-generic parts (the file, the holders' order, the
training in `search.card_location_training`) take a game name so Euchre can join (its kitty is
the `UNDEALT` column).
"""

from __future__ import annotations

import hashlib
import io
import json
import os

import numpy as np
from numba import njit

from games.bits import lowest_bit, popcount
from games.setback.cards import card_suit
from games.setback.rules import BID_MOVE, beats
from games.setback.state import (BID, HAND, HIGH_BID, HIGH_BIDDER, LEADER, N_IN_TRICK, PHASE,
                                 PHASE_AUCTION, PLAYED, TRICK, TRICK_NUMBER,
                                 TRUMP, WINNING)
from search.mlp import MLP, forward3
from search.sampler import ALL_CARDS, constraints

MAGIC = b"SETBACK-CFR-CARD-LOCATION\n"
FORMAT = "card-location"
FORMAT_VERSION = 1
GAMES = ("setback",)  # the games whose features are implemented

N_CARDS = 52
HOLDERS = 4  # columns: left (+1), partner (+2), right (+3), undealt
UNDEALT = 3
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


class ModelFileError(ValueError):
    """A card-location model file that cannot be used; one line."""


# --- the view's public record -------------------------------------------------------------
RECORD = 3  # rows of a public record: the cards each seat played, ducked, led
R_PLAYED, R_DUCKED, R_LED = 0, 1, 2


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
def _put_cards(mask, slots, out, base):
    """Set `out[base + slot_card(c)]` for every card c of `mask`."""
    while mask:
        out[base + slot_card(lowest_bit(mask), slots)] = 1.0
        mask &= mask - 1


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
    _put_cards(view_state[HAND + seat], slots, out, F_HAND)
    for r in range(4):
        s = (seat + r) % 4
        _put_cards(record[R_PLAYED, s], slots, out, F_PLAYED + 52 * r)
        bid = view_state[BID + s]
        out[F_BIDS + 5 * r + (0 if bid < 0 else 1 if bid == 0 else bid)] = 1.0
        out[F_TRICKS + r] = tricks_won[s] / 6.0
        if r > 0:
            out[F_NEEDS + r] = needs[r - 1] / 6.0
            for suit in range(4):
                if voids[r - 1] >> suit & 1:
                    out[F_VOIDS + 4 * r + slots[suit]] = 1.0
        else:
            out[F_NEEDS] = popcount(view_state[HAND + seat]) / 6.0
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
    for card in range(N_CARDS):
        suit = card // 13
        rank = card % 13
        is_trump = suit == trump
        for i in range(3):
            s = (seat + 1 + i) % 4
            suit_played = (record[R_PLAYED, s] >> (13 * suit)) & 0x1FFF
            for k in range(N_PAIR):
                out[card, i, k] = 0.0
            out[card, i, P_HIGHER] = 1.0 if suit_played >> (rank + 1) else 0.0
            out[card, i, P_LOWER] = 1.0 if suit_played & ((1 << rank) - 1) else 0.0
            out[card, i, P_SUIT] = 1.0 if suit_played else 0.0
            out[card, i, P_DUCKED] = 1.0 if record[R_DUCKED, s] >> card & 1 else 0.0
            out[card, i, P_LED_SUIT] = 1.0 if (record[R_LED, s] >> (13 * suit)) & 0x1FFF else 0.0
            bidder = s == high
            out[card, i, P_BIDDER] = 1.0 if bidder else 0.0
            if is_trump:
                out[card, i, P_BIDDER_TRUMP] = 1.0 if bidder else 0.0
                out[card, i, P_BIDDER_HIGH] = 1.0 if bidder and rank >= 9 else 0.0
                bid = view_state[BID + s]
                out[card, i, P_BID_TRUMP] = bid / 4.0 if bid > 0 else 0.0
                out[card, i, P_PASSED_TRUMP] = 1.0 if bid == 0 else 0.0


@njit(cache=True)
def allowed_holders(view_state, seat, allowed):
    """The hard facts: `allowed[card, h]` True where holder column h (module docstring) may
    hold the hidden `card`: a seat that still holds cards and has shown no void in its suit,
    or the undealt cards. Rows of the cards `seat` sees are all False. Returns the hidden
    cards' mask."""
    needs = np.zeros(3, np.int64)
    voids = np.zeros(3, np.int64)
    unseen = constraints(view_state, seat, True, needs, voids)
    for card in range(N_CARDS):
        hidden = (unseen >> card) & 1
        suit = card // 13
        for i in range(3):
            allowed[card, i] = hidden == 1 and needs[i] > 0 and not (voids[i] >> suit & 1)
        allowed[card, UNDEALT] = hidden == 1
    return unseen


@njit(cache=True)
def holder_targets(view_state, seat, hands, target):
    """`target[card, h]` = 1 where holder column h truly holds the hidden `card` (`hands`: the
    four current hands by seat relative to the dealer), 0 elsewhere (rows of seen cards all 0)."""
    unseen = ALL_CARDS & ~(view_state[HAND + seat] | view_state[PLAYED])
    for card in range(N_CARDS):
        for h in range(HOLDERS):
            target[card, h] = 0.0
        if not (unseen >> card) & 1:
            continue
        column = UNDEALT
        for i in range(3):
            if hands[(seat + 1 + i) % 4] >> card & 1:
                column = i
        target[card, column] = 1.0


@njit(cache=True)
def encode_batch(states, seats, records, tricks_won, scores, hands, x, pairs, allowed,
                 target):
    """Rows i of a data set into the network's inputs `x[i]` (float64[N_FEATURES]) and, in the
    model's card order (trump first, the network's groups), `pairs[i]` (the pair features),
    `allowed[i]` (the hard facts) and `target[i]` (the true holders, from `hands[i]`; pass a
    0-row `hands` to skip)."""
    slots = np.empty(4, np.int64)
    a = np.zeros((N_CARDS, HOLDERS), np.bool_)
    t = np.zeros((N_CARDS, HOLDERS), np.float64)
    pf = np.zeros((N_CARDS, 3, N_PAIR), np.float64)
    for i in range(states.shape[0]):
        st = states[i]
        seat = seats[i]
        setback_features(st, seat, records[i], tricks_won[i], scores[i, 0], scores[i, 1], x[i])
        suit_slots(st[TRUMP], slots)
        allowed_holders(st, seat, a)
        pair_features(st, seat, records[i], pf)
        if hands.shape[0] > 0:
            holder_targets(st, seat, hands[i], t)
        for card in range(N_CARDS):
            g = slot_card(card, slots)
            pairs[i, g] = pf[card]
            for h in range(HOLDERS):
                allowed[i, g, h] = a[card, h]
                if hands.shape[0] > 0:
                    target[i, g, h] = t[card, h]


# --- the hard facts on the network's output -------------------------------------------------
@njit(cache=True)
def apply_facts(probs, allowed):
    """Zero the holders a card cannot have and renormalise each hidden card's row over the
    others (rows with no allowed holder, the seen cards, become all 0)."""
    for card in range(probs.shape[0]):
        total = 0.0
        for h in range(probs.shape[1]):
            if not allowed[card, h]:
                probs[card, h] = 0.0
            total += probs[card, h]
        for h in range(probs.shape[1]):
            probs[card, h] = probs[card, h] / total if total > 0.0 else 0.0


@njit(cache=True)
def fit_marginals(probs, allowed, column_totals, iterations):
    """Iterative proportional fitting of a [cards, holders] probability matrix whose zero
    pattern is `allowed`: scale each column to `column_totals[h]` (the hidden cards holder h
    holds: the seat's cards left, or the undealt count), then each row back to one;
    `iterations` times. Rows end summing to one exactly; the columns approach their totals
    (exactly, when some matrix with that zero pattern has them). A column with no allowed card
    is left at zero."""
    n_cards, n_holders = probs.shape
    for _ in range(iterations):
        for h in range(n_holders):
            total = 0.0
            for c in range(n_cards):
                total += probs[c, h]
            if total > 0.0:
                scale = column_totals[h] / total
                for c in range(n_cards):
                    probs[c, h] *= scale
        for c in range(n_cards):
            total = 0.0
            for h in range(n_holders):
                total += probs[c, h]
            if total > 0.0:
                for h in range(n_holders):
                    probs[c, h] /= total


@njit(cache=True)
def column_totals(view_state, seat, out):
    """The hidden cards each holder column holds: the cards each other seat still holds, and
    the undealt rest (Setback: hidden cards less the seats' needs)."""
    needs = np.zeros(3, np.int64)
    voids = np.zeros(3, np.int64)
    unseen = constraints(view_state, seat, True, needs, voids)
    rest = popcount(unseen)
    for i in range(3):
        out[i] = needs[i]
        rest -= needs[i]
    out[UNDEALT] = rest


@njit(cache=True)
def position_log_probs(view_state, seat, record, tricks_won, us, them, w1, b1, w2, b2, w3,
                       b3, pair_weights, iterations, out):
    """The whole model on one position: features, network (its logits plus the pair features
    times `pair_weights`), hard facts, fitting; `out`
    float64[N_CARDS, HOLDERS] gets the log-probabilities by engine card (module docstring:
    seen cards' rows 0.0, forbidden holders -inf)."""
    x = np.empty(N_FEATURES, np.float64)
    setback_features(view_state, seat, record, tricks_won, us, them, x)
    grouped = np.empty((N_CARDS, HOLDERS), np.float64)
    forward3(x, w1, b1, w2, b2, w3, b3, N_CARDS, HOLDERS, grouped)
    slots = np.empty(4, np.int64)
    suit_slots(view_state[TRUMP], slots)
    allowed = np.zeros((N_CARDS, HOLDERS), np.bool_)
    allowed_holders(view_state, seat, allowed)
    pf = np.zeros((N_CARDS, 3, N_PAIR), np.float64)
    pair_features(view_state, seat, record, pf)
    probs = np.empty((N_CARDS, HOLDERS), np.float64)
    for card in range(N_CARDS):
        g = slot_card(card, slots)
        for h in range(HOLDERS):
            probs[card, h] = grouped[g, h]
        # softmax(z + a) is softmax(z) scaled by exp(a), renormalised (apply_facts)
        for i in range(3):
            a = 0.0
            for k in range(N_PAIR):
                a += pf[card, i, k] * pair_weights[k]
            probs[card, i] *= np.exp(a)
    apply_facts(probs, allowed)
    if iterations > 0:
        totals = np.empty(HOLDERS, np.float64)
        column_totals(view_state, seat, totals)
        fit_marginals(probs, allowed, totals, iterations)
    for card in range(N_CARDS):
        seen = True
        for h in range(HOLDERS):
            if allowed[card, h]:
                seen = False
        for h in range(HOLDERS):
            if seen:
                out[card, h] = 0.0
            elif allowed[card, h] and probs[card, h] > 0.0:
                out[card, h] = np.log(probs[card, h])
            else:
                out[card, h] = -np.inf


@njit(cache=True, nogil=True)
def world_log_weights(log_probs, worlds, seat, out):
    """`out[w]` = sum over the cards hidden from `seat` in world `worlds[w]` (a full Setback
    state: not in `state[HAND + seat]`, not in `state[PLAYED]`) of `log_probs[card, h]`, h the
    card's holder column in that world (the seat holding it relative to `seat` less one, or
    `UNDEALT`). -inf when a card's holder is one the facts forbid."""
    for w in range(worlds.shape[0]):
        world = worlds[w]
        unseen = ALL_CARDS & ~(world[HAND + seat] | world[PLAYED])
        total = 0.0
        while unseen:
            low = unseen & -unseen
            card = lowest_bit(unseen)
            column = UNDEALT
            for i in range(3):
                if world[HAND + (seat + 1 + i) % 4] & low:
                    column = i
            total += log_probs[card, column]
            unseen &= unseen - 1
        out[w] = total


# --- the model object and its file --------------------------------------------------------
class CardLocationModel:
    """A trained card-location network for one game (`game`), with the header's metadata
    (`meta`) and the number of fitting iterations applied after the facts (`fit`)."""

    def __init__(self, mlp: MLP, pair_weights=None, game: str = "setback",
                 meta: dict | None = None, fit: int = 0):
        if game not in GAMES:
            raise ValueError(f"card-location models exist for {', '.join(GAMES)}, not {game}")
        if len(mlp.weights) != 3 or mlp.groups != N_CARDS or mlp.classes != HOLDERS:
            raise ValueError("a card-location network has two hidden layers and "
                             f"{N_CARDS} x {HOLDERS} outputs")
        self.mlp = mlp
        self.pair_weights = (np.zeros(N_PAIR) if pair_weights is None
                             else np.asarray(pair_weights, np.float64))
        self.game = game
        self.meta = dict(meta or {})
        self.fit = int(fit)

    def log_probs(self, view_state, seat: int, history=(), score=(0, 0)) -> np.ndarray:
        """float64[N_CARDS, HOLDERS]: log p(hidden card -> holder) for `seat`'s view
        (`view_state`, the deal's `history` of moves from the first bid, the game `score` as
        (the seat's team, the other)); columns relative to `seat` (module docstring)."""
        hist = np.asarray(history, np.int64)
        record = np.zeros((RECORD, 4), np.int64)  # per call: threads may share the model
        tricks = np.zeros(4, np.int64)
        public_record(hist, hist.size, record, tricks)
        if int(np.bitwise_or.reduce(record[R_PLAYED])) != int(view_state[PLAYED]):
            raise ValueError("the history does not hold the cards played in the view: pass "
                             "the deal's moves (SeatView.history)")
        out = np.empty((N_CARDS, HOLDERS), np.float64)
        w, b = self.mlp.weights, self.mlp.biases
        position_log_probs(np.asarray(view_state, np.int64), np.int64(seat), record, tricks,
                           np.int64(score[0]), np.int64(score[1]), w[0], b[0], w[1], b[1],
                           w[2], b[2], self.pair_weights, np.int64(self.fit), out)
        return out

    def log_probs_view(self, view) -> np.ndarray:
        """`log_probs` of a `SeatView` (its state, seat, history and score)."""
        return self.log_probs(view.state, view.seat, view.history, view.score_us_them)


def model_bytes(model: CardLocationModel) -> bytes:
    """The model file's bytes (module docstring)."""
    buffer = io.BytesIO()
    arrays = {f"w{k}": w for k, w in enumerate(model.mlp.weights)}
    arrays.update({f"b{k}": b for k, b in enumerate(model.mlp.biases)})
    arrays["pair"] = model.pair_weights
    np.savez(buffer, **arrays)
    payload = buffer.getvalue()
    header = {"format": FORMAT, "version": FORMAT_VERSION, "game": model.game,
              "layout": LAYOUT, "features": N_FEATURES, "pair_features": N_PAIR,
              "cards": N_CARDS, "holders": HOLDERS,
              "holder_columns": ["left", "partner", "right", "undealt"], "fit": model.fit,
              "sha256": hashlib.sha256(payload).hexdigest(), "payload_bytes": len(payload),
              "meta": model.meta}
    return MAGIC + json.dumps(header, sort_keys=True).encode() + b"\n" + payload


def load_model(path: str, game: str = "setback") -> CardLocationModel:
    """The card-location model of file `path` for `game`; `ModelFileError` in one line if the
    file is missing, not such a model, newer, damaged, or of another game or feature layout."""
    if not os.path.isfile(path):
        raise ModelFileError(f"{path}: no such card-location model file")
    with open(path, "rb") as handle:
        data = handle.read()
    if not data.startswith(MAGIC):
        raise ModelFileError(f"{path}: not a setback-cfr card-location model file "
                             "(`setback-cfr learn belief` writes them)")
    end = data.find(b"\n", len(MAGIC))
    try:
        header = json.loads(data[len(MAGIC):end].decode())
        if header.get("format") != FORMAT or end < 0:
            raise ValueError
    except (ValueError, UnicodeDecodeError):
        raise ModelFileError(f"{path}: damaged card-location model header") from None
    version = header.get("version")
    if version != FORMAT_VERSION:
        raise ModelFileError(f"{path}: card-location model format version {version}; this "
                             f"program reads version {FORMAT_VERSION}")
    if header.get("game") != game:
        raise ModelFileError(f"{path}: a card-location model of {header.get('game')}, not "
                             f"{game}")
    if header.get("layout") != LAYOUT or header.get("features") != N_FEATURES or \
            header.get("pair_features") != N_PAIR:
        raise ModelFileError(f"{path}: feature layout {header.get('layout')!r} "
                             f"({header.get('features')} features); this program builds "
                             f"{LAYOUT!r} ({N_FEATURES})")
    payload = data[end + 1:]
    if len(payload) != header.get("payload_bytes") or \
            hashlib.sha256(payload).hexdigest() != header.get("sha256"):
        raise ModelFileError(f"{path}: damaged card-location model (checksum mismatch)")
    with np.load(io.BytesIO(payload), allow_pickle=False) as f:
        weights = [f[f"w{k}"] for k in range(3)]
        biases = [f[f"b{k}"] for k in range(3)]
        pair = f["pair"]
    mlp = MLP(weights, biases, N_CARDS, HOLDERS)
    return CardLocationModel(mlp, pair, game, header.get("meta", {}), int(header.get("fit", 0)))
