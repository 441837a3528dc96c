"""The score-aware bootstrap auction as a CFR game (abstraction.md, "Payoffs", bootstrap).

An episode is a random deal plus a random dealer-relative game score, each team uniform in
-3..10. Only the four bids are CFR decisions, keyed by the bootstrap key (every legal bid).
Once the auction ends, the deal is played out by the baseline policy (`policy_playout.py`);
if the game is then won (the deal score added to the game score once), the winner's team gets
+5.5 and the loser -5.5, otherwise the payoff is the deal-score difference. All-pass scores 0.

The playout depends only on who won the auction and with which bid, so `prepare_root` plays
the twelve possible outcomes (bidder 0..3 x bid 2..4) out once per episode and stores their
deal scores in the state; the game's functions then need no policy. State layout: the deal
state of `games/setback/state.py` (words 0..31), then the two game scores (SCORE) and the
twelve outcomes' deal scores (OUTCOME), 58 words in all.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from games.setback.abstraction.bootstrap_key import bootstrap_actions, bootstrap_key
from games.setback.abstraction.policy_playout import MAX_ABSTRACT_ACTIONS, play_out, policy_action
from games.rng import below
from games.setback.game import TARGET
from games.setback.rules import BID_MOVE, apply_bid, apply_move
from games.setback.scoring import deal_score, is_exhausted
from games.setback.state import (
    HIGH_BID,
    HIGH_BIDDER,
    LEADER,
    N_BIDS,
    PHASE,
    PHASE_AUCTION,
    PHASE_OVER,
    PHASE_PLAY,
    STATE_SIZE,
    TO_ACT,
    random_deal,
)

SCORE = STATE_SIZE  # SCORE + team: the game score of dealer-relative team 0 / 1
OUTCOME = STATE_SIZE + 2  # OUTCOME + 2 * (3 * bidder + bid - 2) + team: that outcome's deal score
BOOTSTRAP_STATE_SIZE = OUTCOME + 24
SCORE_LOW, SCORE_HIGH = -3, 10
WIN_PAYOFF = 5.5

CHANCE = -1
TERMINAL = -2
MAX_ACTIONS = 4
MAX_DEPTH = 5
MAX_PLAYOUT_ACTIONS = MAX_ABSTRACT_ACTIONS

_STATE = types.int64[::1]


@njit(cache=True)
def _deal_root(word, root):
    """Deal the episode drawn from `word` into `root` and draw both game scores; return the
    deal (a view of `root`). Shared by both `prepare_root`s, so their episodes are the same."""
    rng = np.empty(1, np.uint64)
    rng[0] = word
    deal = root[:STATE_SIZE]
    random_deal(rng, deal)
    root[SCORE] = SCORE_LOW + below(rng, SCORE_HIGH - SCORE_LOW + 1)
    root[SCORE + 1] = SCORE_LOW + below(rng, SCORE_HIGH - SCORE_LOW + 1)
    return deal


@njit(cache=True)
def _contract_state(deal, scratch, bidder, bid):
    """`scratch` becomes `deal` with the auction over: `bidder` won it at `bid` and leads."""
    for i in range(STATE_SIZE):
        scratch[i] = deal[i]
    scratch[HIGH_BID] = bid
    scratch[HIGH_BIDDER] = bidder
    scratch[N_BIDS] = 4
    scratch[PHASE] = PHASE_PLAY
    scratch[TO_ACT] = bidder
    scratch[LEADER] = bidder


@njit(cache=True)
def prepare_root(word, policy_keys, policy_best, root, misses):
    """Deal from `word`, draw both game scores, and store the deal score of each of the twelve
    auction outcomes played out by the policy; `root` becomes the episode's first bid."""
    deal = _deal_root(word, root)
    scratch = np.empty(STATE_SIZE, np.int64)
    for bidder in range(4):
        for bid in range(2, 5):
            _contract_state(deal, scratch, bidder, bid)
            score0, score1 = play_out(scratch, policy_keys, policy_best, misses)
            at = OUTCOME + 2 * (3 * bidder + bid - 2)
            root[at] = score0
            root[at + 1] = score1


@njit(cache=True)
def prepare_root_with(decide, word, policy_keys, policy_best, root, misses):
    """`prepare_root` for any key layout: the playouts ask `decide` (a layout's game
    `decision`, passed as a first-class function, `layouts.py`) for each decision's actions
    and key. With the reference layout's `decision` it builds the roots `prepare_root` builds
    (`abstract_game.decision` answers a single legal card as the one abstract action)."""
    deal = _deal_root(word, root)
    scratch = np.empty(STATE_SIZE, np.int64)
    moves = np.empty(MAX_PLAYOUT_ACTIONS, np.int64)
    key = np.zeros(1, np.uint64)
    for bidder in range(4):
        for bid in range(2, 5):
            _contract_state(deal, scratch, bidder, bid)
            while scratch[PHASE] != PHASE_OVER and not is_exhausted(scratch):
                n = decide(scratch, moves, key)
                choice = 0 if n == 1 else policy_action(policy_keys, policy_best, key[0],
                                                        misses)
                apply_move(scratch, moves[choice])
            score0, score1 = deal_score(scratch)
            at = OUTCOME + 2 * (3 * bidder + bid - 2)
            root[at] = score0
            root[at + 1] = score1


@njit(types.int64(_STATE), cache=True, _nrt=False)
def current_player(state):
    """The bidding team during the auction; TERMINAL once it is over."""
    if state[PHASE] == PHASE_AUCTION:
        return state[TO_ACT] % 2
    return TERMINAL


@njit(types.int64(_STATE, types.int64[::1], types.uint64[::1]), cache=True, _nrt=False)
def decision(state, actions_out, key_out):
    """Every legal bid; the bootstrap key (score seen from the bidder's team) when n >= 2."""
    n, mask = bootstrap_actions(state, actions_out)
    if n >= 2:
        team = state[TO_ACT] % 2
        key_out[0] = bootstrap_key(state, state[SCORE + team], state[SCORE + 1 - team])
    return n


@njit(types.int64(_STATE, types.int64, _STATE), cache=True, _nrt=False)
def apply(state, action, child_out):
    """Copy the state and make the bid."""
    for i in range(state.shape[0]):
        child_out[i] = state[i]
    apply_bid(child_out, action - BID_MOVE)
    return 0


@njit(types.float64(_STATE), cache=True, _nrt=False)
def utility(state):
    """Team 0's payoff: +-5.5 if the deal wins the game, else the deal-score difference."""
    if state[HIGH_BID] == 0:
        return 0.0
    at = OUTCOME + 2 * (3 * state[HIGH_BIDDER] + state[HIGH_BID] - 2)
    score0 = state[at]
    score1 = state[at + 1]
    total0 = state[SCORE] + score0
    total1 = state[SCORE + 1] + score1
    if max(total0, total1) >= TARGET and total0 != total1:
        return WIN_PAYOFF if total0 > total1 else -WIN_PAYOFF
    return np.float64(score0 - score1)


@njit(types.int64(_STATE, types.int64[::1], types.float64[::1]), cache=True, _nrt=False)
def chance_outcomes(state, outcomes_out, probs_out):
    """No chance node: each episode's root is prepared by `prepare_root`."""
    return 0


@njit(types.int64(_STATE, types.uint64, _STATE), cache=True, _nrt=False)
def chance_sample(state, u, child_out):
    """No chance node: each episode's root is prepared by `prepare_root`."""
    return -1
