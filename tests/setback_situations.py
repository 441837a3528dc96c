"""Build Setback states for the abstraction tests: whole deals from text, or one crafted trick.

Seats are dealer-relative (P0 = dealer); `deal(...)` uses dealer West so P0..P3 = W N E S.
"""

from __future__ import annotations

import numpy as np

from games.setback import state as S
from games.setback.api import Deal
from games.setback.cards import parse_card
from games.setback.rules import beats

WORKED_HANDS = ("9H 4H KC 8D 6S 3C", "AS JS 7S 2S KH 3D", "QH TH 5D 9C 4S 8C",
                "AH TS 6H 2C JD QS")
WORKED_MOVES = "3 P P P AS 4S TS 6S KH QH AH 4H".split()


def deal(hands=WORKED_HANDS, moves=()) -> Deal:
    """A Deal with dealer West and `hands` for P0..P3, after `moves` (text)."""
    d = Deal("W", {"WNES"[i]: hands[i].split() for i in range(4)})
    for m in moves:
        d.play(m)
    return d


def worked(n_moves: int) -> np.ndarray:
    """The worked deal's state after its first `n_moves` moves."""
    return deal(moves=WORKED_MOVES[:n_moves]).state


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def mask(text: str) -> int:
    m = 0
    for c in cards(text):
        m |= 1 << c
    return m


def trick_state(hand: str, trick: str = "", trump: str = "S", dealt_extra: str = "",
                played: str = "", tricks_done: int = 1) -> np.ndarray:
    """A playout state: seat 1 holds `hand` and acts after the plays `trick` (text, from the
    leader). `dealt_extra`: cards seat 1 was dealt and has already played; `played`: other
    cards played earlier this deal (by anyone). Trump is set, `tricks_done` tricks complete."""
    st = S.new_state()
    seat = 1
    n = len(trick.split()) if trick else 0
    leader = (seat - n) % 4
    st[S.PHASE] = S.PHASE_PLAY
    st[S.TO_ACT] = seat
    st[S.HIGH_BID] = 2
    st[S.HIGH_BIDDER] = 0
    t = "CDHS".index(trump)
    st[S.TRUMP] = t
    st[S.TRICK_NUMBER] = tricks_done
    st[S.LEADER] = leader
    st[S.N_IN_TRICK] = n
    st[S.HAND + seat] = mask(hand)
    st[S.DEALT + seat] = mask(hand) | mask(dealt_extra)
    st[S.PLAYED] = mask(played) | mask(dealt_extra) | mask(trick)
    st[S.FIRST_LEAD] = cards(played)[0] if played else -1
    for i in range(4):
        st[S.TRICK + i] = -1
    st[S.WINNING] = -1
    for i, c in enumerate(cards(trick)):
        st[S.TRICK + i] = c
        if i == 0 or beats(c, st[S.TRICK + st[S.WINNING]], t):
            st[S.WINNING] = i
    return st
