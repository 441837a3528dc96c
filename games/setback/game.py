"""The game to 11: dealer rotation and when a game is won.

Game scores are kept by absolute team (0 = EW, 1 = NS). South deals first and the deal passes
clockwise after every deal, all-pass deals included.
"""

from __future__ import annotations

from numba import njit

# the table's rotation and dealer-relative teams are every four-seat game's
from games.scaffold.table import absolute_team, next_dealer  # noqa: F401 (re-exported)

FIRST_DEALER = 3  # South
TARGET = 11


@njit(cache=True)
def game_winner(score_ew, score_ns):
    """The team that has won (0 EW, 1 NS), or -1 to play another deal.

    The game ends when the highest score is at least 11 and only one team has it; if both
    teams passed 11, the higher wins; a tie at 11 or more plays on.
    """
    if max(score_ew, score_ns) < TARGET or score_ew == score_ns:
        return -1
    return 0 if score_ew > score_ns else 1
