"""Replay a deal given as JSON-like data: every decision with its legal moves, the tricks, and
the result. The engine behind `setback-cfr replay`.

Input: `{"dealer": "S", "hands": {"W": [...6 cards], "N": [...], "E": [...], "S": [...]},
"moves": ["3", "P", "P", "P", "AS", ...]}` (a prefix of the deal is allowed).
"""

from __future__ import annotations

from typing import Callable

from games.scaffold.replay import check_spec, play_moves, situation_of
from games.setback.api import Deal
from games.setback.errors import SetbackError

# describe(deal, spec) -> extra fields for the decision about to be made (abstraction hook).
Describe = Callable[[Deal, dict], dict]


def replay(spec: dict, describe: Describe | None = None) -> dict:
    """Replay `spec` and return the output object (decisions, tricks, next, points, deal_score).

    `describe`, when given, adds fields (such as info-set keys) to every decision and to `next`;
    it is how the abstraction enriches the replay without the rules knowing about it.
    """
    check_spec(spec, SetbackError, ("dealer", "hands", "moves"), "dealer, hands and moves",
               "six cards", '["3", "P", "AS"]')
    deal = Deal(spec["dealer"], spec["hands"])

    def situation() -> dict:
        """The seat to act, the phase and the legal moves (plus the describer's fields)."""
        entry = situation_of(deal)
        if describe is not None:
            entry.update(describe(deal, spec))
        return entry

    result = play_moves(deal, spec["moves"], (str, int), '"P", "3" or "AS"', situation)
    if deal.is_over:
        result["points"] = deal.points()
        result["deal_score"] = deal.deal_score()
    return result
