"""The learned card-location model: for every card a seat cannot see, the probability that each
other seat holds it, or that nobody does (Setback: never dealt; Euchre: the kitty) (Solinas,
Rebstock and Buro 2019, "Improving Search with Supervised Learning in Trick-Based Card Games").

Game-generic: a game brings its features (`game_features(game)`: Setback's are in this module,
Euchre's in `games.euchre.search.card_location`), and the network, the hard facts, the fitting, the
world weights, the file and the training (`search.card_location_training`) are shared. A game's kernels are cached numba functions of
plain arrays (a kernel handed functions as arguments would compile again in every process):
its `describe` fills one position's features, card groups, facts, pair features and holder
totals, and the shared `network_log_probs` and `network_order` do the rest.

What the model sees (a seat's whole view): its hand, the bids or calls in order, every card
played and by whom, how many tricks each seat has won, the voids shown, the current trick, and
the game score. What it says: `log_probs(view_state, seat, history, score)` ->
float64[cards, HOLDERS], one row per card (the engine's card index), one column per holder.

**The holder columns are relative to the viewer**: column 0 is the seat to its left
(`(seat + 1) % 4`), 1 its partner (`seat + 2`), 2 the seat to its right (`seat + 3`), and
column 3 (`UNDEALT`) the cards nobody holds (Setback's 28 undealt cards; Euchre's kitty: the
three undealt and the dealer's discard). The rows of the cards the seat sees (its own hand, the
cards played, Euchre's upcard) are all 0.0: they add nothing to a world's weight. In a row of a
hidden card, the probabilities (`exp`) sum to one over the holders that may hold it, and are
exactly zero (log -inf) where a seat has shown a void in the card's suit or holds no more
cards (the hard facts of the game's world sampler).

How it is computed:
1. The game's features (Setback: `setback_features`) encode the view, with the suits renamed
   so trump is suit 0 once it is known (a Jack of trump is the same card whatever the suit, so
   the network learns it once); the game's `order` gives each card its group in that order.
2. A two-hidden-layer ReLU network (`search.mlp.MLP`, the numba forward pass `forward3`) gives
   one softmax per card (grouped softmax: one group of 4 classes a card); to each card's logit
   for a seat it adds a few pair features (`pair_features`: the seat played a higher card of
   the suit, holds the contract and the card is trump, ...) times weights shared by every card,
   so what a seat's play says about a card is learnt once for all cards.
3. The hard facts: the probabilities of the holders a card cannot have are zeroed and the rest
   renormalised (`apply_facts`). Optionally (`fit` iterations, the model file's default) the
   matrix is then fitted by iterative proportional fitting (`fit_marginals`) so each seat's
   expected number of hidden cards equals the number it still holds, rows summing to one.

For search (`belief=model`): `world_log_weights(log_probs, worlds, seat, out)` is the numba
kernel giving each full-deal world (int64 rows of the game's state, hands at `state[seat]` in
both games) the sum over the cards of log p(card -> its holder in that world), the seen
cards' rows adding 0: the log-probability of the world under the model's card marginals (a
product of marginals, not a joint: the usual independence proposal). A world where a card sits
with a holder the facts forbid gets -inf. Worlds drawn uniformly among the consistent layouts
(`games.setback.search.worlds.consistent_worlds`, `games.euchre.search.worlds.consistent_worlds`)
all have the same proposal probability, so `exp(out - max(out))`, normalised, are their importance
weights under the model. With the model as the proposal that policy weights refine
(`belief=model+policy`), a world drawn in proportion to the model has the posterior weight
policy likelihood / model probability: its policy log-weight minus `out` (adding the two
would count the evidence twice).

Model files (`model_bytes`, `load_model`): a magic line, a JSON header (format, version, game,
the feature layout's name and size, the holders, the network's sizes, the training metadata, a
SHA-256 of the payload) and the weights as .npz. A model of another game, another feature
layout, a newer version or a damaged file is refused with `ModelFileError` in one line.
`play/belief_data.py` writes them atomically (search/ stays below cfr/ in the data flow).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import lowest_bit, popcount
from games.setback.cards import card_suit
from games.setback.rules import BID_MOVE, beats
from games.setback.state import (BID, HAND, HIGH_BID, HIGH_BIDDER, LEADER, N_IN_TRICK, PHASE,
                                 PHASE_AUCTION, PLAYED, STATE_SIZE, TRICK,
                                 TRICK_NUMBER, TRUMP, WINNING)
from search import model_file
from search.mlp import MLP, forward3
from games.setback.search.sampler import ALL_CARDS, constraints

MAGIC = b"SETBACK-CFR-CARD-LOCATION\n"
FORMAT = "card-location"
FORMAT_VERSION = 1
HAND_FIELD = 0  # state[HAND_FIELD + seat] is the seat's hand in every game's state

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
    hidden_targets(ALL_CARDS & ~(view_state[HAND + seat] | view_state[PLAYED]), seat, hands,
                   target)


@njit(cache=True, nogil=True)
def hidden_targets(unseen, seat, hands, target):
    """`target[card, h]` = 1 where holder column h holds the card of `unseen` in `hands` (by
    seat relative to the dealer; a card no other seat holds is `UNDEALT`'s), 0 elsewhere."""
    for card in range(target.shape[0]):
        for h in range(HOLDERS):
            target[card, h] = 0.0
        if not (unseen >> card) & 1:
            continue
        column = UNDEALT
        for i in range(3):
            if hands[(seat + 1 + i) % 4] >> card & 1:
                column = i
        target[card, column] = 1.0


@njit(cache=True, nogil=True)
def setback_card_order(view_state, order):
    """`order[card]`: the card's group in the network (`slot_card`: trump first)."""
    slots = np.empty(4, np.int64)
    suit_slots(view_state[TRUMP], slots)
    for card in range(N_CARDS):
        order[card] = slot_card(card, slots)


@njit(cache=True, nogil=True)
def setback_describe(view_state, seat, record, tricks_won, us, them, x, order, allowed, pf,
                     totals):
    """Everything the network needs of one Setback position (`describe` of the module
    docstring): the features `x`, each card's group `order`, the hard facts `allowed`, the pair
    features `pf` (engine card order) and the holders' `totals` (`column_totals`)."""
    setback_features(view_state, seat, record, tricks_won, us, them, x)
    setback_card_order(view_state, order)
    allowed_holders(view_state, seat, allowed)
    pair_features(view_state, seat, record, pf)
    column_totals(view_state, seat, totals)


@njit(cache=True, nogil=True)
def position_buffers(n_cards, n_features, n_pair):
    """Empty arrays for one position of a game's `describe`: (x, order, allowed, pf, totals,
    target)."""
    return (np.empty(n_features, np.float64), np.empty(n_cards, np.int64),
            np.zeros((n_cards, HOLDERS), np.bool_), np.zeros((n_cards, 3, n_pair), np.float64),
            np.empty(HOLDERS, np.float64), np.zeros((n_cards, HOLDERS), np.float64))


@njit(cache=True, nogil=True)
def network_order(i, order, allowed, pf, target, pairs, allowed_out, target_out):
    """Row i of a batch in the network's card order: `pairs[i]`, `allowed_out[i]` and (when
    `target_out` has rows) `target_out[i]` from one position's engine-order arrays."""
    for card in range(order.size):
        g = order[card]
        pairs[i, g] = pf[card]
        for h in range(HOLDERS):
            allowed_out[i, g, h] = allowed[card, h]
            if target_out.shape[0] > 0:
                target_out[i, g, h] = target[card, h]


@njit(cache=True)
def encode_batch(states, seats, records, tricks_won, scores, hands, x, pairs, allowed, target,
                 totals):
    """Rows i of a Setback data set into the network's inputs `x[i]` (float64[N_FEATURES])
    and, in the model's card order (trump first, the network's groups), `pairs[i]` (the pair
    features), `allowed[i]` (the hard facts), `target[i]` (the true holders, from `hands[i]`;
    pass a 0-row `hands` and `target` to skip) and `totals[i]` (`column_totals`)."""
    _, order, a, pf, _, t = position_buffers(N_CARDS, N_FEATURES, N_PAIR)
    for i in range(states.shape[0]):
        setback_describe(states[i], seats[i], records[i], tricks_won[i], scores[i, 0],
                         scores[i, 1], x[i], order, a, pf, totals[i])
        if hands.shape[0] > 0:
            holder_targets(states[i], seats[i], hands[i], t)
        network_order(i, order, a, pf, t, pairs, allowed, target)


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


@njit(cache=True, nogil=True)
def network_log_probs(x, order, allowed, pf, totals, w1, b1, w2, b2, w3, b3, pair_weights,
                      iterations, out):
    """The network on one described position (a game's `describe`: features `x`, card groups
    `order`, facts `allowed`, pair features `pf`, holder `totals`): its logits plus the pair
    features times `pair_weights`, the hard facts, `iterations` of fitting; `out`
    float64[cards, HOLDERS] gets the log-probabilities by engine card (module docstring: seen
    cards' rows 0.0, forbidden holders -inf)."""
    n_cards = out.shape[0]
    grouped = np.empty((n_cards, HOLDERS), np.float64)
    forward3(x, w1, b1, w2, b2, w3, b3, n_cards, HOLDERS, grouped)
    probs = np.empty((n_cards, HOLDERS), np.float64)
    for card in range(n_cards):
        g = order[card]
        for h in range(HOLDERS):
            probs[card, h] = grouped[g, h]
        # softmax(z + a) is softmax(z) scaled by exp(a), renormalised (apply_facts)
        for i in range(3):
            a = 0.0
            for k in range(pair_weights.size):
                a += pf[card, i, k] * pair_weights[k]
            probs[card, i] *= np.exp(a)
    apply_facts(probs, allowed)
    if iterations > 0:
        fit_marginals(probs, allowed, totals, iterations)
    for card in range(n_cards):
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
def position_log_probs(view_state, seat, record, tricks_won, us, them, w1, b1, w2, b2, w3, b3,
                       pair_weights, iterations, out):
    """The whole model on one Setback position (`setback_describe`, `network_log_probs`);
    `out` float64[N_CARDS, HOLDERS] (module docstring)."""
    x, order, allowed, pf, totals, _ = position_buffers(N_CARDS, N_FEATURES, N_PAIR)
    setback_describe(view_state, seat, record, tricks_won, us, them, x, order, allowed, pf,
                     totals)
    network_log_probs(x, order, allowed, pf, totals, w1, b1, w2, b2, w3, b3, pair_weights,
                      iterations, out)


@njit(cache=True, nogil=True)
def world_log_weights(log_probs, worlds, seat, out):
    """`out[w]` = sum over the cards of world `worlds[w]` (a full state of the game whose
    `log_probs` these are: the seats' hands at `state[HAND_FIELD + s]`) of `log_probs[card,
    h]`, h the card's holder column in that world (the seat holding it relative to `seat` less
    one, or `UNDEALT` when no other seat does): the seen cards' rows are 0.0, so the sum is
    over the cards hidden from `seat`. -inf when a card's holder is one the facts forbid."""
    for w in range(worlds.shape[0]):
        world = worlds[w]
        total = 0.0
        for card in range(log_probs.shape[0]):
            bit = np.int64(1) << card
            column = UNDEALT
            for i in range(3):
                if world[HAND_FIELD + (seat + 1 + i) % 4] & bit:
                    column = i
            total += log_probs[card, column]
        out[w] = total


@njit(cache=True)
def fit_rows(probs, allowed, totals, iterations):
    """`fit_marginals` on every row of a batch (`totals[i]`: row i's holder totals)."""
    for i in range(probs.shape[0]):
        fit_marginals(probs[i], allowed[i], totals[i], iterations)


def setback_view_record(view_state, history) -> tuple:
    """(record, tricks_won) of a Setback view and its deal's history (`public_record`);
    ValueError when the history does not hold the cards played in the view."""
    hist = np.asarray(history, np.int64)
    record = np.zeros((RECORD, 4), np.int64)  # per call: threads may share the model
    tricks = np.zeros(4, np.int64)
    public_record(hist, hist.size, record, tricks)
    if int(np.bitwise_or.reduce(record[R_PLAYED])) != int(view_state[PLAYED]):
        raise ValueError("the history does not hold the cards played in the view: pass "
                         "the deal's moves (SeatView.history)")
    return record, tricks


def setback_phase_of(states: np.ndarray) -> np.ndarray:
    """The phase bucket of each row: 0 auction, 1 tricks 1-2, 2 tricks 3-4, 3 tricks 5-6 (the
    trick being played)."""
    auction = states[:, PHASE] == PHASE_AUCTION
    return np.where(auction, 0, 1 + np.minimum(states[:, TRICK_NUMBER], 5) // 2)


def setback_trumps(state) -> int:
    """The mask of the trumps once trump is known, 0 before."""
    trump = int(state[TRUMP])
    return 0 if trump < 0 else 0x1FFF << (13 * trump)


# Each game's kernels, named as "module:attribute" and imported on first use (a registry names
# its kinds and never imports them: the games' modules import this one).
FEATURES = {"setback": "search.card_location_training:SETBACK",
            "euchre": "games.euchre.search.card_location:GAME"}


def game_features(game: str):
    """What the model needs of `game` (a namespace: `name`, `n_cards`, `n_features`, `n_pair`,
    `layout`, `columns`, `record_rows`, `state_size`, `max_moves`, the numba kernels
    `features`, `pairs`, `allowed`, `targets`, `order`, `totals`, `uniform` and the cached
    ones `encode` (a batch, as `encode_batch`) and `log_probs` (a position, as
    `position_log_probs`), and `view_record`, `phase_of`,
    `phase_names`, `trump_cards`, `deals` (the game loop's pieces, for the data; None:
    Setback's, `play.belief_data`)); ValueError (one line) for a game without them."""
    import importlib

    if game not in FEATURES:
        raise ValueError(f"card-location models exist for {', '.join(FEATURES)}, not {game}")
    module, _, name = FEATURES[game].partition(":")
    return getattr(importlib.import_module(module), name)


# --- the model object and its file --------------------------------------------------------
class CardLocationModel:
    """A trained card-location network for one game (`game`), with the header's metadata
    (`meta`) and the number of fitting iterations applied after the facts (`fit`)."""

    def __init__(self, mlp: MLP, pair_weights=None, game: str = "setback",
                 meta: dict | None = None, fit: int = 0):
        self.kernels = game_features(game)
        k = self.kernels
        if len(mlp.weights) != 3 or mlp.groups != k.n_cards or mlp.classes != HOLDERS:
            raise ValueError(f"a {game} card-location network has two hidden layers and "
                             f"{k.n_cards} x {HOLDERS} outputs")
        self.mlp = mlp
        self.pair_weights = (np.zeros(k.n_pair) if pair_weights is None
                             else np.asarray(pair_weights, np.float64))
        self.game = game
        self.meta = dict(meta or {})
        self.fit = int(fit)

    def log_probs(self, view_state, seat: int, history=(), score=(0, 0)) -> np.ndarray:
        """float64[cards, HOLDERS]: log p(hidden card -> holder) for `seat`'s view
        (`view_state`, the hand's `history` of moves from the first bid or call, the game
        `score` as (the seat's team, the other)); columns relative to `seat` (module
        docstring)."""
        k = self.kernels
        record, tricks = k.view_record(view_state, history)
        out = np.empty((k.n_cards, HOLDERS), np.float64)
        w, b = self.mlp.weights, self.mlp.biases
        k.log_probs(np.asarray(view_state, np.int64), np.int64(seat), record, tricks,
                    np.int64(score[0]), np.int64(score[1]), w[0], b[0], w[1], b[1], w[2], b[2],
                    self.pair_weights, np.int64(self.fit), out)
        return out

    def log_probs_view(self, view) -> np.ndarray:
        """`log_probs` of a `SeatView` (its state, seat, history and score)."""
        return self.log_probs(view.state, view.seat, view.history, view.score_us_them)


def model_bytes(model: CardLocationModel) -> bytes:
    """The model file's bytes (module docstring)."""
    arrays = {f"w{k}": w for k, w in enumerate(model.mlp.weights)}
    arrays.update({f"b{k}": b for k, b in enumerate(model.mlp.biases)})
    arrays["pair"] = model.pair_weights
    k = model.kernels
    header = {"format": FORMAT, "version": FORMAT_VERSION, "game": model.game,
              "layout": k.layout, "features": k.n_features, "pair_features": k.n_pair,
              "cards": k.n_cards, "holders": HOLDERS, "holder_columns": list(k.columns),
              "fit": model.fit, "meta": model.meta}
    return model_file.model_bytes(MAGIC, header, arrays)


def load_model(path: str, game: str = "setback") -> CardLocationModel:
    """The card-location model of file `path` for `game`; `ModelFileError` in one line if the
    file is missing, not such a model, newer, damaged, or of another game or feature layout."""
    header, f = model_file.read(path, MAGIC, FORMAT, FORMAT_VERSION, game,
                                "card-location model", "`setback-cfr learn belief`",
                                ModelFileError)
    k = game_features(game)
    if header.get("layout") != k.layout or header.get("features") != k.n_features or \
            header.get("pair_features") != k.n_pair or header.get("cards") != k.n_cards:
        raise ModelFileError(f"{path}: feature layout {header.get('layout')!r} "
                             f"({header.get('features')} features); this program builds "
                             f"{k.layout!r} ({k.n_features})")
    try:
        weights = [f[f"w{k}"] for k in range(3)]
        biases = [f[f"b{k}"] for k in range(3)]
        pair = f["pair"]
    except KeyError:
        raise ModelFileError(f"{path}: damaged card-location model arrays") from None
    mlp = MLP(weights, biases, k.n_cards, HOLDERS)
    return CardLocationModel(mlp, pair, game, header.get("meta", {}), int(header.get("fit", 0)))
