"""The replay driver every game's `replay(spec)` runs (`setback-cfr replay --game NAME`):
check the JSON object, play its moves on the game's `TableFace` one by one, and write every
decision (seat, phase, legal moves, the move), the tricks and what comes next.

A game's `replay` fills in only what is its own: the fields its input holds, how a face is
built from them, what a move may be, and what a finished hand reports.
"""

from __future__ import annotations


def check_spec(spec, error: type, fields: tuple, what: str, hand: str, moves: str) -> None:
    """Refuse (raising `error`, one line) a replay input that is not a JSON object holding
    `fields`, with `hands` an object, `dealer` a string and `moves` a list. `what` lists the
    fields for the message, `hand` names a hand's cards (`six cards`), `moves` is an example
    list."""
    if not isinstance(spec, dict):
        raise error(f"the replay input must be a JSON object with {what}")
    for name in fields:
        if name not in spec:
            raise error(f"the replay input has no {name!r}")
    if not isinstance(spec["hands"], dict):
        raise error(f"'hands' must map seats W, N, E, S to lists of {hand}")
    if not isinstance(spec["dealer"], str):
        raise error("'dealer' must be a seat: W, N, E or S")
    if not isinstance(spec["moves"], list):
        raise error(f"'moves' must be a list such as {moves}")


def play_moves(face, moves: list, move_types: tuple, example: str, situation) -> dict:
    """Play `moves` on `face`, recording each decision as `situation()` (the seat to act,
    its phase, its legal moves: a dict) plus the move; return the decisions, the tricks and
    the next situation (None once over). A move must be of `move_types` (never a bool);
    `example` shows the game's moves in the error."""
    error = face.error
    decisions = []
    for index, move in enumerate(moves):
        if not isinstance(move, move_types) or isinstance(move, bool):
            raise error(f"move {index} ({move!r}): a move is a string such as {example}")
        if face.is_over:
            raise error(f"move {index} ({move!r}): the {face.noun} is already over")
        entry = situation()
        try:
            face.play(str(move))
        except error as exc:
            raise error(f"move {index} ({move!r}): {exc}") from None
        entry["move"] = face.moves[-1]
        decisions.append(entry)
    return {
        "decisions": decisions,
        "tricks": [
            {"leader": t.leader, "cards": t.cards, "winner": t.winner} for t in face.tricks
        ],
        "next": None if face.is_over else situation(),
    }


def situation_of(face) -> dict:
    """The seat to act, the phase and the legal moves of `face`."""
    return {"seat": face.to_act, "phase": face.phase, "legal": face.legal_moves()}
