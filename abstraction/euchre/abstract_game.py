"""Abstract Euchre as the six numba functions of the CFR game interface (`cfr/game.py`).

The state is the hand state of `games/euchre/state.py` (31 int64 words) with a dealing phase
before it: the root is all zeros with PHASE = PHASE_DEAL (-1), and 21 chance nodes deal one
card each (outcome = the card, uniform over the cards not yet dealt): cards k = 0..19 go to
seat k // 5 (relative to the dealer), card 20 is the upcard, after which the hand starts as
`state.reset_hand` starts it with stick the dealer on (OpenSpiel's default). One card a chance
node keeps the outcomes enumerable (at most 24), so the same game supports sampled chance and
the interface's enumeration.

Decisions are the abstract actions of `keys.py` as concrete moves, with the key when there are
two or more. CFR player = team of the seat to act (TO_ACT % 2; team 0 is the dealer's). The
hand is terminal when it is over or *settled*: the defenders have three tricks (euchred), or
the makers have three and the defenders one (a point, no march possible); the points cannot
change after that, so the rest is not walked. The utility is team 0's points minus team 1's
(1, 2 or 4 for the makers, 2 for a euchre, as `scoring.score_difference`).

The signatures restate the numba types of `cfr/game.py` rather than importing them, since the
abstraction depends on `games` only; `tests/test_euchre_abstraction.py` checks they agree.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from abstraction.euchre.keys import abstract_decision, discard_rule
from games.bits import lowest_bit, popcount
from games.euchre.rules import apply_move, legal_cards
from games.euchre.scoring import makers_score
from games.euchre.state import (
    ALONE,
    DEALT,
    DISCARD,
    HAND,
    HAND_SIZE,
    LEADER,
    MAKER,
    N_ACTIVE,
    OUT,
    PHASE,
    PHASE_DISCARD,
    PHASE_ORDER,
    PHASE_OVER,
    PHASE_PLAY,
    STATE_SIZE,
    STICK,
    TO_ACT,
    TRICK,
    TRICKS_WON,
    TRUMP,
    UPCARD,
    WINNING,
)

CHANCE = -1
TERMINAL = -2
PHASE_DEAL = -1
HAND_CARDS = 4 * HAND_SIZE  # 20 cards to the hands, then the upcard
N_CARDS = 24
MAX_ACTIONS = 24  # chance outcomes (and the play kernel's scratch); decisions have <= 5
MAX_DEPTH = 1 + 21 + 8 + 1 + 1 + 20  # root, 21 cards dealt, 8 calls, discard, alone, 20 cards

_STATE = types.int64[::1]
CURRENT_PLAYER_SIG = types.int64(_STATE)
DECISION_SIG = types.int64(_STATE, types.int64[::1], types.uint64[::1])
APPLY_SIG = types.int64(_STATE, types.int64, _STATE)
UTILITY_SIG = types.float64(_STATE)
CHANCE_OUTCOMES_SIG = types.int64(_STATE, types.int64[::1], types.float64[::1])
CHANCE_SAMPLE_SIG = types.int64(_STATE, types.uint64, _STATE)


def initial_state() -> np.ndarray:
    """The root: nothing dealt yet."""
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[PHASE] = PHASE_DEAL
    return state


@njit(cache=True, inline="always")
def _dealt(state):
    return state[DEALT] | state[DEALT + 1] | state[DEALT + 2] | state[DEALT + 3]


@njit(cache=True)
def is_settled(state):
    """Whether the hand's points can no longer change: the defenders have three tricks, or
    the makers three and the defenders one (also true once the hand is over)."""
    if state[PHASE] == PHASE_OVER:
        return True
    if state[PHASE] != PHASE_PLAY:
        return False
    makers = state[MAKER] % 2
    made = state[TRICKS_WON + makers]
    defended = state[TRICKS_WON + 1 - makers]
    return defended >= 3 or (made >= 3 and defended >= 1)


@njit(CURRENT_PLAYER_SIG, cache=True, _nrt=False)
def current_player(state):
    """CHANCE while dealing; TERMINAL once the hand is over or settled; else the acting team."""
    if state[PHASE] == PHASE_DEAL:
        return CHANCE
    if is_settled(state):
        return TERMINAL
    return state[TO_ACT] % 2


@njit(DECISION_SIG, cache=True, _nrt=False)
def decision(state, actions_out, key_out):
    """The abstract actions as moves (`keys.py` order); the key when n >= 2."""
    n, kind, key = abstract_decision(state, actions_out)
    if n >= 2:
        key_out[0] = key
    return n


@njit(cache=True, _nrt=False)
def _start_hand(child_out, upcard):
    """Open the hand as `state.reset_hand` does (the hands are already in place)."""
    child_out[UPCARD] = upcard
    child_out[PHASE] = PHASE_ORDER
    child_out[TO_ACT] = 1
    child_out[MAKER] = -1
    child_out[TRUMP] = -1
    child_out[ALONE] = -1
    child_out[OUT] = -1
    child_out[DISCARD] = -1
    child_out[LEADER] = -1
    for i in range(4):
        child_out[TRICK + i] = -1
    child_out[WINNING] = -1
    child_out[N_ACTIVE] = 4
    child_out[STICK] = 1


@njit(cache=True, _nrt=False)
def _deal_card(state, card, child_out):
    k = popcount(_dealt(state))
    if k == HAND_CARDS:
        _start_hand(child_out, card)
        return
    seat = k // HAND_SIZE
    bit = np.int64(1) << card
    child_out[DEALT + seat] |= bit
    child_out[HAND + seat] |= bit


@njit(APPLY_SIG, cache=True, _nrt=False)
def apply(state, action, child_out):
    """Copy `state` into `child_out` and deal the card `action` (chance) or make the move."""
    for i in range(state.shape[0]):
        child_out[i] = state[i]
    if state[PHASE] == PHASE_DEAL:
        _deal_card(state, action, child_out)
    else:
        apply_move(child_out, action)
    return 0


@njit(cache=True, _nrt=False)
def _discard(state):
    return discard_rule(state[HAND], state[UPCARD], state[TRUMP])


@njit(APPLY_SIG, cache=True, _nrt=False)
def apply_past_forced(state, action, child_out):
    """`apply`, then every forced move that follows (the dealer's discard by the rule, a seat
    with a single legal card), until a real decision or the end of the hand. A forced move has
    no key, so a CFR pass only walks through it: skipping it changes no value. The trainer's
    game uses this."""
    apply(state, action, child_out)
    while not is_settled(child_out):
        phase = child_out[PHASE]
        if phase == PHASE_DISCARD:
            apply_move(child_out, _discard(child_out))
        elif phase == PHASE_PLAY:
            legal = legal_cards(child_out)
            if legal & (legal - 1) != 0:
                break
            apply_move(child_out, lowest_bit(legal))
        else:
            break
    return 0


@njit(UTILITY_SIG, cache=True, _nrt=False)
def utility(state):
    """Team 0's points minus team 1's, as a float: the makers' score (1, 2, 4, or -2 when
    euchred) from team 0's side (`scoring.score_difference` without its allocation)."""
    score = makers_score(state)
    if state[MAKER] % 2 == 1:
        score = -score
    return np.float64(score)


@njit(CHANCE_OUTCOMES_SIG, cache=True, _nrt=False)
def chance_outcomes(state, outcomes_out, probs_out):
    """The cards not yet dealt, ascending, each with probability 1 / their number."""
    dealt = _dealt(state)
    p = 1.0 / (N_CARDS - popcount(dealt))
    n = 0
    for card in range(N_CARDS):
        if not (dealt >> card & 1):
            outcomes_out[n] = card
            probs_out[n] = p
            n += 1
    return n


@njit(CHANCE_SAMPLE_SIG, cache=True, _nrt=False)
def chance_sample(state, u, child_out):
    """Deal the card of index ((u >> 32) * cards_left) >> 32 among the undealt cards."""
    dealt = _dealt(state)
    left = N_CARDS - popcount(dealt)
    index = np.int64(((u >> np.uint64(32)) * np.uint64(left)) >> np.uint64(32))
    for card in range(N_CARDS):
        if not (dealt >> card & 1):
            if index == 0:
                apply(state, card, child_out)
                return card
            index -= 1
    return -1
