"""Uniformly random legal play, in numba: whole deals and whole games to 11.

Used by `setback-cfr simulate`, the rules benchmark and the property tests. Game number g of a
run with seed s uses its own random stream `stream_seed(s, g)`, so any slice of a run can be
replayed alone.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.rng import stream_seed
from games.scaffold.random_play import add_hand, play_out, random_member
from games.setback.game import FIRST_DEALER, game_winner, next_dealer
from games.setback.rules import BID_MOVE, apply_move, legal_bids, legal_cards
from games.setback.scoring import deal_points, deal_score
from games.setback.state import (
    HIGH_BID,
    PHASE,
    PHASE_AUCTION,
    PHASE_OVER,
    STATE_SIZE,
    random_deal,
)

# Layout of the statistics array filled by `simulate_games`.
STAT_GAMES = 0
STAT_DEALS = 1
STAT_ALL_PASS = 2
STAT_POINTS = 3  # 3..6: how often High, Low, Jack, Game were scored
STAT_EW_WINS = 7
STAT_SETBACKS = 8
STAT_ABANDONED = 9  # games stopped at the deal limit without a winner
STAT_DECIDED_DEALS = 10  # deals played in games that ended with a winner
STAT_SIZE = 11

MAX_DEAL_MOVES = 28  # four bids and 24 cards


@njit(cache=True)
def random_move(rng, state):
    """A uniformly random legal move for the seat to act."""
    if state[PHASE] == PHASE_AUCTION:
        return BID_MOVE + random_member(rng, legal_bids(state))
    return random_member(rng, legal_cards(state))


@njit(cache=True)
def play_random_deal(rng, state, moves):
    """Deal with `rng` and play the whole deal with random legal moves, recording them in
    `moves` (room for 28); return the move count."""
    random_deal(rng, state)
    return play_out(random_move, apply_move, PHASE, PHASE_OVER, rng, state, moves)


@njit(cache=True)
def play_random_game(seed, game_index, max_deals, state, stats):
    """Play one game to 11 between random players; add its figures to `stats`.

    Random bidders overbid (most deals are bid Four and set back), so both scores drift down and
    a game can last for ever: after `max_deals` deals it is abandoned and counted as such.
    Returns the winning team (0 EW, 1 NS) or -1 when abandoned.
    """
    rng = np.empty(1, np.uint64)
    rng[0] = stream_seed(seed, game_index)
    scores = np.zeros(2, np.int64)
    moves = np.empty(MAX_DEAL_MOVES, np.int64)
    dealer = FIRST_DEALER
    for deal in range(max_deals):
        play_random_deal(rng, state, moves)
        stats[STAT_DEALS] += 1
        if state[HIGH_BID] == 0:
            stats[STAT_ALL_PASS] += 1
        else:
            high, low, jack, game = deal_points(state)
            stats[STAT_POINTS] += high >= 0
            stats[STAT_POINTS + 1] += low >= 0
            stats[STAT_POINTS + 2] += jack >= 0
            stats[STAT_POINTS + 3] += game >= 0
            score0, score1 = deal_score(state)
            stats[STAT_SETBACKS] += min(score0, score1) < 0
            add_hand(scores, dealer, score0, score1)
        winner = game_winner(scores[0], scores[1])
        if winner >= 0:
            stats[STAT_GAMES] += 1
            stats[STAT_EW_WINS] += winner == 0
            stats[STAT_DECIDED_DEALS] += deal + 1
            return winner
        dealer = next_dealer(dealer)
    stats[STAT_GAMES] += 1
    stats[STAT_ABANDONED] += 1
    return -1


@njit(cache=True)
def simulate_games(seed, first_game, n_games, max_deals, stats):
    """Play games first_game .. first_game + n_games - 1 of the run `seed` into `stats`."""
    state = np.empty(STATE_SIZE, np.int64)
    for g in range(first_game, first_game + n_games):
        play_random_game(seed, g, max_deals, state, stats)


@njit(cache=True)
def play_random_deals(seed, n_deals):
    """Deal and play `n_deals` random deals from `seed`; return the number of moves made."""
    rng = np.empty(1, np.uint64)
    rng[0] = stream_seed(seed, 0)
    state = np.empty(STATE_SIZE, np.int64)
    moves = np.empty(MAX_DEAL_MOVES, np.int64)
    total = 0
    for _ in range(n_deals):
        total += play_random_deal(rng, state, moves)
    return total
