"""The learned card-location model: for every card a seat cannot see, the probability that each
other seat holds it, or that nobody does (Setback: never dealt; Euchre: the kitty) (Solinas,
Rebstock and Buro 2019, "Improving Search with Supervised Learning in Trick-Based Card Games").

Game-generic: it names no game. A game declares its features in its place
(`games/<game>/search/card_location.py`, a `Declaration` named by its registry entry's
`card_location`; `game_features(game)` reads it): the feature columns of a seat's view, each
card's group in the network, the pair features, its public record of the bids or calls and
cards (`public_record`), and the compiled `encode` wrapper that hands those kernels to the
shared `encode_rows` (numba's cache cannot keep a kernel taking functions when it is called
from Python, so the game's wrapper calls it). The hard facts come from the same hooks the one
world sampler reads (`games/<game>/public.py`'s `constraints` and `suit_masks`); the network,
the fitting, the world weights, the file and the training (`search.card_location_training`)
are shared.

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
cards (the hard facts of the game's world sampler: `hard_facts`).

How it is computed:
1. The game's features encode the view, with the suits renamed so trump is suit 0 once it is
   known (a Jack of trump is the same card whatever the suit, so the network learns it once);
   the game's card order gives each card its group in that order.
2. A two-hidden-layer ReLU network (`search.mlp.MLP`, the numba forward pass `forward3`) gives
   one softmax per card (grouped softmax: one group of 4 classes a card); to each card's logit
   for a seat it adds a few pair features (the seat played a higher card of the suit, holds
   the contract and the card is trump, ...) times weights shared by every card, so what a
   seat's play says about a card is learnt once for all cards.
3. The hard facts: the probabilities of the holders a card cannot have are zeroed and the rest
   renormalised (`apply_facts`). Optionally (`fit` iterations, the model file's default) the
   matrix is then fitted by iterative proportional fitting (`fit_marginals`) so each seat's
   expected number of hidden cards equals the number it still holds, rows summing to one.

For search (`belief=model`): `world_log_weights(log_probs, worlds, seat, out)` is the numba
kernel giving each full-deal world (int64 rows of the game's state, hands at `state[seat]` in
every game) the sum over the cards of log p(card -> its holder in that world), the seen
cards' rows adding 0: the log-probability of the world under the model's card marginals (a
product of marginals, not a joint: the usual independence proposal). A world where a card sits
with a holder the facts forbid gets -inf. Worlds drawn uniformly among the consistent layouts
(the game's `consistent_worlds`) all have the same proposal probability, so `exp(out -
max(out))`, normalised, are their importance weights under the model. With the model as the
proposal that policy weights refine (`belief=model+policy`), a world drawn in proportion to
the model has the posterior weight policy likelihood / model probability: its policy
log-weight minus `out` (adding the two would count the evidence twice).

Model files (`model_bytes`, `load_model`): a magic line, a JSON header (format, version, game,
the feature layout's name and size, the holders, the network's sizes, the training metadata, a
SHA-256 of the payload) and the weights as .npz. A model of another game, another feature
layout, a newer version or a damaged file is refused with `ModelFileError` in one line.
`play/belief_data.py` writes them atomically (search/ stays below cfr/ in the data flow).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from games import registry
from games.bits import lowest_bit, popcount
from search import model_file
from search.mlp import MLP, forward3

MAGIC = registry.PROGRAM.upper().encode() + b"-CARD-LOCATION\n"
FORMAT = "card-location"
FORMAT_VERSION = 1
HAND_FIELD = 0  # state[HAND_FIELD + seat] is the seat's hand in every game's state

HOLDERS = 4  # columns: left (+1), partner (+2), right (+3), undealt
UNDEALT = 3
# a game's public record of a hand's moves (its `public_record`), by seat relative to the dealer:
# the cards each seat played, let pass (evidence it holds none above) and led
RECORD = 3
R_PLAYED, R_DUCKED, R_LED = 0, 1, 2


class ModelFileError(ValueError):
    """A card-location model file that cannot be used; one line."""


@dataclass(frozen=True)
class Declaration:
    """What the model needs of a game (its `games/<game>/search/card_location.py`'s `GAME`).

    Sizes: `n_cards`, `n_features` (the feature layout `layout`, recorded in model files),
    `n_pair` (pair features), `columns` (the holder columns' names), `state_size`, `max_moves`
    (a hand's moves at most), `played_field` (the state's field of the cards played), `size`
    (the world sampler's bound on a seat's hidden cards, `public.SIZE`).
    Kernels: `encode` (its compiled wrapper of `encode_rows`: `encode(rows, out)`),
    `public_record(history, view_state, record, tricks_won)` (fills the record of a hand's
    moves), `constraints` and `suit_masks` (`games/<game>/public.py`'s hooks).
    The data's pieces: `phase_of(states)` (a phase bucket a row), `phase_names`,
    `trump_cards(state)` (the trumps' mask once known, else 0), what `play.belief_data`'s game
    loop needs beyond the registry's rules: `is_over(state)` (the hand is done; Setback's ends
    once its score is settled), `points(state)` (its points by team relative to the dealer),
    and `hidden_moves` (a hand's history may hold -1, a move its seat did not see: Euchre's
    discard)."""

    name: str
    n_cards: int
    n_features: int
    n_pair: int
    layout: str
    columns: tuple
    state_size: int
    max_moves: int
    played_field: int
    size: int
    encode: object
    public_record: object
    constraints: object
    suit_masks: object
    phase_of: object
    phase_names: tuple
    trump_cards: object
    is_over: object
    points: object
    hidden_moves: bool = False


def game_features(game: str) -> Declaration:
    """What the model needs of `game` (its `Declaration`, named by its registry entry's
    `card_location`); ValueError (one line) for a game without one."""
    known = registry.names(("card_location",))
    if game not in known:
        raise ValueError(f"card-location models exist for {', '.join(known)}, not {game}")
    return registry.get(game).load("card_location")


# --- features every game's layout has -------------------------------------------------------
@njit(cache=True, nogil=True)
def put_cards(mask, slots, suit_size, out, base):
    """Set `out[base + slots[suit] * suit_size + rank]` for every card (suit * suit_size +
    rank) of `mask`: the cards in the game's suit order (`slots[suit]`, its place)."""
    while mask:
        card = lowest_bit(mask)
        out[base + slots[card // suit_size] * suit_size + card % suit_size] = 1.0
        mask &= mask - 1


@njit(cache=True, nogil=True)
def seat_features(hand, seat, tricks_won, needs, voids, slots, hand_size, out, f_needs,
                  f_tricks, f_voids):
    """Into a game's feature vector `out`, by seat r relative to the viewer `seat`: the cards
    it still holds (`out[f_needs + r]`: its `needs`, the viewer's own `hand`) and the tricks it
    took (`out[f_tricks + r]`), over `hand_size` (a float), and the voids it has shown
    (`out[f_voids + 4 r + slots[suit]]`, `slots` the game's suit order)."""
    for r in range(4):
        out[f_tricks + r] = tricks_won[(seat + r) % 4] / hand_size
        if r > 0:
            out[f_needs + r] = needs[r - 1] / hand_size
            for suit in range(4):
                if voids[r - 1] >> suit & 1:
                    out[f_voids + 4 * r + slots[suit]] = 1.0
        else:
            out[f_needs] = popcount(hand) / hand_size


@njit(cache=True, nogil=True)
def play_pairs(record, seat, suit_of, strength, out, higher, lower, same, led, ducked):
    """Clear a game's pair features `out` (float64[cards, 3, its pair features]) and set those
    every game's card play gives: for each card (its suit `suit_of[card]` and its `strength` in
    it) and seat seat+1+i, `out[card, i, higher]` 1 when the seat played a stronger card of the
    card's suit, `lower` a weaker one, `same` any, `led` led one, `ducked` let the card pass
    (`record`: the game's public record, rows `R_PLAYED`, `R_DUCKED`, `R_LED`)."""
    top, bottom, shown = np.empty(4, np.int64), np.empty(4, np.int64), np.empty(4, np.int64)
    for i in range(3):
        s = (seat + 1 + i) % 4
        for u in range(4):
            top[u], bottom[u], shown[u] = -1, 1 << 30, 0
        mask = record[R_PLAYED, s]
        while mask:
            c = lowest_bit(mask)
            top[suit_of[c]] = max(top[suit_of[c]], strength[c])
            bottom[suit_of[c]] = min(bottom[suit_of[c]], strength[c])
            shown[suit_of[c]] |= record[R_LED, s] >> c & 1
            mask &= mask - 1
        for card in range(out.shape[0]):
            u, own = suit_of[card], strength[card]
            for k in range(out.shape[2]):
                out[card, i, k] = 0.0
            out[card, i, higher] = 1.0 if top[u] > own else 0.0
            out[card, i, lower] = 1.0 if bottom[u] < own else 0.0
            out[card, i, same] = 1.0 if top[u] >= 0 else 0.0
            out[card, i, led] = 1.0 if shown[u] else 0.0
            out[card, i, ducked] = 1.0 if record[R_DUCKED, s] >> card & 1 else 0.0


# --- the hard facts and the labels, from the world sampler's constraints ---------------------
@njit(cache=True, nogil=True)
def hard_facts(unseen, needs, voids, suits, allowed):
    """`allowed[card, h]` True where holder column h may hold the hidden `card` (`unseen`): a
    seat that still holds hidden cards (`needs`) and has shown no void (`voids`) in the card's
    suit (`suits`: four card masks), or nobody (`UNDEALT`). Rows of seen cards all False."""
    for card in range(allowed.shape[0]):
        hidden = (unseen >> card) & 1
        suit = 0
        for s in range(4):
            if suits[s] >> card & 1:
                suit = s
        for i in range(3):
            allowed[card, i] = hidden == 1 and needs[i] > 0 and not (voids[i] >> suit & 1)
        allowed[card, UNDEALT] = hidden == 1


@njit(cache=True, nogil=True)
def holder_totals(unseen, needs, out):
    """The hidden cards each holder column holds: each other seat's `needs`, nobody the rest."""
    rest = popcount(unseen)
    for i in range(3):
        out[i] = needs[i]
        rest -= needs[i]
    out[UNDEALT] = rest


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


def position_facts(k: Declaration, view_state, seat: int) -> tuple:
    """(unseen, needs, voids, suits) of `seat`'s view: the game's `constraints` (voids shown)
    and `suit_masks`, from Python."""
    needs, voids, holds = (np.zeros(3, np.int64) for _ in range(3))
    suits = np.zeros(4, np.int64)
    state = np.asarray(view_state, np.int64)
    unseen = k.constraints(state, np.int64(seat), True, 0, needs, voids, holds)
    k.suit_masks(state, suits)
    return unseen, needs, voids, suits


def allowed_holders(k: Declaration, view_state, seat: int, allowed) -> None:
    """The hard facts of `seat`'s view into `allowed` (bool[cards, HOLDERS], `hard_facts`)."""
    unseen, needs, voids, suits = position_facts(k, view_state, seat)
    hard_facts(unseen, needs, voids, suits, allowed)


def holder_targets(k: Declaration, view_state, seat: int, hands, target) -> None:
    """`target[card, h]` = 1 where holder column h truly holds the card hidden from `seat`
    (`hands`: the four current hands by seat relative to the dealer), 0 elsewhere."""
    unseen, _, _, _ = position_facts(k, view_state, seat)
    hidden_targets(unseen, np.int64(seat), np.asarray(hands, np.int64), target)


# --- positions into the network's inputs ----------------------------------------------------
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


# inlined into the game's wrapper: a hook reaching a compiled (not inlined) callee as an argument
# is a pointer to its Python object, which numba's cache cannot keep ("dynamic globals")
@njit(cache=True, nogil=True, inline="always")
def encode_rows(features, card_order, pair_features, constraints, suit_masks, rows, out):
    """A game's data rows into the network's inputs. `rows`: (states, seats, records,
    tricks_won, scores [n, 2] (us, them), hands: the true hands, 0 rows to skip the targets);
    `out`: (x [n, features], order [n, cards]: each card's group, and in that order pairs
    [n, cards, 3, pair features], allowed [n, cards, HOLDERS] (`hard_facts`), target (0 rows
    to skip), totals [n, HOLDERS] (`holder_totals`)). The hooks: the game's `features(state,
    seat, record, tricks_won, us, them, x)`, `card_order(state, order)`, `pair_features(state,
    seat, record, pf)` (engine card order) and its public `constraints` and `suit_masks`.
    Called only from the game's compiled `encode` wrapper (module docstring)."""
    states, seats, records, tricks_won, scores, hands = rows
    x, order, pairs, allowed, target, totals = out
    n_cards = allowed.shape[1]
    pf = np.zeros((n_cards, 3, pairs.shape[3]), np.float64)
    facts = np.zeros((n_cards, HOLDERS), np.bool_)
    truth = np.zeros((n_cards, HOLDERS), np.float64)
    needs, voids, holds = np.zeros(3, np.int64), np.zeros(3, np.int64), np.zeros(3, np.int64)
    suits = np.zeros(4, np.int64)
    for i in range(states.shape[0]):
        state, seat = states[i], seats[i]
        features(state, seat, records[i], tricks_won[i], scores[i, 0], scores[i, 1], x[i])
        card_order(state, order[i])
        pair_features(state, seat, records[i], pf)
        unseen = constraints(state, seat, True, 0, needs, voids, holds)
        suit_masks(state, suits)
        hard_facts(unseen, needs, voids, suits, facts)
        holder_totals(unseen, needs, totals[i])
        if hands.shape[0] > 0:
            hidden_targets(unseen, seat, hands[i], truth)
        network_order(i, order[i], facts, pf, truth, pairs, allowed, target)


def encode_positions(k: Declaration, states, seats, records, tricks_won, scores,
                     hands=None) -> tuple:
    """(x, order, pairs, allowed, target, totals) of positions of game `k` (`encode_rows`);
    `hands` None: no targets (0 rows)."""
    n = len(states)
    x = np.empty((n, k.n_features), np.float64)
    order = np.empty((n, k.n_cards), np.int64)
    pairs = np.zeros((n, k.n_cards, 3, k.n_pair), np.float64)
    allowed = np.zeros((n, k.n_cards, HOLDERS), np.bool_)
    target = np.zeros((0 if hands is None else n, k.n_cards, HOLDERS), np.float64)
    totals = np.zeros((n, HOLDERS), np.float64)
    truth = np.zeros((0, 4), np.int64) if hands is None else np.asarray(hands, np.int64)
    k.encode((np.asarray(states, np.int64), np.asarray(seats, np.int64),
              np.asarray(records, np.int64), np.asarray(tricks_won, np.int64),
              np.asarray(scores, np.int64), truth), (x, order, pairs, allowed, target, totals))
    return x, order, pairs, allowed, target, totals


def view_record(k: Declaration, view_state, history) -> tuple:
    """(record, tricks_won) of a view of game `k` and its hand's history (the game's
    `public_record`); ValueError when the history does not hold the cards played in the view."""
    hist = np.asarray(history, np.int64)
    record = np.zeros((RECORD, 4), np.int64)  # per call: threads may share the model
    tricks = np.zeros(4, np.int64)
    k.public_record(hist, np.asarray(view_state, np.int64), record, tricks)
    if int(np.bitwise_or.reduce(record[R_PLAYED])) != int(view_state[k.played_field]):
        raise ValueError("the history does not hold the cards played in the view: pass the "
                         "hand's moves (SeatView.history)")
    return record, tricks


# --- the hard facts on the network's output -------------------------------------------------
@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def network_log_probs(x, order, pairs, allowed, totals, w1, b1, w2, b2, w3, b3, pair_weights,
                      iterations, out):
    """The network on one encoded position (a row of `encode_rows`: features `x`, card groups
    `order`, and in that order pair features `pairs` and facts `allowed`; holder `totals`):
    its logits plus the pair features times `pair_weights`, the hard facts, `iterations` of
    fitting; `out` float64[cards, HOLDERS] gets the log-probabilities by engine card (module
    docstring: seen cards' rows 0.0, forbidden holders -inf)."""
    n_cards = out.shape[0]
    grouped = np.empty((n_cards, HOLDERS), np.float64)
    forward3(x, w1, b1, w2, b2, w3, b3, n_cards, HOLDERS, grouped)
    probs = np.empty((n_cards, HOLDERS), np.float64)
    facts = np.empty((n_cards, HOLDERS), np.bool_)  # engine order: the fitting sums in it
    for card in range(n_cards):
        g = order[card]
        for h in range(HOLDERS):
            probs[card, h] = grouped[g, h]
            facts[card, h] = allowed[g, h]
        # softmax(z + a) is softmax(z) scaled by exp(a), renormalised (apply_facts)
        for i in range(3):
            a = 0.0
            for k in range(pair_weights.size):
                a += pairs[g, i, k] * pair_weights[k]
            probs[card, i] *= np.exp(a)
    apply_facts(probs, facts)
    if iterations > 0:
        fit_marginals(probs, facts, totals, iterations)
    for card in range(n_cards):
        seen = True
        for h in range(HOLDERS):
            if facts[card, h]:
                seen = False
        for h in range(HOLDERS):
            if seen:
                out[card, h] = 0.0
            elif facts[card, h] and probs[card, h] > 0.0:
                out[card, h] = np.log(probs[card, h])
            else:
                out[card, h] = -np.inf


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


# --- the model object and its file --------------------------------------------------------
class CardLocationModel:
    """A trained card-location network for one game (`game`), with the header's metadata
    (`meta`) and the number of fitting iterations applied after the facts (`fit`)."""

    def __init__(self, mlp: MLP, pair_weights=None, game: str = registry.DEFAULT_GAME,
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
        record, tricks = view_record(self.kernels, view_state, history)
        return self.record_log_probs(view_state, seat, record, tricks, score)

    def record_log_probs(self, view_state, seat: int, record, tricks_won, score=(0, 0),
                         fit: int | None = None) -> np.ndarray:
        """`log_probs` of a view whose public record (`record`, `tricks_won`: the game's
        `public_record`) is known, with `fit` fitting iterations (the model's by default)."""
        k = self.kernels
        x, order, pairs, allowed, _, totals = encode_positions(
            k, [view_state], [seat], [record], [tricks_won], [score])
        out = np.empty((k.n_cards, HOLDERS), np.float64)
        w, b = self.mlp.weights, self.mlp.biases
        network_log_probs(x[0], order[0], pairs[0], allowed[0], totals[0], w[0], b[0], w[1],
                          b[1], w[2], b[2], self.pair_weights,
                          np.int64(self.fit if fit is None else fit), out)
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


def load_model(path: str, game: str = registry.DEFAULT_GAME) -> CardLocationModel:
    """The card-location model of file `path` for `game`; `ModelFileError` in one line if the
    file is missing, not such a model, newer, damaged, or of another game or feature layout."""
    header, f = model_file.read(path, MAGIC, FORMAT, FORMAT_VERSION, game,
                                "card-location model", f"`{registry.PROGRAM} learn belief`",
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
