"""The bid tables' belief about the hidden cards of a position after the pitch (the tables
themselves are counted in `games/setback/play/bid_tables.py`).

A layout of the cards the asking seat cannot see over the three other seats and "not dealt" gets
probability proportional to the product of the per-card probabilities of its locations (the
tables' `post_prob` for the auction's sequence and the pitch rank, seats relative to the
bidder), restricted to the layouts consistent with the hand sizes and the voids shown.
`tables_layout_table` sums those products exactly by a dynamic programme over the unseen cards
(the sampler's layout count with weights: with every probability 1 it is the number of
layouts), `sample_tables_layout` draws from it constructively (no importance weights, so no
effective-sample-size loss), and the log-likelihood of the true layout is exact. Before the
pitch (trump unknown) the belief does not apply (`applies`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from games.bits import lowest_bit
from games.setback.state import (
    BID,
    FIRST_LEAD,
    HAND,
    HIGH_BIDDER,
    PHASE,
    PHASE_PLAY,
    PLAYED,
    TRUMP,
)
from games.setback.search.sampler import constraints, uniform01

ALL_CARDS = np.int64((1 << 52) - 1)
UNDEALT = 4  # the location index of "not dealt" in the tables


@njit(cache=True)
def card_weights(view_state, seat, log_post, weights, cards):
    """For `seat`'s view after the pitch: the unseen cards into `cards` (returned count m) and
    `weights[i, j]` = P(location j holds card i) for j = the seats seat+1..seat+3 and 3 = not
    dealt, from the tables `log_post` [seq, pitch, loc, cell] (exponentiated)."""
    seq = 0
    for k in range(4):
        bid = view_state[BID + (k + 1) % 4]
        seq |= (0 if bid <= 0 else bid - 1) << (2 * k)
    bidder = view_state[HIGH_BIDDER]
    pitch = view_state[FIRST_LEAD]
    trump = pitch // 13
    prank = pitch % 13
    unseen = ALL_CARDS & ~(view_state[HAND + seat] | view_state[PLAYED])
    m = 0
    while unseen:
        card = lowest_bit(unseen)
        unseen &= unseen - 1
        cell = card % 13 + (0 if card // 13 == trump else 13)
        cards[m] = card
        for i in range(3):
            loc = (seat + 1 + i - bidder) % 4
            weights[m, i] = math.exp(log_post[seq, prank, loc, cell])
        weights[m, 3] = math.exp(log_post[seq, prank, UNDEALT, cell])
        m += 1
    return m


@njit(cache=True)
def tables_layout_table(weights, cards, m, needs, voids, table, log_scale):
    """Weighted layout counts: `table[i, a, b, c]` = sum over the layouts of cards i..m-1 giving
    the three other seats a, b, c of them (voids respected) of the product of their weights,
    each layer scaled by exp(-log_scale[i]) so nothing underflows. The total weight of the
    position is table[0, needs] * exp(log_scale[0])."""
    for a in range(7):
        for b in range(7):
            for c in range(7):
                table[m, a, b, c] = 0.0
    table[m, 0, 0, 0] = 1.0
    log_scale[m] = 0.0
    for i in range(m - 1, -1, -1):
        suit = cards[i] // 13
        w0 = 0.0 if voids[0] >> suit & 1 else weights[i, 0]
        w1 = 0.0 if voids[1] >> suit & 1 else weights[i, 1]
        w2 = 0.0 if voids[2] >> suit & 1 else weights[i, 2]
        wu = weights[i, 3]
        top = 0.0
        for a in range(7):
            for b in range(7):
                for c in range(7):
                    t = wu * table[i + 1, a, b, c]
                    if a > 0:
                        t += w0 * table[i + 1, a - 1, b, c]
                    if b > 0:
                        t += w1 * table[i + 1, a, b - 1, c]
                    if c > 0:
                        t += w2 * table[i + 1, a, b, c - 1]
                    table[i, a, b, c] = t
                    if t > top:
                        top = t
        if top <= 0.0:
            top = 1.0
        for a in range(7):
            for b in range(7):
                for c in range(7):
                    table[i, a, b, c] /= top
        log_scale[i] = log_scale[i + 1] + math.log(top)


@njit(cache=True)
def sample_tables_layout(rng, weights, cards, m, needs, voids, table, out):
    """Draw one layout from the tables belief (`tables_layout_table` filled for these cards):
    `out[i]` = the hand of the i-th other seat. False when no layout is consistent."""
    a, b, c = needs[0], needs[1], needs[2]
    if table[0, a, b, c] <= 0.0:
        return False
    out[0] = 0
    out[1] = 0
    out[2] = 0
    for i in range(m):
        suit = cards[i] // 13
        w0 = 0.0 if voids[0] >> suit & 1 else weights[i, 0]
        w1 = 0.0 if voids[1] >> suit & 1 else weights[i, 1]
        w2 = 0.0 if voids[2] >> suit & 1 else weights[i, 2]
        opts = np.zeros(4)
        opts[3] = weights[i, 3] * table[i + 1, a, b, c]
        if a > 0:
            opts[0] = w0 * table[i + 1, a - 1, b, c]
        if b > 0:
            opts[1] = w1 * table[i + 1, a, b - 1, c]
        if c > 0:
            opts[2] = w2 * table[i + 1, a, b, c - 1]
        total = opts[0] + opts[1] + opts[2] + opts[3]
        target = uniform01(rng) * total
        choice = 3
        running = 0.0
        for j in range(4):
            if opts[j] > 0.0:
                running += opts[j]
                choice = j
                if running > target:
                    break
        bit = np.int64(1) << cards[i]
        if choice == 0:
            out[0] |= bit
            a -= 1
        elif choice == 1:
            out[1] |= bit
            b -= 1
        elif choice == 2:
            out[2] |= bit
            c -= 1
    return True


@njit(cache=True)
def _tables_worlds(view_state, seat, log_post, rng, use_voids, hands_out, truth, want_truth):
    """Fill `hands_out` with worlds drawn from the tables belief; returns (drawn, log-likelihood
    of `truth` (hands by seat) under the belief, or 0 when not `want_truth`)."""
    weights = np.zeros((52, 4))
    cards = np.zeros(52, np.int64)
    needs = np.zeros(3, np.int64)
    voids = np.zeros(3, np.int64)
    unseen = constraints(view_state, seat, use_voids, needs, voids)
    m = card_weights(view_state, seat, log_post, weights, cards)
    table = np.zeros((m + 1, 7, 7, 7))
    log_scale = np.zeros(m + 1)
    tables_layout_table(weights, cards, m, needs, voids, table, log_scale)
    loglik = 0.0
    if want_truth:
        total = table[0, needs[0], needs[1], needs[2]]
        loglik = -(math.log(total) + log_scale[0]) if total > 0 else -math.inf
        for i in range(m):
            bit = np.int64(1) << cards[i]
            j = 3
            for k in range(3):
                if truth[(seat + 1 + k) % 4] & bit:
                    j = k
            loglik += math.log(weights[i, j]) if weights[i, j] > 0 else -math.inf
    three = np.zeros(3, np.int64)
    for w in range(hands_out.shape[0]):
        if not sample_tables_layout(rng, weights, cards, m, needs, voids, table, three):
            return 0, loglik
        hands_out[w, seat] = view_state[HAND + seat]
        for i in range(3):
            hands_out[w, (seat + 1 + i) % 4] = three[i]
    _ = unseen
    return hands_out.shape[0], loglik


def applies(view_state) -> bool:
    """Whether the tables belief applies to a view: the play has started (trump is set)."""
    return (int(view_state[PHASE]) == PHASE_PLAY and int(view_state[TRUMP]) >= 0
            and int(view_state[HIGH_BIDDER]) >= 0)


class TablesBelief:
    """Worlds from the tables belief (module docstring) for PIMC and the inference measure;
    `post_prob`: float64[256, 13, 5, 26], the tables' smoothed probabilities after the pitch
    (sequence, pitch rank, location relative to the bidder, cell: trump ranks then off-suit
    ranks), every one in (0, 1]."""

    def __init__(self, post_prob: np.ndarray, name: str = "tables"):
        self.log_post = np.log(np.asarray(post_prob, dtype=np.float64))
        self.name = name

    def sample(self, view_state, seat: int, worlds: int, rng, voids: bool = True) -> np.ndarray:
        """`worlds` layouts (int64[worlds, 4], hands by seat) drawn from the tables belief of
        `seat`'s view (after the pitch: see `applies`)."""
        hands = np.zeros((worlds, 4), dtype=np.int64)
        drawn, _ = _tables_worlds(view_state, seat, self.log_post, rng, voids, hands,
                                  np.zeros(4, np.int64), False)
        if drawn != worlds:
            raise ValueError("no layout of the hidden cards is consistent with this view")
        return hands

    def loglik(self, view_state, seat: int, truth, voids: bool = True) -> float:
        """Exact log-likelihood (nats) of the true hands `truth` (by seat) under the belief."""
        hands = np.zeros((0, 4), dtype=np.int64)
        rng = np.zeros(1, np.uint64)
        _, ll = _tables_worlds(view_state, seat, self.log_post, rng, voids, hands,
                               np.asarray(truth, dtype=np.int64), True)
        return float(ll)
