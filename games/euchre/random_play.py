"""Uniformly random legal play, in numba: whole hands and whole games to 10.

Used by the rules benchmark and the invariant tests. Game number g of a run with seed s uses
its own random stream `stream_seed(s, g)`, so any slice of a run can be replayed alone.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import lowest_bit, popcount
from games.euchre.game import FIRST_DEALER, absolute_team, game_winner, next_dealer
from games.euchre.rules import apply_move, legal_mask
from games.euchre.scoring import hand_score
from games.euchre.state import PHASE, PHASE_OVER, STATE_SIZE, random_hand
from games.rng import below, stream_seed

MAX_HAND_MOVES = 32  # eight passes, or a naming, a discard, the alone decision and 20 cards

# Layout of the statistics array filled by `simulate_games`.
STAT_GAMES = 0
STAT_HANDS = 1
STAT_EW_WINS = 2
STAT_POINTS = 3  # 3 + team: points scored by EW, NS
STAT_SIZE = 5


@njit(cache=True)
def nth_bit(mask, n):
    """Index of the n-th (0-based) lowest set bit of `mask`."""
    for _ in range(n):
        mask &= mask - 1
    return lowest_bit(mask)


@njit(cache=True)
def random_move(rng, state):
    """A uniformly random legal move for the seat to act."""
    mask = legal_mask(state)
    return nth_bit(mask, below(rng, popcount(mask)))


@njit(cache=True)
def play_random_hand(rng, state, stick, moves):
    """Deal with `rng` and play the whole hand with random legal moves, recording them in
    `moves` (room for `MAX_HAND_MOVES`); return the move count."""
    random_hand(rng, state, stick)
    n = 0
    while state[PHASE] != PHASE_OVER:
        move = random_move(rng, state)
        apply_move(state, move)
        moves[n] = move
        n += 1
    return n


@njit(cache=True)
def play_random_hands(seed, n_hands, stick):
    """Deal and play `n_hands` random hands from `seed`; return the number of moves made."""
    rng = np.empty(1, np.uint64)
    rng[0] = stream_seed(seed, 0)
    state = np.empty(STATE_SIZE, np.int64)
    moves = np.empty(MAX_HAND_MOVES, np.int64)
    total = 0
    for _ in range(n_hands):
        total += play_random_hand(rng, state, stick, moves)
    return total


@njit(cache=True)
def play_random_game(seed, game_index, state, stats):
    """Play one game to 10 (stick the dealer) between random players; add its figures to
    `stats` and return the winning team (0 EW, 1 NS)."""
    rng = np.empty(1, np.uint64)
    rng[0] = stream_seed(seed, game_index)
    scores = np.zeros(2, np.int64)
    moves = np.empty(MAX_HAND_MOVES, np.int64)
    dealer = FIRST_DEALER
    while True:
        play_random_hand(rng, state, 1, moves)
        stats[STAT_HANDS] += 1
        score0, score1 = hand_score(state)
        scores[absolute_team(0, dealer)] += score0
        scores[absolute_team(1, dealer)] += score1
        winner = game_winner(scores[0], scores[1])
        if winner >= 0:
            stats[STAT_GAMES] += 1
            stats[STAT_EW_WINS] += winner == 0
            stats[STAT_POINTS] += scores[0]
            stats[STAT_POINTS + 1] += scores[1]
            return winner
        dealer = next_dealer(dealer)


@njit(cache=True)
def simulate_games(seed, first_game, n_games, stats):
    """Play games first_game .. first_game + n_games - 1 of the run `seed` into `stats`."""
    state = np.empty(STATE_SIZE, np.int64)
    for g in range(first_game, first_game + n_games):
        play_random_game(seed, g, state, stats)
