"""The Spades heuristic (`play/spades_heuristic.py`) in numba, and the rollout game built on it.

Search rolls every candidate move out to the end of the hand thousands of times a decision;
the Python heuristic would take milliseconds a rollout. `heuristic_move(state)` makes exactly
the Python player's move (same rules, same tie-breaks: `tests/test_spades_search.py` checks
them move for move on random hands), from the fields of the seat to act that its view shows
(its hand, the bids, the tricks taken, the trick on the table), so it may be asked at any seat
of a full state.

The rollout game: `rollout_current_player`, `rollout_decision`, `rollout_apply` and
`rollout_utility` are the four functions of the CFR game interface that rollouts call
(`cfr/game.py`; compiled for its signatures where `play/spades_search_player.py` resolves
their addresses, since `search/` may not import `cfr/`), over the engine state itself. `rollout_decision` offers ONE action, the heuristic's move, so
`search/rollout.py`'s rollouts follow the heuristic as forced moves with no table at all; the
utility is team 0's hand score less team 1's (`scoring.team_score` of each).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import popcount
from games.spades.cards import N_RANKS, SPADES, power, suit_mask
from games.spades.rules import BID_MOVE, apply_move, highest_bid, legal_cards
from games.spades.scoring import team_score
from games.spades.state import (BID, HAND, LEADER, N_IN_TRICK, N_TRICKS, PHASE, PHASE_BID,
                                PHASE_OVER, SCORE, TAKEN, TO_ACT, TRICK, TRICK_NUMBER, WINNING)

ACE, KING, QUEEN, NINE = 12, 11, 10, 7  # rank indices, as in play/spades_heuristic.py
TERMINAL = -2  # cfr/game.py's


@njit(cache=True, nogil=True)
def count_tricks2(hand):
    """Twice the tricks `play.spades_heuristic.count_tricks` expects of `hand` (an integer:
    its half tricks stay exact)."""
    spades = popcount(hand & suit_mask(SPADES))
    twice = 0
    for suit in range(4):
        ranks = (hand >> (N_RANKS * suit)) & ((1 << N_RANKS) - 1)
        length = popcount(ranks)
        twice += 2 * (ranks >> ACE & 1)
        if ranks >> KING & 1 and length >= 2:
            twice += 2
        if suit == SPADES:
            if ranks >> QUEEN & 1 and length >= 3:
                twice += 2
            twice += 2 * max(0, length - 3)
        elif spades >= 3:
            twice += 2 if length == 0 else 1 if length == 1 else 0
    return twice


@njit(cache=True, nogil=True)
def heuristic_bid(hand, highest):
    """The heuristic's bid (0 = Nil .. `highest`) for `hand` (`play.spades_heuristic.choose_bid`)."""
    twice = count_tricks2(hand)
    spades = (hand >> (N_RANKS * SPADES)) & ((1 << N_RANKS) - 1)
    aces = 0
    for suit in range(4):
        aces += hand >> (suit * N_RANKS + ACE) & 1
    # no spade above the nine: the spade ranks above NINE are empty
    if twice < 2 and popcount(spades) <= 3 and (spades >> (NINE + 1)) == 0 and aces == 0:
        return 0
    rounded = (twice + 1) // 2  # int(tricks + 0.5) for tricks = twice / 2 >= 0
    return max(1, min(highest, rounded))


