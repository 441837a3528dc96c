"""Spades' bid-inference tables: what a bid, in its context, says about the bidder's hand; and
the belief over the hidden hands they give a search (the counting of positions from self-play
is `games/spades/play/bid_data.py`; Setback's tables are `games/setback/play/bid_tables.py`).

Features of a hand (its thirteen dealt cards), one value per group (`GROUPS`, cells `OFFSET[g]`
.. `OFFSET[g] + SIZE[g] - 1` of one flat axis):
- `spades`: the number of spades, 0..13;
- `honours`: which of the spade Ace, King and Queen it holds (a 3-bit mask, A=4 K=2 Q=1);
- `aces`, `kings`: how many aces, kings of the three side suits, 0..3;
- `voids`: how many side suits it lacks, 0..3;
- `spades_honours`: the spade count and the honours together, 8 * spades + honours (112
  cells, most never seen): the two are far from independent (a long suit holds more honours),
  so the belief reads them through this group rather than multiplying the two;
- `tricks`: the tricks the bidder took when the hand was played out, 0..13 (counted only for
  deals played out; not a feature of a hand, so never part of the belief).

Context of a bid: the bidder's place in the bidding order k (0 = the dealer's left .. 3 = the
dealer), its partner's bid if made (none, Nil, 1-2, 3, 4, 5, 6+) and the sum of its opponents'
bids made (none, 0-2, 3-4, 5-6, 7+): `context(k, bids)`, 140 slots. Nil is bid 0; bids 0..13.

Probabilities and belief are `search.feature_bid_tables`' (this module is their layout):
`counts[ctx, bid, cell]` counts positions (one a bid), smoothed per group with a prior worth K
positions down (ctx, bid) -> (k, bid) -> bid -> all bids -> uniform (`COARSE`: ctx -> k), and
`ctx_prob` down ctx -> k -> all -> uniform. A world seen from `observer` gets the sum, over the
other bidders b whose bids are made and the belief's groups g, of
log p(f_g(hand_b) | bid_b, ctx_b) - log p(f_g(hand_b) | ctx_b), hands being the dealt hands
(a world's `DEALT`: the cards held and those played); the groups are taken as independent
given the bid (naive Bayes), so the sum is scaled (`DEFAULT_SCALE`, measured).

Measure (`heldout_losses`): from each observer seat of a held-out deal after the bidding, the
log-loss of each other bidder's true feature value under uniform (the exact distribution when
the 39 hidden cards are dealt uniformly: hypergeometric for the counts) and under the tables
(that distribution times the bidder's ratio, renormalised); for the spade count also the exact
marginal of the belief over the three bidders at once (`spades_joint`: their counts must add up
to the spades the observer cannot see).
"""

from __future__ import annotations

import math
import sys

import numpy as np
from numba import njit

from games.bits import popcount
from games.spades.cards import N_RANKS, SPADES
from games.spades.state import BID, DEALT  # noqa: F401 (the layout's state fields)
from search.feature_bid_tables import FeatureBidBelief, FeatureBidTables

GROUPS = ("spades", "honours", "aces", "kings", "voids", "spades_honours", "tricks")
SIZE = np.array([14, 8, 4, 4, 4, 14 * 8, 14], np.int64)
OFFSET = np.concatenate(([0], np.cumsum(SIZE)[:-1])).astype(np.int64)
N_CELLS = int(SIZE.sum())
N_GROUPS = len(GROUPS)
HAND_GROUPS = 6  # the groups that are features of a hand (all but tricks)
TRICKS = 6
# The belief's groups and scale by default, measured best over search's pool of uniform worlds
# (docs/games/spades.md#bid-tables, bench/spades_bid_tables.py --worlds): the spade count and
# honours come in through their joint; the groups all read the same bid, so their sum counts
# it more than once, and halving it predicted every feature better than the sum did.
DEFAULT_BELIEF = ("spades_honours", "aces", "kings")
DEFAULT_SCALE = 0.5
N_BIDS = 14
PARTNER_BUCKETS = 7  # none, Nil, 1-2, 3, 4, 5, 6+
OPPONENT_BUCKETS = 5  # none, 0-2, 3-4, 5-6, 7+
N_CONTEXTS = 4 * PARTNER_BUCKETS * OPPONENT_BUCKETS
DEFAULT_PRIOR = 20.0
COARSE = np.arange(N_CONTEXTS) // (PARTNER_BUCKETS * OPPONENT_BUCKETS)  # ctx -> k
SUIT = np.int64((1 << N_RANKS) - 1)


@njit(cache=True)
def hand_features(hand, out):
    """`out[g]` = the value of group g (module docstring) for the 52-bit `hand`; `out[TRICKS]`
    is left alone."""
    spades = (hand >> (N_RANKS * SPADES)) & SUIT
    out[0] = popcount(spades)
    out[1] = (spades >> 12 & 1) * 4 + (spades >> 11 & 1) * 2 + (spades >> 10 & 1)
    aces = 0
    kings = 0
    voids = 0
    for suit in range(3):
        bits = (hand >> (N_RANKS * suit)) & SUIT
        aces += bits >> 12 & 1
        kings += bits >> 11 & 1
        voids += bits == 0
    out[2] = aces
    out[3] = kings
    out[4] = voids
    out[5] = out[0] * 8 + out[1]


