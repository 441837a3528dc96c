"""Abstract Spades as the six numba functions of the CFR game interface (`cfr/game.py`).

The state is the hand state of `games/spades/state.py` (30 int64 words) with a dealing phase
before it (`abstraction/dealing.py`): the root is all zeros with PHASE = PHASE_DEAL (-1), and
52 chance nodes deal one card each (uniform over the cards not yet dealt): card k goes to seat
k // 13 (relative to the dealer); after the last the hand starts as `state.reset_hand` starts
it, at a game score of 0 to 0.

Decisions are the abstract actions of `keys.py` as concrete moves, with the key when there are
two or more. CFR player = team of the seat to act (TO_ACT % 2; team 0 is the dealer's). Past
the learned tricks every card is the heuristic's (`games.spades.heuristic`), a forced move. The
utility is team 0's points minus team 1's for the hand from 0 to 0 (`scoring.team_score`,
OpenSpiel's returns of a single hand, as `tournament --game spades --hands` scores it), in
tens of points (a contract trick is 1).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from abstraction.dealing import (  # noqa: F401 (CHANCE, TERMINAL: the interface's, re-exported)
    APPLY_SIG, CHANCE, CHANCE_OUTCOMES_SIG, CHANCE_SAMPLE_SIG, CURRENT_PLAYER_SIG, DECISION_SIG,
    PHASE_DEAL, TERMINAL, UTILITY_SIG, apply_past_forced_moves, cards_dealt, deal_or_move,
    give_card, keyed, root_state, sample_undealt, single_card, undealt_outcomes)
from games.spades.abstraction.keys import LEARNED_TRICKS, abstract_decision
from games.bits import popcount
from games.spades import state as S
from games.spades.cards import N_CARDS
from games.spades.heuristic import heuristic_move
from games.spades.rules import apply_move, legal_cards
from games.spades.scoring import team_score

MAX_ACTIONS = N_CARDS  # chance outcomes; decisions have at most 13
MAX_DEPTH = 1 + N_CARDS + 4 + N_CARDS + 1  # root, 52 cards dealt, 4 bids, 52 cards played
POINTS_SCALE = 10.0  # the utility in contract tricks


def initial_state() -> np.ndarray:
    """The root: nothing dealt yet."""
    return root_state(S.STATE_SIZE, S.PHASE)


@njit(CURRENT_PLAYER_SIG, cache=True, _nrt=False)
def current_player(state):
    """CHANCE while dealing; TERMINAL once the hand is over; else the acting team."""
    if state[S.PHASE] == PHASE_DEAL:
        return CHANCE
    if state[S.PHASE] == S.PHASE_OVER:
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
    give_card(child_out, S.DEALT, S.HAND, k // S.HAND_SIZE, card)
    if k == N_CARDS - 1:  # the last card: the hand starts (`state.reset_hand`, from 0 to 0)
        S.start_hand(child_out)


@njit(APPLY_SIG, cache=True, _nrt=False)
def apply(state, action, child_out):
    """Copy `state` into `child_out` and deal the card `action` (chance) or make the move."""
    return deal_or_move(_deal_card, apply_move, S.PHASE, state, action, child_out)


@njit(cache=True, _nrt=False)
def forced_move(state):
    """The move nobody chooses at `state`: the heuristic's card past the learned tricks, or a
    seat's single legal card; -1 at a real decision or once the hand is over."""
    if state[S.PHASE] != S.PHASE_PLAY:
        return -1
    if state[S.TRICK_NUMBER] >= LEARNED_TRICKS:
        return heuristic_move(state)
    return single_card(legal_cards(state))


@njit(APPLY_SIG, cache=True, _nrt=False)
def apply_past_forced(state, action, child_out):
    """`apply`, then every forced move that follows (`forced_move`), until a real decision or
    the end of the hand (`dealing.apply_past_forced_moves`). The trainer's game uses this."""
    return apply_past_forced_moves(apply, forced_move, apply_move, state, action, child_out)


@njit(UTILITY_SIG, cache=True, _nrt=False)
def utility(state):
    """Team 0's points minus team 1's for the finished hand, over `POINTS_SCALE`
    (`scoring.score_difference` without its allocation)."""
    diff = 0
    for team in range(2):
        points = team_score(state[S.BID + team], state[S.BID + team + 2], state[S.TAKEN + team],
                            state[S.TAKEN + team + 2], state[S.SCORE + team])
        diff += points if team == 0 else -points
    return np.float64(diff) / POINTS_SCALE


@njit(CHANCE_OUTCOMES_SIG, cache=True, _nrt=False)
def chance_outcomes(state, outcomes_out, probs_out):
    """The cards not yet dealt, ascending, each with probability 1 / their number."""
    return undealt_outcomes(cards_dealt(state, S.DEALT), N_CARDS, outcomes_out, probs_out)


@njit(CHANCE_SAMPLE_SIG, cache=True, _nrt=False)
def chance_sample(state, u, child_out):
    """Deal the card of index ((u >> 32) * cards_left) >> 32 among the undealt cards."""
    return sample_undealt(apply, cards_dealt(state, S.DEALT), N_CARDS, state, u, child_out)
