"""The game to 10 around the hands: dealer rotation and when a game is won.

Game scores are kept by absolute team (0 = EW, 1 = NS). South deals first (as in Setback; at
the table the first dealer is drawn, which a tournament does by rotating seats) and the deal
passes clockwise after every hand, unplayed hands included. Only one team scores in a hand,
so the first team to reach 10 wins and there is never a tie.
"""

from __future__ import annotations

from numba import njit

FIRST_DEALER = 3  # South
TARGET = 10


@njit(cache=True)
def game_winner(score_ew, score_ns):
    """The team that has won (0 EW, 1 NS), or -1 to play another hand."""
    if score_ew >= TARGET and score_ew > score_ns:
        return 0
    if score_ns >= TARGET and score_ns > score_ew:
        return 1
    return -1


@njit(cache=True)
def next_dealer(dealer):
    """The dealer of the next hand: the seat to the left (clockwise, W N E S)."""
    return (dealer + 1) % 4


@njit(cache=True)
def absolute_team(relative_team, dealer):
    """Absolute team (0 EW, 1 NS) of a team given relative to `dealer` (0 = dealer's team)."""
    return (relative_team + dealer) % 2
