"""What Spades declares to the toolkit adapters (`envs.adapters`: PettingZoo, OpenSpiel): the
sizes of its moves and deal, the payoff bounds, how a hand is dealt card by card and told the
game score, and its observation vector.

Spades as OpenSpiel 2.0.2 plays it, to 500. Moves are the engine's (OpenSpiel's own numbers):
cards 0..51, then 52 + bid (Nil = 52, 1..13 = 53..65). A hand is dealt thirteen cards a seat
(deck cards 13s..13s+12 to the seat s from the dealer, as `games.spades.state.random_hand`
deals); every bid and card is public. A hand's payoff is the engine's `hand_score` (contracts,
Nil, bags and their penalty; OpenSpiel's bonus at 500 is a game's, not a hand's), each team's
between -387 (two Nils set, no contract, thirteen bags past a ten) and +230 (Nil made beside 13
made), so a difference within +-617.

The observation (409 floats, seats relative to the observer): hand 0, dealt 52, played in
completed tricks 104, this trick's cards by the three others 156 (3 x 52), bids 312 (4 seats x
not yet/Nil/1..13), tricks taken / 13 372 (4 seats), dealer 376, leader 380 (during the play),
shown voids 384 (4 seats x 4 suits), phase 400 (bid/lead/follow/over), tricks done / 13 404,
bags us/them 405 ((bags + 9) / 18: OpenSpiel's bags are the game score's last digit, of its
sign), game score us/them / 500 407 (clipped to +-4; the last two, as for every game).

The other seats' hidden cards are redrawn by the one world sampler on `games/spades/public.py`
(`WORLDS`): uniformly over every layout consistent with the hand sizes and the voids the state
shows (plus any extra voids, e.g. a seat that led a spade and so holds spades only).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.scaffold.observation import put_play_turn, put_score, put_state_cards, put_voids
from games.spades import rules, scoring, state
from games.spades.api import format_move
from games.spades.state import (
    BID, DEALT, HAND_SIZE, PHASE, PHASE_BID, PHASE_PLAY, SCORE, SHOWN_VOIDS, TAKEN,
    TRICK_NUMBER, TRICK_WORDS)

NUM_ACTIONS = rules.N_MOVES
N_CARDS = 52
CARDS_DEALT = 52
TARGET = scoring.TARGET
FIRST_DEALER = 0  # West deals first: OpenSpiel's North bids first (`games.spades.match`)
MAX_HAND_LENGTH = 4 + 52
MIN_HAND_PAYOFF = -617.0
MAX_HAND_PAYOFF = 617.0
OBS_SIZE = 409
ALL_MOVES_PUBLIC = True
WORLDS = "games.spades.search.worlds:public_worlds"
ENGINE = (state, rules)
ENGINE_EXTRA = {"hand_score": scoring.hand_score, "game_winner": scoring.game_winner}
MOVE_TEXT = tuple(format_move(m) for m in range(NUM_ACTIONS))


@njit(cache=True)
def observation(state, seat, us, them, out):
    """Fill `out` (float32, `OBS_SIZE`) with what relative seat `seat` knows of the Spades
    `state`, the game score being `us`-`them` (the layout: the module docstring)."""
    put_state_cards(out, state, TRICK_WORDS, DEALT, -1, seat, 52, 104, 156)
    for k in range(4):
        s = (seat + k) % 4
        out[312 + 15 * k + state[BID + s] + 1] = 1.0  # -1 not yet, 0 Nil, 1..13
        out[372 + k] = state[TAKEN + s] / 13.0
    put_voids(out, 384, state[SHOWN_VOIDS], seat)
    out[376 + (0 - seat) % 4] = 1.0
    phase = state[PHASE]
    if phase == PHASE_PLAY:
        put_play_turn(out, state, TRICK_WORDS, seat, 380, 401)
    elif phase == PHASE_BID:
        out[400] = 1.0
    else:
        out[403] = 1.0
    out[404] = state[TRICK_NUMBER] / 13.0
    team = seat % 2
    out[405] = (scoring.bags_so_far(state[SCORE + team]) + 9) / 18.0
    out[406] = (scoring.bags_so_far(state[SCORE + 1 - team]) + 9) / 18.0
    put_score(out, 407, us, them, 500.0)


def start_hand(hands, rest: list[int]) -> np.ndarray:
    """The state of a hand dealt `hands` (thirteen cards a seat), from 0 to 0."""
    out = state.new_state()
    state.reset_hand(out, hands, 0, 0)
    return out


def set_score(s, score, dealer: int) -> None:
    """The game score before the hand (`score` by absolute team: EW, NS) into `s`, by team
    relative to the dealer: OpenSpiel reads each team's bags from its last digit."""
    for team in (0, 1):
        s[SCORE + team] = int(score[(team + dealer) % 2])
