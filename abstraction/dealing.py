"""The half of an abstract card game's CFR interface (`cfr/game.py`) that no game owns: the
signatures, and the deal a card per chance node that every game's tree starts with.

A game's abstract state is its engine state with a dealing phase before it: the root is all
zeros with PHASE = PHASE_DEAL (-1), each chance node deals one card (the outcome is the card,
uniform over the cards not yet dealt, which keeps the outcomes enumerable), and the game's own
`deal_card` puts the card where its rules deal it and opens the hand after the last one. What
is shared here is written once: "deal or move", the root and the key write (the undealt cards,
their probabilities and the mapping of one random word to a card are every card game's,
`games/interface.py`, Kuhn's and Leduc's too). The helpers inline into the game's compiled
functions (numba `inline="always"`, the game's functions passed as arguments resolve to direct
calls), so the traversal's per-node cost is what a hand-written copy would have.

The signatures restate the numba types of `cfr/game.py` rather than importing them, since the
abstraction depends on `games` only; each game's abstraction test checks they agree.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from games.bits import lowest_bit
from games.interface import sample_undealt, undealt_outcomes  # noqa: F401 (re-exported)

CHANCE = -1
TERMINAL = -2
PHASE_DEAL = -1

_STATE = types.int64[::1]
CURRENT_PLAYER_SIG = types.int64(_STATE)
DECISION_SIG = types.int64(_STATE, types.int64[::1], types.uint64[::1])
APPLY_SIG = types.int64(_STATE, types.int64, _STATE)
UTILITY_SIG = types.float64(_STATE)
CHANCE_OUTCOMES_SIG = types.int64(_STATE, types.int64[::1], types.float64[::1])
CHANCE_SAMPLE_SIG = types.int64(_STATE, types.uint64, _STATE)


def root_state(state_size: int, phase: int) -> np.ndarray:
    """The root of a game whose state has `state_size` words and its phase at `phase`:
    nothing dealt yet."""
    state = np.zeros(state_size, dtype=np.int64)
    state[phase] = PHASE_DEAL
    return state


@njit(cache=True, inline="always")
def cards_dealt(state, dealt):
    """The cards dealt so far: the union of the four seats' masks at `dealt`..`dealt + 3`."""
    return state[dealt] | state[dealt + 1] | state[dealt + 2] | state[dealt + 3]


@njit(cache=True, inline="always")
def deal_or_move(deal_card, apply_move, phase, state, action, child_out):
    """Copy `state` into `child_out`, then deal the card `action` there (`deal_card(state,
    card, child_out)`, while `state[phase]` is PHASE_DEAL) or make the move (`apply_move`).
    A loop copies, not slice assignment, which may allocate (`cfr/game.py`)."""
    for i in range(state.shape[0]):
        child_out[i] = state[i]
    if state[phase] == PHASE_DEAL:
        deal_card(state, action, child_out)
    else:
        apply_move(child_out, action)
    return 0


@njit(cache=True, inline="always")
def keyed(n, key, key_out):
    """A decision's count of actions `n`, writing its info-set `key` to `key_out[0]` when
    there is a choice (n >= 2: a forced move needs no key, `cfr/game.py`)."""
    if n >= 2:
        key_out[0] = key
    return n


@njit(cache=True, inline="always")
def give_card(child_out, dealt, hand, seat, card):
    """Deal `card` to `seat`: into its dealt cards and its hand (the words `dealt + seat` and
    `hand + seat` of the game's state)."""
    bit = np.int64(1) << card
    child_out[dealt + seat] |= bit
    child_out[hand + seat] |= bit


@njit(cache=True, inline="always")
def single_card(legal):
    """The card of the legal-card mask `legal` when it holds one card (the move is forced),
    else -1 (a choice)."""
    if legal & (legal - 1) != 0:
        return -1
    return lowest_bit(legal)


@njit(cache=True, inline="always")
def apply_past_forced_moves(apply, forced_move, apply_move, state, action, child_out):
    """`apply(state, action, child_out)`, then every forced move that follows (`forced_move`:
    the move, or -1 at a decision or the end) made by `apply_move`. A forced move has no key:
    skipping it changes no value of a CFR pass and saves its one-action nodes."""
    apply(state, action, child_out)
    move = forced_move(child_out)
    while move >= 0:
        apply_move(child_out, move)
        move = forced_move(child_out)
    return 0
