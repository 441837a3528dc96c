"""Abstract Setback as the six numba functions of the CFR game interface (`cfr/game.py`).

The state is the deal state of `games/setback/state.py` (32 int64 words), plus a dealing phase
before it: the root is all zeros with PHASE = PHASE_DEAL (-1), and each of 24 chance nodes
deals one card (outcome = the card, uniform over the cards not yet dealt) in the order of the
rules: packets of three from the dealer's left, twice round, so the k-th card dealt (k = 0..23)
goes to seat (k // 3 + 1) % 4. After the 24th card the auction starts exactly as
`state.reset_deal` starts it. Dealing card by card keeps the chance outcomes enumerable (at
most 52 per node), so the same game supports sampled chance (one deal per pass, the k-th
chance node drawing from word k) and the interface's enumeration.

Decisions are the abstract actions of `decision.py` as concrete moves (the representative card
or bid of each abstract action, in canonical order), with the baseline key when there are two
or more. CFR player = team of the seat to act (TO_ACT % 2). A deal is terminal when it is over
or exhausted (`scoring.is_exhausted`); its utility is team 0's deal score minus team 1's
(all-pass 0).

The deal and the signatures are every abstract card game's (`abstraction/dealing.py`;
`tests/test_abstraction_game.py` checks the signatures agree with `cfr/game.py`); this module
holds what is Setback's: where a card goes, the forced-card shortcut, the terminal test and the
utility.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from abstraction.dealing import (  # noqa: F401 (CHANCE, TERMINAL: the interface's, re-exported)
    APPLY_SIG, CHANCE, CHANCE_OUTCOMES_SIG, CHANCE_SAMPLE_SIG, CURRENT_PLAYER_SIG, DECISION_SIG,
    PHASE_DEAL, TERMINAL, UTILITY_SIG, apply_past_forced_moves, cards_dealt, deal_or_move,
    give_card, keyed, root_state, sample_undealt, single_card, undealt_outcomes)
from games.setback.abstraction.decision import abstract_decision
from games.bits import popcount
from games.setback.cards import N_CARDS
from games.setback.rules import apply_move, legal_cards
from games.setback.scoring import is_exhausted, score_difference
from games.setback.state import (
    DEALT,
    HAND,
    PHASE,
    PHASE_OVER,
    PHASE_PLAY,
    STATE_SIZE,
    TO_ACT,
    TRUMP,
    start_auction,
)

CARDS_DEALT = 24
MAX_ACTIONS = 52  # chance outcomes; decisions have at most 6 (cards) or 4 (bids)
MAX_DEPTH = 1 + 24 + 4 + 24  # root, 24 cards dealt, 4 bids, 24 cards played


def initial_state() -> np.ndarray:
    """The root: nothing dealt yet."""
    return root_state(STATE_SIZE, PHASE)


@njit(CURRENT_PLAYER_SIG, cache=True, _nrt=False)
def current_player(state):
    """CHANCE while dealing; TERMINAL when the deal is over or exhausted; else the acting team."""
    if state[PHASE] == PHASE_DEAL:
        return CHANCE
    if state[PHASE] == PHASE_OVER or is_exhausted(state):
        return TERMINAL
    return state[TO_ACT] % 2


@njit(cache=True, inline="always")
def layout_decision(abstract_decision, state, actions_out, key_out):
    """The decision of the abstract game under a key layout whose kernel is
    `abstract_decision` (the reference's, or a layout's of `layouts.py`): the abstract actions
    as moves in canonical order, the key when n >= 2.

    A seat with a single legal card after the first lead has a single abstract action, that
    card: it is answered without classifying (a large share of the tree's nodes)."""
    if state[PHASE] == PHASE_PLAY and state[TRUMP] >= 0:
        card = single_card(legal_cards(state))
        if card >= 0:
            actions_out[0] = card
            return 1
    n, situation, tokens, key = abstract_decision(state, actions_out)
    return keyed(n, key, key_out)


@njit(DECISION_SIG, cache=True, _nrt=False)
def decision(state, actions_out, key_out):
    """The abstract actions as moves in canonical order; the baseline key when n >= 2
    (`layout_decision` with the reference's keys)."""
    return layout_decision(abstract_decision, state, actions_out, key_out)


@njit(cache=True, _nrt=False)
def _deal_card(state, card, child_out):
    k = popcount(cards_dealt(state, DEALT))
    give_card(child_out, DEALT, HAND, (k // 3 + 1) % 4, card)
    if k + 1 == CARDS_DEALT:  # every card dealt: open the auction as reset_deal does
        start_auction(child_out)


@njit(APPLY_SIG, cache=True, _nrt=False)
def apply(state, action, child_out):
    """Copy `state` into `child_out` and deal the card `action` (chance) or play the move."""
    return deal_or_move(_deal_card, apply_move, PHASE, state, action, child_out)


@njit(cache=True, _nrt=False)
def forced_move(state):
    """The card nobody chooses at `state`: a seat's single legal card once trump is set; -1 at
    a real decision or once the deal is over or exhausted."""
    if state[PHASE] != PHASE_PLAY or state[TRUMP] < 0 or is_exhausted(state):
        return -1
    return single_card(legal_cards(state))


@njit(APPLY_SIG, cache=True, _nrt=False)
def apply_past_forced(state, action, child_out):
    """`apply`, then every forced card that follows (`forced_move`), until a real decision or
    the end of the deal (`dealing.apply_past_forced_moves`).

    A forced card is a decision with one action and no key: a CFR pass only walks through it,
    so skipping it changes no value and no update, while it saves most of a young deal's
    nodes (about three forced cards per keyed decision). The trainer's game uses this."""
    return apply_past_forced_moves(apply, forced_move, apply_move, state, action, child_out)


@njit(UTILITY_SIG, cache=True, _nrt=False)
def utility(state):
    """Team 0's deal score minus team 1's (0 when all passed), as a float."""
    return np.float64(score_difference(state))


@njit(CHANCE_OUTCOMES_SIG, cache=True, _nrt=False)
def chance_outcomes(state, outcomes_out, probs_out):
    """The cards not yet dealt, ascending, each with probability 1 / their number."""
    return undealt_outcomes(cards_dealt(state, DEALT), N_CARDS, outcomes_out, probs_out)


@njit(CHANCE_SAMPLE_SIG, cache=True, _nrt=False)
def chance_sample(state, u, child_out):
    """Deal the card of index ((u >> 32) * cards_left) >> 32 among the undealt cards."""
    return sample_undealt(apply, cards_dealt(state, DEALT), N_CARDS, state, u, child_out)
