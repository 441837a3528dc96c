"""Setback's card play as plain trick play: what the one solver of captured cards
(`search/capture_values.py`) is driven by. Its compiled wrappers (the first lead, a settled
deal, the buffers) are in `games/setback/search/capture_solver.py`.

Setback's cards are the solver's own (`suit * 13 + rank`), a seat holding the suit led may
trump anyway (`rules.legal_cards`), and the value (`scoring.score_difference`: team 0's deal
score minus team 1's, setback included) depends on the cards each side captures. Three
counters carry it: the game points captured (Game); a 1 on the lowest trump in play while it
is not yet taken (Low); a 1 on the Jack of trump while it is dealt and not taken (Jack). High
is fixed by the deal. The value table over them is the rules' own scoring
(`scoring.points_score`). Before trump is set (the bidder's first lead) the lead sets it: each
suit the leader holds is solved as trump, its cards the leads searched.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import highest_bit, lowest_bit
from games.setback.cards import GAME_POINTS_BY_RANK, JACK, make_card, mask_game_points, suit_mask
from games.setback.scoring import dealt_cards, points_score, team_taking
from games.setback.state import (DEALT, HAND, HAND_SIZE, HIGH_BID, HIGH_BIDDER, N_IN_TRICK,
                                 PHASE, PHASE_PLAY, TO_ACT, TRICK, TRICK_NUMBER, WON)

N_COUNTERS = 3  # game points, Low, Jack
TABLE_SIZE = 1024  # (80 game points + 1) * 2 * 2 = 324 values at most
RUFF_ANYTIME = 1  # a seat holding the suit led may play a trump instead
# the module of Setback's place holding its solver (`search/trick_values.py` reads it)
CAPTURE_SOLVER = "search.capture_solver"


@njit(cache=True, _nrt=False)
def declare(state, trump, weights, ranges, order, table):
    """The declaration of `state` (a deal in its playout) with `trump` as trump (the state's,
    or the suit of a first lead): each counter's weight per card (`weights[k]`), its range, the
    move-order weight per card (its game points) and the value table, team 0's deal score less
    team 1's when team 0 takes (game points, Low, Jack) more, the first counter's values
    consecutive (`search.capture_values.prepare_spec`)."""
    live = state[HAND] | state[HAND + 1] | state[HAND + 2] | state[HAND + 3]
    for i in range(state[N_IN_TRICK]):
        live |= np.int64(1) << state[TRICK + i]
    for card in range(52):
        weights[0, card] = GAME_POINTS_BY_RANK[card % 13 + 2]
        weights[1, card] = 0
        weights[2, card] = 0
        order[card] = weights[0, card]
    ranges[0] = mask_game_points(live)
    trumps = dealt_cards(state) & suit_mask(trump)
    low = lowest_bit(trumps)
    jack = make_card(JACK, trump)
    ranges[1] = live >> low & 1
    weights[1, low] = ranges[1]
    ranges[2] = live >> jack & 1
    weights[2, jack] = ranges[2]
    top = highest_bit(trumps)
    high = -1
    for seat in range(4):
        if state[DEALT + seat] >> top & 1:
            high = seat % 2
    # a point taken already keeps its owner; an open one goes to the side its counter says
    low_taken = team_taking(state, low)
    jack_taken = team_taking(state, jack) if trumps >> jack & 1 else -1
    won0 = mask_game_points(state[WON])
    won1 = mask_game_points(state[WON + 1])
    index = 0
    for j in range(ranges[2] + 1):
        jack_owner = (1 - j) if ranges[2] else jack_taken
        for lo in range(ranges[1] + 1):
            low_owner = (1 - lo) if ranges[1] else low_taken
            for g in range(ranges[0] + 1):
                g0 = won0 + g
                g1 = won1 + ranges[0] - g
                game = 0 if g0 > g1 else (1 if g1 > g0 else -1)
                score0, score1 = points_score(high, low_owner, jack_owner, game,
                                              state[HIGH_BID], state[HIGH_BIDDER])
                table[index] = score0 - score1
                index += 1


# The one oracle's pieces (`play/trick_oracle.py`); it also reads the state fields imported above:
# PHASE, PHASE_PLAY, TRICK_NUMBER, TO_ACT
N_TRICKS = HAND_SIZE
ORACLE_TT_BITS = 16
NOT_IN_CARD_PLAY = ("the solver needs a deal in its playout, the card play (auction complete, "
                    "cards left to play)")
