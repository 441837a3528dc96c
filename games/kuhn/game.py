"""Kuhn poker (two players), identical to OpenSpiel's `kuhn_poker`.

Three cards (0 < 1 < 2). Each player antes 1; chance deals player 0 a card, then player 1 (each
remaining card equally likely, listed in card order). Player 0 acts first; actions are
Pass = 0 and Bet = 1 (a bet adds 1 chip). Terminal histories: pp (showdown for 1),
pbp (player 0 folds), pbb (showdown for 2), bp (player 1 folds), bb (showdown for 2).

State layout (`int64[4]`): card of player 0 (-1 before the deal), card of player 1, number of
betting actions so far, betting actions as bits (action i in bit i).

Info-set key: player | card << 1 | number of actions << 3 | action bits << 5.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cfr.game import (
    APPLY_SIG,
    CHANCE,
    CHANCE_OUTCOMES_SIG,
    CHANCE_SAMPLE_SIG,
    CURRENT_PLAYER_SIG,
    DECISION_SIG,
    TERMINAL,
    UTILITY_SIG,
    Game,
)
from games.interface import functions_of, sample_undealt, undealt_outcomes

PASS = 0
BET = 1
STATE_SIZE = 4
_CARD0, _CARD1, _N, _BITS = 0, 1, 2, 3


def initial_state() -> np.ndarray:
    """The root: no card dealt, no action taken."""
    return np.array([-1, -1, 0, 0], dtype=np.int64)


@njit(cache=True, _nrt=False)
def _is_terminal(state):
    n = state[_N]
    bits = state[_BITS]
    return n == 3 or (n == 2 and bits != 0b10)


@njit(CURRENT_PLAYER_SIG, cache=True, _nrt=False)
def current_player(state):
    """CHANCE until both cards are dealt, TERMINAL at the end, else the player to act."""
    if state[_CARD1] < 0:
        return CHANCE
    if _is_terminal(state):
        return TERMINAL
    return state[_N] % 2


@njit(DECISION_SIG, cache=True, _nrt=False)
def decision(state, actions_out, key_out):
    """Pass and Bet are always legal; the key packs player, own card and the betting so far."""
    n = state[_N]
    player = n % 2
    card = state[_CARD0 + player]
    actions_out[0] = PASS
    actions_out[1] = BET
    key_out[0] = np.uint64(player | (card << 1) | (n << 3) | (state[_BITS] << 5))
    return 2


@njit(APPLY_SIG, cache=True, _nrt=False)
def apply(state, action, child_out):
    """Deal `action` as the next card at chance, else append the betting action."""
    for i in range(state.shape[0]):
        child_out[i] = state[i]
    if state[_CARD0] < 0:
        child_out[_CARD0] = action
    elif state[_CARD1] < 0:
        child_out[_CARD1] = action
    else:
        child_out[_BITS] = state[_BITS] | (action << state[_N])
        child_out[_N] = state[_N] + 1
    return 0


@njit(UTILITY_SIG, cache=True, _nrt=False)
def utility(state):
    """Player 0's winnings: ±1 for a fold or a check-down, ±2 for a called bet."""
    n = state[_N]
    bits = state[_BITS]
    sign = 1.0 if state[_CARD0] > state[_CARD1] else -1.0
    if n == 2:
        if bits == 0b00:
            return sign
        if bits == 0b01:  # bet, pass: player 1 folds
            return 1.0
        return 2.0 * sign  # bet, bet
    if bits == 0b010:  # pass, bet, pass: player 0 folds
        return -1.0
    return 2.0 * sign  # pass, bet, bet


@njit(cache=True, _nrt=False)
def _dealt(state):
    return 0 if state[_CARD0] < 0 else np.int64(1) << state[_CARD0]


@njit(CHANCE_OUTCOMES_SIG, cache=True, _nrt=False)
def chance_outcomes(state, outcomes_out, probs_out):
    """The cards not yet dealt, in card order, each with probability 1 / (cards left)."""
    return undealt_outcomes(_dealt(state), 3, outcomes_out, probs_out)


@njit(CHANCE_SAMPLE_SIG, cache=True, _nrt=False)
def chance_sample(state, u, child_out):
    """Deal the card of index ((u >> 32) * cards_left) >> 32 among the cards left."""
    return sample_undealt(apply, _dealt(state), 3, state, u, child_out)


GAME = Game(name="kuhn", state_size=STATE_SIZE, max_actions=3, max_depth=6, key_words=1,
            **functions_of(globals()))
