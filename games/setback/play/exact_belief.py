"""The exact belief about the hidden hands when the other seats are a known deterministic player.

When every seat is played by the same deterministic player (a `db:` or `strategy:` player
choosing its most probable action, as the self-play of `setback-cfr inference` does), the
posterior over the hidden layouts given what a seat has seen is uniform over the layouts in
which that player, holding them, makes exactly the other seats' moves seen. Its log-likelihood
of the true layout is

    log P(truth | seen) = voids_ll - log f,

`voids_ll` the log-likelihood under the voids belief (uniform over the layouts consistent with
the cards seen and the voids shown) and f the fraction of those layouts that reproduce the moves.
f is estimated by drawing voids layouts and replaying the moves with the player until `min_hits`
layouts reproduce them (or `max_samples` were drawn). By Gibbs' inequality no belief built on
the same evidence has a higher expected log-likelihood, so this row is the ceiling the other
beliefs are measured against: `upto` = the first five moves (the four bids and the pitch) caps
what bid tables can reach; all the moves seen cap any belief at all.

The estimate's error is the binomial one of f: with h hits, log f is known to about 1/sqrt(h)
(0.14 nats at 50 hits) and biased low by about 1/(2h) (0.01 nats), small beside the 41 nats of a
first-trick layout.
"""

from __future__ import annotations

import math

import numpy as np

from games.setback.view import SeatView
from games.setback.search.inference import others_moves
from games.setback.search.world_search import WorldSearch

CHUNK = 1000  # layouts drawn per round (fixed, so a seed gives the same rounds)


class NotDeterministic(ValueError):
    """The player samples its moves: the exact belief needs a deterministic one."""


def reproduces(player, hands, played, history, observer: int, dealer: int, upto: int) -> bool:
    """Whether `player`, holding the layout `hands` (current hands by seat, `played` the cards
    each seat played in `history`: `games.setback.search.inference.cards_played_by`), makes every
    move of `history[:upto]` of the seats other than `observer` (the deal started at game score
    0-0)."""
    for index, state, move in others_moves(hands, played, history, observer, upto=upto):
        if int(player.choose(SeatView.of(state, dealer, (0, 0), history[:index]))) != move:
            return False  # most layouts fail at the first bid: stop there
    return True


class ExactBelief:
    """Estimates of the exact belief's log-likelihood for `player` (module docstring); the
    layouts are drawn from their own stream of `seed`, apart from the other beliefs'."""

    def __init__(self, player, seed: int = 0, min_hits: int = 50, max_samples: int = 200_000):
        if getattr(player, "sample", False):
            raise NotDeterministic("the exact belief needs a deterministic player (one that "
                                   "plays its most probable action, not a sampling one)")
        if min_hits < 1 or max_samples < 1:
            raise ValueError("min_hits and max_samples must be at least 1")
        self.player = player
        self.search = WorldSearch(seed, threads=1)  # its sampler only
        self.min_hits = int(min_hits)
        self.max_samples = int(max_samples)
        self.limited = 0  # positions that stopped at max_samples before min_hits

    def fraction(self, view_state, seat: int, history, played, dealer: int, upto: int,
                 keep: int = 0) -> tuple[int, int, np.ndarray]:
        """(hits, layouts drawn, the first `keep` layouts that reproduce the moves) for the
        voids layouts of `seat`'s view (`view_state`)."""
        hits = drawn = 0
        kept = []
        while hits < self.min_hits and drawn < self.max_samples:
            for row in self.search.sample(view_state, seat, CHUNK):
                if reproduces(self.player, row, played, history, seat, dealer, upto):
                    hits += 1
                    if len(kept) < keep:
                        kept.append(row.copy())
            drawn += CHUNK
        if hits < self.min_hits:
            self.limited += 1
        return hits, drawn, np.array(kept, dtype=np.int64).reshape(-1, 4)

    def loglik(self, voids_ll: float, hits: int, drawn: int) -> float:
        """The exact belief's log-likelihood of the truth from the voids belief's and the
        fraction found (at least one hit counted: the truth itself reproduces the moves)."""
        return voids_ll - math.log(max(hits, 1) / drawn)
