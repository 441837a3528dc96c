"""Worlds: the hidden cards of the other three seats, consistent with what the seat to move has
seen, drawn uniformly over every consistent layout.

What the seat knows: its own hand, every card played, the number of cards each seat still
holds (six less the tricks it has played to), and the voids shown (`state.SHOWN_VOIDS`: a seat
that played neither the suit led nor trump holds none of the suit led). Nothing more: under our
rules a seat able to follow may still trump, so trumping shows nothing. The unseen cards (52
less its hand and the cards played) go to the other seats or were not dealt at all.

Exact uniform sampling, constructively: a layout is fixed by how many unseen cards of each suit
each seat gets, then which. `layout_table` counts the layouts suit by suit (a dynamic programme
over the cards each seat still needs, voids giving a seat no card of the suit); `sample_layout`
draws the per-suit counts with probability proportional to the layouts below them, then the
cards of each suit uniformly. Every consistent layout is equally likely (`test_search_sampler`
checks it with a chi-square test). Counts reach ~1e19, so they are float64: the probabilities
are exact up to rounding.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import popcount
from games.rng import next_u64
from games.setback.cards import suit_mask
from games.setback.state import (
    DEALT,
    HAND,
    HAND_SIZE,
    LEADER,
    N_IN_TRICK,
    PLAYED,
    SHOWN_VOIDS,
    TRICK,
    TRICK_NUMBER,
    WON,
)

ALL_CARDS = np.int64((1 << 52) - 1)
NEED = HAND_SIZE + 1  # table size per seat: a seat needs 0..6 cards


@njit(cache=True)
def binomial_table():
    """Pascal's triangle to 52 (float64[53, 53]: table[n, k] = n choose k), which the layout
    counts are made of."""
    table = np.zeros((53, 53), np.float64)
    for n in range(53):
        table[n, 0] = 1.0
        for k in range(1, n + 1):
            table[n, k] = table[n - 1, k - 1] + table[n - 1, k]
    return table


@njit(cache=True, inline="always")
def uniform01(rng):
    """A float in [0, 1) from the generator `rng` (53 random bits)."""
    return (next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def _caps(voids, suit):
    """The most cards of `suit` each of the three other seats may still get: none where it
    has shown a void (`voids[i]`, a bit a suit)."""
    return (0 if voids[0] >> suit & 1 else NEED - 1, 0 if voids[1] >> suit & 1 else NEED - 1,
            0 if voids[2] >> suit & 1 else NEED - 1)


@njit(cache=True, inline="always")
def _ways(binom, table, suit, m, a, b, c, k0, k1, k2):
    """The layouts of suits `suit`..3 in which the three other seats get k0, k1, k2 of the
    suit's `m` unseen cards and a, b, c cards in all: which k cards, times the layouts of the
    suits after (`table`); 0 where those cannot be dealt."""
    below = table[suit + 1, a - k0, b - k1, c - k2]
    if below > 0.0:
        return binom[m, k0] * binom[m - k0, k1] * binom[m - k0 - k1, k2] * below
    return 0.0


@njit(cache=True)
def layout_table(unseen, needs, voids):
    """Counts of consistent layouts: `table[s, a, b, c]` = ways to deal the unseen cards of
    suits s..3 so that the three other seats get a, b, c more cards. `unseen`: the unseen card
    mask; `needs`: cards each of the three seats still holds; `voids[i]`: bit suit set when
    seat i is void in it. The layouts of the whole position are `table[0, needs...]`."""
    binom = binomial_table()
    table = np.zeros((5, NEED, NEED, NEED), np.float64)
    table[4, 0, 0, 0] = 1.0
    for suit in range(3, -1, -1):
        m = popcount(unseen & suit_mask(suit))
        max0, max1, max2 = _caps(voids, suit)
        for a in range(NEED):
            for b in range(NEED):
                for c in range(NEED):
                    total = 0.0
                    for k0 in range(min(a, max0, m) + 1):
                        for k1 in range(min(b, max1, m - k0) + 1):
                            for k2 in range(min(c, max2, m - k0 - k1) + 1):
                                total += _ways(binom, table, suit, m, a, b, c, k0, k1, k2)
                    table[suit, a, b, c] = total
    return table


@njit(cache=True)
def sample_layout(rng, unseen, needs, voids, table, out):
    """Draw one layout uniformly: `out[i]` gets the hand of the i-th other seat. Returns False
    (out untouched) when no layout is consistent."""
    a, b, c = needs[0], needs[1], needs[2]
    if table[0, a, b, c] <= 0.0:
        return False
    binom = binomial_table()
    cards = np.empty(13, np.int64)
    out[0] = 0
    out[1] = 0
    out[2] = 0
    for suit in range(4):
        pool = unseen & suit_mask(suit)
        m = 0
        while pool:
            cards[m] = pool & -pool
            pool &= pool - 1
            m += 1
        max0, max1, max2 = _caps(voids, suit)
        target = uniform01(rng) * table[suit, a, b, c]
        chosen0, chosen1, chosen2 = -1, -1, -1
        running = 0.0
        for k0 in range(min(a, max0, m) + 1):
            for k1 in range(min(b, max1, m - k0) + 1):
                for k2 in range(min(c, max2, m - k0 - k1) + 1):
                    ways = _ways(binom, table, suit, m, a, b, c, k0, k1, k2)
                    if ways > 0.0:
                        running += ways
                        chosen0, chosen1, chosen2 = k0, k1, k2  # the last feasible, on rounding
                        if running > target:
                            break
                if running > target:
                    break
            if running > target:
                break
        # which cards: a uniform partial shuffle of the suit's unseen cards
        dealt = chosen0 + chosen1 + chosen2
        for i in range(dealt):
            j = i + np.int64(next_u64(rng) % np.uint64(m - i))
            tmp = cards[i]
            cards[i] = cards[j]
            cards[j] = tmp
        for i in range(dealt):
            if i < chosen0:
                out[0] |= cards[i]
            elif i < chosen0 + chosen1:
                out[1] |= cards[i]
            else:
                out[2] |= cards[i]
        a -= chosen0
        b -= chosen1
        c -= chosen2
    return True


@njit(cache=True)
def constraints(state, seat, use_voids, needs, voids):
    """The unseen cards of `seat` (returned) and, for the other seats seat+1..seat+3, the cards
    each still holds (`needs`) and its shown voids (`voids`, empty unless `use_voids`)."""
    unseen = ALL_CARDS & ~(state[HAND + seat] | state[PLAYED])
    leader = state[LEADER]
    for i in range(3):
        other = (seat + 1 + i) % 4
        played_now = 1 if (other - leader) % 4 < state[N_IN_TRICK] else 0
        needs[i] = HAND_SIZE - state[TRICK_NUMBER] - played_now
        voids[i] = (state[SHOWN_VOIDS] >> (4 * other)) & 0xF if use_voids else 0
    return unseen


@njit(cache=True)
def sample_worlds(state, seat, rng, use_voids, hands_out):
    """Fill `hands_out[w, 0..3]` (hands by seat relative to the dealer) with uniform layouts
    consistent with `seat`'s view in `state`; returns how many were drawn (0 when the view is
    inconsistent, else all rows)."""
    needs = np.zeros(3, np.int64)
    voids = np.zeros(3, np.int64)
    unseen = constraints(state, seat, use_voids, needs, voids)
    table = layout_table(unseen, needs, voids)
    three = np.zeros(3, np.int64)
    for w in range(hands_out.shape[0]):
        if not sample_layout(rng, unseen, needs, voids, table, three):
            return 0
        hands_out[w, seat] = state[HAND + seat]
        for i in range(3):
            hands_out[w, (seat + 1 + i) % 4] = three[i]
    return hands_out.shape[0]


@njit(cache=True)
def log_layouts(state, seat, use_voids):
    """Natural log of the number of layouts consistent with `seat`'s view (-inf if none)."""
    needs = np.zeros(3, np.int64)
    voids = np.zeros(3, np.int64)
    unseen = constraints(state, seat, use_voids, needs, voids)
    return np.log(layout_table(unseen, needs, voids)[0, needs[0], needs[1], needs[2]])


@njit(cache=True)
def world_state(view_state, seat, hands, out):
    """The full state of a world into `out`: `view_state` (what `seat` sees) with the other
    seats' hands set from `hands` (by seat). The cards played in completed tricks are credited
    to a seat of the team that took them, so `DEALT` gives the right High: the top trump in play
    always wins its trick. The current trick's cards go to the seats that played them."""
    for j in range(out.shape[0]):
        out[j] = view_state[j]
    credited = view_state[DEALT + seat]
    for s in range(4):
        if s != seat:
            out[HAND + s] = hands[s]
            out[DEALT + s] = hands[s]
    leader = view_state[LEADER]
    for i in range(view_state[N_IN_TRICK]):
        player = (leader + i) % 4
        card_bit = np.int64(1) << view_state[TRICK + i]
        if player != seat:
            out[DEALT + player] |= card_bit
        credited |= card_bit
    for team in range(2):
        rest = view_state[WON + team] & ~credited
        target = team if team != seat % 2 else (seat + 2) % 4  # seat `team` is on team `team`
        out[DEALT + target] |= rest
