"""Replay a Euchre hand given as JSON-like data: every decision with its seat, phase and legal
moves, the tricks, and the points. The engine behind `setback-cfr replay --game euchre`.

Input: `{"dealer": "N", "hands": {"W": [...5 cards], "N": [...], "E": [...], "S": [...]},
"upcard": "JD", "moves": ["P", "D", "9C", "partner", "AS", ...]}` (a prefix of the hand is
allowed; `"stick_the_dealer": false` switches OpenSpiel's option off).
"""

from __future__ import annotations

from games.euchre.api import Hand
from games.euchre.errors import EuchreError


def replay(spec: dict) -> dict:
    """Replay `spec` and return the output object (decisions, tricks, next, and once the hand
    is over the contract and the points)."""
    if not isinstance(spec, dict):
        raise EuchreError("the replay input must be a JSON object with dealer, hands, upcard "
                          "and moves")
    for name in ("dealer", "hands", "upcard", "moves"):
        if name not in spec:
            raise EuchreError(f"the replay input has no {name!r}")
    if not isinstance(spec["hands"], dict):
        raise EuchreError("'hands' must map seats W, N, E, S to lists of five cards")
    if not isinstance(spec["dealer"], str):
        raise EuchreError("'dealer' must be a seat: W, N, E or S")
    if not isinstance(spec["moves"], list):
        raise EuchreError("'moves' must be a list such as [\"P\", \"H\", \"partner\", \"AS\"]")
    hand = Hand(spec["dealer"], spec["hands"], spec["upcard"],
                spec.get("stick_the_dealer", True))

    def situation() -> dict:
        """The seat to act, the phase and the legal moves."""
        return {"seat": hand.to_act, "phase": hand.phase, "legal": hand.legal_moves()}

    decisions = []
    for index, move in enumerate(spec["moves"]):
        if not isinstance(move, str):
            raise EuchreError(f"move {index} ({move!r}): a move is a string such as \"P\", "
                              "\"H\", \"alone\" or \"AS\"")
        if hand.is_over:
            raise EuchreError(f"move {index} ({move!r}): the hand is already over")
        entry = situation()
        try:
            hand.play(move)
        except EuchreError as exc:
            raise EuchreError(f"move {index} ({move!r}): {exc}") from None
        entry["move"] = hand.moves[-1]
        decisions.append(entry)

    result = {
        "decisions": decisions,
        "tricks": [
            {"leader": t.leader, "cards": t.cards, "winner": t.winner} for t in hand.tricks
        ],
        "next": None if hand.is_over else situation(),
    }
    if hand.is_over:
        result["contract"] = {"trump": hand.trump, "maker": hand.maker, "alone": hand.alone}
        result["tricks_won"] = hand.tricks_won()
        result["points"] = hand.points()
    return result
