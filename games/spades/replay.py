"""Replay a Spades hand given as JSON-like data: every decision with its seat, phase and legal
moves, the tricks, and the points. The engine behind `setback-cfr replay --game spades`.

Input: `{"dealer": "W", "hands": {"W": [...13 cards], "N": [...], "E": [...], "S": [...]},
"moves": ["3", "Nil", "4", "2", "KH", ...]}` (the dealer's left bids first and leads the first
trick; a prefix of the hand is allowed). `"score": {"NS": a, "EW": b}`, the game score before
the hand, sets the bags OpenSpiel reads from its last digit (default 0 to 0).
"""

from __future__ import annotations

from games.scaffold.replay import check_spec, play_moves, situation_of
from games.spades.api import Hand
from games.spades.errors import SpadesError


def replay(spec: dict) -> dict:
    """Replay `spec` and return the output object (decisions, tricks, next, and once the hand
    is over the bids, the tricks each seat took and the points; with a `score` in the input,
    the game score after the hand)."""
    check_spec(spec, SpadesError, ("dealer", "hands", "moves"), "dealer, hands and moves",
               "thirteen cards", '["3", "Nil", "4", "2", "KH"]')
    hand = Hand(spec["dealer"], spec["hands"], spec.get("score"))
    result = play_moves(hand, spec["moves"], (str, int), '"Nil", "4" or "TS"',
                        lambda: situation_of(hand))
    if hand.is_over:
        result["bids"] = hand.bids()
        result["tricks_won"] = hand.tricks_won()
        result["points"] = hand.points()
        if "score" in spec:
            result["score"] = hand.game_score()
    return result
