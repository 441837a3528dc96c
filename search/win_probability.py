"""P(win the game | our score, their score, who deals next): the score-aware bidder's yardstick.

How: a dynamic programme over deal outcomes, not a table of game results. A deal's outcome is
the pair (dealer's team's deal score, the other team's), drawn from `DEAL_OUTCOMES`: the
outcomes of heuristic-vs-heuristic self-play deals (every seat `games.setback.play.heuristic`, deals
dealt from `games.setback.state.random_deal`), counted by `python bench/sds_strength.py --outcomes
20000 --seed 0` (the counts below are that command's output). Assuming every deal is drawn
from that distribution whatever the score, the probability of winning from a score pair is
the fixed point of

    V(us, them, d) = sum_o p(o) * [1 if we win | 0 if they win | V(us', them', 1 - d)]

(d = 1 when our team deals the next deal; the deal passes to the left, so the dealer's team
alternates), found by value iteration (`win_table`). Why not count games to 11 directly: a
table by score pair needs many games to fill the rare pairs (10-9, -6-8 ...) and is noisy
where it matters most; the programme gives every pair from a few thousand deals, exactly
consistent with the game's end rule (11, the higher score if both pass it, a tie at 11 or
more plays on). The price is the independence assumption (players bid differently near the
end), which `bench/sds_strength.py` does not try to measure.

The table is computed once per process from the counts (a few milliseconds), so it is exact
and deterministic; `TABLE_VERSION` names the counts and the programme, and changes with them.
"""

from __future__ import annotations

import functools

import numpy as np

TABLE_VERSION = 1
TARGET = 11
LOW = -40  # scores below are clamped here (a team this far down has all but lost)
HIGH = 20  # tied scores at or above 11 play on; above this they are clamped (never reached)
SPAN = HIGH - LOW + 1

# (dealer's team's deal score, other team's deal score): count, from
# `python bench/sds_strength.py --outcomes 20000 --seed 0` (heuristic self-play deals).
DEAL_OUTCOMES = {
    (-4, 0): 12, (-4, 1): 66, (-4, 2): 23, (-4, 3): 4, (-3, 0): 8, (-3, 1): 215,
    (-3, 2): 427, (-3, 3): 187, (-3, 4): 19, (-2, 1): 8, (-2, 2): 250, (-2, 3): 288,
    (-2, 4): 54, (0, -4): 22, (0, -3): 16, (0, 0): 167, (0, 2): 29, (0, 3): 2766,
    (0, 4): 3041, (1, -4): 81, (1, -3): 216, (1, -2): 29, (1, 2): 1273, (1, 3): 1673,
    (2, -4): 26, (2, -3): 357, (2, -2): 665, (2, 0): 13, (2, 1): 495, (2, 2): 1385,
    (3, -4): 10, (3, -3): 154, (3, -2): 839, (3, 0): 1709, (3, 1): 1006, (4, -3): 20,
    (4, -2): 242, (4, 0): 2205,
}


def game_over(us, them):
    """1 where we have won, 0 where they have, -1 where the game goes on (numpy arrays or
    ints): the highest score at least 11 and held by one team only."""
    us = np.asarray(us)
    them = np.asarray(them)
    decided = (np.maximum(us, them) >= TARGET) & (us != them)
    return np.where(decided, (us > them).astype(np.int64), -1)


def _outcome_arrays(outcomes: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(dealer team's scores, other team's, probabilities) of an outcome count table."""
    keys = sorted(outcomes)
    counts = np.array([outcomes[k] for k in keys], dtype=np.float64)
    if counts.sum() <= 0:
        raise ValueError("a deal-outcome table needs at least one counted deal")
    dealer = np.array([k[0] for k in keys], dtype=np.int64)
    other = np.array([k[1] for k in keys], dtype=np.int64)
    return dealer, other, counts / counts.sum()


def win_table(outcomes: dict | None = None, tolerance: float = 1e-12,
              max_iterations: int = 10_000) -> np.ndarray:
    """float64[2, SPAN, SPAN]: `table[d, us - LOW, them - LOW]` the probability that our team
    wins from the score (us, them) before a deal, d = 1 when our team deals it. Value
    iteration over `outcomes` (default `DEAL_OUTCOMES`) until no entry moves by `tolerance`."""
    dealer, other, prob = _outcome_arrays(DEAL_OUTCOMES if outcomes is None else outcomes)
    scores = np.arange(LOW, HIGH + 1)
    us = scores[:, None]
    them = scores[None, :]
    table = np.full((2, SPAN, SPAN), 0.5)
    # per outcome and who deals: the next score pair, its end state, and its clamped index
    steps = []
    for d in (0, 1):
        per = []
        for x, y, p in zip(dealer, other, prob):
            gain_us, gain_them = (x, y) if d == 1 else (y, x)
            nu, nt = us + gain_us, them + gain_them
            over = game_over(nu, nt) + np.zeros_like(nt)
            iu = np.clip(nu, LOW, HIGH) - LOW + np.zeros_like(nt)
            it = np.clip(nt, LOW, HIGH) - LOW + np.zeros_like(nu)
            per.append((p, over, iu, it))
        steps.append(per)
    for _ in range(max_iterations):
        new = np.zeros_like(table)
        for d in (0, 1):
            for p, over, iu, it in steps[d]:
                following = table[1 - d][iu, it]
                new[d] += p * np.where(over >= 0, over, following)
        new = np.clip(new, 0.0, 1.0)  # rounding only: the sums are probabilities
        change = float(np.abs(new - table).max())
        table = new
        if change < tolerance:
            break
    return table


@functools.lru_cache(maxsize=1)
def default_table() -> np.ndarray:
    """`win_table()` of `DEAL_OUTCOMES`, computed once per process (read-only)."""
    table = win_table()
    table.setflags(write=False)
    return table


def win_after(us, them, gain_us, gain_them, we_deal_next, table: np.ndarray | None = None):
    """The probability that our team wins once a deal scoring (gain_us, gain_them) is added to
    the score (us, them): 1 or 0 if that ends the game, else the table's entry for the next
    deal (`we_deal_next`: our team deals it). Arrays broadcast."""
    table = default_table() if table is None else table
    nu = np.asarray(us) + np.asarray(gain_us)
    nt = np.asarray(them) + np.asarray(gain_them)
    over = game_over(nu, nt)
    d = 1 if we_deal_next else 0
    following = table[d][np.clip(nu, LOW, HIGH) - LOW, np.clip(nt, LOW, HIGH) - LOW]
    return np.where(over >= 0, over, following).astype(np.float64)


def win_now(us: int, them: int, we_deal: bool, table: np.ndarray | None = None) -> float:
    """The probability that our team wins from the score (us, them) before a deal that our
    team deals when `we_deal`."""
    table = default_table() if table is None else table
    over = int(game_over(us, them))
    if over >= 0:
        return float(over)
    return float(table[1 if we_deal else 0][min(max(us, LOW), HIGH) - LOW,
                                            min(max(them, LOW), HIGH) - LOW])
