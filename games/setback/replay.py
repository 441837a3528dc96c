"""Replay a deal given as JSON-like data: every decision with its legal moves, the tricks, and
the result. The engine behind `setback-cfr replay`.

Input: `{"dealer": "S", "hands": {"W": [...6 cards], "N": [...], "E": [...], "S": [...]},
"moves": ["3", "P", "P", "P", "AS", ...]}` (a prefix of the deal is allowed).
"""

from __future__ import annotations

from typing import Callable

from games.setback.api import Deal
from games.setback.errors import SetbackError

# describe(deal, spec) -> extra fields for the decision about to be made (abstraction hook).
Describe = Callable[[Deal, dict], dict]


def replay(spec: dict, describe: Describe | None = None) -> dict:
    """Replay `spec` and return the output object (decisions, tricks, next, points, deal_score).

    `describe`, when given, adds fields (such as info-set keys) to every decision and to `next`;
    it is how the abstraction enriches the replay without the rules knowing about it.
    """
    if not isinstance(spec, dict):
        raise SetbackError("the replay input must be a JSON object with dealer, hands and moves")
    for name in ("dealer", "hands", "moves"):
        if name not in spec:
            raise SetbackError(f"the replay input has no {name!r}")
    if not isinstance(spec["hands"], dict):
        raise SetbackError("'hands' must map seats W, N, E, S to lists of six cards")
    if not isinstance(spec["dealer"], str):
        raise SetbackError("'dealer' must be a seat: W, N, E or S")
    if not isinstance(spec["moves"], list):
        raise SetbackError("'moves' must be a list such as [\"3\", \"P\", \"AS\"]")
    deal = Deal(spec["dealer"], spec["hands"])

    def situation() -> dict:
        """The seat to act, the phase and the legal moves (plus the describer's fields)."""
        entry = {"seat": deal.to_act, "phase": deal.phase, "legal": deal.legal_moves()}
        if describe is not None:
            entry.update(describe(deal, spec))
        return entry

    decisions = []
    for index, move in enumerate(spec["moves"]):
        if not isinstance(move, (str, int)) or isinstance(move, bool):
            raise SetbackError(f"move {index} ({move!r}): a move is a string such as \"P\", "
                               "\"3\" or \"AS\"")
        if deal.is_over:
            raise SetbackError(f"move {index} ({move!r}): the deal is already over")
        entry = situation()
        try:
            deal.play(str(move))
        except SetbackError as exc:
            raise SetbackError(f"move {index} ({move!r}): {exc}") from None
        entry["move"] = deal.moves[-1]
        decisions.append(entry)

    result = {
        "decisions": decisions,
        "tricks": [
            {"leader": t.leader, "cards": t.cards, "winner": t.winner} for t in deal.tricks
        ],
        "next": None if deal.is_over else situation(),
    }
    if deal.is_over:
        result["points"] = deal.points()
        result["deal_score"] = deal.deal_score()
    return result
