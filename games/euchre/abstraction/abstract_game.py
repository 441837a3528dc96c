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

The deal and the signatures are every abstract card game's (`abstraction/dealing.py`;
`tests/test_euchre_abstraction.py` checks the signatures agree with `cfr/game.py`); this module
holds what is Euchre's: where a card goes, the forced moves, the settled test and the utility.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from abstraction.dealing import (  # noqa: F401 (CHANCE, TERMINAL: the interface's, re-exported)
    APPLY_SIG, CHANCE, CHANCE_OUTCOMES_SIG, CHANCE_SAMPLE_SIG, CURRENT_PLAYER_SIG, DECISION_SIG,
    PHASE_DEAL, TERMINAL, UTILITY_SIG, apply_past_forced_moves, cards_dealt, deal_or_move,
    give_card, keyed, root_state, sample_undealt, single_card, undealt_outcomes)
from games.euchre.abstraction.keys import abstract_decision, discard_rule
from games.bits import popcount
from games.euchre import state as S
from games.euchre.cards import N_CARDS
from games.euchre.rules import apply_move, legal_cards
from games.euchre.scoring import makers_score

HAND_CARDS = 4 * S.HAND_SIZE  # 20 cards to the hands, then the upcard
MAX_ACTIONS = 24  # chance outcomes (and the play kernel's scratch); decisions have <= 5
MAX_DEPTH = 1 + 21 + 8 + 1 + 1 + 20  # root, 21 cards dealt, 8 calls, discard, alone, 20 cards


def initial_state() -> np.ndarray:
    """The root: nothing dealt yet."""
    return root_state(S.STATE_SIZE, S.PHASE)


@njit(cache=True)
def is_settled(state):
    """Whether the hand's points can no longer change: the defenders have three tricks, or
    the makers three and the defenders one (also true once the hand is over)."""
    if state[S.PHASE] == S.PHASE_OVER:
        return True
    if state[S.PHASE] != S.PHASE_PLAY:
        return False
    makers = state[S.MAKER] % 2
    made = state[S.TRICKS_WON + makers]
    defended = state[S.TRICKS_WON + 1 - makers]
    return defended >= 3 or (made >= 3 and defended >= 1)


@njit(CURRENT_PLAYER_SIG, cache=True, _nrt=False)
def current_player(state):
    """CHANCE while dealing; TERMINAL once the hand is over or settled; else the acting team."""
    if state[S.PHASE] == PHASE_DEAL:
        return CHANCE
    if is_settled(state):
        return TERMINAL
    return state[S.TO_ACT] % 2


@njit(DECISION_SIG, cache=True, _nrt=False)
def decision(state, actions_out, key_out):
    """The abstract actions as moves (`keys.py` order); the key when n >= 2."""
    n, kind, key = abstract_decision(state, actions_out)
    return keyed(n, key, key_out)


@njit(cache=True, _nrt=False)
def _deal_card(state, card, child_out):
    k = popcount(cards_dealt(state, S.DEALT))
    if k == HAND_CARDS:  # the hands are dealt: the card is the upcard, stick the dealer on
        S.start_hand(child_out, card, 1)
        return
    give_card(child_out, S.DEALT, S.HAND, k // S.HAND_SIZE, card)


@njit(APPLY_SIG, cache=True, _nrt=False)
def apply(state, action, child_out):
    """Copy `state` into `child_out` and deal the card `action` (chance) or make the move."""
    return deal_or_move(_deal_card, apply_move, S.PHASE, state, action, child_out)


@njit(cache=True, _nrt=False)
def forced_move(state):
    """The move nobody chooses at `state`: the dealer's discard by the rule (`keys.discard_rule`)
    or a seat's single legal card; -1 at a real decision or once the hand is settled."""
    if is_settled(state):
        return -1
    phase = state[S.PHASE]
    if phase == S.PHASE_DISCARD:
        return discard_rule(state[S.HAND], state[S.UPCARD], state[S.TRUMP])
    if phase == S.PHASE_PLAY:
        return single_card(legal_cards(state))
    return -1


@njit(APPLY_SIG, cache=True, _nrt=False)
def apply_past_forced(state, action, child_out):
    """`apply`, then every forced move that follows (`forced_move`), until a real decision or
    the end of the hand (`dealing.apply_past_forced_moves`). The trainer's game uses this."""
    return apply_past_forced_moves(apply, forced_move, apply_move, state, action, child_out)


@njit(UTILITY_SIG, cache=True, _nrt=False)
def utility(state):
    """Team 0's points minus team 1's, as a float: the makers' score (1, 2, 4, or -2 when
    euchred) from team 0's side (`scoring.score_difference` without its allocation)."""
    score = makers_score(state)
    if state[S.MAKER] % 2 == 1:
        score = -score
    return np.float64(score)


@njit(CHANCE_OUTCOMES_SIG, cache=True, _nrt=False)
def chance_outcomes(state, outcomes_out, probs_out):
    """The cards not yet dealt, ascending, each with probability 1 / their number."""
    return undealt_outcomes(cards_dealt(state, S.DEALT), N_CARDS, outcomes_out, probs_out)


@njit(CHANCE_SAMPLE_SIG, cache=True, _nrt=False)
def chance_sample(state, u, child_out):
    """Deal the card of index ((u >> 32) * cards_left) >> 32 among the undealt cards."""
    return sample_undealt(apply, cards_dealt(state, S.DEALT), N_CARDS, state, u, child_out)
