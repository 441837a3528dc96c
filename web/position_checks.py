"""The checks of the one `/api/decide` position reader (`web.position`), whatever the game: the
position's fields, the one hand it shows, that hand being the seat to act's, Hall's condition
on the hidden cards, and the decision's reply. Each check raises the game's `PositionError`
with one line; the words that differ between games (a hand's size, an example) are the game's
declaration's (`POSITION` in its table_view.py)."""

from __future__ import annotations

import hashlib

import numpy as np

from games.scaffold.table import SEAT_CHARS

FIELDS = ("dealer", "hands", "moves", "score")
HIDDEN_TOKEN = "?"  # a move the seat to act did not see (another seat's discard)
NO_LAYOUT = ("no deal fits these moves: the other seats' cards cannot fill their hands without "
             "a suit they showed they lack")


def check_fields(spec, error: type, setup: tuple = ()) -> None:
    """`spec` is an object with only a position's fields, and those it needs: the three every
    game's has and the game's `setup` fields (its `SETUP_FIELDS`: a card turned up)."""
    if not isinstance(spec, dict):
        raise error(f"the position must be a JSON object with dealer, "
                    f"{''.join(f'{name}, ' for name in setup)}hands and moves")
    unknown = sorted(set(spec) - set(FIELDS) - set(setup))
    if unknown:
        raise error(f"unknown field {unknown[0]!r}: a position has \"dealer\", "
                    + "".join(f'"{name}", ' for name in setup)
                    + "\"hands\" (the seat to act only), \"moves\" and \"score\"")
    for name in ("dealer", "hands", "moves", *setup):
        if name not in spec:
            raise error(f"the position has no {name!r}")
    if not isinstance(spec["dealer"], str):
        raise error("'dealer' must be a seat: W, N, E or S")


def shown_hand(hands, error: type, parse_seat, words: str, example: str):
    """(seat letter, card list) of the one hand a position shows, (None, None) when none:
    `hands` must map one seat to a list (`words`: its size in words; `example`: a hand as
    JSON); `parse_seat(key)` raises for a bad seat."""
    if not isinstance(hands, dict):
        raise error(f"'hands' must map the seat to act to its {words} cards, as {example}")
    letters = [SEAT_CHARS[parse_seat(key)] for key in hands]
    if len(letters) > 1:
        raise error(f"the position shows {len(letters)} hands ({', '.join(letters)}): "
                    "give only the hand of the seat to act; the others are hidden")
    if not letters:
        return None, None
    cards = next(iter(hands.values()))
    if not isinstance(cards, list):
        raise error(f"hand {letters[0]}: expected a list of {words} cards")
    return letters[0], cards


def check_seat(shown: str | None, to_act: str, error: type, words: str) -> None:
    """The hand shown (`shown`, a seat letter or None) is the seat to act's (`to_act`)."""
    if shown is None:
        raise error(f"the position hides the hand of {to_act}, the seat to act: "
                    f"give \"hands\": {{\"{to_act}\": [its {words} cards as dealt]}}")
    if shown != to_act:
        raise error(f"the position shows {shown}'s hand, but {to_act} is to "
                    f"act after these moves: give {to_act}'s hand only")


def hall(per_suit, needs, voids) -> bool:
    """Whether cards of four suits, `per_suit[s]` of suit s, can fill three hands of `needs`
    cards, hand i taking no suit of its `voids[i]` (a bit a suit): Hall's condition, every set
    of the hands needing no more cards than the suits one of them may hold supply."""
    for subset in range(1, 8):
        members = [i for i in range(3) if subset >> i & 1]
        allowed = 0
        for i in members:
            allowed |= ~int(voids[i]) & 0xF
        supply = sum(per_suit[suit] for suit in range(4) if allowed >> suit & 1)
        if sum(int(needs[i]) for i in members) > supply:
            return False
    return True


def decision_reply(bots, view, seat: str, format_move) -> dict:
    """The bots' decision for `view` (of seat letter `seat`): `{"seat", "move", "legal",
    "probabilities": {abstract action: probability or None}, "explanation"}`, the explanation
    being the Hint panel's (the game's `Bots.decide`). The bots are seeded from the position
    itself, so the same position always gets the same answer."""
    digest = hashlib.blake2b(view.state.tobytes() + np.asarray(view.history, np.int64).tobytes()
                             + np.asarray(view.score, np.int64).tobytes(), digest_size=8)
    _, explanation = bots.decide(view, int.from_bytes(digest.digest(), "little") >> 1)
    return {"seat": seat, "move": explanation["move"],
            "legal": [format_move(int(m)) for m in view.legal_moves()],
            "probabilities": {a["action"]: a["prob"] for a in explanation["actions"]},
            "explanation": explanation}
