"""What every seat knows of the hidden cards of a Spades hand: the hooks the one world sampler
(`search/world_sampler.py`) is driven by.

A seat knows its own hand, every card played (and by whom: the history), how many cards each
seat holds (thirteen less those it played), and the voids shown: a seat that did not follow the
suit led holds none of it (`state.SHOWN_VOIDS`), and a seat that LED a spade held nothing else
then, so it holds no club, diamond or heart for the rest of the hand (`replay_public`, from the
history). That holds at every spade lead, whatever was played before it: a leader must lead a
club, diamond or heart while it holds one, and this game never breaks spades
(`rules.legal_cards`, as OpenSpiel's spades; docs/games/spades.md). The bids fix no card. All 52
cards are dealt, so every unseen card is in one of the three other hands (the sampler's pile is
empty) and no layout can contradict the hand still being played.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.scaffold.cards_held import held_in, plain_constraints
from games.scaffold.suits import printed_suits as suit_masks  # noqa: F401 (a hook)
from games.spades.cards import N_RANKS, SPADES
from games.spades.rules import BID_MOVE, apply_move
from games.spades.state import (DEALT, HAND, HAND_SIZE, N_IN_TRICK, PHASE, PHASE_BID, SCORE,
                                SHOWN_VOIDS, TO_ACT, TRICK_WORDS, new_state, reset_hand)

ALL_CARDS = np.int64((1 << 52) - 1)
SIZE = HAND_SIZE + 1  # the sampler's table bound: a seat holds 0..13 hidden cards
SIDE_SUITS = 0b0111  # clubs, diamonds, hearts: what a spade leader shows it lacks


@njit(cache=True, nogil=True)
def cards_held(state, seat):
    """How many cards `seat` (relative to the dealer) holds: thirteen less the tricks completed,
    less one if it has played to the trick under way (public)."""
    return held_in(state, TRICK_WORDS, HAND_SIZE, seat)


@njit(cache=True, nogil=True)
def constraints(view_state, seat, use_voids, extra_voids, needs, voids, holds):
    """The cards hidden from `seat` (returned: neither its own nor played) and, for the seats
    seat+1..seat+3, the cards each holds (`needs`), the suits it cannot hold (`voids`, a bit a
    suit: those shown by not following, and `extra_voids`' (4 bits a seat, relative to the
    dealer: the spade leads', `replay_public`); empty unless `use_voids`) and the cards it is
    known to hold (`holds`: none)."""
    return plain_constraints(view_state, TRICK_WORDS, HAND_SIZE, SHOWN_VOIDS, ALL_CARDS, seat,
                             use_voids, extra_voids, needs, voids, holds)


@njit(cache=True, nogil=True)
def complete(view_state, seat, hands, played_by, rng, out):
    """A drawn layout (`hands`, by seat) as a full state: the view's public fields, the hidden
    hands, and `DEALT` rebuilt for the other seats (the cards held plus those played,
    `played_by`)."""
    for j in range(out.shape[0]):
        out[j] = view_state[j]
    for other in range(4):
        if other != seat:
            out[HAND + other] = hands[other]
            out[DEALT + other] = hands[other] | played_by[other]


@njit(cache=True, nogil=True)
def start_of_hand(world, played_by, out):
    """Set `out` to the start of the hand whose cards are `world`'s: each seat dealt its
    `DEALT` (the cards held and played: `complete`), the same game score before the hand, the
    first bid to make. (`played_by` is already in `DEALT`.)"""
    hands = np.zeros(4, np.int64)
    for seat in range(4):
        hands[seat] = world[DEALT + seat]
    reset_hand(out, hands, world[SCORE], world[SCORE + 1])


@njit(cache=True, nogil=True)
def in_auction(state):
    """Whether `state` is one of the four bids (what `bids=` covers)."""
    return state[PHASE] == PHASE_BID


def replay_public(view_state, history) -> tuple[np.ndarray, int]:
    """(int64[4]: the cards each seat, relative to the dealer, played; the voids the spade
    leads show, 4 bits a seat: a seat that led a spade holds no side suit) of a hand's public
    `history` (bids and cards), replayed on empty hands: the turn order depends only on the
    moves. `view_state` is not needed (every Spades move is public)."""
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
