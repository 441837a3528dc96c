"""Uniformly random legal play, in numba: whole hands and whole games to 10.

Used by the rules benchmark, the invariant tests and `setback-cfr simulate --game euchre`
(`games.euchre.simulate`, which reads the statistics). Game number g of a run with seed s
uses its own random stream `stream_seed(s, g)`, so any slice of a run can be replayed alone.
Every
finished hand's auction and result are counted (`count_hand`) into the statistics array
(`STAT_*`, int64).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.euchre.game import FIRST_DEALER, game_winner, next_dealer
from games.euchre.rules import apply_move, legal_mask
from games.euchre.scoring import hand_score, makers_score
from games.euchre.state import (ALONE, MAKER, N_PASSES, PHASE, PHASE_OVER, STATE_SIZE,
                                random_hand)
from games.rng import stream_seed
from games.scaffold.random_play import add_hand, play_out, random_member

MAX_HAND_MOVES = 32  # eight passes, or a naming, a discard, the alone decision and 20 cards

# Layout of the statistics array filled by `simulate_games` (and `count_hand`).
STAT_GAMES = 0
STAT_HANDS = 1
STAT_EW_WINS = 2
STAT_POINTS = 3  # 3 + absolute team (EW, NS): points scored
STAT_ROUND1 = 5  # hands whose trump was ordered up in the first round
STAT_ROUND2 = 6  # ... named in the second round
STAT_STUCK = 7  # ... named by the stuck dealer (seven passes before)
STAT_ALONE = 8  # hands the maker played alone
STAT_RESULT = 9  # 9 + k: the makers scored -2 (euchred), 1, 2, 4
STAT_ALL_PASS = 13  # hands nobody named trump (stick the dealer off only)
STAT_MOVES = 14  # decisions made
STAT_SIZE = 15
RESULTS = (-2, 1, 2, 4)


@njit(cache=True)
def random_move(rng, state):
    """A uniformly random legal move for the seat to act."""
    return random_member(rng, legal_mask(state))


@njit(cache=True)
def play_random_hand(rng, state, stick, moves):
    """Deal with `rng` and play the whole hand with random legal moves, recording them in
    `moves` (room for `MAX_HAND_MOVES`); return the move count."""
    random_hand(rng, state, stick)
    return play_out(random_move, apply_move, PHASE, PHASE_OVER, rng, state, moves)


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
def count_hand(state, n_moves, stats):
    """Add a finished hand (of `n_moves` decisions) and its auction and result to `stats`."""
    stats[STAT_HANDS] += 1
    stats[STAT_MOVES] += n_moves
    if state[MAKER] < 0:
        stats[STAT_ALL_PASS] += 1
        return
    if state[N_PASSES] < 4:
        stats[STAT_ROUND1] += 1
    else:
        stats[STAT_ROUND2] += 1
        if state[N_PASSES] == 7:
            stats[STAT_STUCK] += 1
    if state[ALONE] == 1:
        stats[STAT_ALONE] += 1
    score = makers_score(state)
    for k in range(4):
        if score == RESULTS[k]:
            stats[STAT_RESULT + k] += 1


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
        n = play_random_hand(rng, state, 1, moves)
        count_hand(state, n, stats)
        score0, score1 = hand_score(state)
        add_hand(scores, dealer, score0, score1)
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
