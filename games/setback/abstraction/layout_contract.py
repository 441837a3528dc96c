"""The `contract` layout: `bidder`, plus where the contract stands, in the playout key.

Why: among the candidate refinements measured by `bench/abstraction_spread.py` (10,000
heuristic self-play deals), the points the contract still needs cut the spread of the exact
solver's action values among situations sharing a reference key the most (2.73 -> 2.57
points; side and bid 2.60; with side, bid and the trumps still out, 2.38): a bidder who holds the
Jack and High plays a Two differently from one who still needs both.

Auction, establish-trump and bootstrap keys, every abstract action and every card choice are
the reference's (`decision.py`). The playout key (24 + 4 characters, then trimmed):

| pos | meaning |
|--|--|
| 0-11 | the reference playout key's positions 0-11 (abstraction.md, "Playout key") |
| 12 | `B` if my team won the auction (the bidder's side), `D` if it defends |
| 13 | the winning bid: `2`, `3` or `4` |
| 14 | points the bidder's team holds for certain, `0`-`3` (below) |
| 15 | `!` if the defenders hold for certain more than 4 minus the bid (set), else `.` |
| 16-27 | up to six legal abstract actions, two characters each, in canonical order |

Points held for certain: the Jack of trump taken in a completed trick; the Two of trump taken
(Low: no trump is lower); the Ace of trump played by one of the team's seats (High).
Positions 14-15 are public (cards taken in completed tricks, and the seat that played a
card): every seat reads the same ones, whatever the hidden hands. The worked deal (P1 bids
Three and leads the Ace of trump, so its team holds High for certain): P3 in trick 1 after
AS 4S reads `...+0At4t..0B31.TTTQ`; P1 leading trick 2 reads `Hx.+0.......B31.TxT2TJS.W`;
P2, a defender, after KH reads `H4.-0Kx....0D31.l2lT`. Position 14 is a
digit, so trimming only ever eats the actions' dots.

Encoding: the `bidder` key's bits, plus
    bits 59-60 pos 14: the bidder's certain points
    bit  61    pos 15: 1 `!`
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.setback.abstraction.abstract_game import DECISION_SIG, layout_decision
from games.setback.abstraction.layout_bidder import parse_side, refined_decision, refined_key
from games.setback.abstraction.layout_bidder import (refined_text, refined_text_keys, side_bits,
                                                     side_text)
from games.setback.abstraction.layouts import LAYOUTS
from games.setback.state import DEALT, HIGH_BID, HIGH_BIDDER, PLAYED, TRUMP, WON

LAYOUT = LAYOUTS["contract"]
SECURED_SHIFT = 59
SET_SHIFT = 61
_JACK, _TWO, _ACE = 9, 0, 12  # rank offsets within a suit field


@njit(cache=True, inline="always")
def certain_points(state, team, trump):
    """Points `team` holds for certain from public cards: the Jack of trump and the Two of
    trump taken by it in completed tricks, the Ace of trump played by one of its seats."""
    base = 13 * trump
    won = state[WON + team]
    points = (won >> (base + _JACK) & 1) + (won >> (base + _TWO) & 1)
    if state[PLAYED] >> (base + _ACE) & 1:
        for seat in range(4):
            if state[DEALT + seat] >> (base + _ACE) & 1 and seat % 2 == team:
                points += 1
    return points


@njit(cache=True, inline="always")
def contract_bits(state):
    """Bits 56-61 of the seat to act: side and bid (`layout_bidder.side_bits`), the bidder's
    certain points, and whether the defenders' certain points already set it."""
    trump = state[TRUMP]
    bidder = state[HIGH_BIDDER] % 2
    secured = certain_points(state, bidder, trump)
    beaten = 1 if certain_points(state, 1 - bidder, trump) > 4 - state[HIGH_BID] else 0
    return side_bits(state) | np.uint64(secured << SECURED_SHIFT | beaten << SET_SHIFT)


@njit(cache=True)
def abstract_decision(state, moves_out):
    """The reference's decision (actions, situation, tokens), with the side, the bid and the
    contract's standing added to a playout key (module docstring)."""
    return refined_decision(contract_bits, state, moves_out)


@njit(DECISION_SIG, cache=True, _nrt=False)
def decision(state, actions_out, key_out):
    """The abstract game's decision (`abstract_game.layout_decision`) with this layout's
    keys."""
    return layout_decision(abstract_decision, state, actions_out, key_out)


def contract_text(key: int) -> str:
    """Positions 12-15 of a playout key: side, bid, certain points, `!`/`.`."""
    return (side_text(key) + str(key >> SECURED_SHIFT & 3)
            + ("!" if key >> SET_SHIFT & 1 else "."))


def parse_contract(text: str) -> int:
    """The bits of positions 12-15; ValueError if they are not a contract field."""
    if len(text) != 4 or text[2] not in "0123" or text[3] not in ".!":
        raise ValueError(f"bad contract field {text!r}")
    return (parse_side(text[:2]) | int(text[2]) << SECURED_SHIFT
            | (text[3] == "!") << SET_SHIFT)


def key_text(key: int) -> str:
    """The string of a `contract` key (any kind; module docstring)."""
    return refined_text(key, contract_text)


def text_key(text: str) -> int:
    """The `contract` key of a string (inverse of `key_text`)."""
    return refined_key(text, 4, parse_contract, key_text)


def text_keys(texts, memo: dict | None = None) -> list[int]:
    """The `contract` keys of many stored strings at once (`layout_bidder.refined_text_keys`)."""
    return refined_text_keys(texts, memo, 4, parse_contract)
