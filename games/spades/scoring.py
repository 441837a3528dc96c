"""Scoring a Spades hand and the game to 500, as OpenSpiel 2.0.2 scores them.

A hand (spades_scoring.cc, `Score`), for each team: a Nil bidder scores +100 if it took no
trick, -100 if it took any (its tricks still count for the team); the team's contract is the
sum of its two bids: made (at least that many tricks), it scores 10 a bid trick plus 1 a trick
over (a bag), and -100 each time its bags pass a multiple of ten, the bags so far being the last
digit of its game score; set, it scores -10 a bid trick. OpenSpiel reads that digit with C++'s
`%`, which keeps the sign: at a negative game score the bags so far count negative
(`bags_so_far`).

OpenSpiel's returns (spades.cc, `ScoreUp`) add `WIN_OR_LOSS_BONUS` to a team's hand score when
that hand score reaches `TARGET` and beats the other's, and subtract it when it is at most
`MERCY` and below the other's; the game (`game_winner`) ends when a team's game score reaches
500 above the other's, or falls to -350 below the other's (the mercy rule). docs/games/spades.md
has the lines and the one place our reading differs.

Teams are relative to the dealer in the state (0 = the dealer's team), absolute (0 = EW,
1 = NS) in `game_winner`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.spades.state import BID, SCORE, TAKEN

TARGET = 500  # OpenSpiel's win_threshold
MERCY = -350  # OpenSpiel's mercy_threshold (use_mercy_rule: on)
WIN_OR_LOSS_BONUS = 200  # OpenSpiel's win_or_loss_bonus, added to its returns


@njit(cache=True, inline="always")
def bags_so_far(score):
    """A team's bags before the hand as OpenSpiel reads them: `score % 10` in C++, whose sign
    is the score's (-37 gives -7)."""
    bags = abs(score) % 10
    return -bags if score < 0 else bags


@njit(cache=True)
def team_score(bid_a, bid_b, taken_a, taken_b, score):
    """A team's points for a hand: its two seats' bids and tricks, and its game score before
    the hand (for the bags)."""
    points = 0
    for bid, taken in ((bid_a, taken_a), (bid_b, taken_b)):
        if bid == 0:
            points += -100 if taken > 0 else 100
    contract = bid_a + bid_b
    over = taken_a + taken_b - contract
    if over < 0:
        return points - 10 * contract
    bags = bags_so_far(score) + over
    penalties = bags // 10 if bags > 0 else 0  # C++ `/` truncates: -5 / 10 is 0
    return points + 10 * contract + over - 100 * penalties


@njit(cache=True)
def hand_score(state):
    """Each team's points for a finished hand, as the tuple (team 0, team 1); team t holds
    seats t and t + 2."""
    out = np.zeros(2, np.int64)
    for team in range(2):
        out[team] = team_score(state[BID + team], state[BID + team + 2], state[TAKEN + team],
                               state[TAKEN + team + 2], state[SCORE + team])
    return out[0], out[1]


@njit(cache=True)
def returns_of(score0, score1):
    """OpenSpiel's returns of the two teams for hand scores (`score0`, `score1`): its
    `ScoreUp` tests each team's hand score in turn against the win and mercy thresholds and
    adds or subtracts the bonus in place (the second team is compared with the first's
    adjusted score, as there)."""
    scores = np.array([score0, score1], np.int64)
    for team in range(2):
        if scores[team] >= TARGET and scores[team] > scores[1 - team]:
            scores[team] += WIN_OR_LOSS_BONUS
        elif scores[team] <= MERCY and scores[team] < scores[1 - team]:
            scores[team] -= WIN_OR_LOSS_BONUS
    return scores[0], scores[1]


@njit(cache=True)
def score_difference(state):
    """Team 0's points minus team 1's for a finished hand (a zero-sum payoff)."""
    score0, score1 = hand_score(state)
    return score0 - score1


@njit(cache=True)
def game_winner(score_ew, score_ns):
    """The team that has won the game at these game scores (0 EW, 1 NS), or -1 to play
    another hand: a team at `TARGET` or more and ahead wins; a team at `MERCY` or less and
    behind loses."""
    scores = (score_ew, score_ns)
    for team in range(2):
        if scores[team] >= TARGET and scores[team] > scores[1 - team]:
            return team
    for team in range(2):
        if scores[team] <= MERCY and scores[team] < scores[1 - team]:
            return 1 - team
    return -1

