"""What a Setback rollout is worth to the seat that searches: the deal's score difference (the
baseline payoff), or the probability of winning the game to 11 from the score the deal leaves.

The second needs both teams' deal scores, not their difference: `deal_outcome(state)` packs the
pair into one of OUTCOMES indices, and `win_values(...)` is the value of each index for the
acting team, from `search/win_probability.py` (which assumes later deals are drawn like
heuristic self-play's). The rollout kernel reads `table[deal_outcome(end)]`
(`search/rollout.py`, `world_move_outcomes`).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from games.setback.scoring import deal_score
from search.win_probability import win_after

LOWEST, HIGHEST = -4, 4  # a team's deal score: minus its bid (2..4) up to the four points
SPAN = HIGHEST - LOWEST + 1
OUTCOMES = SPAN * SPAN
OUTCOME_SIG = types.int64(types.int64[::1])


@njit(OUTCOME_SIG, cache=True, _nrt=False)
def deal_outcome(state):
    """The index of (team 0's deal score, team 1's) of a finished or settled deal."""
    score0, score1 = deal_score(state)
    return (score0 - LOWEST) * SPAN + (score1 - LOWEST)


def win_values(team: int, us: int, them: int) -> np.ndarray:
    """float64[OUTCOMES]: for each deal outcome, the probability that `team` (relative to the
    dealer: 0 the dealer's) wins the game from the score (us, them) it has before the deal.
    The next deal is dealt by the dealer's left, of team 1."""
    s0, s1 = np.divmod(np.arange(OUTCOMES), SPAN)
    s0, s1 = s0 + LOWEST, s1 + LOWEST
    gain_us, gain_them = (s0, s1) if team == 0 else (s1, s0)
    return win_after(us, them, gain_us, gain_them, we_deal_next=team == 1)
