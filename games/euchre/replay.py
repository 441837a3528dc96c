"""Replay a Euchre hand given as JSON-like data: every decision with its seat, phase and legal
moves, the tricks, and the points. The engine behind `setback-cfr replay --game euchre`.

Input: `{"dealer": "N", "hands": {"W": [...5 cards], "N": [...], "E": [...], "S": [...]},
"upcard": "JD", "moves": ["P", "D", "9C", "partner", "AS", ...]}` (a prefix of the hand is
allowed; `"stick_the_dealer": false` switches OpenSpiel's option off).
"""

from __future__ import annotations

from games.euchre.api import Hand
from games.euchre.errors import EuchreError
from games.scaffold.replay import check_spec, play_moves, situation_of


def replay(spec: dict) -> dict:
    """Replay `spec` and return the output object (decisions, tricks, next, and once the hand
    is over the contract and the points)."""
    check_spec(spec, EuchreError, ("dealer", "hands", "upcard", "moves"),
               "dealer, hands, upcard and moves", "five cards", '["P", "H", "partner", "AS"]')
    hand = Hand(spec["dealer"], spec["hands"], spec["upcard"],
                spec.get("stick_the_dealer", True))
    result = play_moves(hand, spec["moves"], (str,), '"P", "H", "alone" or "AS"',
                        lambda: situation_of(hand))
    if hand.is_over:
        result["contract"] = {"trump": hand.trump, "maker": hand.maker, "alone": hand.alone}
        result["tricks_won"] = hand.tricks_won()
        result["points"] = hand.points()
    return result
