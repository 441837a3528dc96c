"""Uniformly random legal play, in numba: whole hands and whole games to 500.

Used by the invariant tests and the OpenSpiel benchmark's whole games. Game number g of a run
with seed s uses its own random stream `stream_seed(s, g)`, so any game of a run can be
replayed alone.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.rng import below, stream_seed
from games.scaffold.random_play import add_hand, play_out, random_member
from games.scaffold.table import absolute_team, next_dealer
from games.spades.rules import BID_MOVE, apply_move, highest_bid, legal_cards
from games.spades.scoring import game_winner, hand_score
from games.spades.state import PHASE, PHASE_BID, PHASE_OVER, STATE_SIZE, random_hand

MAX_HAND_MOVES = 56  # four bids and 52 cards
FIRST_DEALER = 0  # West: OpenSpiel's North bids first
MAX_HANDS = 10_000  # a guard far beyond any game (the mercy rule ends a losing game)


@njit(cache=True)
def random_move(rng, state):
    """A uniformly random legal move for the seat to act."""
    if state[PHASE] == PHASE_BID:
        return BID_MOVE + below(rng, highest_bid(state) + 1)
    return random_member(rng, legal_cards(state))


@njit(cache=True)
def play_random_hand(rng, state, score0, score1, moves):
    """Deal with `rng` at the game score (`score0`, `score1`: by team relative to the dealer)
    and play the whole hand with random legal moves, recording them in `moves` (room for
    `MAX_HAND_MOVES`); return the move count."""
    random_hand(rng, state, score0, score1)
    return play_out(random_move, apply_move, PHASE, PHASE_OVER, rng, state, moves)


@njit(cache=True)
def play_random_game(seed, game_index, scores):
    """Play one game to 500 between random players from its own stream, keeping the game score
    in `scores` (by absolute team: 0 EW, 1 NS); return (the winning team, the hands played),
    the winner -1 if `MAX_HANDS` passed undecided."""
    rng = np.empty(1, np.uint64)
    rng[0] = stream_seed(seed, game_index)
    state = np.empty(STATE_SIZE, np.int64)
    moves = np.empty(MAX_HAND_MOVES, np.int64)
    scores[:] = 0
    dealer = FIRST_DEALER
    for hand in range(MAX_HANDS):
        play_random_hand(rng, state, scores[absolute_team(0, dealer)],
                         scores[absolute_team(1, dealer)], moves)
        score0, score1 = hand_score(state)
        add_hand(scores, dealer, score0, score1)
        winner = game_winner(scores[0], scores[1])
        if winner >= 0:
            return winner, hand + 1
        dealer = next_dealer(dealer)
    return -1, MAX_HANDS