@njit(cache=True)
def context(k, order_bids):
    """The context slot of the k-th bid of the auction (k = 0 the dealer's left .. 3 the
    dealer) given the bids in auction order `order_bids` (only 0..k-1 are read): k, the
    partner's bid bucket and the bucket of the opponents' bids' sum (module docstring)."""
    partner = 0
    if k >= 2:
        b = order_bids[k - 2]
        partner = 1 if b == 0 else 2 if b <= 2 else b if b <= 4 else 5 if b == 5 else 6
    opp = 0
    if k >= 1:
        total = order_bids[k - 1] + (order_bids[k - 3] if k == 3 else 0)
        opp = 1 if total <= 2 else 2 if total <= 4 else 3 if total <= 6 else 4
    return (k * PARTNER_BUCKETS + partner) * OPPONENT_BUCKETS + opp


@njit(cache=True)
def count_positions(hands, bids, tricks, counts):
    """Add every bid of the deals to `counts[ctx, bid, cell]`: `hands[i, s]` the dealt hand and
    `bids[i, s]` the bid of seat s (relative to the dealer) in deal i, `tricks[i, s]` its tricks
    taken (-1 when the deal was not played out: no trick cell counted)."""
    feats = np.zeros(N_GROUPS, np.int64)
    order = np.zeros(4, np.int64)
    for i in range(hands.shape[0]):
        for k in range(4):
            order[k] = bids[i, (k + 1) % 4]
        for k in range(4):
            seat = (k + 1) % 4
            ctx = context(k, order)
            hand_features(hands[i, seat], feats)
            for g in range(HAND_GROUPS):
                counts[ctx, order[k], OFFSET[g] + feats[g]] += 1
            if tricks[i, seat] >= 0:
                counts[ctx, order[k], OFFSET[TRICKS] + tricks[i, seat]] += 1


class SpadesBidTables(FeatureBidTables):
    """Counts, smoothed probabilities and build settings of Spades' bid tables
    (`search.feature_bid_tables`, this module its layout)."""

    layout = sys.modules[__name__]

    def distribution(self, group: str, k: int, order_bids, bid: int) -> np.ndarray:
        """p(value of `group` | bid, context) for the k-th bidder after `order_bids`."""
        ctx = context(k, np.asarray(list(order_bids) + [0] * 4, np.int64))
        return self.prob[ctx, bid, self.group_cells(group)]


# --- the belief ---------------------------------------------------------------------------------
@njit(cache=True)
def world_log_weights(log_ratio, dealt, bids, observer, groups, out):
    """`out[w]` = the log-weight (module docstring) of world w: `dealt[w, s]` the thirteen cards
    seat s (relative to the dealer) was dealt in it, `bids[s]` its bid (-1: not made yet, so
    not counted), `groups` a bit mask of the hand groups used."""
    order = np.zeros(4, np.int64)
    for k in range(4):
        order[k] = bids[(k + 1) % 4]
    ctxs = np.zeros(4, np.int64)
    for k in range(4):
        ctxs[(k + 1) % 4] = context(k, order)  # reads only the bids before k: all made
    feats = np.zeros(N_GROUPS, np.int64)
    for w in range(dealt.shape[0]):
        total = 0.0
        for seat in range(4):
            if seat == observer or bids[seat] < 0:
                continue
            hand_features(dealt[w, seat], feats)
            for g in range(HAND_GROUPS):
                if groups >> g & 1:
                    total += log_ratio[ctxs[seat], bids[seat], OFFSET[g] + feats[g]]
        out[w] = total


class SpadesBidBelief(FeatureBidBelief):
    """The tables as the world log-weight function of Spades' search (the `log_weight` slot of
    `games.spades.play.search_player.SpadesSearchPlayer`; `search.feature_bid_tables`)."""


# --- measure: held-out log-loss against uniform ----------------------------------------------
def _comb(n: int, k: int) -> float:
    return float(math.comb(n, k)) if 0 <= k <= n else 0.0


