"""What Setback declares to the toolkit adapters (`envs.adapters`: PettingZoo, OpenSpiel): the
sizes of its moves and deal, the payoff bounds, how a deal is dealt card by card, when a deal is
over, and its observation vector.

Moves 0..51 are cards, 52 + bid (P = 52, 2..4 = 54..56) are bids; a deal ends once its score can
no longer change (as tournaments score it); every move is public.

The observation (477 floats, seats relative to the observer): hand 0, dealt 52, played in
completed tricks 104, this trick's cards by the three others 156 (3 x 52), won by us 312, won by
them 364, bids 416 (4 seats x not yet/P/2/3/4), high bidder 436 (4 + none), trump 441 (4 +
none), dealer 446, leader 450 (during the play), shown voids 454 (4 seats x 4 suits), phase 470
(bid/lead/follow/settled), tricks done / 6 474, game score us/them / 11 475 (clipped to +-4).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.scaffold.observation import (put_bits, put_play_turn, put_score, put_state_cards,
                                        put_voids)
from games.setback import game, rules, scoring, state
from games.setback.api import format_move
from games.setback.state import (
    BID, DEALT, EXHAUSTED, HIGH_BIDDER, LEADER, PHASE, PHASE_AUCTION, PHASE_OVER, PHASE_PLAY,
    SHOWN_VOIDS, TRICK_NUMBER, TRICK_WORDS, TRUMP, WON)

NUM_ACTIONS = 57
N_CARDS = 52
CARDS_DEALT = 24
TARGET = 11
MAX_HAND_LENGTH = 4 + 24
MIN_HAND_PAYOFF = -8.0  # a set bid of 4 (-4) against the other side's four points
MAX_HAND_PAYOFF = 8.0
OBS_SIZE = 477
ALL_MOVES_PUBLIC = True
WORLDS = "games.setback.search.sampler:toolkit_worlds"
ENGINE = (state, rules)
ENGINE_EXTRA = {"is_exhausted": scoring.is_exhausted, "game_winner": game.game_winner,
                "deal_score": scoring.deal_score, "hand_score": scoring.deal_score}
MOVE_TEXT = tuple(format_move(m) if m != 53 else "?" for m in range(NUM_ACTIONS))


@njit(cache=True)
def observation(state, seat, us, them, out):
    """Fill `out` (float32, `OBS_SIZE`) with what relative seat `seat` knows of the Setback
    `state`, the game score being `us`-`them` (the layout: the module docstring)."""
    put_state_cards(out, state, TRICK_WORDS, DEALT, -1, seat, 52, 104, 156)
    team = seat % 2
    put_bits(out, 312, state[WON + team], 52)
    put_bits(out, 364, state[WON + 1 - team], 52)
    for k in range(4):
        bid = state[BID + (seat + k) % 4]
        out[416 + 5 * k + (bid if bid >= 2 else bid + 1)] = 1.0  # -1 not yet, 0 pass
    put_voids(out, 454, state[SHOWN_VOIDS], seat)
    high = state[HIGH_BIDDER]
    out[436 + ((high - seat) % 4 if high >= 0 else 4)] = 1.0
    trump = state[TRUMP]
    out[441 + (trump if trump >= 0 else 4)] = 1.0
    out[446 + (0 - seat) % 4] = 1.0
    phase = state[PHASE]
    if phase == PHASE_OVER or state[EXHAUSTED] != 0:
        out[470 + 3] = 1.0
        if phase == PHASE_PLAY:  # exhausted in the play: its leader still shows
            out[450 + (state[LEADER] - seat) % 4] = 1.0
    elif phase == PHASE_AUCTION:
        out[470] = 1.0
    else:
        put_play_turn(out, state, TRICK_WORDS, seat, 450, 471)
    out[474] = state[TRICK_NUMBER] / 6.0
    put_score(out, 475, us, them, 11.0)


def chance_seat(i: int) -> int:
    """The seat (relative to the dealer) that receives the deal's `i`-th card: 3+3 from the
    dealer's left, as the engine deals."""
    return (i // 3 + 1) % 4


def deal_hands(cards: list[int]) -> np.ndarray:
    """The state of a deal whose 24 cards came off the deck in the order `cards`."""
    hands = np.zeros(4, dtype=np.int64)
    for i, card in enumerate(cards):
        hands[chance_seat(i)] |= np.int64(1) << card
    out = state.new_state()
    state.reset_deal(out, hands)
    return out


def is_over(s) -> bool:
    """Whether the deal's score is settled (it is over, or nothing can change it): the engine's
    `is_exhausted`, read in Python (a numba call costs more from Python)."""
    return bool(s[PHASE] == PHASE_OVER or s[EXHAUSTED] != 0)


def moves_made(s) -> int:
    """How many decisions the hand in `s` has seen: its bids and the cards played."""
    return int(s[state.N_BIDS]) + bin(int(s[state.PLAYED])).count("1")
