"""Euchre's side of the policy network (`search/policy_net.py`): a seat's view as features, its
moves as output slots, and the numba kernels that play with the network: one decision
(`net_decision`), a rollout to the end of the hand (`net_play_out`) and the rollout values of
candidate moves over worlds (`net_world_move_values`, what `search[OPTIONS]:net:FILE` runs)
and a world's likelihood under the network (`net_policy_log_weights`, its `belief=policy`);
`encode_rows` makes the training rows of `train distill`.

The features are the card-location model's (`card_location.euchre_features`, layout
`euchre-v1`): the seat's hand, the upcard, its own discard, the calls of both rounds, the
maker, alone, the voids shown, every card played and by whom, the trick, the tricks won, the
score; suits renamed so that the reference suit (trump once named, the upcard's before) comes
first and its colour-mate second. The output slots follow the same renaming (`card_order`:
suit slot x 6 + rank): `card_order[card]` for a card played, `DISCARD_SLOT + card_order[card]`
for the dealer's discard, `PASS_SLOT`, `TRUMP_SLOT + suit slot` for ordering up (slot 0, the
upcard's suit) or naming a suit, `ALONE_SLOT` and `PARTNER_SLOT`.

The kernels read only what the seat may see (its own hand, its own discard when it is the
dealer, and the public record replayed from the hand's moves), so the same code serves the
player (on the view, whose history hides the dealer's discard from the others) and a full state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.euchre.rules import (ALONE_MOVE, PARTNER_MOVE, PASS_MOVE, TRUMP_MOVE, apply_move,
                                legal_moves)
from games.euchre.public import start_of_hand, unweighed_move
from games.euchre.scoring import is_over, score_difference
from games.euchre.search.card_location import (LAYOUT, N_CARDS, N_FEATURES, card_order,
                                               euchre_features, public_record, suit_slots)
from games.euchre.state import PHASE, PHASE_DISCARD, STATE_SIZE, TO_ACT, UPCARD
from games.rng import stream_seed
from search.card_location import RECORD
from search.policy_net import NetScratch, net_forward, pick

GAME = "euchre"
FEATURE_LAYOUT = LAYOUT
INPUTS = N_FEATURES
DISCARD_SLOT = N_CARDS  # 24 discards after the 24 cards played
PASS_SLOT = 2 * N_CARDS
TRUMP_SLOT = PASS_SLOT + 1  # + the suit's slot: 0 orders the upcard's suit up
ALONE_SLOT = TRUMP_SLOT + 4
PARTNER_SLOT = ALONE_SLOT + 1
OUTPUTS = PARTNER_SLOT + 1  # 55
MAX_HISTORY = 32  # a hand's moves: eight calls, alone, the discard, twenty cards
MAX_LEGAL = 8  # never more legal moves than this (`rules.MAX_MOVES`)


@njit(cache=True, inline="always")
def move_slot(move, phase, order, slots):
    """The output slot of the engine move `move` in `phase` (`order` from `card_order`,
    `slots` from `suit_slots` of the view)."""
    if move < N_CARDS:
        return (DISCARD_SLOT if phase == PHASE_DISCARD else 0) + order[move]
    if move == PASS_MOVE:
        return PASS_SLOT
    if move < ALONE_MOVE:
        return TRUMP_SLOT + slots[move - TRUMP_MOVE]
    return ALONE_SLOT if move == ALONE_MOVE else PARTNER_SLOT


@njit(cache=True)
def encode_view(state, seat, history, n_moves, us, them, x, record, tricks_won):
    """The features of `seat`'s view of `state` into `x` (float64[INPUTS]); `history[:n_moves]`
    the hand's moves so far; `record` (int64[RECORD, 4]) and `tricks_won` (int64[4]) scratch."""
    public_record(history, n_moves, state[UPCARD], record, tricks_won)
    euchre_features(state, seat, record, tricks_won, us, them, x)


@njit(cache=True)
def encode_rows(states, seats, histories, lengths, scores, moves, n_legal, x, legal, slots_out):
    """A batch of recorded decisions as network rows (`train.distill.training_rows`): `x[i]` the
    features of row i's view, `legal[i]` its legal slots from `moves[i, :n_legal[i]]`,
    `slots_out[i, j]` the slot of `moves[i, j]`."""
    record = np.zeros((RECORD, 4), np.int64)
    tricks = np.zeros(4, np.int64)
    order = np.zeros(N_CARDS, np.int64)
    slots = np.zeros(4, np.int64)
    row = np.zeros(INPUTS, np.float64)
    for i in range(states.shape[0]):
        encode_view(states[i], seats[i], histories[i], lengths[i], scores[i, 0], scores[i, 1],
                    row, record, tricks)
        for j in range(INPUTS):
            x[i, j] = row[j]
        card_order(states[i], order)
        suit_slots(states[i], slots)
        for j in range(OUTPUTS):
            legal[i, j] = False
        for j in range(n_legal[i]):
            s = move_slot(moves[i, j], states[i, PHASE], order, slots)
            legal[i, s] = True
            slots_out[i, j] = s


