"""Scoring a Setback deal (High, Low, Jack, Game, setback) and the exhaustion test.

Teams are relative to the dealer (0 = dealer's team). A point's owner is 0, 1, or -1 for
nobody (not yet, or never).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import highest_bit, lowest_bit
from games.setback.cards import JACK, make_card, mask_game_points, suit_mask
from games.setback.state import (
    DEALT,
    EXHAUSTED,
    HIGH_BID,
    HIGH_BIDDER,
    PHASE,
    PHASE_OVER,
    TRUMP,
    WON,
)

POINT_NAMES = ("high", "low", "jack", "game")


@njit(cache=True, inline="always")
def dealt_cards(state):
    """Mask of the 24 cards dealt."""
    return state[DEALT] | state[DEALT + 1] | state[DEALT + 2] | state[DEALT + 3]


@njit(cache=True, inline="always")
def dealt_trumps(state):
    """Mask of the trumps in play (dealt); 0 before trump is set."""
    if state[TRUMP] < 0:
        return np.int64(0)
    return dealt_cards(state) & suit_mask(state[TRUMP])


@njit(cache=True)
def team_taking(state, card):
    """Team that captured `card` in a completed trick, or -1."""
    bit = np.int64(1) << card
    if state[WON] & bit:
        return 0
    if state[WON + 1] & bit:
        return 1
    return -1


@njit(cache=True)
def deal_points(state):
    """Owner team (or -1) of each point, as the tuple (high, low, jack, game).

    High: the team dealt the top trump. Low: the team that took the lowest trump in play.
    Jack: the team that took the Jack of trump. Game: the team with more game points captured
    (a tie gives nobody). Low, Jack and Game are final only when the deal is over or exhausted.
    """
    trumps = dealt_trumps(state)
    if trumps == 0:
        return -1, -1, -1, -1
    top = highest_bit(trumps)
    high = -1
    for seat in range(4):
        if state[DEALT + seat] >> top & 1:
            high = seat % 2
    low = team_taking(state, lowest_bit(trumps))
    jack = team_taking(state, make_card(JACK, state[TRUMP]))
    game0 = mask_game_points(state[WON])
    game1 = mask_game_points(state[WON + 1])
    game = -1
    if game0 > game1:
        game = 0
    elif game1 > game0:
        game = 1
    return high, low, jack, game


@njit(cache=True)
def deal_score(state):
    """Each team's deal score, as the tuple (team 0, team 1).

    Each team scores one per point it owns, except that the bidding team scores minus its bid
    when it owns fewer points than it bid. An all-pass deal scores 0-0.
    """
    if state[HIGH_BID] == 0:
        return 0, 0
    high, low, jack, game = deal_points(state)
    return points_score(high, low, jack, game, state[HIGH_BID], state[HIGH_BIDDER])


@njit(cache=True, inline="always")
def points_score(high, low, jack, game, bid, bidder):
    """Each team's deal score (team 0, team 1) when the points' owners are (high, low, jack,
    game) (0, 1 or -1) and seat `bidder` holds the contract at `bid` (`deal_score`'s rule; the
    solver's value tables ask it for every way the open points can fall)."""
    score0 = (high == 0) + (low == 0) + (jack == 0) + (game == 0)
    score1 = (high == 1) + (low == 1) + (jack == 1) + (game == 1)
    if bidder % 2 == 0:
        if score0 < bid:
            score0 = -bid
    elif score1 < bid:
        score1 = -bid
    return np.int64(score0), np.int64(score1)


@njit(cache=True, inline="always")
def is_exhausted(state):
    """Whether the deal's score can no longer change: the deal is over, or the exhaustion test
    (`exhaustion_test`) passed when the last trick completed (`rules.apply_card` records it,
    since only a completed trick can change its answer)."""
    return state[PHASE] == PHASE_OVER or state[EXHAUSTED] != 0


@njit(cache=True)
def exhaustion_test(state):
    """The rules' test for a settled deal, evaluated from scratch.

    True once the deal is over, or once trump is set and Low has been taken, the Jack has been
    taken or was not dealt, and Game is decided: the game points not yet captured are fewer than
    the difference between the teams' captured game points, or none are left.
    """
    if state[PHASE] == PHASE_OVER:
        return True
    trumps = dealt_trumps(state)
    if trumps == 0:
        return False
    taken = state[WON] | state[WON + 1]
    if not (taken >> lowest_bit(trumps) & 1):
        return False
    jack = make_card(JACK, state[TRUMP])
    if (trumps >> jack & 1) and not (taken >> jack & 1):
        return False
    game0 = mask_game_points(state[WON])
    game1 = mask_game_points(state[WON + 1])
    left = mask_game_points(dealt_cards(state)) - game0 - game1
    return left == 0 or left < abs(game0 - game1)


@njit(cache=True)
def score_difference(state):
    """Team 0's deal score minus team 1's (the baseline payoff), for an over or exhausted deal."""
    score0, score1 = deal_score(state)
    return score0 - score1