@njit(cache=True, nogil=True)
def heuristic_move(state):
    """The heuristic's move (a card, or `BID_MOVE + bid`) for the seat to act in `state`."""
    seat = state[TO_ACT]
    if state[PHASE] == PHASE_BID:
        return BID_MOVE + heuristic_bid(state[HAND + seat], highest_bid(state))
    legal = legal_cards(state)
    partner = (seat + 2) % 4
    team_bid = state[BID + seat] + state[BID + partner]
    team_taken = state[TAKEN + seat] + state[TAKEN + partner]
    ducking = (state[BID + seat] == 0 and state[TAKEN + seat] == 0) or \
        (team_bid > 0 and team_taken >= team_bid)
    if state[N_IN_TRICK] == 0:
        return _lead(legal, ducking)
    led = state[TRICK] // N_RANKS
    top = power(state[TRICK + state[WINNING]], led)
    partner_winning = (state[LEADER] + state[WINNING]) % 4 == partner
    best_loser, best_loser_key = -1, -1  # ducking: the strongest loser (power, then card)
    low, low_key = -1, 1 << 20  # the weakest card (power, then card)
    cheap_win, cheap_key = -1, 1 << 20  # the cheapest winner
    side_low, side_key = -1, 1 << 20  # the lowest card, side suits before spades
    for card in range(52):
        if not legal >> card & 1:
            continue
        p = power(card, led)
        if p < top and p * 64 + card > best_loser_key:
            best_loser, best_loser_key = card, p * 64 + card
        if p * 64 + card < low_key:
            low, low_key = card, p * 64 + card
        if p > top and p < cheap_key:
            cheap_win, cheap_key = card, p
        key = (card // N_RANKS == SPADES) * 64 + card % N_RANKS
        if key < side_key:
            side_low, side_key = card, key
    if ducking:
        return best_loser if best_loser >= 0 else low
    if cheap_win >= 0 and not partner_winning:
        return cheap_win
    return side_low


@njit(cache=True, nogil=True)
def _lead(legal, ducking):
    """The heuristic's lead from the cards `legal` (`SpadesHeuristicPlayer.lead`)."""
    if ducking:
        low, low_rank = -1, 99
        for card in range(52):
            if legal >> card & 1 and card % N_RANKS < low_rank:
                low, low_rank = card, card % N_RANKS
        return low
    for suit in range(3):  # a side ace, the lowest suit first
        card = suit * N_RANKS + ACE
        if legal >> card & 1:
            return card
    longest, length = -1, -1
    for suit in range(4):
        n = popcount(legal & suit_mask(suit))
        if n > length:
            longest, length = suit, n
    lowest = legal & suit_mask(longest)
    return popcount((lowest & -lowest) - 1)


@njit(cache=True, nogil=True, inline="always")
def team_difference(state):
    """Team 0's hand score less team 1's (`scoring.score_difference`, without its array)."""
    return (team_score(state[BID], state[BID + 2], state[TAKEN], state[TAKEN + 2], state[SCORE])
            - team_score(state[BID + 1], state[BID + 3], state[TAKEN + 1], state[TAKEN + 3],
                         state[SCORE + 1]))


@njit(cache=True, nogil=True, _nrt=False)
def rollout_current_player(state):
    """The team to act (seat % 2), or TERMINAL once the hand is over."""
    if state[PHASE] == PHASE_OVER:
        return TERMINAL
    return state[TO_ACT] % 2


@njit(cache=True, nogil=True, _nrt=False)
def rollout_decision(state, actions_out, key_out):
    """One action: the heuristic's move (a forced move to the rollouts)."""
    actions_out[0] = heuristic_move(state)
    key_out[0] = 0
    return 1


@njit(cache=True, nogil=True, _nrt=False)
def rollout_apply(state, action, child_out):
    """The state after `action` (a card or a bid) into `child_out`."""
    for i in range(state.shape[0]):
        child_out[i] = state[i]
    apply_move(child_out, action)
    return 0


@njit(cache=True, nogil=True, _nrt=False)
def rollout_utility(state):
    """Team 0's hand score less team 1's, at the end of the hand (`scoring.team_score` for
    each: `score_difference` allocates, which these functions may not)."""
    return np.float64(team_difference(state))


@njit(cache=True, nogil=True)
def play_heuristic(state, tricks_left):
    """Play `state` on with the heuristic at every seat (bids included) until at most
    `tricks_left` tricks remain, counting one under way (or the hand ends)."""
    while state[PHASE] != PHASE_OVER and N_TRICKS - state[TRICK_NUMBER] > tricks_left:
        apply_move(state, heuristic_move(state))
