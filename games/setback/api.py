"""A readable Python face of the rules engine: `Deal`, moves as text, absolute seats.

Every rule is delegated to the numba functions in `rules.py` and `scoring.py` on the same state
array; this module only translates between text (`AS`, `P`, `3`, seats `W N E S`, teams `EW`
`NS`) and the engine's integers, and keeps a readable log of the deal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from games.rng import new_rng
from games.setback import state as S
from games.setback.cards import (
    SEAT_CHARS,
    TEAM_NAMES,
    format_card,
    parse_card,
    parse_hand,
    parse_seat,
)
from games.setback.errors import SetbackError
from games.setback.game import absolute_team
from games.setback.rules import BID_MOVE, MAX_MOVES, apply_move, is_legal, legal_moves
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


@dataclass
class Trick:
    """A completed (or current) trick: the leader's seat letter, the cards, the winner."""

    leader: str
    cards: list[str] = field(default_factory=list)
    winner: str | None = None


class Deal:
    """One Setback deal, played move by move.

    Seats are the letters W, N, E, S; `dealer` deals. `hands` maps each seat letter to its six
    cards (text or card indices).
    """

    def __init__(self, dealer: str, hands: dict[str, list]):
        if not isinstance(dealer, str):
            raise SetbackError(f"bad dealer {dealer!r}: expected a seat W, N, E or S")
        if not isinstance(hands, dict):
            raise SetbackError("hands must map seats W, N, E, S to lists of six cards")
        self.dealer = parse_seat(dealer)
        masks = np.zeros(4, dtype=np.int64)
        seen = 0
        for letter in SEAT_CHARS:
            if letter not in hands:
                raise SetbackError(f"missing hand for seat {letter}")
            cards = hands[letter]
            if not isinstance(cards, (list, tuple)):
                raise SetbackError(f"hand {letter}: expected a list of {S.HAND_SIZE} cards, "
                                   f"got {_kind(cards)}")
            try:
                tokens = [_card_token(c) for c in cards]
                mask = parse_hand(tokens, expected_size=S.HAND_SIZE)
            except SetbackError as exc:
                raise SetbackError(f"hand {letter}: {exc}") from None
            if mask & seen:
                dup = format_card((mask & seen).bit_length() - 1)
                raise SetbackError(f"duplicate card {dup} (hand {letter})")
            seen |= mask
            masks[self.relative(letter)] = mask
        extra = set(hands) - set(SEAT_CHARS)
        if extra:
            raise SetbackError(f"unknown seat {sorted(extra)[0]!r}: expected W, N, E or S")
        self.state = S.new_state()
        S.reset_deal(self.state, masks)
        self.moves: list[str] = []
        self.tricks: list[Trick] = []

    @classmethod
    def random(cls, seed: int, dealer: str = "S") -> "Deal":
        """A deal shuffled and dealt by the engine from `seed`."""
        state = S.new_state()
        S.random_deal(new_rng(seed), state)
        d = parse_seat(dealer)
        hands = {SEAT_CHARS[(d + rel) % 4]: _cards(state[S.HAND + rel]) for rel in range(4)}
        return cls(dealer, hands)

    # --- seats -------------------------------------------------------------------------
    def relative(self, letter: str) -> int:
        """Seat relative to the dealer (0 = dealer) of an absolute seat letter."""
        return (parse_seat(letter) - self.dealer) % 4

    def seat_letter(self, relative: int) -> str:
        """Absolute seat letter of a seat relative to the dealer."""
        return SEAT_CHARS[(self.dealer + relative) % 4]

    def team_name(self, relative_team: int) -> str | None:
        """`EW` or `NS` for a dealer-relative team; None for -1 (nobody)."""
        if relative_team < 0:
            return None
        return TEAM_NAMES[absolute_team(relative_team, self.dealer)]

    # --- the situation -----------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """Whether all six tricks are played, or everybody passed."""
        return int(self.state[S.PHASE]) == S.PHASE_OVER

    @property
    def is_exhausted(self) -> bool:
        """Whether the deal's score can no longer change."""
        return bool(is_exhausted(self.state))

    @property
    def to_act(self) -> str | None:
        """Seat letter of the player to act, None when the deal is over."""
        return None if self.is_over else self.seat_letter(int(self.state[S.TO_ACT]))

    @property
    def phase(self) -> str | None:
        """`bid`, `lead`, `follow`, or None when the deal is over."""
        phase = int(self.state[S.PHASE])
        if phase == S.PHASE_AUCTION:
            return "bid"
        if phase == S.PHASE_PLAY:
            return "lead" if self.state[S.N_IN_TRICK] == 0 else "follow"
        return None

    @property
    def trump(self) -> str | None:
        """Trump suit letter, None before the first lead."""
        suit = int(self.state[S.TRUMP])
        return None if suit < 0 else "CDHS"[suit]

    def hand(self, letter: str) -> list[str]:
        """Cards the seat still holds."""
        return _cards(self.state[S.HAND + self.relative(letter)])

    def legal_moves(self) -> list[str]:
        """Legal moves of the seat to act, as text (bids P 2 3 4; cards by suit then rank)."""
        buffer = np.empty(MAX_MOVES, dtype=np.int64)
        n = legal_moves(self.state, buffer)
        return [format_move(int(m)) for m in buffer[:n]]

    # --- playing -----------------------------------------------------------------------
    def play(self, token: str) -> None:
        """Play the move `token` (a bid or a card) for the seat to act."""
        if self.is_over:
            raise SetbackError(f"move {token!r}: the deal is already over")
        phase = self.phase
        move = parse_move(token, phase)
        if not is_legal(self.state, move):
            raise SetbackError(
                f"illegal move {format_move(move)} for {self.to_act} ({phase}); "
                f"legal: {' '.join(self.legal_moves())}"
            )
        if phase == "lead":
            self.tricks.append(Trick(leader=self.to_act))
        if phase != "bid":
            self.tricks[-1].cards.append(format_move(move))
        apply_move(self.state, move)
        self.moves.append(format_move(move))
        if phase != "bid" and self.state[S.N_IN_TRICK] == 0:
            self.tricks[-1].winner = self.seat_letter(int(self.state[S.LEADER]))

    # --- the result --------------------------------------------------------------------
    def points(self) -> dict[str, str | None]:
        """Owner (`EW`, `NS` or None) of High, Low, Jack and Game."""
        owners = deal_points(self.state)
        return {name: self.team_name(int(o)) for name, o in zip(POINT_NAMES, owners)}

    def deal_score(self) -> dict[str, int]:
        """Each team's deal score, setbacks applied (0-0 when everybody passed)."""
        scores = deal_score(self.state)
        return {self.team_name(t): int(scores[t]) for t in (0, 1)}


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
