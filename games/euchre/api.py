"""A readable Python face of the Euchre engine: `Hand`, moves as text, absolute seats.

Every rule is delegated to the numba functions in `rules.py` and `scoring.py` on the same state
array; this module only translates between text (`JD`, `P`, `H`, `alone`, seats `W N E S`,
teams `EW` `NS`) and the engine's integers, and keeps a readable log of the hand.
"""

from __future__ import annotations

from games.euchre import rules
from games.euchre import state as S
from games.euchre.cards import SUIT_CHARS, format_card, format_cards, parse_card
from games.euchre.cards import parse_seat
from games.euchre.errors import EuchreError
from games.euchre.rules import ALONE_MOVE, PARTNER_MOVE, PASS_MOVE, TRUMP_MOVE
from games.euchre.scoring import hand_score
from games.rng import new_rng
from games.scaffold.face import TableFace, Trick, seat_hands  # noqa: F401 (Trick re-exported)

PHASE_NAMES = {S.PHASE_ORDER: "order", S.PHASE_NAME: "name", S.PHASE_DISCARD: "discard",
               S.PHASE_ALONE: "alone"}
EXPECTED = {"order": "P or the upcard's suit letter", "name": "P or a suit letter C, D, H, S",
            "alone": "alone or partner"}


def _move_text(move: int) -> str:
    if move == PASS_MOVE:
        return "P"
    if TRUMP_MOVE <= move < ALONE_MOVE:
        return SUIT_CHARS[move - TRUMP_MOVE]
    if move == ALONE_MOVE:
        return "alone"
    if move == PARTNER_MOVE:
        return "partner"
    return format_card(move)


MOVE_TEXT = tuple(_move_text(m) for m in range(PARTNER_MOVE + 1))  # the text of every move
CARD_BY_TEXT = {MOVE_TEXT[c]: c for c in range(PASS_MOVE)}  # "JD" -> card index


def format_move(move: int) -> str:
    """Text of an engine move: a card (`JD`), `P`, a suit letter, `alone` or `partner`."""
    return MOVE_TEXT[move]


def parse_move(token, phase: str) -> int:
    """Engine move for the text `token` in `phase` (`order`, `name`, `discard`, `alone`,
    `lead` or `follow`)."""
    text = str(token).strip().upper()
    if phase in ("order", "name"):
        if text in ("P", "PASS"):
            return PASS_MOVE
        if len(text) == 1 and text in SUIT_CHARS:
            return TRUMP_MOVE + SUIT_CHARS.index(text)
    elif phase == "alone":
        if text == "ALONE":
            return ALONE_MOVE
        if text == "PARTNER":
            return PARTNER_MOVE
    else:
        return CARD_BY_TEXT[text] if text in CARD_BY_TEXT else parse_card(token)
    raise EuchreError(f"bad move {token!r} in the {phase} phase: expected {EXPECTED[phase]}")


class Hand(TableFace):
    """One Euchre hand, played move by move (`TableFace`).

    Seats are the letters W, N, E, S; `dealer` deals. `hands` maps each seat letter to its five
    cards (text), `upcard` is the card turned up; `stick_the_dealer` (OpenSpiel's default, on)
    forbids the dealer to pass last in the second round.
    """

    engine_state = S
    engine_rules = rules
    error = EuchreError
    noun = "hand"
    PHASE_NAMES = PHASE_NAMES
    format_move = staticmethod(format_move)
    parse_move = staticmethod(parse_move)
    parse_card, format_card = staticmethod(parse_card), staticmethod(format_card)
    format_cards = staticmethod(format_cards)

    def __init__(self, dealer: str, hands: dict, upcard, stick_the_dealer: bool = True):
        masks = seat_hands(self, dealer, hands, S.HAND_SIZE, self.read_hand)
        seen = int(masks[0] | masks[1] | masks[2] | masks[3])
        try:
            up = parse_card(upcard)
        except EuchreError as exc:
            raise EuchreError(f"upcard: {exc}") from None
        if seen >> up & 1:
            raise EuchreError(f"duplicate card {format_card(up)} (the upcard is in a hand)")
        if not isinstance(stick_the_dealer, bool):
            raise EuchreError("stick_the_dealer must be true or false")
        state = S.new_state()
        S.reset_hand(state, masks, up, int(stick_the_dealer))
        super().__init__(self.dealer, state)

    @classmethod
    def random(cls, seed: int, dealer: str = "S", stick_the_dealer: bool = True) -> "Hand":
        """A hand shuffled and dealt by the engine from `seed`."""
        state = S.new_state()
        S.random_hand(new_rng(seed), state, 1)
        return cls(dealer, cls.dealt_text(state, parse_seat(dealer)),
                   format_card(int(state[S.UPCARD])), stick_the_dealer)

    # --- the situation (beyond the table's) ----------------------------------------------
    @property
    def upcard(self) -> str:
        """The card turned up."""
        return format_card(int(self.state[S.UPCARD]))

    @property
    def maker(self) -> str | None:
        """Seat letter of the player who named trump, None before."""
        seat = int(self.state[S.MAKER])
        return None if seat < 0 else self.seat_letter(seat)

    @property
    def alone(self) -> bool | None:
        """Whether the maker went alone; None before the decision."""
        value = int(self.state[S.ALONE])
        return None if value < 0 else bool(value)

    # --- the result --------------------------------------------------------------------
    def tricks_won(self) -> dict[str, int]:
        """Tricks taken so far by each team."""
        return {self.team_name(t): int(self.state[S.TRICKS_WON + t]) for t in (0, 1)}

    def points(self) -> dict[str, int]:
        """Each team's points for the finished hand (the side that scores gets 1, 2 or 4)."""
        return self.by_team(hand_score(self.state))
