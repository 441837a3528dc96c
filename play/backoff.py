"""`db:FINE,backoff=db:COARSE`: a database player of a fine key layout that plays the coarse
database's key wherever its own store has no key for the decision (issue 38's back-off play).

A fine layout (`bidder`, `contract`) splits each coarse key into several, so a fine table meets
many of its keys rarely or never: the database player would answer a missing key with its
fallback rule (Three if legal, else Pass; the first abstract action in the playout). Backing off
answers it instead with what the coarse table, trained on all the deals those fine keys share,
plays there. The coarse store must hold keys the fine layout refines (`layouts.refines`: the
coarse key of a decision is a function of its fine key), so the two stores describe the same
decision at two resolutions; any other pair is refused in one line.

The threshold is one visit: a key is in an exported store only if training visited it (and its
strategy sums were not all zero). The issue's "at least N visits" needs a visit count per key,
which neither the training table nor the strategy store keeps (adding one would cost every
info set a word, against issue 38's memory target): not built.
"""

from __future__ import annotations

from collections import Counter

from abstraction.setback import layouts


class BackoffPlayer:
    """`fine` (a `db.player.DatabasePlayer`) playing `coarse`'s move (another database player,
    of a layout the fine one refines) at every decision where its own keys are all missing."""

    def __init__(self, fine, coarse, name: str | None = None):
        layouts.check_refines(fine.layout.name, coarse.layout.name,
                              f"backoff from {fine.name} to {coarse.name}")
        self.fine = fine
        self.coarse = coarse
        self.name = name or f"{fine.name},backoff={coarse.name}"
        self.backed_off: Counter = Counter()

    def seed(self, seed: int) -> None:
        """Reseed both parts (those that take a seed)."""
        for part in (self.fine, self.coarse):
            if hasattr(part, "seed"):
                part.seed(seed)

    def choose(self, view) -> int:
        """The fine database's move, or the coarse database's where the fine one would fall
        back (every key it asked was missing)."""
        trace = self.fine.explain(view)
        if trace["reason"] != "fallback":
            return int(trace["move"])
        self.backed_off["backed_off"] += 1
        coarse = self.coarse.explain(view)
        if coarse["reason"] == "fallback":
            self.backed_off["backed_off_missing"] += 1  # the coarse key is missing too
        return int(coarse["move"])

    @property
    def counts(self) -> Counter:
        """The fine player's decision counts plus `backed_off` (its fallbacks the coarse store
        answered) and `backed_off_missing` (of those, where the coarse key was missing too, so
        the coarse player's own fallback rule chose). The coarse player's lookups are not
        added: every decision is counted once, by the fine player."""
        total = Counter(self.fine.counts)
        total.update(self.backed_off)
        return total

    def close(self) -> None:
        """Close both stores."""
        for part in (self.fine, self.coarse):
            if hasattr(part, "close"):
                part.close()
