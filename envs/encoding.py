"""The observation vectors of `envs.adapters`, in numba: what one seat knows, written into a
float32 buffer, every seat relative to the observer (0 = itself, 1 = its left, 2 = its
partner, 3 = its right). A reinforcement-learning loop asks for one at every step, so they
are compiled rather than assembled in Python (about a millisecond a call).

The layouts (offsets in the vector):

Setback (477): hand 0, dealt 52, played in completed tricks 104, this trick's cards by the
three others 156 (3 x 52), won by us 312, won by them 364, bids 416 (4 seats x not yet/P/2/3/4),
high bidder 436 (4 + none), trump 441 (4 + none), dealer 446, leader 450 (during the play),
shown voids 454 (4 seats x 4 suits), phase 470 (bid/lead/follow/settled), tricks done / 6 474,
game score us/them / 11 475 (clipped to +-4).

Euchre (247): hand 0, dealt 24, upcard 48, the discard 72 (the dealer's own only), played in
completed tricks 96, this trick's cards by the three others 120 (3 x 24), dealer 192, maker 196
(4 + none), trump 201 (4 + none), alone 206 (undecided/partner/alone), the seat sitting out
209 (4 + none), leader 214 (during the play), phase 218 (order/name/discard/alone/lead/follow/
over), passes / 8 225, tricks won us/them / 5 226, shown voids 228, tricks done / 5 244, game
score us/them / 10 245 (clipped to +-4).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.euchre.state import ALONE as E_ALONE
from games.euchre.state import DEALT as E_DEALT
from games.euchre.state import DISCARD as E_DISCARD
from games.euchre.state import HAND as E_HAND
from games.euchre.state import LEADER as E_LEADER
from games.euchre.state import MAKER as E_MAKER
from games.euchre.state import N_IN_TRICK as E_N_IN_TRICK
from games.euchre.state import N_PASSES as E_N_PASSES
from games.euchre.state import OUT as E_OUT
from games.euchre.state import PHASE as E_PHASE
from games.euchre.state import PHASE_ALONE as E_PHASE_ALONE
from games.euchre.state import PHASE_DISCARD as E_PHASE_DISCARD
from games.euchre.state import PHASE_NAME as E_PHASE_NAME
from games.euchre.state import PHASE_ORDER as E_PHASE_ORDER
from games.euchre.state import PHASE_OVER as E_PHASE_OVER
from games.euchre.state import PHASE_PLAY as E_PHASE_PLAY
from games.euchre.state import PLAYED as E_PLAYED
from games.euchre.state import SHOWN_VOIDS as E_SHOWN_VOIDS
from games.euchre.state import TRICK as E_TRICK
from games.euchre.state import TRICK_NUMBER as E_TRICK_NUMBER
from games.euchre.state import TRICKS_WON as E_TRICKS_WON
from games.euchre.state import TRUMP as E_TRUMP
from games.euchre.state import UPCARD as E_UPCARD
from games.setback.state import BID as S_BID
from games.setback.state import DEALT as S_DEALT
from games.setback.state import EXHAUSTED as S_EXHAUSTED
from games.setback.state import HAND as S_HAND
from games.setback.state import HIGH_BIDDER as S_HIGH_BIDDER
from games.setback.state import LEADER as S_LEADER
from games.setback.state import N_IN_TRICK as S_N_IN_TRICK
from games.setback.state import PHASE as S_PHASE
from games.setback.state import PHASE_AUCTION as S_PHASE_AUCTION
from games.setback.state import PHASE_OVER as S_PHASE_OVER
from games.setback.state import PHASE_PLAY as S_PHASE_PLAY
from games.setback.state import PLAYED as S_PLAYED
from games.setback.state import SHOWN_VOIDS as S_SHOWN_VOIDS
from games.setback.state import TRICK as S_TRICK
from games.setback.state import TRICK_NUMBER as S_TRICK_NUMBER
from games.setback.state import TRUMP as S_TRUMP
from games.setback.state import WON as S_WON

SETBACK_SIZE = 477
EUCHRE_SIZE = 247
SCORE_CLIP = 4.0


@njit(cache=True, inline="always")
def _put_bits(out, offset, mask, size):
    for c in range(size):
        out[offset + c] = (mask >> c) & 1


@njit(cache=True, inline="always")
def _put_score(out, offset, us, them, target):
    out[offset] = min(max(us / target, -SCORE_CLIP), SCORE_CLIP)
    out[offset + 1] = min(max(them / target, -SCORE_CLIP), SCORE_CLIP)


@njit(cache=True)
def setback_observation(state, seat, us, them, out):
    """Fill `out` (float32, `SETBACK_SIZE`) with what relative seat `seat` knows of the
    Setback `state`, the game score being `us`-`them` (the layout: the module docstring)."""
    out[:] = 0.0
    n_in = state[S_N_IN_TRICK]
    leader = state[S_LEADER]
    in_trick = np.int64(0)
    for i in range(n_in):
        player = (leader + i) % 4
        card = state[S_TRICK + i]
        in_trick |= np.int64(1) << card
        if player != seat:
            out[156 + 52 * ((player - seat) % 4 - 1) + card] = 1.0
    _put_bits(out, 0, state[S_HAND + seat], 52)
    _put_bits(out, 52, state[S_DEALT + seat], 52)
    _put_bits(out, 104, state[S_PLAYED] & ~in_trick, 52)
    team = seat % 2
    _put_bits(out, 312, state[S_WON + team], 52)
    _put_bits(out, 364, state[S_WON + 1 - team], 52)
    for k in range(4):
        s = (seat + k) % 4
        bid = state[S_BID + s]
        out[416 + 5 * k + (bid if bid >= 2 else bid + 1)] = 1.0  # -1 not yet, 0 pass
        for suit in range(4):
            out[454 + 4 * k + suit] = (state[S_SHOWN_VOIDS] >> (4 * s + suit)) & 1
    high = state[S_HIGH_BIDDER]
    out[436 + ((high - seat) % 4 if high >= 0 else 4)] = 1.0
    trump = state[S_TRUMP]
    out[441 + (trump if trump >= 0 else 4)] = 1.0
    out[446 + (0 - seat) % 4] = 1.0
    phase = state[S_PHASE]
    if phase == S_PHASE_PLAY:
        out[450 + (leader - seat) % 4] = 1.0
    if phase == S_PHASE_OVER or state[S_EXHAUSTED] != 0:
        out[470 + 3] = 1.0
    elif phase == S_PHASE_AUCTION:
        out[470] = 1.0
    else:
        out[470 + (1 if n_in == 0 else 2)] = 1.0
    out[474] = state[S_TRICK_NUMBER] / 6.0
    _put_score(out, 475, us, them, 11.0)


@njit(cache=True)
def euchre_observation(state, seat, us, them, out):
    """Fill `out` (float32, `EUCHRE_SIZE`) with what relative seat `seat` knows of the Euchre
    `state`, the game score being `us`-`them` (the layout: the module docstring)."""
    out[:] = 0.0
    n_in = state[E_N_IN_TRICK]
    leader = state[E_LEADER]
    sitting_out = state[E_OUT]
    in_trick = np.int64(0)
    player = leader
    for i in range(n_in):  # the trick's seats from the leader, a seat sitting out skipped
        card = state[E_TRICK + i]
        in_trick |= np.int64(1) << card
        if player != seat:
            out[120 + 24 * ((player - seat) % 4 - 1) + card] = 1.0
        player = (player + 1) % 4
        if player == sitting_out:
            player = (player + 1) % 4
    _put_bits(out, 0, state[E_HAND + seat], 24)
    _put_bits(out, 24, state[E_DEALT + seat], 24)
    out[48 + state[E_UPCARD]] = 1.0
    if seat == 0 and state[E_DISCARD] >= 0:
        out[72 + state[E_DISCARD]] = 1.0
    _put_bits(out, 96, state[E_PLAYED] & ~in_trick, 24)
    out[192 + (0 - seat) % 4] = 1.0
    maker = state[E_MAKER]
    out[196 + ((maker - seat) % 4 if maker >= 0 else 4)] = 1.0
    trump = state[E_TRUMP]
    out[201 + (trump if trump >= 0 else 4)] = 1.0
    out[206 + state[E_ALONE] + 1] = 1.0
    out[209 + ((sitting_out - seat) % 4 if sitting_out >= 0 else 4)] = 1.0
    phase = state[E_PHASE]
    if phase == E_PHASE_PLAY:
        out[214 + (leader - seat) % 4] = 1.0
        out[218 + (4 if n_in == 0 else 5)] = 1.0
    elif phase == E_PHASE_ORDER:
        out[218] = 1.0
    elif phase == E_PHASE_NAME:
        out[219] = 1.0
    elif phase == E_PHASE_DISCARD:
        out[220] = 1.0
    elif phase == E_PHASE_ALONE:
        out[221] = 1.0
    elif phase == E_PHASE_OVER:
        out[224] = 1.0
    out[225] = state[E_N_PASSES] / 8.0
    team = seat % 2
    out[226] = state[E_TRICKS_WON + team] / 5.0
    out[227] = state[E_TRICKS_WON + 1 - team] / 5.0
    for k in range(4):
        s = (seat + k) % 4
        for suit in range(4):
            out[228 + 4 * k + suit] = (state[E_SHOWN_VOIDS] >> (4 * s + suit)) & 1
    out[244] = state[E_TRICK_NUMBER] / 5.0
    _put_score(out, 245, us, them, 10.0)
