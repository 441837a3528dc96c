"""The one world sampler: the cards hidden from a seat dealt to the other three seats, uniform
over every layout consistent with what the seat knows, for every game. It names no game.

What a game declares (its `constraints` and `suit_masks` hooks, in `games/<game>/public.py`),
for the seat to move:
- `unseen`: the cards it has not seen (a mask): not its own, not played, not a card it knows
  to be elsewhere (Euchre's upcard);
- `suits`: four card masks, the suits a void is shown in (Euchre's effective suits once trump
  is named; the printed suits elsewhere);
- for each of the other seats seat+1..seat+3: `needs`, the hidden cards it holds (its
  `cards_held` less the cards everyone knows it holds, `holds`: Euchre's upcard in the
  dealer's hand), and `voids`, the suits it cannot hold (a bit a suit: shown by not following,
  or by a Spades spade lead);
- the unseen cards no seat gets, the rest (Setback's and Euchre's undealt cards, Euchre's
  hidden discard; none in Spades): `pile = popcount(unseen) - sum(needs)`.
A layout is the three seats' hidden cards; the world hooks (`complete`, `possible`) turn it
into a full state of the game and say whether a public fact the counts cannot hold forbids it
(Setback: the deal would already be settled). A function taking these hooks is called from a
game's compiled wrapper (`games/<game>/search/worlds.py`), never from Python: numba's cache cannot
keep a signature of functions across processes.

Exact uniform sampling, constructively: a layout is fixed by how many unseen cards of each
suit each seat gets, then which. `layout_table` counts the layouts suit by suit (a dynamic
programme over the cards each seat still needs, the pile taking the rest, a void giving a seat
no card of the suit); `sample_layout` draws the per-suit counts with probability proportional
to the layouts below them, then the cards of each suit uniformly. Counts reach ~1e19, so they
are float64: the probabilities are exact up to rounding.

Which cards of a suit: a uniform partial shuffle of the suit's unseen cards when some go to
the pile; when every unseen card is dealt (no pile), the first two seats' cards drawn one by one
and the third seat taking what is left, since its cards are then fixed. Both are uniform; the two
ways are the two games' draws that were written first (Setback's, Spades'), kept so that a seed
gives the same worlds as before the samplers were one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import popcount
from games.rng import below, next_u64

MAX_DRAWS_PER_WORLD = 10_000  # rejections before a world repeats (far above need)


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


@njit(cache=True, nogil=True, inline="always")
def _caps(voids, suit, size):
    """The most cards of `suit` each of the three other seats may get: none where it has shown
    a void (`voids[i]`, a bit a suit)."""
    return (0 if voids[0] >> suit & 1 else size - 1, 0 if voids[1] >> suit & 1 else size - 1,
            0 if voids[2] >> suit & 1 else size - 1)


@njit(cache=True, nogil=True, inline="always")
def _ways(binom, table, suit, m, a, b, c, k0, k1, k2):
    """The layouts of suits `suit`..3 in which the three other seats get k0, k1, k2 of the
    suit's `m` unseen cards and a, b, c cards in all: which k cards, times the layouts of the
    suits after (`table`); 0 where those cannot be dealt."""
    below_ = table[suit + 1, a - k0, b - k1, c - k2]
    if below_ > 0.0:
        return binom[m, k0] * binom[m - k0, k1] * binom[m - k0 - k1, k2] * below_
    return 0.0


@njit(cache=True, nogil=True, inline="always")
def _k2_range(m, k0, k1, c, cap2, pile_left):
    """The third seat's cards of the suit given the first two seats' (k0, k1): at most `c` (its
    need) and its cap, and enough that the pile, with `pile_left` cards still to take, takes no
    more than that."""
    left = m - k0 - k1
    return max(0, left - pile_left), min(c, cap2, left)


@njit(cache=True, nogil=True)
def layout_table(unseen, suits, needs, voids, size):
    """Counts of consistent layouts: `table[s, a, b, c]` = ways to deal the unseen cards of
    suits s..3 (`suits[s]`, card masks) so that the three other seats get a, b, c of them and
    the pile the rest (the pile's size is fixed: the unseen cards less `needs`), no seat a card
    of a suit it is void in (`voids[i]`, a bit a suit). `size` bounds a seat's need (hand size
    + 1). The layouts of the whole position are `table[0, needs...]` (0 when none)."""
    binom = binomial_table()
    table = np.zeros((5, size, size, size), np.float64)
    table[4, 0, 0, 0] = 1.0
    pile = popcount(unseen) - needs[0] - needs[1] - needs[2]
    if pile < 0:
        return table
    rest = 0  # the unseen cards of suits s..3
    for suit in range(3, -1, -1):
        m = popcount(unseen & suits[suit])
        rest += m
        max0, max1, max2 = _caps(voids, suit, size)
        for a in range(size):
            for b in range(size):
                # the third seat's count: the pile takes the rest, 0..pile cards of these suits
                for c in range(max(0, rest - a - b - pile), min(size - 1, rest - a - b) + 1):
                    pile_left = rest - a - b - c
                    total = 0.0
                    for k0 in range(min(a, max0, m) + 1):
                        for k1 in range(min(b, max1, m - k0) + 1):
                            low, high = _k2_range(m, k0, k1, c, max2, pile_left)
                            for k2 in range(low, high + 1):
                                total += _ways(binom, table, suit, m, a, b, c, k0, k1, k2)
                    table[suit, a, b, c] = total
    return table


@njit(cache=True, nogil=True)
def _take(rng, pool, k):
    """`k` cards of the mask `pool` drawn uniformly, one at a time (a mask)."""
    out = np.int64(0)
    for _ in range(k):
        j = below(rng, popcount(pool))
        rest = pool
        for _ in range(j):
            rest &= rest - 1
        card = rest & -rest
        out |= card
        pool &= ~card
    return out


@njit(cache=True, nogil=True)
def _deal_suit(rng, pool, k0, k1, k2, dealt_all, cards, out):
    """Give the seats k0, k1, k2 of the suit's unseen cards `pool`, uniformly (module
    docstring: which way depends on `dealt_all`, every unseen card dealt)."""
    if dealt_all:
        first = _take(rng, pool, k0)
        second = _take(rng, pool & ~first, k1)
        out[0] |= first
        out[1] |= second
        out[2] |= pool & ~first & ~second
        return
    m = 0
    while pool:
        cards[m] = pool & -pool
        pool &= pool - 1
        m += 1
    dealt = k0 + k1 + k2
    for i in range(dealt):  # a uniform partial shuffle
        j = i + np.int64(next_u64(rng) % np.uint64(m - i))
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp
    for i in range(dealt):
        if i < k0:
            out[0] |= cards[i]
        elif i < k0 + k1:
            out[1] |= cards[i]
        else:
            out[2] |= cards[i]


@njit(cache=True, nogil=True)
def sample_layout(rng, unseen, suits, needs, voids, table, out):
    """Draw one layout uniformly (`table` from `layout_table` for these arguments): `out[i]`
    gets the hidden cards of the i-th other seat. Returns False (out untouched) when no layout
    is consistent."""
    a, b, c = needs[0], needs[1], needs[2]
    if table[0, a, b, c] <= 0.0:
        return False
    binom = binomial_table()
    size = table.shape[1]
    dealt_all = popcount(unseen) == a + b + c
    cards = np.empty(64, np.int64)
    out[0] = 0
    out[1] = 0
    out[2] = 0
    rest = popcount(unseen)
    for suit in range(4):
        pool = unseen & suits[suit]
        m = popcount(pool)
        max0, max1, max2 = _caps(voids, suit, size)
        pile_left = rest - a - b - c
        target = uniform01(rng) * table[suit, a, b, c]
        chosen0, chosen1, chosen2 = -1, -1, -1
        running = 0.0
        for k0 in range(min(a, max0, m) + 1):
            for k1 in range(min(b, max1, m - k0) + 1):
                low, high = _k2_range(m, k0, k1, c, max2, pile_left)
                for k2 in range(low, high + 1):
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
        _deal_suit(rng, pool, chosen0, chosen1, chosen2, dealt_all, cards, out)
        a -= chosen0
        b -= chosen1
        c -= chosen2
        rest -= m
    return True


@njit(cache=True, nogil=True)
def always_possible(view_state, world):
    """The `possible` hook of a game whose counts hold every public fact: every layout is."""
    return True


@njit(cache=True, nogil=True)
def draw_worlds(complete, possible, view_state, seat, played_by, unseen, suits, needs, voids,
                holds, size, rng, states_out):
    """Fill `states_out[w]` with full states drawn uniformly among the layouts consistent with
    the facts (module docstring; `holds[i]`: the cards the i-th other seat is known to hold)
    that `possible(view_state, world)` allows: each layout is made a state by the game's
    `complete(view_state, seat, hands, played_by, rng, out)` (`hands`: every seat's cards by
    seat, `played_by[s]`: the cards seat s played), and redrawn while `possible` refuses it
    (rejection keeps the draw uniform over what it allows). Returns (worlds drawn, layouts
    refused): fewer worlds than rows only when no layout is consistent at all. Where allowed
    layouts are too rare to draw (none in `MAX_DRAWS_PER_WORLD`), the rows repeat those found
    (with none found, the last drawn)."""
    table = layout_table(unseen, suits, needs, voids, size)
    three = np.zeros(3, np.int64)
    hands = np.zeros(4, np.int64)
    refused = 0
    for w in range(states_out.shape[0]):
        found = False
        for _ in range(MAX_DRAWS_PER_WORLD):
            if not sample_layout(rng, unseen, suits, needs, voids, table, three):
                return w, refused
            hands[seat] = 0
            for i in range(3):
                hands[(seat + 1 + i) % 4] = three[i] | holds[i]
            complete(view_state, seat, hands, played_by, rng, states_out[w])
            if possible(view_state, states_out[w]):
                found = True
                break
            refused += 1
        if not found:
            # The allowed layouts are too rare to draw (one in 10,000 or fewer): the worlds
            # found are drawn again in turn, and with none the rows take the last layout
            # drawn; a search then still decides (a crash of the match is what this replaces).
            for again in range(w, states_out.shape[0]):
                states_out[again, :] = states_out[again % w if w > 0 else w, :]
            return states_out.shape[0], refused
    return states_out.shape[0], refused


@njit(cache=True, nogil=True)
def consistent_worlds(constraints, suit_masks, complete, possible, size, view_state, seat,
                      played_by, extra_voids, rng, use_voids, states_out):
    """Fill `states_out[w]` with full states drawn uniformly among the layouts consistent with
    `seat`'s view `view_state` and every public fact, by a game's hooks (`games/<game>/public.py`:
    `constraints(view_state, seat, use_voids, extra_voids, needs, voids, holds) -> unseen`,
    `suit_masks(view_state, out)`, `complete` and `possible` as `draw_worlds` takes them, and
    `size`, its hand size + 1). `played_by[s]`: the cards seat s played; `extra_voids`: the
    voids the moves show beyond the state's (4 bits a seat, relative to the dealer: the game's
    `replay_public`); the voids count only when `use_voids`. Returns (worlds drawn, layouts
    refused), as `draw_worlds`."""
    needs = np.zeros(3, np.int64)
    voids = np.zeros(3, np.int64)
    holds = np.zeros(3, np.int64)
    suits = np.zeros(4, np.int64)
    suit_masks(view_state, suits)
    unseen = constraints(view_state, seat, use_voids, extra_voids, needs, voids, holds)
    return draw_worlds(complete, possible, view_state, seat, played_by, unseen, suits, needs,
                       voids, holds, size, rng, states_out)
