"""`CompositePlayer`: one player bids, another plays the cards (`SPEC,bid=BIDDER`).

Bidding means the auction decisions only: every decision made while the state is in
`S.PHASE_AUCTION` (the bids, the passes and the dealer's steal). Everything after it, the
pitch (the high bidder's first lead, which names trump) included, is the card play and
belongs to the base player. That is where `games.setback.play.pimc` draws the line too, so
`pimc:20,bid=heuristic` and `heuristic,bid=...` split a deal the same way.

Both parts see the same `SeatView` and keep their own state (a generator, a database
connection); the tournament's `seed(s)` reaches both with the same seed, so a composite of
seeded players is as deterministic as its parts.
"""

from __future__ import annotations

from collections import Counter

from games.setback import state as S


class CompositePlayer:
    """Bids with `bidder` and plays the cards (the pitch included) with `base`."""

    def __init__(self, base, bidder, name: str | None = None):
        self.base = base
        self.bidder = bidder
        self.name = name or f"{base.name},bid={bidder.name}"

    def seed(self, seed: int) -> None:
        """Reseed both parts (those that take a seed) with `seed`."""
        for part in (self.base, self.bidder):
            if hasattr(part, "seed"):
                part.seed(seed)

    def choose(self, view) -> int:
        """The bidder's move during the auction, the base player's afterwards."""
        if int(view.state[S.PHASE]) == S.PHASE_AUCTION:
            return int(self.bidder.choose(view))
        return int(self.base.choose(view))

    @property
    def counts(self) -> Counter:
        """The parts' decision counts (database-backed parts only), summed: the tournament
        reports them as the composite's."""
        total: Counter = Counter()
        for part in (self.base, self.bidder):
            total.update(getattr(part, "counts", {}))
        return total

    def close(self) -> None:
        """Close both parts (a database player holds a connection)."""
        for part in (self.base, self.bidder):
            if hasattr(part, "close"):
                part.close()
