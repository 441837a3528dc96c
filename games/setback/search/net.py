"""Setback's side of the policy network (`search/policy_net.py`): a seat's view as features, its
moves as output slots, and the numba kernels that play with the network: one decision
(`net_decision`), a rollout to the end of the deal (`net_play_out`) and the rollout values of
candidate moves over worlds (`net_world_move_values`, what `search:net:FILE` runs).

The features are the card-location model's (`card_location.setback_features`, layout
`setback-v3`): the seat's hand, every card played and by whom, the bids, the contract, the
voids shown, the tricks each seat won, the current trick, the score; suits renamed trump first
once trump is known, so the network learns "the Jack of trump" once whatever the suit. The
output slots follow the same renaming: slot `slot_card(card)` for a card (0..51), and
`BID_SLOT + {0, 1, 2, 3}` for Pass, Two, Three, Four.

The kernels read only what the seat may see (its own hand and the public record), so the same
code serves the player (on the view) and the rollouts (on a full world): a rollout keeps the
deal's moves (`history`) because the public record (who played which card, who ducked, who led)
is read from them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.rng import stream_seed
from games.setback.rules import BID_MOVE, apply_move, legal_moves
from games.setback.scoring import is_exhausted, score_difference
from games.setback.state import STATE_SIZE, TO_ACT, TRUMP
from games.setback.search.card_location import (LAYOUT, N_FEATURES, RECORD, public_record,
                                                setback_features, slot_card, suit_slots)
from search.policy_net import NetScratch, net_forward, pick
from games.setback.search.worlds import deal_of_world

GAME = "setback"
FEATURE_LAYOUT = LAYOUT
INPUTS = N_FEATURES
BID_SLOT = 52
OUTPUTS = 56  # 52 cards, then Pass, Two, Three, Four
MAX_HISTORY = 32  # moves in a deal: 4 bids and 24 cards
MAX_LEGAL = 8  # never more legal moves than this (6 cards, or 4 bids)


@njit(cache=True, inline="always")
def move_slot(move, slots):
    """The output slot of the engine move `move` (`slots` from `suit_slots` of the trump)."""
    if move >= BID_MOVE:
        bid = move - BID_MOVE
        return BID_SLOT + (0 if bid == 0 else bid - 1)
    return slot_card(move, slots)


@njit(cache=True)
def encode_view(state, seat, history, n_moves, us, them, x, record, tricks_won):
    """The features of `seat`'s view of `state` (a view or a full state: only the seat's hand
    and the public fields are read) into `x` (float64[INPUTS]), `history[:n_moves]` the deal's
    moves so far; `record` (int64[RECORD, 4]) and `tricks_won` (int64[4]) are scratch."""
    public_record(history, n_moves, record, tricks_won)
    setback_features(state, seat, record, tricks_won, us, them, x)


@njit(cache=True)
def encode_rows(states, seats, histories, lengths, scores, moves, n_legal, x, legal, slots_out):
    """A batch of recorded decisions as network rows: `x[i]` the features of row i's view
    (`states[i]`, `seats[i]`, `histories[i, :lengths[i]]`, `scores[i]` = (us, them)), `legal[i]`
    its legal slots from `moves[i, :n_legal[i]]` (engine moves), `slots_out[i, j]` the slot of
    `moves[i, j]`."""
    record = np.zeros((RECORD, 4), np.int64)
    tricks = np.zeros(4, np.int64)
    slots = np.zeros(4, np.int64)
    row = np.zeros(INPUTS, np.float64)
    for i in range(states.shape[0]):
        encode_view(states[i], seats[i], histories[i], lengths[i], scores[i, 0], scores[i, 1],
                    row, record, tricks)
        for j in range(INPUTS):
            x[i, j] = row[j]
        suit_slots(states[i, TRUMP], slots)
        for j in range(OUTPUTS):
            legal[i, j] = False
        for j in range(n_legal[i]):
            s = move_slot(moves[i, j], slots)
            legal[i, s] = True
            slots_out[i, j] = s


@njit(cache=True, nogil=True)
def net_decision(state, history, n_moves, us, them, w1, b1, w2, b2, w3, b3, moves, move_probs,
                 x, legal, h1, h2, z, probs, record, tricks, slots):
    """The network's policy at `state` for the seat to act: its legal moves into `moves` and
    their probabilities into `move_probs` (count returned); the rest are scratch buffers."""
    seat = state[TO_ACT]
    n = legal_moves(state, moves)
    encode_view(state, seat, history, n_moves, us, them, x, record, tricks)
    suit_slots(state[TRUMP], slots)
    for j in range(OUTPUTS):
        legal[j] = False
    for j in range(n):
        legal[move_slot(moves[j], slots)] = True
    net_forward(x, legal, w1, b1, w2, b2, w3, b3, h1, h2, z, probs)
    for j in range(n):
        move_probs[j] = probs[move_slot(moves[j], slots)]
    return n


@njit(cache=True, nogil=True)
def net_play_out(start, history, n_moves, scores, w1, b1, w2, b2, w3, b3, greedy, rng, a,
                 hist, moves, move_probs, x, legal, h1, h2, z, probs, record, tricks, slots):
    """Play the deal `start` (a full state) to its end with every seat following the network;
    return the deal's score difference (the dealer's team minus the other). `history[:n_moves]`
    are the moves that led to `start`, `scores[team]` the game score of each team relative to
    the dealer; `a` and `hist` scratch (the state and the moves as played)."""
    for i in range(start.shape[0]):
        a[i] = start[i]
    for i in range(n_moves):
        hist[i] = history[i]
    n_hist = n_moves
    while not is_exhausted(a):
        seat = a[TO_ACT]
        n = legal_moves(a, moves)
        if n == 1:
            move = moves[0]
        else:
            net_decision(a, hist, n_hist, scores[seat % 2], scores[1 - seat % 2], w1, b1, w2,
                         b2, w3, b3, moves, move_probs, x, legal, h1, h2, z, probs, record,
                         tricks, slots)
            move = moves[pick(move_probs, n, greedy, rng)]
        apply_move(a, move)
        hist[n_hist] = move
        n_hist += 1
    return np.float64(score_difference(a))


@njit(cache=True, nogil=True)
def net_world_move_values(worlds, first, stop, step, history, n_moves, scores, candidates,
                          n_candidates, sign, w1, b1, w2, b2, w3, b3, greedy, seed, child, a,
                          hist, moves, move_probs, x, legal, h1, h2, z, probs, record, tricks,
                          slots, rng, values_out):
    """For the worlds `worlds[first:stop:step]` (full states of the decision), the value of
    each candidate move, the deal then played out by the network, into `values_out[w, m]`, times
    `sign` (+1 when the acting seat is on the dealer's team). Common random numbers: every
    candidate's rollout in world w draws from the stream `stream_seed(seed, w)`. The rest are
    this thread's scratch buffers (`hist` holds `n_moves + 1` moves at the root)."""
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
                                                   record, tricks, slots)


