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

from games.setback.abstraction import layouts
from games.setback.play.grammar import BACKOFF_OPTION


class BackoffPlayer:
    """`fine` (a `DatabasePlayer`) playing `coarse`'s move (another database player,
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
        """The fine database's move, or the coarse database's where the fine one fell back
        (every key it asked was missing: its `fallback` count grew)."""
        fell_back = self.fine.counts["fallback"]
        move = int(self.fine.choose(view))
        if self.fine.counts["fallback"] == fell_back:
            return move
        self.backed_off["backed_off"] += 1
        fell_back = self.coarse.counts["fallback"]
        move = int(self.coarse.choose(view))
        if self.coarse.counts["fallback"] != fell_back:
            self.backed_off["backed_off_missing"] += 1  # the coarse key is missing too
        return move

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


def make_backoff_player(text: str, seed: int = 0):
    """`db:FINE,backoff=db:COARSE` (or `strategy:` on either side): the fine database player,
    the coarse one answering where the fine one has no key (split at the first `,backoff=`).
    Bad specs raise `PlayerSpecError` (one line)."""
    from games.setback.play.grammar import PlayerSpecError, make_player

    base, _, coarse_spec = text.partition(BACKOFF_OPTION)
    coarse_spec = coarse_spec.strip()
    if not coarse_spec.lower().startswith(("db:", "strategy:")):
        raise PlayerSpecError(f"{text!r}: backoff= needs a coarser strategy database, as in "
                              "db:bidder.db,backoff=db:reference.db")
    fine = make_player(base.strip(), seed)
    try:
        coarse = make_player(coarse_spec, seed)
    except PlayerSpecError as exc:
        fine.close()
        raise PlayerSpecError(f"in backoff= of {text!r}: {exc}") from None
    try:
        for part, what in ((fine, base), (coarse, coarse_spec)):
            if not hasattr(part, "layout"):  # such as a gaps= wrapper inside
                raise PlayerSpecError(f"{text!r}: backoff= joins two plain strategy "
                                      f"databases; {what.strip()!r} is not one")
        return BackoffPlayer(fine, coarse, name=text)
    except (layouts.LayoutError, PlayerSpecError) as exc:
        fine.close()
        coarse.close()
        raise PlayerSpecError(str(exc)) from None
