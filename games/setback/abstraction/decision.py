"""One kernel for any decision of a deal: the abstract actions, their tokens and the key.

abstraction.md, "General rules": a key exists only with two or more abstract actions; with
one, that action's card (or bid) is forced and no key is built. The situations:
| situation | when | tokens (bit i = token i) | key |
| SIT_BID | the auction | bids (bit b: 0 Pass, 2, 3, 4) | `auction_key.py` |
| SIT_ESTABLISH | the high bidder's first lead | E0, E1 | `establish.py` |
| SIT_LEAD | leading tricks 2-6 | `lead_actions.LEAD_TOKENS` | `playout_key.py` |
| SIT_FOLLOW | following in any trick | `follow_actions.FOLLOW_TOKENS` | `playout_key.py` |
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.setback.abstraction.auction_key import auction_actions, auction_key
from games.setback.abstraction.establish import establish_actions, establish_key
from games.setback.abstraction.follow_actions import follow_actions
from games.setback.abstraction.lead_actions import lead_actions
from games.setback.abstraction.playout_key import playout_key
from games.setback.abstraction.trumps import lowest_dealt_trump, lowest_played_trump
from games.setback.rules import legal_cards
from games.setback.state import (
    HAND,
    N_IN_TRICK,
    PHASE,
    PHASE_AUCTION,
    TO_ACT,
    TRICK,
    TRUMP,
    WINNING,
)

SIT_BID = 0
SIT_ESTABLISH = 1
SIT_LEAD = 2
SIT_FOLLOW = 3
NO_KEY = np.uint64(0)


@njit(cache=True)
def abstract_decision(state, moves_out):
    """Abstract actions of the seat to act, as moves in canonical order, into `moves_out`.

    Returns (count, situation, token mask, key); the key is the baseline key when count >= 2,
    else 0. The state must be a decision of a deal (auction or playout, not over).
    """
    if state[PHASE] == PHASE_AUCTION:
        n, tokens = auction_actions(state, moves_out)
        key = auction_key(state) if n >= 2 else NO_KEY
        return n, SIT_BID, tokens, key
    trump = state[TRUMP]
    if trump < 0:
        n, tokens = establish_actions(state, moves_out)
        key = establish_key(state) if n >= 2 else NO_KEY
        return n, SIT_ESTABLISH, tokens, key
    seat = state[TO_ACT]
    my_low = lowest_dealt_trump(state, seat, trump)
    low_played = lowest_played_trump(state, trump)
    low_t = min(my_low, low_played)
    if state[N_IN_TRICK] == 0:
        n, tokens = lead_actions(state[HAND + seat], trump, low_t, moves_out)
        situation = SIT_LEAD
    else:
        n, tokens = follow_actions(legal_cards(state), trump, state[TRICK] // 13,
                                   state[TRICK + state[WINNING]], low_t, moves_out)
        situation = SIT_FOLLOW
    key = playout_key(state, seat, trump, my_low, low_played, tokens) if n >= 2 else NO_KEY
    return n, situation, tokens, key
