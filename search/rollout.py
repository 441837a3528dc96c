"""One-ply rollout search on a blueprint, game-generic: every legal move of a decision, in each of
W sampled worlds, played out to the end of the deal with every seat following the blueprint.

The game enters as four numba functions of the CFR game interface (`cfr/game.py`; a Setback key
layout's or Euchre's abstract game): `current_player(state)` (a player, or TERMINAL = -2),
`decision(state, actions_out, key_out)` (the abstract actions as moves, and the info-set key when
there are two or more), `apply(state, move, child_out)` and `utility(state)` (player 0's payoff at
a terminal). They are passed as first-class functions (`FunctionAddress` objects), so these
kernels are compiled once for every game and layout. The blueprint is a policy table
(`games/policy_table.py`: sorted keys, offsets, probabilities).

A rollout from a state: at each decision with two or more actions, look the key up and take the
blueprint's action (drawn from its probabilities, or its most probable one when `greedy`); a key
the blueprint lacks takes the first abstract action (the database player's rule in the play;
in the auction it bids Pass where the database player would bid Three). Forced moves are
played as they come. The rollout ends at the game's terminal (for Setback the deal over or
its score settled) and returns player 0's payoff.

Common random numbers: in world w every candidate move's rollout draws from the same stream
(`stream_seed(seed, w)`), so the moves are compared on the same luck, and a world's values do
not depend on which thread played it: the same seed gives the same values for any number of
threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.policy_table import find_key, pick_action
from games.rng import stream_seed

TERMINAL = -2
MAX_ROLLOUT_DEPTH = 256  # decisions: far above any deal of a trick-taking game


@njit(cache=True, nogil=True)
def play_out(current_player, decision, apply, utility, start, keys, offsets, probs, greedy,
             rng, a, b, actions, key_out):
    """Play `start` to its terminal with the blueprint (module docstring), in the scratch rows
    `a` and `b`; return player 0's payoff. `start` is not modified."""
    for i in range(start.shape[0]):
        a[i] = start[i]
    for _ in range(MAX_ROLLOUT_DEPTH):
        if current_player(a) == TERMINAL:
            return utility(a)
        n = decision(a, actions, key_out)
        choice = 0
        if n >= 2:
            index = find_key(keys, key_out[0])
            if index >= 0:
                choice = pick_action(offsets, probs, index, n, greedy, rng)
                if choice < 0:
                    choice = 0
        apply(a, actions[choice], b)
        for i in range(a.shape[0]):
            a[i] = b[i]
    return utility(a)


@njit(cache=True, nogil=True)
def move_log_prob(decision, state, move, keys, offsets, probs, floor, actions, key_out):
    """The log of the blueprint's probability of `move` at `state` (a probability below
    `floor` counting as `floor`), with `actions` and `key_out` as `decision`'s scratch: 0 where
    the decision is forced, or its key missing or of another action count (the move says
    nothing of the hands). The likelihood of a world's bids sums it over the moves."""
    n = decision(state, actions, key_out)
    if n >= 2:
        index = find_key(keys, key_out[0])
        if index >= 0 and offsets[index + 1] - offsets[index] == n:
            for j in range(n):
                if actions[j] == move:
                    return np.log(max(np.float64(probs[offsets[index] + j]), floor))
    return 0.0


@njit(cache=True, nogil=True)
def policy_move_log_prob(decision, state, move, keys, offsets, probs, floor, actions, key_out):
    """The log of the blueprint's probability of the concrete `move` at `state` when the
    blueprint is read as a model of the player (`belief=policy`): the probability of the
    abstract action that `move` plays (its representative card or bid), a probability below
    `floor` counting as `floor`. A move that no abstract action plays here (a card the
    blueprint would never play as such, with this world's hand) gets `floor`: the model says
    the player would not have made it. A key the blueprint lacks counts as uniform over its
    actions, so that a world is not favoured for reaching keys nobody trained; a forced
    decision says nothing (0)."""
    n = decision(state, actions, key_out)
    slot = -1
    for j in range(max(n, 1)):
        if actions[j] == move:
            slot = j
            break
    if slot < 0:
        return np.log(floor)
    if n < 2:
        return 0.0
    index = find_key(keys, key_out[0])
    if index >= 0 and offsets[index + 1] - offsets[index] == n:
        return np.log(max(np.float64(probs[offsets[index] + slot]), floor))
    return -np.log(np.float64(n))


@njit(cache=True, nogil=True)
def world_move_values(current_player, decision, apply, utility, worlds, first, stop, step,
                      moves, n_moves, sign, keys, offsets, probs, greedy, seed, child, a, b,
                      actions, key_out, rng, values_out):
    """For the worlds `worlds[first:stop:step]` (full states of the decision), the rollout
    value of each of the `n_moves` candidate `moves` into `values_out[w, m]`, times `sign` (+1
    when the acting player is player 0, -1 otherwise). The rest are this thread's scratch
    buffers."""
    for w in range(first, stop, step):
        for m in range(n_moves):
            apply(worlds[w], moves[m], child)
            rng[0] = stream_seed(seed, w)
            values_out[w, m] = sign * play_out(current_player, decision, apply, utility, child,
                                               keys, offsets, probs, greedy, rng, a, b,
                                               actions, key_out)


@njit(cache=True, nogil=True)
def world_move_outcomes(current_player, decision, apply, utility, outcome, table, worlds, first,
                        stop, step, moves, n_moves, keys, offsets, probs, greedy, seed, child, a,
                        b, actions, key_out, rng, values_out):
    """`world_move_values` with another objective: each rollout is scored `table[outcome(end)]`,
    `outcome` (a game function, `int64(state)`) naming the terminal's result (for Setback the
    pair of deal scores) and `table` valuing each result for the acting player (for Setback
    its team's probability of winning the game from the score that result makes)."""
    for w in range(first, stop, step):
        for m in range(n_moves):
            apply(worlds[w], moves[m], child)
            rng[0] = stream_seed(seed, w)
            play_out(current_player, decision, apply, utility, child, keys, offsets, probs,
                     greedy, rng, a, b, actions, key_out)
            values_out[w, m] = table[outcome(a)]
