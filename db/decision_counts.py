"""What every database player counts, reports and draws, written once for every game's player.

A player keeps a `Counter` in `self.counts` ("decisions", "forced", "lookups", "found",
"fallback" and one "missing_<kind>" per key kind), its database in `self.db`, and, for the
`sample` option, `self.sample` and the seeded generator `self.rng`.
"""

from __future__ import annotations

import numpy as np


class DecisionCounts:
    """The reporting face of a database player (a mixin over `self.counts` and `self.db`)."""

    def count_decision(self, view, over: bool, noun: str):
        """Count a decision of the seat to act in `view` (a game's `SeatView`): its legal
        moves, and the move when it is forced (a single legal move: no key is built, nothing
        is looked up), else None. A hand that is `over` (`noun`: what the game calls it) has
        no decision to make: ValueError."""
        if over:
            raise ValueError(f"the {noun} is over: there is no move to choose")
        self.counts["decisions"] += 1
        legal = view.legal_moves()
        if legal.size == 1:
            self.counts["forced"] += 1
            return legal, int(legal[0])
        return legal, None

    @property
    def missing(self) -> int:
        """Keys looked up and not found, every kind (a Setback bootstrap miss included: it
        then tries the baseline auction key)."""
        return sum(v for k, v in self.counts.items() if k.startswith("missing_"))

    def report(self) -> dict:
        """Decision counts: decisions, forced, lookups, found, missing (total and by kind),
        fallback (moves chosen by the player's rule for a missing key)."""
        out = {name: int(self.counts[name]) for name in
               ("decisions", "forced", "lookups", "found", "fallback")}
        out["missing"] = self.missing
        out["missing_by_kind"] = {k[len("missing_"):]: int(v) for k, v in
                                  sorted(self.counts.items()) if k.startswith("missing_")}
        return out

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    def seed(self, seed: int) -> None:
        """Restart the sampling generator from `seed` (a player that plays the stored best
        action draws nothing, so it keeps the generator it has)."""
        if self.sample:
            self.rng = np.random.default_rng(seed)

    def pick(self, probs: np.ndarray, best: int) -> int:
        """The action index to play: `best`, or with `sample` one drawn from `probs`
        (renormalized) with the seeded generator."""
        if not self.sample:
            return int(best)
        cumulative = np.cumsum(probs, dtype=np.float64)
        index = int(np.searchsorted(cumulative, self.rng.random() * cumulative[-1],
                                    side="right"))
        return min(index, probs.size - 1)
