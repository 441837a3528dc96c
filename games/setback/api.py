"""A readable Python face of the rules engine: `Deal`, moves as text, absolute seats.

Every rule is delegated to the numba functions in `rules.py` and `scoring.py` on the same state
array; this module only translates between text (`AS`, `P`, `3`, seats `W N E S`, teams `EW`
`NS`) and the engine's integers, and keeps a readable log of the deal.
"""

from __future__ import annotations

from games.rng import new_rng
from games.scaffold.face import TableFace, Trick, seat_hands  # noqa: F401 (Trick re-exported)
from games.setback import rules
from games.setback import state as S
from games.setback.cards import SEAT_CHARS, format_card, parse_card, parse_hand, parse_seat
from games.setback.errors import SetbackError
from games.setback.rules import BID_MOVE
from games.setback.scoring import POINT_NAMES, deal_points, deal_score, is_exhausted

BID_TEXT = {0: "P", 2: "2", 3: "3", 4: "4"}


def format_move(move: int) -> str:
    """Text of an engine move: a card (`AS`) or a bid (`P`, `2`, `3`, `4`)."""
    if move >= BID_MOVE:
        return BID_TEXT[move - BID_MOVE]
    return format_card(move)


def parse_move(token: str, phase: str) -> int:
    """Engine move for the text `token` in `phase` (`bid`, `lead` or `follow`)."""
    text = str(token).strip().upper()
    if phase == "bid":
        for bid, name in BID_TEXT.items():
            if text == name:
                return BID_MOVE + bid
        raise SetbackError(f"bad bid {token!r}: expected P, 2, 3 or 4")
    return parse_card(token)


class Deal(TableFace):
    """One Setback deal, played move by move (`TableFace`).

    Seats are the letters W, N, E, S; `dealer` deals. `hands` maps each seat letter to its six
    cards (text or card indices).
    """

    engine_state = S
    engine_rules = rules
    error = SetbackError
    noun = "deal"
    PHASE_NAMES = {S.PHASE_AUCTION: "bid"}
    format_move = staticmethod(format_move)
    parse_move = staticmethod(parse_move)

    def __init__(self, dealer: str, hands: dict[str, list]):
        masks = seat_hands(self, dealer, hands, S.HAND_SIZE, _read_hand, _kind)
        state = S.new_state()
        S.reset_deal(state, masks)
        super().__init__(self.dealer, state)

    @classmethod
    def random(cls, seed: int, dealer: str = "S") -> "Deal":
        """A deal shuffled and dealt by the engine from `seed`."""
        state = S.new_state()
        S.random_deal(new_rng(seed), state)
        d = parse_seat(dealer)
        hands = {SEAT_CHARS[(d + rel) % 4]: _cards(state[S.HAND + rel]) for rel in range(4)}
        return cls(dealer, hands)

    # --- the situation (beyond the table's) ----------------------------------------------
    @property
    def is_exhausted(self) -> bool:
        """Whether the deal's score can no longer change."""
        return bool(is_exhausted(self.state))

    def hand(self, letter: str) -> list[str]:
        """Cards the seat still holds."""
        return _cards(self.state[S.HAND + self.relative(letter)])

    # --- the result --------------------------------------------------------------------
    def points(self) -> dict[str, str | None]:
        """Owner (`EW`, `NS` or None) of High, Low, Jack and Game."""
        owners = deal_points(self.state)
        return {name: self.team_name(int(o)) for name, o in zip(POINT_NAMES, owners)}

    def deal_score(self) -> dict[str, int]:
        """Each team's deal score, setbacks applied (0-0 when everybody passed)."""
        scores = deal_score(self.state)
        return {self.team_name(t): int(scores[t]) for t in (0, 1)}


def _read_hand(letter: str, cards, seen: int) -> int:
    """The mask of seat `letter`'s six cards (a duplicate of `seen`, or within, is an error)."""
    try:
        tokens = [_card_token(c) for c in cards]
        mask = parse_hand(tokens, expected_size=S.HAND_SIZE)
    except SetbackError as exc:
        raise SetbackError(f"hand {letter}: {exc}") from None
    if mask & seen:
        dup = format_card((mask & seen).bit_length() - 1)
        raise SetbackError(f"duplicate card {dup} (hand {letter})")
    return mask


def _card_token(card) -> str:
    """A hand's card as text: text as given, a card index (0..51) formatted; else an error."""
    if isinstance(card, str):
        return card
    if isinstance(card, int) and not isinstance(card, bool):
        return format_card(card)
    raise SetbackError(f"bad card {card!r}: expected a string such as 'AS' or '10H'")


def _kind(value) -> str:
    """How a JSON value reads in an error message: `null`, `a number`, ..."""
    if value is None:
        return "null"
    names = {bool: "a boolean", int: "a number", float: "a number", str: "a string",
             dict: "an object"}
    return names.get(type(value), type(value).__name__)


def _cards(mask) -> list[str]:
    mask = int(mask)
    return [format_card(c) for c in range(52) if mask >> c & 1]
