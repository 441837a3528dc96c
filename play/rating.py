"""Bradley-Terry ratings on the Elo scale from duplicate matches, with bootstrap intervals.

The model: player i beats player j with probability 1 / (1 + 10 ** ((R_j - R_i) / 400)), so
400 rating points are odds of 10 to 1 (the Elo scale). One player, the anchor, is fixed at a
given rating; every other rating is relative to it (moving the anchor shifts all ratings by
the same amount and changes nothing else: the anchor's own interval has zero width).

What counts as a result. The unit is the duplicate pair (two games on the same deals with
the seats swapped, `play.tournament`): its score for player i is i's wins in the pair / 2,
an abandoned game (undecided after the deal limit) counting as half a win to each side, so a
pair scores 0, 0.25, 0.5, 0.75 or 1. A pair of score s is one comparison that i wins s of
and loses 1 - s of (the fractional result enters the likelihood as s * log p + (1 - s) *
log(1 - p), which is how chess draws enter Bradley-Terry fits). The two games of a pair are
not counted as two comparisons: they share their deals and are not independent.

The fit maximizes that likelihood (Newton's method on the natural-log strengths with the
anchor's held at zero; the log-likelihood is concave, so with step halving it converges
from zero) after adding one virtual drawn pair to every match played (half a win to each
side). Without it a player who won every pair of a match would have an infinite rating
(the maximum does not exist under complete separation, random against anything else here);
with it a 200-0 match is a 200.5-0.5 one, about +1,040 points, and a match of hundreds of
pairs moves by a fraction of its own interval. The players must be connected by matches.

Intervals: the bootstrap over duplicate pairs. Each replicate resamples the pairs of every
match with replacement and refits; the interval is the 2.5 and 97.5 percentiles of each
player's replicate ratings. When every match has the same number of pairs (a rating run
plays pair k of every match on the same deals: the same seed), one draw of pair indices is
applied to all matches at once, so a deal that helps one matchup and hurts another stays
paired as in the data; otherwise each match is resampled on its own. Seeded and
deterministic. A match whose pairs all scored the same (a whitewash) resamples to itself:
its uncertainty does not show in the intervals, and its gap is the virtual draw's (the
command line says so under the table). Pure numpy; nothing here is hot (a fit is a few small linear solves).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

ELO = 400.0 / math.log(10.0)  # natural-log strength -> Elo points
PRIOR_DRAWS = 1.0  # virtual drawn pairs added to every match (module docstring)
DEFAULT_REPLICATES = 1000


class RatingError(ValueError):
    """Results that cannot be rated (no matches, players not connected, a bad anchor)."""


@dataclass
class Match:
    """The pair scores of player `i` against player `j` (indices into the player list)."""

    i: int
    j: int
    scores: np.ndarray  # float, one per duplicate pair, from i's side, in [0, 1]


@dataclass
class Ratings:
    """A fit: ratings, their 95 % bootstrap intervals, and each player's pairs and games."""

    names: list[str]
    rating: np.ndarray
    low: np.ndarray
    high: np.ndarray
    pairs: np.ndarray  # duplicate pairs played, per player
    anchor: int
    anchor_rating: float
    replicates: int
    joint: bool  # one pair-index draw applied to every match (module docstring)
    extra: dict = field(default_factory=dict)


def _tallies(n: int, matches: list[Match], draws: float):
    """Arrays (i, j, wins of i, comparisons) of the matches, with `draws` virtual draws each."""
    i = np.array([m.i for m in matches], dtype=np.int64)
    j = np.array([m.j for m in matches], dtype=np.int64)
    wins = np.array([float(m.scores.sum()) for m in matches]) + draws / 2
    count = np.array([float(m.scores.size) for m in matches]) + draws
    return i, j, wins, count


def check_connected(n: int, matches: list[Match], names: list[str] | None = None) -> None:
    """Raise RatingError unless every player is linked to every other through matches."""
    parent = list(range(n))

    def root(a):
        """The representative of a's group (path halving)."""
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for m in matches:
        if m.scores.size:
            parent[root(m.i)] = root(m.j)
    groups = {root(a) for a in range(n)}
    if len(groups) > 1:
        alone = [a for a in range(n) if root(a) != root(0)]
        label = ", ".join(names[a] if names else str(a) for a in alone)
        raise RatingError(f"the players are not all connected by matches ({label} never "
                          "met the others)")