@njit(cache=True, nogil=True)
def net_policy_log_weights(worlds, first, stop, played_by, history, n_moves, modelled, scores,
                           floor, w1, b1, w2, b2, w3, b3, state, moves, move_probs, x, legal,
                           h1, h2, z, probs, record, tricks, slots, out):
    """`belief=policy` on a network: for the worlds `worlds[first:stop]`, the log-probability
    that players modelled by the network make the moves of `history[:n_moves]` that the seats
    in `modelled` (bit s: seat s, relative to the dealer) made, when the hands are the world's
    (each seat's dealt hand: what it holds there and what it played, `played_by`), into
    `out[first:stop]`; a move's probability below `floor` counts as `floor`, a forced move says
    nothing. `scores`: the game score by team relative to the dealer. The rest are scratch."""
    for w in range(first, stop):
        deal_of_world(worlds[w], played_by, state)
        total = 0.0
        for i in range(n_moves):
            move = history[i]
            seat = state[TO_ACT]
            if (modelled >> seat) & 1:
                n = legal_moves(state, moves)
                if n >= 2:
                    net_decision(state, history, i, scores[seat % 2], scores[1 - seat % 2],
                                 w1, b1, w2, b2, w3, b3, moves, move_probs, x, legal, h1, h2,
                                 z, probs, record, tricks, slots)
                    p = floor
                    for j in range(n):
                        if moves[j] == move:
                            p = max(move_probs[j], floor)
                    total += np.log(p)
            apply_move(state, move)
        out[w] = total


def scratch(hidden: tuple) -> NetScratch:
    """One thread's scratch buffers for the kernels above (`search.policy_net.NetScratch`,
    with the suits' slots), for a network of hidden sizes `hidden`."""
    return NetScratch(hidden, STATE_SIZE, MAX_HISTORY, INPUTS, OUTPUTS, 64, RECORD,
                      (np.zeros(4, np.int64),))
