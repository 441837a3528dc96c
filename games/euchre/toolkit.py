"""What Euchre declares to the toolkit adapters (`envs.adapters`: PettingZoo, OpenSpiel): the
sizes of its moves and deal, the payoff bounds, how a hand is dealt card by card, what a seat
does not see (the dealer's discard), and its observation vector.

Euchre as OpenSpiel 2.0.2 plays it (stick the dealer), to 10: moves 0..23 are cards, 24 pass,
25 + suit names trump, 29 alone, 30 with the partner.

The observation (247 floats, seats relative to the observer): hand 0, dealt 24, upcard 48, the
discard 72 (the dealer's own only), played in completed tricks 96, this trick's cards by the
three others 120 (3 x 24), dealer 192, maker 196 (4 + none), trump 201 (4 + none), alone 206
(undecided/partner/alone), the seat sitting out 209 (4 + none), leader 214 (during the play),
phase 218 (order/name/discard/alone/lead/follow/over), passes / 8 225, tricks won us/them / 5
226, shown voids 228, tricks done / 5 244, game score us/them / 10 245 (clipped to +-4).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.euchre import game, rules, scoring, state
from games.euchre.api import MOVE_TEXT  # noqa: F401 (declared)
from games.euchre.rules import PASS_MOVE
from games.euchre.state import (  # noqa: F401 (HAND_SIZE declared)
    ALONE, DEALT, DISCARD, HAND, HAND_SIZE, MAKER, N_PASSES, OUT, PHASE, PHASE_ALONE,
    PHASE_DISCARD, PHASE_NAME, PHASE_ORDER, PHASE_OVER, PHASE_PLAY, SHOWN_VOIDS, TRICK_NUMBER,
    TRICK_WORDS, TRICKS_WON, TRUMP, UPCARD)
from games.scaffold.observation import put_play_turn, put_score, put_state_cards, put_voids

NUM_ACTIONS = 31
N_CARDS = 24
CARDS_DEALT = 21  # five a seat and the upcard
TARGET = 10
MAX_HAND_LENGTH = 8 + 1 + 1 + 20
MIN_HAND_PAYOFF = -4.0
MAX_HAND_PAYOFF = 4.0
OBS_SIZE = 247
WORLDS = "games.euchre.search.worlds:public_worlds"
ENGINE = (state, rules)
ENGINE_EXTRA = {"hand_score": scoring.hand_score, "game_winner": game.game_winner}


@njit(cache=True)
def observation(state, seat, us, them, out):
    """Fill `out` (float32, `OBS_SIZE`) with what relative seat `seat` knows of the Euchre
    `state`, the game score being `us`-`them` (the layout: the module docstring)."""
    sitting_out = state[OUT]
    put_state_cards(out, state, TRICK_WORDS, DEALT, sitting_out, seat, 24, 96, 120)
    out[48 + state[UPCARD]] = 1.0
    if seat == 0 and state[DISCARD] >= 0:
        out[72 + state[DISCARD]] = 1.0
    out[192 + (0 - seat) % 4] = 1.0
    maker = state[MAKER]
    out[196 + ((maker - seat) % 4 if maker >= 0 else 4)] = 1.0
    trump = state[TRUMP]
    out[201 + (trump if trump >= 0 else 4)] = 1.0
    out[206 + state[ALONE] + 1] = 1.0
    out[209 + ((sitting_out - seat) % 4 if sitting_out >= 0 else 4)] = 1.0
    phase = state[PHASE]
    if phase == PHASE_PLAY:
        put_play_turn(out, state, TRICK_WORDS, seat, 214, 222)
    elif phase == PHASE_ORDER:
        out[218] = 1.0
    elif phase == PHASE_NAME:
        out[219] = 1.0
    elif phase == PHASE_DISCARD:
        out[220] = 1.0
    elif phase == PHASE_ALONE:
        out[221] = 1.0
    elif phase == PHASE_OVER:
        out[224] = 1.0
    out[225] = state[N_PASSES] / 8.0
    team = seat % 2
    out[226] = state[TRICKS_WON + team] / 5.0
    out[227] = state[TRICKS_WON + 1 - team] / 5.0
    put_voids(out, 228, state[SHOWN_VOIDS], seat)
    out[244] = state[TRICK_NUMBER] / 5.0
    put_score(out, 245, us, them, 10.0)


def start_hand(hands, rest: list[int]) -> np.ndarray:
    """The state of a hand dealt `hands` (five cards a seat from the dealer, as the engine
    deals), the 21st card `rest[0]` the upcard; stick the dealer on."""
    out = state.new_state()
    state.reset_hand(out, hands, rest[0], 1)
    return out


def conceal(s, seat: int) -> None:
    """The dealer's discard, unless `seat` is the dealer."""
    if seat != 0:
        s[DISCARD] = -1


def after_resample(world, seat: int) -> None:
    """Each other seat's `DEALT` is the cards it holds now (the dealer's with the upcard it
    picked up, without its discard): our OpenSpiel game reads a seat's `DEALT` as the hand in
    its information state, which a discard it does not hold would make ambiguous (two worlds,
    one string, other legal moves)."""
    for other in range(4):
        if other != seat:
            world[DEALT + other] = world[HAND + other]


def public_move(state_before, move: int, observer: int) -> int:
    """`move` (made in `state_before`) as relative seat `observer` sees it: the dealer's discard
    is the dealer's alone (-1 for the others); every other move is public."""
    if int(state_before[PHASE]) == PHASE_DISCARD and observer != 0:
        return -1
    return int(move)


def shown_cards(s) -> str:
    """The cards every seat sees beside its own, for an information state's text: the upcard
    (`card_text` its text)."""
    return f" upcard {MOVE_TEXT[int(s[UPCARD])]}"


def private_move(world) -> int:
    """The dealer's discard in the full state `world`."""
    return int(world[DISCARD])


def private_move_index(moves, hidden: int) -> int:
    """Where the dealer's discard is in a hand's `moves` (the first card move after a
    first-round order-up: a suit named before the fourth pass; `hidden` a move not seen), -1
    if none."""
    passes = 0
    for m in moves:
        if m == PASS_MOVE:
            passes += 1
        elif m > PASS_MOVE:
            if passes >= 4:
                return -1
            break
    for i, m in enumerate(moves):
        if m == hidden or 0 <= m < N_CARDS:
            return i
    return -1


def moves_made(s) -> int:
    """How many decisions the hand in `s` has seen: the passes, the call (order-up or suit
    named), the alone decision, the dealer's discard once made after an order-up, and the cards
    played."""
    made = int(s[state.N_PASSES]) + (int(s[state.MAKER]) >= 0) + (int(s[state.ALONE]) >= 0)
    ordered_up = int(s[state.MAKER]) >= 0 and int(s[state.N_PASSES]) < 4
    played = bin(int(s[state.PLAYED])).count("1")
    return made + played + (ordered_up and int(s[state.PHASE]) != state.PHASE_DISCARD)
