"""What every database player counts and reports, written once for every game's player.

A player keeps a `Counter` in `self.counts` ("decisions", "forced", "lookups", "found",
"fallback" and one "missing_<kind>" per key kind) and its database in `self.db`.
"""

from __future__ import annotations


class DecisionCounts:
    """The reporting face of a database player (a mixin over `self.counts` and `self.db`)."""

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
