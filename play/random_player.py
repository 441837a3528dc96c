"""`RandomPlayer`: a uniformly random legal move, from a seeded generator."""

from __future__ import annotations

import numpy as np


class RandomPlayer:
    """Chooses uniformly among the legal moves of the view (`games.setback.view.Player`).

    `seed(s)` restarts its generator, which the tournament does before every game so a game's
    moves do not depend on which worker played the games before it.
    """

    def __init__(self, seed: int = 0, name: str = "random"):
        self.name = name
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int) -> None:
        """Restart the generator from `seed`."""
        self.rng = np.random.default_rng(seed)

    def choose(self, view) -> int:
        """A uniformly random legal move."""
        legal = view.legal_moves()
        return int(legal[self.rng.integers(legal.size)])