def uniform_distribution(group: int, seen: int) -> np.ndarray:
    """The exact distribution of a bidder's value of hand group `group` when the 39 cards the
    observer (holding `seen`) cannot see are dealt uniformly, 13 to each other seat."""
    hidden_in = [N_RANKS - popcount(seen >> (N_RANKS * s) & SUIT) for s in range(4)]
    total = _comb(39, 13)
    out = np.zeros(int(SIZE[group]))
    if group == 0:  # hypergeometric on the unseen spades
        h = hidden_in[SPADES]
        for v in range(14):
            out[v] = _comb(h, v) * _comb(39 - h, 13 - v) / total
    elif group == 1:  # each subset of the unseen honours
        free = [bit for r, bit in ((12, 4), (11, 2), (10, 1)) if not seen >> (39 + r) & 1]
        for subset in range(1 << len(free)):
            mask = sum(free[j] for j in range(len(free)) if subset >> j & 1)
            size = bin(subset).count("1")
            out[mask] = _comb(39 - len(free), 13 - size) / total
    elif group in (2, 3):  # hypergeometric on the unseen side aces (kings)
        rank = 12 if group == 2 else 11
        h = sum(1 for s in range(3) if not seen >> (N_RANKS * s + rank) & 1)
        for v in range(4):
            out[v] = _comb(h, v) * _comb(39 - h, 13 - v) / total
    elif group == 5:  # the honours subset H, then the other spades from the rest
        free = [bit for r, bit in ((12, 4), (11, 2), (10, 1)) if not seen >> (39 + r) & 1]
        others = hidden_in[SPADES] - len(free)
        for subset in range(1 << len(free)):
            mask = sum(free[j] for j in range(len(free)) if subset >> j & 1)
            size = bin(subset).count("1")
            for v in range(size, 14):
                out[8 * v + mask] = (_comb(others, v - size)
                                     * _comb(39 - hidden_in[SPADES], 13 - v) / total)
    elif group == 4:  # voids: inclusion-exclusion over the side suits
        at_least = np.zeros(4)  # sum over j-sets of side suits of P(void in all of them)
        for subset in range(8):
            j = bin(subset).count("1")
            gone = sum(hidden_in[s] for s in range(3) if subset >> s & 1)
            at_least[j] += _comb(39 - gone, 13) / total
        for v in range(4):
            out[v] = sum((-1) ** (j - v) * math.comb(j, v) * at_least[j] for j in range(v, 4))
    return np.maximum(out, 0.0) / out.sum()


def spades_joint(hidden_spades: int, ratios) -> list[np.ndarray]:
    """The marginals of the three other seats' spade counts when the 39 hidden cards (holding
    `hidden_spades` spades) are dealt uniformly and weighted by each seat's ratio
    (`ratios[i][v]`: its table ratio for v spades): exact over the splits of the spades."""
    rest = 39 - hidden_spades
    out = [np.zeros(14) for _ in range(3)]
    for a in range(min(13, hidden_spades) + 1):
        for b in range(min(13, hidden_spades - a) + 1):
            c = hidden_spades - a - b
            if c > 13:
                continue
            w = (_comb(hidden_spades, a) * _comb(hidden_spades - a, b)
                 * _comb(rest, 13 - a) * _comb(rest - 13 + a, 13 - b)
                 * ratios[0][a] * ratios[1][b] * ratios[2][c])
            out[0][a] += w
            out[1][b] += w
            out[2][c] += w
    return [o / o.sum() for o in out]


def heldout_losses(tables: SpadesBidTables, hands, bids) -> dict:
    """Mean log-loss (nats) per prediction over held-out deals (`hands[i, s]`, `bids[i, s]`,
    seats relative to the dealer), from every observer seat after the bidding, of each other
    bidder's true value of every hand group: {group: {"uniform", "tables", "cut"}}, and
    `spades_joint` for the spade count under the whole belief; `predictions` their number."""
    sums = {g: [0.0, 0.0] for g in GROUPS[:HAND_GROUPS]}
    sums["spades_joint"] = [0.0, 0.0]
    feats = np.zeros(N_GROUPS, np.int64)
    n = 0
    for hand, bid in zip(np.asarray(hands, np.int64), np.asarray(bids, np.int64)):
        order = np.array([bid[(k + 1) % 4] for k in range(4)], np.int64)
        ctx = {(k + 1) % 4: context(k, order) for k in range(4)}
        for observer in range(4):
            seen = int(hand[observer])
            base = [uniform_distribution(g, seen) for g in range(HAND_GROUPS)]
            ratios, truths = [], []
            for seat in ((observer + j) % 4 for j in (1, 2, 3)):
                hand_features(hand[seat], feats)
                truths.append(int(feats[0]))
                for g, name in enumerate(GROUPS[:HAND_GROUPS]):
                    ratio = np.exp(tables.log_ratio[ctx[seat], bid[seat],
                                                    OFFSET[g]:OFFSET[g] + SIZE[g]])
                    post = base[g] * ratio
                    sums[name][0] -= math.log(base[g][feats[g]])
                    sums[name][1] -= math.log(post[feats[g]] / post.sum())
                ratios.append(np.exp(tables.log_ratio[ctx[seat], bid[seat], :SIZE[0]]))
                n += 1
            joint = spades_joint(13 - popcount(seen >> (N_RANKS * SPADES) & SUIT), ratios)
            for i in range(3):
                sums["spades_joint"][0] -= math.log(base[0][truths[i]])
                sums["spades_joint"][1] -= math.log(joint[i][truths[i]])
    out = {"predictions": n}
    for name, (u, t) in sums.items():
        u, t = u / max(n, 1), t / max(n, 1)
        out[name] = {"uniform": u, "tables": t, "cut": (u - t) / u if u > 0 else 0.0}
    return out
