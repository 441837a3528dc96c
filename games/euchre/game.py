"""The game to 10 around the hands: dealer rotation and when a game is won.

Game scores are kept by absolute team (0 = EW, 1 = NS). South deals first (as in Setback; at
the table the first dealer is drawn, which a tournament does by rotating seats) and the deal
passes clockwise after every hand, unplayed hands included. Only one team scores in a hand,
so the first team to reach 10 wins and there is never a tie.
"""

from __future__ import annotations

from numba import njit

# the table's rotation and dealer-relative teams are every four-seat game's
from games.scaffold.table import absolute_team, next_dealer  # noqa: F401 (re-exported)

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
