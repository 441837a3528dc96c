"""What every seat knows of the hidden cards of a Setback deal: the hooks the one world sampler
(`search/world_sampler.py`) is driven by.

A seat knows its own hand, every card played, how many cards each seat still holds (six less the
tricks it has played to) and the voids shown (`state.SHOWN_VOIDS`: a seat that played neither
the suit led nor trump holds none of the suit led). Nothing more: under our rules a seat able to
follow may still trump, so trumping shows nothing. The unseen cards (52 less its hand and the
cards played) go to the other seats or were not dealt at all (the pile). One more public fact is
not in those counts: the deal is still being played (`possible`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.scaffold.cards_held import held_in, plain_constraints
from games.scaffold.suits import printed_suits as suit_masks  # noqa: F401 (a hook)
from games.setback.rules import apply_move
from games.setback.scoring import exhaustion_test, is_exhausted
from games.setback.state import (DEALT, HAND, HAND_SIZE, LEADER, N_IN_TRICK, PHASE,
                                 PHASE_AUCTION, SHOWN_VOIDS, TO_ACT, TRICK, TRICK_WORDS, WON,
                                 new_state, reset_deal)

ALL_CARDS = np.int64((1 << 52) - 1)
SIZE = HAND_SIZE + 1  # the sampler's table bound: a seat holds 0..6 hidden cards


@njit(cache=True, nogil=True)
def cards_held(state, seat):
    """How many cards `seat` (relative to the dealer) holds: six less the tricks completed,
    less one if it has played to the trick under way (public)."""
    return held_in(state, TRICK_WORDS, HAND_SIZE, seat)


@njit(cache=True, nogil=True)
def constraints(view_state, seat, use_voids, extra_voids, needs, voids, holds):
    """The cards hidden from `seat` (returned: neither its own nor played) and, for the other
    seats seat+1..seat+3, the cards each still holds (`needs`), its shown voids (`voids`, empty
    unless `use_voids`) and the cards it is known to hold (`holds`: none in Setback).
    `extra_voids` (4 bits a seat) is another game's; Setback's moves show no more (none
    read)."""
    return plain_constraints(view_state, TRICK_WORDS, HAND_SIZE, SHOWN_VOIDS, ALL_CARDS, seat,
                             use_voids, 0, needs, voids, holds)


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def complete(view_state, seat, hands, played_by, rng, out):
    """A drawn layout (`hands`, by seat) as a full state (`world_state`; who played which card
    is not needed: the won cards are credited by team)."""
    world_state(view_state, seat, hands, out)


@njit(cache=True, nogil=True)
def possible(view_state, world):
    """Whether the world agrees with the deal still being played: the rules end a deal as soon
    as its score is settled (`scoring.exhaustion_test`, at every completed trick), so while the
    view's deal goes on a world whose deal would already be settled (say the Jack undealt, once
    Low is taken and Game decided) is impossible. The test is monotone (a settled deal stays
    settled), so checking the current tricks covers every earlier trick too."""
    return is_exhausted(view_state) or not exhaustion_test(world)


@njit(cache=True, nogil=True)
def start_of_hand(world, played_by, out):
    """Set `out` to the start of the deal whose hands are `world`'s: each seat dealt what it
    holds in `world` and what it played (`played_by`), the first bid to make."""
    hands = np.zeros(4, np.int64)
    for seat in range(4):
        hands[seat] = world[HAND + seat] | played_by[seat]
    reset_deal(out, hands)


@njit(cache=True, nogil=True)
def in_auction(state):
    """Whether `state` is a bid of the auction (what `bids=` covers and a `belief=bids`
    likelihood weighs)."""
    return state[PHASE] == PHASE_AUCTION


def replay_public(view_state, history) -> tuple[np.ndarray, int]:
    """(int64[4]: the cards each seat, relative to the dealer, played in `history`, engine moves
    from the deal's first bid; the voids the moves show beyond `SHOWN_VOIDS`: none). Who plays
    depends only on the cards played, so any hands will do for the replay (`view_state` is not
    needed: every Setback move is public)."""
    state = new_state()
    reset_deal(state, np.full(4, ALL_CARDS, dtype=np.int64))
    played = np.zeros(4, dtype=np.int64)
    for move in history:
        if move < 52:
            played[int(state[TO_ACT])] |= np.int64(1) << int(move)
        apply_move(state, int(move))
    return played, 0
