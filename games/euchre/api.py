"""A readable Python face of the Euchre engine: `Hand`, moves as text, absolute seats.

Every rule is delegated to the numba functions in `rules.py` and `scoring.py` on the same state
array; this module only translates between text (`JD`, `P`, `H`, `alone`, seats `W N E S`,
teams `EW` `NS`) and the engine's integers, and keeps a readable log of the hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from games.euchre import state as S
from games.euchre.cards import (
    SEAT_CHARS,
    SUIT_CHARS,
    TEAM_NAMES,
    format_card,
    format_cards,
    parse_card,
    parse_seat,
)
from games.euchre.errors import EuchreError
from games.euchre.game import absolute_team
from games.euchre.rules import (
    ALONE_MOVE,
    MAX_MOVES,
    PARTNER_MOVE,
    PASS_MOVE,
    TRUMP_MOVE,
    apply_move,
    is_legal,
    legal_moves,
)
from games.euchre.scoring import hand_score
from games.rng import new_rng

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


@dataclass
class Trick:
    """A completed (or current) trick: the leader's seat letter, the cards, the winner."""

    leader: str
    cards: list[str] = field(default_factory=list)
    winner: str | None = None


class Hand:
    """One Euchre hand, played move by move.

    Seats are the letters W, N, E, S; `dealer` deals. `hands` maps each seat letter to its five
    cards (text), `upcard` is the card turned up; `stick_the_dealer` (OpenSpiel's default, on)
    forbids the dealer to pass last in the second round.
    """

    def __init__(self, dealer: str, hands: dict, upcard, stick_the_dealer: bool = True):
        if not isinstance(dealer, str):
            raise EuchreError(f"bad dealer {dealer!r}: expected a seat W, N, E or S")
        if not isinstance(hands, dict):
            raise EuchreError("hands must map seats W, N, E, S to lists of five cards")
        self.dealer = parse_seat(dealer)
        masks = np.zeros(4, dtype=np.int64)
        seen = 0
        for letter in SEAT_CHARS:
            if letter not in hands:
                raise EuchreError(f"missing hand for seat {letter}")
            cards = hands[letter]
            if not isinstance(cards, (list, tuple)):
                raise EuchreError(f"hand {letter}: expected a list of {S.HAND_SIZE} cards")
            mask = 0
            for token in cards:
                try:
                    card = parse_card(token)
                except EuchreError as exc:
                    raise EuchreError(f"hand {letter}: {exc}") from None
                if (mask | seen) >> card & 1:
                    raise EuchreError(f"duplicate card {format_card(card)} (hand {letter})")
                mask |= 1 << card
            if len(cards) != S.HAND_SIZE:
                raise EuchreError(f"hand {letter}: a hand must hold {S.HAND_SIZE} cards, "
                                  f"got {len(cards)}")
            seen |= mask
            masks[self.relative(letter)] = mask
        extra = set(hands) - set(SEAT_CHARS)
        if extra:
            raise EuchreError(f"unknown seat {sorted(map(str, extra))[0]!r}: expected W, N, E "
                              "or S")
        try:
            up = parse_card(upcard)
        except EuchreError as exc:
            raise EuchreError(f"upcard: {exc}") from None
        if seen >> up & 1:
            raise EuchreError(f"duplicate card {format_card(up)} (the upcard is in a hand)")
        if not isinstance(stick_the_dealer, bool):
            raise EuchreError("stick_the_dealer must be true or false")
        self.state = S.new_state()
        S.reset_hand(self.state, masks, up, int(stick_the_dealer))
        self.moves: list[str] = []
        self.tricks: list[Trick] = []

    @classmethod
    def random(cls, seed: int, dealer: str = "S", stick_the_dealer: bool = True) -> "Hand":
        """A hand shuffled and dealt by the engine from `seed`."""
        state = S.new_state()
        S.random_hand(new_rng(seed), state, 1)
        d = parse_seat(dealer)
        hands = {SEAT_CHARS[(d + rel) % 4]: format_cards(state[S.HAND + rel])
                 for rel in range(4)}
        return cls(dealer, hands, format_card(int(state[S.UPCARD])), stick_the_dealer)

    # --- seats -------------------------------------------------------------------------
    def relative(self, letter: str) -> int:
        """Seat relative to the dealer (0 = dealer) of an absolute seat letter."""
        return (parse_seat(letter) - self.dealer) % 4

    def seat_letter(self, relative: int) -> str:
        """Absolute seat letter of a seat relative to the dealer."""
        return SEAT_CHARS[(self.dealer + relative) % 4]

    def team_name(self, relative_team: int) -> str:
        """`EW` or `NS` for a dealer-relative team."""
        return TEAM_NAMES[absolute_team(relative_team, self.dealer)]

    # --- the situation -----------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """Whether the five tricks are played (or, without stick the dealer, all passed)."""
        return int(self.state[S.PHASE]) == S.PHASE_OVER

    @property
    def to_act(self) -> str | None:
        """Seat letter of the player to act, None when the hand is over."""
        return None if self.is_over else self.seat_letter(int(self.state[S.TO_ACT]))

    @property
    def phase(self) -> str | None:
        """`order`, `name`, `discard`, `alone`, `lead`, `follow`, or None when over."""
        phase = int(self.state[S.PHASE])
        if phase in PHASE_NAMES:
            return PHASE_NAMES[phase]
        if phase == S.PHASE_PLAY:
            return "lead" if self.state[S.N_IN_TRICK] == 0 else "follow"
        return None

    @property
    def trump(self) -> str | None:
        """Trump suit letter, None before trump is named."""
        suit = int(self.state[S.TRUMP])
        return None if suit < 0 else SUIT_CHARS[suit]

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

    def hand(self, letter: str) -> list[str]:
        """Cards the seat holds now."""
        return format_cards(self.state[S.HAND + self.relative(letter)])

    def legal_moves(self) -> list[str]:
        """Legal moves of the seat to act, as text in the canonical order (cards by suit then
        rank; P, then suits C D H S; alone, partner)."""
        buffer = np.empty(MAX_MOVES, dtype=np.int64)
        n = legal_moves(self.state, buffer)
        return [MOVE_TEXT[m] for m in buffer[:n].tolist()]

    # --- playing -----------------------------------------------------------------------
    def play(self, token) -> None:
        """Play the move `token` for the seat to act."""
        if self.is_over:
            raise EuchreError(f"move {token!r}: the hand is already over")
        phase = self.phase
        move = parse_move(token, phase)
        if not is_legal(self.state, move):
            raise EuchreError(
                f"illegal move {format_move(move)} for {self.to_act} ({phase}); "
                f"legal: {' '.join(self.legal_moves())}"
            )
        if phase == "lead":
            self.tricks.append(Trick(leader=self.to_act))
        if phase in ("lead", "follow"):
            self.tricks[-1].cards.append(format_move(move))
        apply_move(self.state, move)
        self.moves.append(format_move(move))
        if phase in ("lead", "follow") and self.state[S.N_IN_TRICK] == 0:
            self.tricks[-1].winner = self.seat_letter(int(self.state[S.LEADER]))

    # --- the result --------------------------------------------------------------------
    def tricks_won(self) -> dict[str, int]:
        """Tricks taken so far by each team."""
        return {self.team_name(t): int(self.state[S.TRICKS_WON + t]) for t in (0, 1)}

    def points(self) -> dict[str, int]:
        """Each team's points for the finished hand (the side that scores gets 1, 2 or 4)."""
        scores = hand_score(self.state)
        by_team = {self.team_name(t): int(scores[t]) for t in (0, 1)}
        return {"NS": by_team["NS"], "EW": by_team["EW"]}