@njit(cache=True, nogil=True)
def net_decision(state, history, n_moves, us, them, w1, b1, w2, b2, w3, b3, moves, move_probs,
                 x, legal, h1, h2, z, probs, record, tricks, order, slots):
    """The network's policy at `state` for the seat to act: its legal moves into `moves` and
    their probabilities into `move_probs` (count returned); the rest are scratch buffers."""
    n = legal_moves(state, moves)
    encode_view(state, state[TO_ACT], history, n_moves, us, them, x, record, tricks)
    card_order(state, order)
    suit_slots(state, slots)
    for j in range(OUTPUTS):
        legal[j] = False
    for j in range(n):
        legal[move_slot(moves[j], state[PHASE], order, slots)] = True
    net_forward(x, legal, w1, b1, w2, b2, w3, b3, h1, h2, z, probs)
    for j in range(n):
        move_probs[j] = probs[move_slot(moves[j], state[PHASE], order, slots)]
    return n


@njit(cache=True, nogil=True)
def net_play_out(start, history, n_moves, scores, w1, b1, w2, b2, w3, b3, greedy, rng, a,
                 hist, moves, move_probs, x, legal, h1, h2, z, probs, record, tricks, order,
                 slots):
    """Play the hand `start` (a full state) to its end with every seat following the network;
    return its points, the dealer's team's less the other's (what the table's rollouts score,
    which stop once the points are settled: they cannot change after). `history[:n_moves]`
    are the moves that led to `start`, `scores[team]` the game score of each team relative to
    the dealer; `a` and `hist` scratch (the state and the moves as played)."""
    for i in range(start.shape[0]):
        a[i] = start[i]
    for i in range(n_moves):
        hist[i] = history[i]
    n_hist = n_moves
    while not is_over(a):
        n = legal_moves(a, moves)
        if n == 1:
            move = moves[0]
        else:
            seat = a[TO_ACT]
            net_decision(a, hist, n_hist, scores[seat % 2], scores[1 - seat % 2], w1, b1, w2,
                         b2, w3, b3, moves, move_probs, x, legal, h1, h2, z, probs, record,
                         tricks, order, slots)
            move = moves[pick(move_probs, n, greedy, rng)]
        apply_move(a, move)
        hist[n_hist] = move
        n_hist += 1
    return np.float64(score_difference(a))


@njit(cache=True, nogil=True)
def net_world_move_values(worlds, first, stop, step, history, n_moves, scores, candidates,
                          n_candidates, sign, w1, b1, w2, b2, w3, b3, greedy, seed, child, a,
                          hist, moves, move_probs, x, legal, h1, h2, z, probs, record, tricks,
                          order, slots, rng, values_out):
    """For the worlds `worlds[first:stop:step]` (full states of the decision), the value of
    each candidate move, the hand then played out by the network, into `values_out[w, m]`,
    times `sign` (+1 when the acting seat is on the dealer's team). Common random numbers:
    every candidate's rollout in world w draws from the stream `stream_seed(seed, w)`. The rest
    are this thread's scratch buffers (`scratch(hidden).rollout_buffers()`)."""
    for i in range(n_moves):
        hist[i] = history[i]
    for w in range(first, stop, step):
        for m in range(n_candidates):
            for i in range(child.shape[0]):
                child[i] = worlds[w, i]
            apply_move(child, candidates[m])
            hist[n_moves] = candidates[m]
            rng[0] = stream_seed(seed, w)
            values_out[w, m] = sign * net_play_out(child, hist, n_moves + 1, scores, w1, b1,
                                                   w2, b2, w3, b3, greedy, rng, a, hist, moves,
                                                   move_probs, x, legal, h1, h2, z, probs,
                                                   record, tricks, order, slots)


@njit(cache=True, nogil=True)
def net_policy_log_weights(worlds, first, stop, played_by, history, n_moves, modelled, scores,
                           floor, w1, b1, w2, b2, w3, b3, state, moves, move_probs, x, legal,
                           h1, h2, z, probs, record, tricks, order, slots, out):
    """`belief=policy` on a network: for the worlds `worlds[first:stop]`, the log-probability
    that players modelled by the network make the moves of `history[:n_moves]` that the seats
    in `modelled` (bit s: seat s) made, the hand replayed from the world's deal
    (`public.start_of_hand`), into `out[first:stop]`; a move's probability below `floor`
    counts as `floor`, a forced move says nothing, and the dealer's discard (hidden from the
    others: the world's own) is replayed without weighing (`public.unweighed_move`), as the
    table's likelihood does. `scores`: the game score by team relative to the dealer. The rest
    are scratch (`NetScratch.belief_buffers`)."""
    for w in range(first, stop):
        start_of_hand(worlds[w], played_by, state)
        total = 0.0
        for i in range(n_moves):
            move = history[i]
            replayed = unweighed_move(state, worlds[w], move)
            if replayed >= 0:
                apply_move(state, replayed)
                continue
            seat = state[TO_ACT]
            if (modelled >> seat) & 1:
                n = legal_moves(state, moves)
                if n >= 2:
                    net_decision(state, history, i, scores[seat % 2], scores[1 - seat % 2],
                                 w1, b1, w2, b2, w3, b3, moves, move_probs, x, legal, h1, h2,
                                 z, probs, record, tricks, order, slots)
                    p = floor
                    for j in range(n):
                        if moves[j] == move:
                            p = max(move_probs[j], floor)
                    total += np.log(p)
            apply_move(state, move)
        out[w] = total


def scratch(hidden: tuple) -> NetScratch:
    """One thread's scratch buffers for the kernels above (`search.policy_net.NetScratch`,
    with the cards' order and the suits' slots), for a network of hidden sizes `hidden`."""
    return NetScratch(hidden, STATE_SIZE, MAX_HISTORY, INPUTS, OUTPUTS, MAX_LEGAL, RECORD,
                      (np.zeros(N_CARDS, np.int64), np.zeros(4, np.int64)))
