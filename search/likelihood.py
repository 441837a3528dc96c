"""The likelihood of a world, written once for every game: the log-probability that a model of
the players (a blueprint's table, read by the abstract game's `decision`) makes the moves seen,
had the hands been the world's (policy-based inference, Rebstock et al. 2019). It names no game.

The hand is replayed from the start the world was dealt (the game's `start_of_hand`,
`games/<game>/public.py`), one move of the history at a time, and a move of a modelled seat
(`modelled`, bit s: seat s relative to the dealer) adds the blueprint's log-probability of it.
Two beliefs read it:
- `belief=bids` (`BIDS`): the auction's moves only (the replay stops at the first state the
  game's `in_auction` says is past it), every seat's, through `rollout.move_log_prob` (a
  missing key says nothing);
- `belief=policy` (`POLICY`): every move until the abstract game's hand is settled (its
  `current_player` says `TERMINAL`: the blueprint has no keys past it), through
  `rollout.policy_move_log_prob` (a missing key is uniform, a move no action plays the floor).
A move the game replays as the world has it and weighs nothing (Euchre's dealer discard, hidden
from the others, and made by the abstraction's rule) is the game's `unweighed_move`.

The game's hooks reach the kernel as first-class function addresses (`HOOK_TYPES`), as the
abstract game's functions do (`cfr.game.FunctionAddress`, built by the players): a kernel taking
only such addresses and arrays is kept by numba's on-disk cache, so no process compiles it
again (a dispatcher argument beside them would make it uncacheable).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from search.rollout import TERMINAL, move_log_prob, policy_move_log_prob

BIDS = 0  # the `kind` of a likelihood of the auction's moves (`belief=bids`)
POLICY = 1  # the `kind` of a likelihood of every move until the hand is settled

ROW = types.int64[::1]
START_OF_HAND_SIG = types.none(ROW, ROW, ROW)  # (world, played_by, out)
APPLY_MOVE_SIG = types.none(ROW, types.int64)  # the rules' apply_move(state, move)
IN_AUCTION_SIG = types.boolean(ROW)  # (state)
UNWEIGHED_MOVE_SIG = types.int64(ROW, ROW, types.int64)  # (state, world, move)

# The hooks' parameter types, in `log_weights`' order: start_of_hand, apply_move, in_auction,
# unweighed_move (the players build `cfr.game.FunctionAddress`es of the game's functions).
HOOK_TYPES = (types.FunctionType(START_OF_HAND_SIG), types.FunctionType(APPLY_MOVE_SIG),
              types.FunctionType(IN_AUCTION_SIG), types.FunctionType(UNWEIGHED_MOVE_SIG))


@njit(cache=True, nogil=True)
def always_weighed(state, world, move):
    """The `unweighed_move` of a game whose every move is public and its player's own choice:
    -1 (the move weighs, as it is)."""
    return -1


@njit(cache=True, nogil=True)
def log_likelihood(start_of_hand, apply_move, in_auction, unweighed_move, current_player,
                   decision, kind, world, played_by, history, n_moves, modelled, to_act, keys,
                   offsets, probs, floor, state, actions, key_out):
    """The log-likelihood (module docstring) of the first `n_moves` moves of `history` when
    the hands are `world`'s (each seat dealt what `start_of_hand` says of `world` and
    `played_by`, the cards each seat played), `kind` `BIDS` or `POLICY`; `to_act` is the
    game's state field of the seat to act, `state`, `actions` and `key_out` scratch."""
    start_of_hand(world, played_by, state)
    total = 0.0
    for i in range(n_moves):
        if kind == BIDS:
            if not in_auction(state):
                break
        elif current_player(state) == TERMINAL:
            break
        move = history[i]
        replayed = unweighed_move(state, world, move)
        if replayed >= 0:
            apply_move(state, replayed)
            continue
        if (modelled >> state[to_act]) & 1:
            if kind == BIDS:
                total += move_log_prob(decision, state, move, keys, offsets, probs, floor,
                                       actions, key_out)
            else:
                total += policy_move_log_prob(decision, state, move, keys, offsets, probs,
                                              floor, actions, key_out)
        apply_move(state, move)
    return total


@njit(cache=True, nogil=True)
def log_weights(start_of_hand, apply_move, in_auction, unweighed_move, current_player,
                decision, kind, worlds, first, stop, played_by, history, n_moves, modelled,
                to_act, keys, offsets, probs, floor, out):
    """`log_likelihood` of the worlds `worlds[first:stop]` into `out[first:stop]` (a slice a
    thread computes, or every row)."""
    state = np.zeros(worlds.shape[1], np.int64)
    actions = np.zeros(64, np.int64)
    key_out = np.zeros(2, np.uint64)
    for w in range(first, stop):
        out[w] = log_likelihood(start_of_hand, apply_move, in_auction, unweighed_move,
                                current_player, decision, kind, worlds[w], played_by, history,
                                n_moves, modelled, to_act, keys, offsets, probs, floor, state,
                                actions, key_out)
