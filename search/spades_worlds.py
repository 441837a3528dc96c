"""Spades worlds for search: full hand states consistent with a seat's view and every public fact.

What a seat knows of the hidden cards: its own hand, every card played (and by whom: the
history), how many cards each seat holds (thirteen less those it played), and the voids shown:
a seat that did not follow the suit led holds none of it (`state.SHOWN_VOIDS`), and a seat that
LED a spade held nothing else then (a leader must lead a side suit while it holds one, and
spades are never broken: `rules.legal_cards`), so it holds no club, diamond or heart for the
rest of the hand (`spade_lead_voids`, from the history). The bids fix no card. All 52 cards
are dealt, so every unseen card is in one of the three other hands and no layout can
contradict the hand still being played: nothing is rejected.

The draw is exact and uniform over the consistent layouts, by the suit-by-suit dynamic
programme of `search/sampler.py` (Setback's) sized for thirteen-card hands: a layout is fixed by
how many unseen cards of each suit each seat gets, then which; `layout_table` counts the
layouts of suits s..3 for the cards the first two seats still need (the third seat's count is
what is left, since every unseen card is dealt), a void giving a seat no card of the suit, and
`sample_layout` draws the counts suit by suit in proportion to the layouts below them, then the
cards uniformly. Uniform means the seats' strategies are not used as evidence: the bids and the
cards chosen say nothing here about the hands. A belief (`belief=policy`, or a bid-inference
table's log-weight, `play/spades_search_player.py`'s `log_weight` slot) reweights a pool of
these worlds.

`consistent_worlds` fills rows of full states: the view's public fields, the hidden hands, and
`DEALT` rebuilt for the other seats (the cards held plus those played: `cards_played_by`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import popcount
from games.rng import below
from games.spades.cards import N_RANKS, SPADES, suit_mask
from games.spades.rules import BID_MOVE, apply_move
from games.spades.state import (DEALT, HAND, HAND_SIZE, LEADER, N_IN_TRICK, PLAYED, SCORE,
                                SHOWN_VOIDS, TO_ACT, TRICK_NUMBER, new_state, reset_hand)
from search.rollout import TERMINAL, policy_move_log_prob
from search.sampler import binomial_table, uniform01

NEED = HAND_SIZE + 1  # a seat needs 0..13 cards
ALL_CARDS = np.int64((1 << 52) - 1)
SIDE_SUITS = 0b0111  # clubs, diamonds, hearts: what a spade leader shows it lacks


@njit(cache=True, nogil=True)
def cards_held(state, seat):
    """How many cards `seat` (relative to the dealer) holds: thirteen less the tricks played,
    less one if it has played to the trick under way (public)."""
    held = HAND_SIZE - state[TRICK_NUMBER]
    for i in range(state[N_IN_TRICK]):
        if (state[LEADER] + i) % 4 == seat:
            held -= 1
    return held


@njit(cache=True, nogil=True)
def constraints(view_state, seat, use_voids, extra_voids, needs, voids):
    """The cards hidden from `seat` (returned: neither its own nor played) and, for the seats
    seat+1..seat+3, the cards each holds (`needs`) and the suits it cannot hold (`voids`, a bit
    a suit: those shown by not following, and `extra_voids`' (4 bits a seat, relative to the
    dealer: the spade leads'); empty unless `use_voids`)."""
    for i in range(3):
        other = (seat + 1 + i) % 4
        needs[i] = cards_held(view_state, other)
        shown = (view_state[SHOWN_VOIDS] | extra_voids) >> (4 * other) & 0xF
        voids[i] = shown if use_voids else 0
    return ALL_CARDS & ~(view_state[HAND + seat] | view_state[PLAYED])


@njit(cache=True, nogil=True, inline="always")
def _ways(binom, table, voids, suit, m, c, a, b, k0, k1):
    """The layouts of suits `suit`..3 in which the first two other seats get k0 and k1 of the
    suit's `m` unseen cards (the third the rest, at most `c`) and a and b cards in all: which
    cards, times the layouts of the suits after (`table`); 0 where a void forbids it."""
    k2 = m - k0 - k1
    if (k2 > c or (k0 > 0 and voids[0] >> suit & 1) or (k1 > 0 and voids[1] >> suit & 1)
            or (k2 > 0 and voids[2] >> suit & 1)):
        return 0.0
    return binom[m, k0] * binom[m - k0, k1] * table[suit + 1, a - k0, b - k1]


@njit(cache=True, nogil=True)
def layout_table(unseen, needs, voids):
    """Counts of consistent layouts: `table[s, a, b]` = ways to deal the unseen cards of suits
    s..3 so that the first two other seats get a and b of them and the third the rest, no seat
    a card of a suit it is void in (`voids[i]`, a bit a suit). The layouts of the position are
    `table[0, needs[0], needs[1]]`."""
    binom = binomial_table()
    table = np.zeros((5, NEED, NEED), np.float64)
    table[4, 0, 0] = 1.0
    rest = 0  # the unseen cards of suits s..3
    for suit in range(3, -1, -1):
        m = popcount(unseen & suit_mask(suit))
        rest += m
        for a in range(NEED):
            for b in range(NEED):
                c = rest - a - b
                if 0 <= c < NEED:
                    total = 0.0
                    for k0 in range(min(a, m) + 1):
                        for k1 in range(min(b, m - k0) + 1):
                            total += _ways(binom, table, voids, suit, m, c, a, b, k0, k1)
                    table[suit, a, b] = total
    return table


@njit(cache=True, nogil=True)
def _take(rng, pool, k):
    """`k` cards of the mask `pool` drawn uniformly (a mask)."""
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
def sample_layout(rng, unseen, needs, voids, table, out):
    """Draw one layout uniformly: `out[i]` gets the hand of the i-th other seat. Returns False
    (out untouched) when no layout is consistent."""
    a, b = needs[0], needs[1]
    if needs[0] + needs[1] + needs[2] != popcount(unseen) or table[0, a, b] <= 0.0:
        return False
    binom = binomial_table()
    out[0] = 0
    out[1] = 0
    out[2] = 0
    rest = popcount(unseen)
    for suit in range(4):
        pool = unseen & suit_mask(suit)
        m = popcount(pool)
        c = rest - a - b
        target = uniform01(rng) * table[suit, a, b]
        chosen0, chosen1 = -1, -1
        running = 0.0
        for k0 in range(min(a, m) + 1):
            for k1 in range(min(b, m - k0) + 1):
                ways = _ways(binom, table, voids, suit, m, c, a, b, k0, k1)
                if ways > 0.0:
                    running += ways
                    chosen0, chosen1 = k0, k1  # the last feasible, on rounding
                    if running > target:
                        break
            if running > target:
                break
        first = _take(rng, pool, chosen0)
        second = _take(rng, pool & ~first, chosen1)
        out[0] |= first
        out[1] |= second
        out[2] |= pool & ~first & ~second
        a -= chosen0
        b -= chosen1
        rest -= m
    return True


@njit(cache=True, nogil=True)
def consistent_worlds(view_state, seat, played_by, extra_voids, rng, use_voids, states_out):
    """Fill `states_out[w]` with full hand states drawn uniformly among the layouts consistent
    with `seat`'s view `view_state` (module docstring); `played_by[s]`: the cards seat s played
    (`cards_played_by`), `extra_voids` the spade leads' voids (`spade_lead_voids`). Returns the
    worlds drawn: all rows, or 0 when no layout is consistent (an impossible view)."""
    needs = np.zeros(3, np.int64)
    voids = np.zeros(3, np.int64)
    three = np.zeros(3, np.int64)
    unseen = constraints(view_state, seat, use_voids, extra_voids, needs, voids)
    table = layout_table(unseen, needs, voids)
    for w in range(states_out.shape[0]):
        if not sample_layout(rng, unseen, needs, voids, table, three):
            return 0
        out = states_out[w]
        for j in range(out.shape[0]):
            out[j] = view_state[j]
        for i in range(3):
            other = (seat + 1 + i) % 4
            out[HAND + other] = three[i]
            out[DEALT + other] = three[i] | played_by[other]
    return states_out.shape[0]


def replay_public(history) -> tuple[np.ndarray, int]:
    """(int64[4]: the cards each seat, relative to the dealer, played; the voids the spade
    leads show, 4 bits a seat) of a hand's public `history` (bids and cards), replayed on empty
    hands: the turn order depends only on the moves."""
    played_by = np.zeros(4, dtype=np.int64)
    extra_voids = 0
    replay = new_state()
    reset_hand(replay, np.zeros(4, dtype=np.int64), 0, 0)
    for move in history:
        move = int(move)
        if move < BID_MOVE:
            seat = int(replay[TO_ACT])
            played_by[seat] |= np.int64(1) << move
            if replay[N_IN_TRICK] == 0 and move // N_RANKS == SPADES:
                extra_voids |= SIDE_SUITS << (4 * seat)
        apply_move(replay, move)
    return played_by, extra_voids


@njit(cache=True, nogil=True)
def policy_log_likelihood(current_player, decision, world, history, n_moves, modelled, keys,
                          offsets, probs, floor, state, actions, key_out):
    """The log-probability that the players, modelled by a `db:` base's table (keys built by
    the abstract game's `decision`), make the moves of `history` that the seats in `modelled`
    (bit s: seat s, relative to the dealer) made, when the hands are `world`'s (`DEALT`): the
    sum of `rollout.policy_move_log_prob` over those bids and cards (`belief=policy`)."""
    hands = np.zeros(4, np.int64)
    for seat in range(4):
        hands[seat] = world[DEALT + seat]
    reset_hand(state, hands, world[SCORE], world[SCORE + 1])
    total = 0.0
    for i in range(n_moves):
        if current_player(state) == TERMINAL:
            break
        move = history[i]
        if (modelled >> state[TO_ACT]) & 1:
            total += policy_move_log_prob(decision, state, move, keys, offsets, probs, floor,
                                          actions, key_out)
        apply_move(state, move)
    return total


@njit(cache=True, nogil=True)
def policy_log_weights(current_player, decision, worlds, first, stop, history, n_moves,
                       modelled, keys, offsets, probs, floor, out):
    """`policy_log_likelihood` of the worlds `worlds[first:stop]` into `out[first:stop]` (a
    slice a thread computes)."""
    state = np.zeros(worlds.shape[1], np.int64)
    actions = np.zeros(64, np.int64)
    key_out = np.zeros(2, np.uint64)
    for w in range(first, stop):
        out[w] = policy_log_likelihood(current_player, decision, worlds[w], history, n_moves,
                                       modelled, keys, offsets, probs, floor, state, actions,
                                       key_out)
