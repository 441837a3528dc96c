"""Bid tables over features of the bidder's hand: what a bid, in its context, says about the
hand that made it, and the belief over the hidden hands they give a search. Written once; a
game declares its features and contexts in a layout module (Spades':
`games/spades/search/bid_tables.py`) and subclasses `FeatureBidTables` with it.

The layout declares: `GROUPS` (the features' names), `SIZE` and `OFFSET` (each group's cells on
one flat axis of `N_CELLS`), `HAND_GROUPS` (the leading groups that are features of a hand: the
ones a belief may read), `N_CONTEXTS`, `N_BIDS`, `COARSE` (int64[N_CONTEXTS]: each context's
parent, one level coarser), `DEFAULT_PRIOR`, `DEFAULT_BELIEF` (the groups a belief reads by
default), `DEFAULT_SCALE`, the state fields `BID` and `DEALT` (four words each, seats relative
to the dealer), and two compiled kernels: `count_positions(*arrays, counts)` (adds deals'
positions to `counts[ctx, bid, cell]`) and `world_log_weights(log_ratio, dealt, bids, observer,
groups, out)` (each world's summed log-ratio over the bidders and the groups in the bit mask).

Probabilities. Every group's distribution is smoothed towards the same group one context
coarser (`search.bid_smoothing.back_off`, N the group's total):
(ctx, bid) -> (parent, bid) -> bid -> all bids -> uniform over the group's cells gives
`prob[ctx, bid, cell]`; the same without the bid, ctx -> parent -> all -> uniform, gives
`ctx_prob[ctx, cell]`, the feature's distribution before the bid. `log_ratio` = log prob -
log ctx_prob: by Bayes, P(bid | features, ctx) is proportional to p(f | bid, ctx) / p(f | ctx),
and worlds dealt uniformly already carry the features' own frequency, so dividing by it keeps
the prior from counting twice. The observer's own bid is a constant in every world and left
out, and so is a bid not made yet (a search also runs during the bidding).
"""

from __future__ import annotations

import numpy as np

from search.bid_smoothing import back_off


def _by_group(layout, counts: np.ndarray) -> np.ndarray:
    """Each cell's group total (N of the smoothing), same shape as `counts`."""
    totals = np.zeros_like(counts, dtype=np.float64)
    for g in range(len(layout.GROUPS)):
        cells = slice(layout.OFFSET[g], layout.OFFSET[g] + layout.SIZE[g])
        totals[..., cells] = counts[..., cells].sum(axis=-1, keepdims=True)
    return totals


def uniform_cells(layout) -> np.ndarray:
    """float64[N_CELLS]: each group uniform over its cells (the root of the smoothing)."""
    return np.concatenate([np.full(s, 1.0 / s) for s in layout.SIZE])


def smooth(layout, counts: np.ndarray, prior: float) -> tuple[np.ndarray, np.ndarray]:
    """(prob[ctx, bid, cell], ctx_prob[ctx, cell]) of the module docstring from `counts`."""
    bids = np.arange(layout.N_BIDS)
    coarse = np.asarray(layout.COARSE, np.int64)
    flat = counts.reshape(layout.N_CONTEXTS * layout.N_BIDS, -1)  # contexts (ctx, bid)
    chain = ((coarse[:, None] * layout.N_BIDS + bids).reshape(-1),
             np.tile(bids, int(coarse.max()) + 1))
    prob = back_off(flat, _by_group(layout, flat), chain, uniform_cells(layout), prior)
    by_ctx = counts.sum(axis=1)
    ctx_prob = back_off(by_ctx, _by_group(layout, by_ctx), (coarse,), uniform_cells(layout),
                        prior)
    return prob.reshape(counts.shape), ctx_prob


class FeatureBidTables:
    """Counts, smoothed probabilities and build settings (`meta`) of a game's tables (its
    subclass names its `layout`); `log_ratio[ctx, bid, cell]` = log prob - log ctx_prob (the
    belief's terms)."""

    layout = None

    def __init__(self, counts: np.ndarray, meta: dict):
        self.counts = np.asarray(counts, dtype=np.int64)
        self.meta = dict(meta)
        self.prob, self.ctx_prob = smooth(self.layout, self.counts, float(
            self.meta.get("prior", self.layout.DEFAULT_PRIOR)))
        self.log_ratio = np.log(self.prob) - np.log(self.ctx_prob)[:, None, :]

    @classmethod
    def shape(cls) -> tuple:
        """The counts' shape: (contexts, bids, cells)."""
        return cls.layout.N_CONTEXTS, cls.layout.N_BIDS, int(np.sum(cls.layout.SIZE))

    @classmethod
    def count(cls, *args):
        """The tables of the deals: `args` the layout's `count_positions` arrays, then the
        meta."""
        *arrays, meta = args
        counts = np.zeros(cls.shape(), np.int64)
        cls.layout.count_positions(*(np.asarray(a, np.int64) for a in arrays), counts)
        return cls(counts, meta)

    def arrays(self) -> dict:
        """The stored arrays by name (`play.bid_table_file`): the counts."""
        return {"counts": self.counts}

    def group_cells(self, group: str) -> slice:
        """The cells of the feature `group` on the flat axis."""
        g = self.layout.GROUPS.index(group)
        return slice(self.layout.OFFSET[g], self.layout.OFFSET[g] + self.layout.SIZE[g])


class FeatureBidBelief:
    """The tables as a search's world log-weight function: `groups` names the hand groups read
    (default the layout's `DEFAULT_BELIEF`), `scale` multiplies the log-weight (default its
    `DEFAULT_SCALE`; the groups all read the same bid, so their sum counts it more than once)."""

    def __init__(self, tables: FeatureBidTables, groups=None, scale: float | None = None,
                 name="bids"):
        layout = tables.layout
        hand = layout.GROUPS[:layout.HAND_GROUPS]
        groups = layout.DEFAULT_BELIEF if groups is None else groups
        unknown = [g for g in groups if g not in hand]
        if unknown or not groups:
            raise ValueError(f"belief groups must be among {', '.join(hand)}, "
                             f"got {', '.join(groups) or 'none'}")
        scale = layout.DEFAULT_SCALE if scale is None else scale
        if not 0.0 < scale <= 1.0:
            raise ValueError(f"belief scale must be in (0, 1], got {scale}")
        self.tables = tables
        self.groups = sum(1 << layout.GROUPS.index(g) for g in groups)
        self.scale = float(scale)
        self.name = name

    def log_weights(self, dealt, bids, observer: int) -> np.ndarray:
        """float64[W]: each world's log-weight (times `scale`); `dealt[w, s]` the hand seat s
        (relative to the dealer) was dealt in world w, `bids[s]` its bid (-1 not made yet: not
        counted, nor is the observer's own), seen from `observer`."""
        dealt = np.ascontiguousarray(dealt, dtype=np.int64).reshape(-1, 4)
        out = np.zeros(dealt.shape[0])
        self.tables.layout.world_log_weights(self.tables.log_ratio, dealt,
                                             np.asarray(bids, np.int64), int(observer),
                                             self.groups, out)
        return out * self.scale

    def __call__(self, view, states, out) -> None:
        """The search's slot: `out[w]` = the log-weight of the full hand state `states[w]`
        (its dealt hands) for the seat of `view`."""
        layout = self.tables.layout
        out[:] = self.log_weights(states[:, layout.DEALT:layout.DEALT + 4],
                                  view.state[layout.BID:layout.BID + 4], view.seat)
