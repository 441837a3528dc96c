"""Leduc poker (two players), identical to OpenSpiel's `leduc_poker` (default parameters).

Six cards 0..5: rank = card // 2 (J, Q, K), two suits. Each player antes 1. Chance deals player
0 a private card, then player 1 (every remaining card equally likely, in card order). Round 1
betting, then chance turns up the public card, then round 2 betting; player 0 starts both
rounds. Actions: Fold = 0 (legal only when facing a bet), Call = 1 (check or call), Raise = 2
(at most two raises per round; a raise is 2 chips in round 1 and 4 in round 2, on top of the
amount to call). A round ends when both checked or a raise was called. At the showdown a pair
with the public card wins, else the higher rank (high card first, then low card); equal hands
split the pot.

State layout (`int64[16]`): see the `_`-prefixed indices below. A betting sequence is packed
two bits per action (action + 1), first action lowest, so its value alone is collision-free.

Info-set key: player | private card << 1 | (public card + 1) << 4 | round-1 sequence << 7 |
round-2 sequence << 15 (each sequence has at most 4 actions, 8 bits).
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

FOLD = 0
CALL = 1
RAISE = 2
STATE_SIZE = 16
_CARD0, _CARD1, _PUBLIC, _ROUND, _PLAYER, _RAISES, _CALLS, _STAKES = 0, 1, 2, 3, 4, 5, 6, 7
_ANTE0, _ANTE1, _FOLDED, _SEQ1, _LEN1, _SEQ2, _LEN2, _TERMINAL = 8, 9, 10, 11, 12, 13, 14, 15


def initial_state() -> np.ndarray:
    """The root: nothing dealt, round 1, antes of 1, chance to act."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[_CARD0] = s[_CARD1] = s[_PUBLIC] = -1
    s[_ROUND] = 1
    s[_PLAYER] = CHANCE
    s[_STAKES] = 1
    s[_ANTE0] = s[_ANTE1] = 1
    s[_FOLDED] = -1
    return s


@njit(CURRENT_PLAYER_SIG, cache=True, _nrt=False)
def current_player(state):
    """TERMINAL after a fold or the second round's end, CHANCE while dealing, else the actor."""
    if state[_TERMINAL] != 0:
        return TERMINAL
    return state[_PLAYER]


@njit(DECISION_SIG, cache=True, _nrt=False)
def decision(state, actions_out, key_out):
    """Fold (when facing a bet), Call, Raise (under two raises); key as in the module doc."""
    player = state[_PLAYER]
    n = 0
    if state[_STAKES] > state[_ANTE0 + player]:
        actions_out[n] = FOLD
        n += 1
    actions_out[n] = CALL
    n += 1
    if state[_RAISES] < 2:
        actions_out[n] = RAISE
        n += 1
    key = (
        player
        | (state[_CARD0 + player] << 1)
        | ((state[_PUBLIC] + 1) << 4)
        | (state[_SEQ1] << 7)
        | (state[_SEQ2] << 15)
    )
    key_out[0] = np.uint64(key)
    return n


@njit(cache=True, _nrt=False)
def _append(child, action):
    """Append a betting action to the current round's packed sequence."""
    if child[_ROUND] == 1:
        child[_SEQ1] |= (action + 1) << (2 * child[_LEN1])
        child[_LEN1] += 1
    else:
        child[_SEQ2] |= (action + 1) << (2 * child[_LEN2])
        child[_LEN2] += 1


@njit(APPLY_SIG, cache=True, _nrt=False)
def apply(state, action, child_out):
    """Deal card `action` at chance, else play Fold / Call / Raise as OpenSpiel does."""
    for i in range(state.shape[0]):
        child_out[i] = state[i]
    player = state[_PLAYER]
    if player == CHANCE:
        if state[_CARD0] < 0:
            child_out[_CARD0] = action
        elif state[_CARD1] < 0:
            child_out[_CARD1] = action
            child_out[_PLAYER] = 0
        else:
            child_out[_PUBLIC] = action
            child_out[_PLAYER] = 0
        return 0
    _append(child_out, action)
    if action == FOLD:
        child_out[_FOLDED] = player
        child_out[_TERMINAL] = 1
        return 0
    if action == CALL:
        child_out[_ANTE0 + player] = state[_STAKES]
        calls = state[_CALLS] + 1
        child_out[_CALLS] = calls
        raises = state[_RAISES]
        if (raises == 0 and calls == 2) or (raises > 0 and calls == 1):
            if state[_ROUND] == 2:
                child_out[_TERMINAL] = 1
            else:
                child_out[_ROUND] = 2
                child_out[_RAISES] = 0
                child_out[_CALLS] = 0
                child_out[_PLAYER] = CHANCE
            return 0
        child_out[_PLAYER] = 1 - player
        return 0
    stakes = state[_STAKES] + (2 if state[_ROUND] == 1 else 4)
    child_out[_STAKES] = stakes
    child_out[_ANTE0 + player] = stakes
    child_out[_RAISES] = state[_RAISES] + 1
    child_out[_CALLS] = 0
    child_out[_PLAYER] = 1 - player
    return 0


@njit(cache=True, _nrt=False)
def _rank(private, public):
    """OpenSpiel's hand rank: pairs above everything, else high rank * 6 + low rank."""
    lo = min(private, public)
    hi = max(private, public)
    if lo % 2 == 0 and hi == lo + 1:
        return 36 + lo
    return (hi // 2) * 6 + lo // 2


@njit(UTILITY_SIG, cache=True, _nrt=False)
def utility(state):
    """Player 0's winnings: the loser's contribution, or 0 for a split pot."""
    folded = state[_FOLDED]
    if folded == 0:
        return -float(state[_ANTE0])
    if folded == 1:
        return float(state[_ANTE1])
    r0 = _rank(state[_CARD0], state[_PUBLIC])
    r1 = _rank(state[_CARD1], state[_PUBLIC])
    if r0 > r1:
        return float(state[_ANTE1])
    if r0 < r1:
        return -float(state[_ANTE0])
    return 0.0


@njit(cache=True, _nrt=False)
def _dealt(state):
    dealt = np.int64(0)
    for card in (state[_CARD0], state[_CARD1], state[_PUBLIC]):
        if card >= 0:
            dealt |= np.int64(1) << card
    return dealt


@njit(CHANCE_OUTCOMES_SIG, cache=True, _nrt=False)
def chance_outcomes(state, outcomes_out, probs_out):
    """The cards still in the deck, in card order, each with probability 1 / (cards left)."""
    return undealt_outcomes(_dealt(state), 6, outcomes_out, probs_out)


@njit(CHANCE_SAMPLE_SIG, cache=True, _nrt=False)
def chance_sample(state, u, child_out):
    """Deal the card of index ((u >> 32) * cards_left) >> 32 among the cards left."""
    return sample_undealt(apply, _dealt(state), 6, state, u, child_out)


GAME = Game(name="leduc", state_size=STATE_SIZE, max_actions=6, max_depth=12, key_words=1,
            **functions_of(globals()))
