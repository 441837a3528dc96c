"""`db:PATH,gaps=BIDDER`: a database player whose missing auction keys are answered by another
bidder (the learned one, `gaps=nn:MODEL`) instead of the database player's fallback rule
(Three if legal, else Pass).

Every auction decision asks the database player first (`DatabasePlayer.explain`, which counts
and looks up exactly as `choose` does); only when it reports reason "fallback" (every key it
tried was missing) does the gap bidder choose, and the wrapper counts it (`gaps_filled`, next
to the database player's own counts, which the tournament reports as the player's
decisions). The pitch and the card play stay the database player's (its playout gaps keep its
own rule: this wrapper is about the auction). games/setback/db/player.py is not changed.
"""

from __future__ import annotations

from collections import Counter

from games.setback import state as S


class GapFilledPlayer:
    """`database` (a `DatabasePlayer`) with `gaps` bidding where it has no key."""

    def __init__(self, database, gaps, name: str | None = None):
        self.database = database
        self.gaps = gaps
        self.name = name or f"{database.name},gaps={gaps.name}"
        self.filled: Counter = Counter()

    def seed(self, seed: int) -> None:
        """Reseed both parts (those that take a seed)."""
        for part in (self.database, self.gaps):
            if hasattr(part, "seed"):
                part.seed(seed)

    def choose(self, view) -> int:
        """The database player's move, or in the auction, the gap bidder's where the database
        player would fall back."""
        if int(view.state[S.PHASE]) != S.PHASE_AUCTION:
            return int(self.database.choose(view))
        trace = self.database.explain(view)
        if trace["reason"] != "fallback":
            return int(trace["move"])
        move = int(self.gaps.choose(view))
        self.filled["gaps_filled"] += 1
        if move != int(trace["move"]):
            self.filled["gaps_changed"] += 1  # the gap bidder chose otherwise than the rule
        return move

    @property
    def counts(self) -> Counter:
        """The database player's decision counts plus `gaps_filled` (auction fallbacks the gap
        bidder answered) and `gaps_changed` (of those, where its bid differed from the
        fallback rule's)."""
        total = Counter(self.database.counts)
        total.update(self.filled)
        return total

    def close(self) -> None:
        """Close both parts."""
        for part in (self.database, self.gaps):
            if hasattr(part, "close"):
                part.close()
