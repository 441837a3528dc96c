"""The playout key (abstraction.md, "Playout key (24 characters, then trimmed)").

| pos | meaning |
| 0 | `H` if the first card of trick 1 was J Q K or A (once trick 1 is complete), else `.` |
| 1 | lowest trump taken in completed tricks: `.` none; its rank if <= min(5, my lowest dealt
|   | trump), else `x` |
| 2 | `J` if the Jack of trump was taken in a completed trick |
| 3 | `+` if my team's game points in completed tricks >= the opponents', else `-` |
| 4 | hex digit: bit 1 << p for each player still to play after me (position p from the
|   | leader) known to be void in trump (failed to follow a trump lead in a completed trick) |
| 5-10 | the current trick's plays: rank (if game points, or a trump <= 5 that is the lowest
|   | trump played this deal and <= my lowest dealt trump) or `x`, then `t`/`x` |
| 11 | position from the leader of the play now winning, `.` if none |
| 12-23 | the abstract actions (the token mask, see `lead_actions.py`, `follow_actions.py`) |
Encoded as kind 2 of `key_layout.py`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.setback.abstraction.card_masks import game_points, suit_field
from games.setback.abstraction.key_layout import (
    AHEAD_SHIFT,
    HONOUR_SHIFT,
    JACK_SHIFT,
    KIND_PLAYOUT_TAG,
    LOW_SHIFT,
    PLAY_BITS,
    TRICK_SHIFT,
    VOIDS_SHIFT,
    WINNING_SHIFT,
)
from games.bits import lowest_bit
from games.setback.state import (
    FIRST_LEAD,
    LEADER,
    N_IN_TRICK,
    SHOWN_VOIDS,
    TRICK,
    TRICK_NUMBER,
    WINNING,
    WON,
)


@njit(cache=True, inline="always")
def play_code(card, trump, low_played, my_low):
    """5-bit code of one play of the current trick (positions 5-10)."""
    rank = card % 13 + 2
    is_trump = card // 13 == trump
    rank_code = 0
    if rank >= 10:
        rank_code = rank - 5
    elif is_trump and rank <= 5 and rank <= low_played and rank <= my_low:
        rank_code = rank - 1
    return 1 + 2 * rank_code + (1 if is_trump else 0)


@njit(cache=True)
def playout_key(state, seat, trump, my_low, low_played, tokens):
    """The playout key (kind 2 of `key_layout.py`) of `seat`, with its action `tokens`.

    `my_low`: rank of the seat's lowest dealt trump (15 if none); `low_played`: rank of the
    lowest trump played so far this deal.
    """
    k = tokens
    position = state[N_IN_TRICK]
    if position > 0:
        k |= (state[WINNING] + 1) << WINNING_SHIFT
    for i in range(position):
        k |= play_code(state[TRICK + i], trump, low_played, my_low) << (TRICK_SHIFT + PLAY_BITS * i)
    voids = 0
    leader = state[LEADER]
    shown = state[SHOWN_VOIDS]
    for p in range(position + 1, 4):
        voids |= (shown >> (4 * ((leader + p) % 4) + trump) & 1) << p
    k |= (voids >> 1) << VOIDS_SHIFT
    if state[TRICK_NUMBER] > 0:
        mine = state[WON + seat % 2]
        theirs = state[WON + 1 - seat % 2]
        if game_points(mine) >= game_points(theirs):
            k |= 1 << AHEAD_SHIFT
        taken = suit_field(mine | theirs, trump)
        if taken:
            low = lowest_bit(taken) + 2
            k |= (low if low <= min(5, my_low) else 1) << LOW_SHIFT
            if taken >> 9 & 1:
                k |= 1 << JACK_SHIFT
        if state[FIRST_LEAD] % 13 + 2 >= 11:
            k |= 1 << HONOUR_SHIFT
    else:
        k |= 1 << AHEAD_SHIFT  # 0 >= 0
    return np.uint64(k) | KIND_PLAYOUT_TAG