def fit_strengths(n: int, i: np.ndarray, j: np.ndarray, wins: np.ndarray,
                  count: np.ndarray, anchor: int, tol: float = 1e-10,
                  max_iter: int = 200) -> np.ndarray:
    """Maximum-likelihood natural-log strengths (anchor's 0) of the fractional Bradley-Terry
    model: match k is `count[k]` comparisons of i[k] against j[k], `wins[k]` of them won by
    i[k]. Newton's method with step halving; the players must be connected."""
    theta = np.zeros(n)
    free = np.array([a for a in range(n) if a != anchor], dtype=np.int64)

    def loglik(t):
        """The log-likelihood of strengths t."""
        d = t[i] - t[j]
        # log p = -log(1 + e^-d), stably
        return float(np.sum(-wins * np.logaddexp(0.0, -d) - (count - wins) * np.logaddexp(0.0, d)))

    current = loglik(theta)
    for _ in range(max_iter):
        d = theta[i] - theta[j]
        p = 1.0 / (1.0 + np.exp(-d))
        resid = wins - count * p
        grad = np.zeros(n)
        np.add.at(grad, i, resid)
        np.add.at(grad, j, -resid)
        w = count * p * (1.0 - p)
        info = np.zeros((n, n))  # the observed information (minus the Hessian): a Laplacian
        np.add.at(info, (i, i), w)
        np.add.at(info, (j, j), w)
        np.add.at(info, (i, j), -w)
        np.add.at(info, (j, i), -w)
        step = np.zeros(n)
        step[free] = np.linalg.solve(info[np.ix_(free, free)], grad[free])
        scale = 1.0
        while True:
            candidate = theta + scale * step
            value = loglik(candidate)
            if value >= current - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        theta, current = candidate, value
        if np.max(np.abs(scale * step)) < tol:
            break
    return theta


def fit(names: list[str], matches: list[Match], anchor: int, anchor_rating: float,
        replicates: int = DEFAULT_REPLICATES, seed: int = 0,
        draws: float = PRIOR_DRAWS) -> Ratings:
    """Ratings of `names` from `matches` (module docstring), `names[anchor]` fixed at
    `anchor_rating`, with 95 % percentile intervals from `replicates` bootstrap refits
    seeded by `seed`."""
    n = len(names)
    if not 0 <= anchor < n:
        raise RatingError("the anchor is not one of the players")
    if not math.isfinite(anchor_rating):
        raise RatingError("the anchor's rating must be a finite number")
    matches = [m for m in matches if m.scores.size]
    if n > 1 and not matches:
        raise RatingError("no matches to rate")
    check_connected(n, matches, names)
    i, j, wins, count = _tallies(n, matches, draws)
    rating = anchor_rating + ELO * fit_strengths(n, i, j, wins, count, anchor)
    pairs = np.zeros(n, dtype=np.int64)
    for m in matches:
        pairs[m.i] += m.scores.size
        pairs[m.j] += m.scores.size
    sizes = {m.scores.size for m in matches}
    joint = len(sizes) == 1
    rng = np.random.default_rng(seed)
    samples = np.empty((replicates, n))
    for r in range(replicates):
        if joint:
            size = next(iter(sizes))
            index = rng.integers(0, size, size)
            wins_r = np.array([m.scores[index].sum() for m in matches]) + draws / 2
        else:
            wins_r = np.array([m.scores[rng.integers(0, m.scores.size, m.scores.size)].sum()
                               for m in matches]) + draws / 2
        samples[r] = anchor_rating + ELO * fit_strengths(n, i, j, wins_r, count, anchor)
    if replicates:
        low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    else:
        low, high = rating.copy(), rating.copy()
    low[anchor] = high[anchor] = anchor_rating  # exact: the anchor is fixed, not estimated
    return Ratings(list(names), rating, low, high, pairs, anchor, float(anchor_rating),
                   int(replicates), joint)


def expected_score(r_i: float, r_j: float) -> float:
    """The model's probability that a player rated r_i beats one rated r_j."""
    return 1.0 / (1.0 + 10.0 ** ((r_j - r_i) / 400.0))


def win_matrix(n: int, matches: list[Match]) -> list[list[dict | None]]:
    """Row player's pair score against the column player: {rate, low, high, pairs}, None
    where they did not meet (and on the diagonal). A cell's interval is the tournament's over
    duplicate pairs (`tournament.pair_interval`)."""
    from play.tournament import pair_interval

    cells: list[list[dict | None]] = [[None] * n for _ in range(n)]
    for m in matches:
        if not m.scores.size:
            continue
        rate, low, high = pair_interval(m.scores)
        cells[m.i][m.j] = {"rate": rate, "low": low, "high": high, "pairs": int(m.scores.size)}
        cells[m.j][m.i] = {"rate": 1 - rate, "low": 1 - high, "high": 1 - low,
                           "pairs": int(m.scores.size)}
    return cells


def cycles(matrix: list[list[dict | None]]) -> list[tuple[int, int, int]]:
    """Triples (a, b, c) with a beating b, b beating c and c beating a (pair score above
    one half in each): the intransitivity a single rating cannot show; each cycle once."""
    n = len(matrix)

    def beats(a, b):
        """Whether a's pair score against b is above one half."""
        cell = matrix[a][b]
        return cell is not None and cell["rate"] > 0.5

    found = []
    for a in range(n):
        for b in range(n):
            for c in range(n):
                if a < b and a < c and beats(a, b) and beats(b, c) and beats(c, a):
                    found.append((a, b, c))
    return found
