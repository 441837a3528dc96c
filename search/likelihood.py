"""The likelihood of a world, written once for every game: the log-probability that a model of
the players (a blueprint's table, read by the abstract game's `decision`) makes the moves seen,
had the hands been the world's (policy-based inference, Rebstock et al. 2019). It names no game.

The hand is replayed from the start the world was dealt (the game's `start_of_hand`,
`games/<game>/public.py`); before each move of the history the replay may stop (`over`: the
auction is done, for a likelihood of the bids alone; the abstract game's hand is settled, for
its keys end there); each move is replayed as the game's `replayed_move` says (Euchre's hidden
discard is the world's own, and weighs nothing), and a move of a modelled seat (`modelled`,
bit s: seat s relative to the dealer, `to_act`) adds `log_prob` (`rollout.move_log_prob` for the
bids' likelihood, `rollout.policy_move_log_prob` for `belief=policy`). A function taking
functions is called from the games' compiled wrappers (`search/<game>_worlds.py`), never from
Python: numba's cache cannot keep such a signature across processes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from search.rollout import TERMINAL


@njit(cache=True, nogil=True)
def as_seen(state, world, move):
    """The `replayed_move` of a game whose every move is public: the move itself, scored."""
    return move, True


@njit(cache=True, nogil=True)
def never_over(current_player, state, move):
    """The `over` of a replay that weighs every move of the history."""
    return False


@njit(cache=True, nogil=True)
def settled(current_player, state, move):
    """The `over` of `belief=policy`: the abstract game's hand is settled (`current_player`
    says `TERMINAL`): the blueprint has no keys past it."""
    return current_player(state) == TERMINAL


@njit(cache=True, nogil=True)
def log_likelihood(start_of_hand, replayed_move, apply_move, to_act, over, log_prob,
                   current_player, decision, world, played_by, history, n_moves, modelled, keys,
                   offsets, probs, floor, state, actions, key_out):
    """The log-likelihood of the first `n_moves` moves of `history` in `world` (module
    docstring): the sum of `log_prob(decision, state, move, keys, offsets, probs, floor,
    actions, key_out)` over the scored moves of the modelled seats (`state[to_act]`, the
    game's field of the seat to act), `state` the replay's scratch row.
    `over(current_player, state, move)` ends the replay before `move`."""
    start_of_hand(world, played_by, state)
    total = 0.0
    for i in range(n_moves):
        if over(current_player, state, history[i]):
            break
        move, scored = replayed_move(state, world, history[i])
        if scored and (modelled >> state[to_act]) & 1:
            total += log_prob(decision, state, move, keys, offsets, probs, floor, actions,
                              key_out)
        apply_move(state, move)
    return total


@njit(cache=True, nogil=True)
def log_weights(start_of_hand, replayed_move, apply_move, to_act, over, log_prob,
                current_player, decision, worlds, first, stop, played_by, history, n_moves,
                modelled, keys, offsets, probs, floor, out):
    """`log_likelihood` of the worlds `worlds[first:stop]` into `out[first:stop]` (a slice a
    thread computes, or every row)."""
    state = np.zeros(worlds.shape[1], np.int64)
    actions = np.zeros(64, np.int64)
    key_out = np.zeros(2, np.uint64)
    for w in range(first, stop):
        out[w] = log_likelihood(start_of_hand, replayed_move, apply_move, to_act, over,
                                log_prob, current_player, decision, worlds[w], played_by,
                                history, n_moves, modelled, keys, offsets, probs, floor, state,
                                actions, key_out)
