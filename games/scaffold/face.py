"""`TableFace`: the readable Python face of a four-seat trick-taking engine, a hand played
move by move with moves as text and absolute seats (`W N E S`, teams `EW` `NS`).

Every rule stays in the game's numba functions on the same state array; the face translates
and keeps the log (`moves`, `tricks`). A game's face (Setback's `Deal`, Euchre's `Hand`)
subclasses it and fills in what is its own: its engine modules (`engine_state` with `PHASE`,
`PHASE_OVER`, `PHASE_PLAY`, `TO_ACT`, `N_IN_TRICK`, `LEADER`, `TRUMP`, `HAND`; `engine_rules`
with `MAX_MOVES`, `legal_moves`, `is_legal`, `apply_move`), its error type, what a hand is
called (`noun`), its move text (`format_move`, `parse_move`), the phases before the play
(`PHASE_NAMES`), how a hand is dealt, and its result.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from games.scaffold.table import SEAT_CHARS, TEAM_NAMES, absolute_team, parse_seat


@dataclass
class Trick:
    """A completed (or current) trick: the leader's seat letter, the cards, the winner."""

    leader: str
    cards: list[str] = field(default_factory=list)
    winner: str | None = None


class TableFace:
    """One hand of a trick-taking game, played move by move (subclass contract: module
    docstring). `dealer` is the dealer's absolute seat (0..3); `state` the engine state."""

    engine_state = None
    engine_rules = None
    error: type = ValueError
    noun = "hand"
    PHASE_NAMES: dict = {}  # engine phase before the play -> its name (`bid`, `order`, ...)
    # a hand's card text where it is a plain list of cards (Euchre, Spades): `hand`, `read_hand`
    parse_card = format_card = format_cards = None

    def __init__(self, dealer: int, state: np.ndarray):
        self.dealer = dealer
        self.state = state
        self.moves: list[str] = []
        self.history: list[int] = []  # the same moves as engine integers (a view's history)
        self.tricks: list[Trick] = []

    @staticmethod
    def format_move(move: int) -> str:
        """Text of an engine move (the game's own)."""
        raise NotImplementedError

    @staticmethod
    def parse_move(token, phase: str) -> int:
        """Engine move of the text `token` in `phase` (the game's own)."""
        raise NotImplementedError

    # --- seats -------------------------------------------------------------------------
    def relative(self, letter: str) -> int:
        """Seat relative to the dealer (0 = dealer) of an absolute seat letter."""
        return (parse_seat(letter, self.error) - self.dealer) % 4

    def seat_letter(self, relative: int) -> str:
        """Absolute seat letter of a seat relative to the dealer."""
        return SEAT_CHARS[(self.dealer + relative) % 4]

    def by_team(self, pair) -> dict[str, int]:
        """A pair by dealer-relative team (team 0 the dealer's) as `{"NS": a, "EW": b}`."""
        named = {self.team_name(t): int(pair[t]) for t in (0, 1)}
        return {"NS": named["NS"], "EW": named["EW"]}

    def team_name(self, relative_team: int) -> str | None:
        """`EW` or `NS` for a dealer-relative team; None for -1 (nobody)."""
        if relative_team < 0:
            return None
        return TEAM_NAMES[absolute_team(relative_team, self.dealer)]

    @classmethod
    def read_hand(cls, letter: str, cards, seen: int) -> int:
        """The mask of seat `letter`'s cards (`seat_hands`'s `read_hand` for a hand of
        `engine_state.HAND_SIZE` plain cards): a card of `seen`, or one twice, is an error."""
        mask = 0
        for token in cards:
            try:
                card = cls.parse_card(token)
            except cls.error as exc:
                raise cls.error(f"hand {letter}: {exc}") from None
            if (mask | seen) >> card & 1:
                raise cls.error(f"duplicate card {cls.format_card(card)} (hand {letter})")
            mask |= 1 << card
        size = cls.engine_state.HAND_SIZE
        if len(cards) != size:
            raise cls.error(f"hand {letter}: a hand must hold {size} cards, got {len(cards)}")
        return mask

    @classmethod
    def dealt_text(cls, state, dealer: int) -> dict[str, list[str]]:
        """Each seat's cards as dealt in `state` (`dealer` absolute), by seat letter: the
        `hands` of a replay."""
        return {SEAT_CHARS[(dealer + rel) % 4]: cls.format_cards(
            state[cls.engine_state.DEALT + rel]) for rel in range(4)}

    def hand(self, letter: str) -> list[str]:
        """Cards the seat holds now."""
        return self.format_cards(self.state[self.engine_state.HAND + self.relative(letter)])

    # --- the situation -----------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """Whether the hand is over."""
        return int(self.state[self.engine_state.PHASE]) == self.engine_state.PHASE_OVER

    @property
    def to_act(self) -> str | None:
        """Seat letter of the player to act, None when the hand is over."""
        return None if self.is_over else self.seat_letter(
            int(self.state[self.engine_state.TO_ACT]))

    @property
    def phase(self) -> str | None:
        """The phase's name (`PHASE_NAMES`), `lead` or `follow` in the play, None when over."""
        S = self.engine_state
        phase = int(self.state[S.PHASE])
        if phase in self.PHASE_NAMES:
            return self.PHASE_NAMES[phase]
        if phase == S.PHASE_PLAY:
            return "lead" if self.state[S.N_IN_TRICK] == 0 else "follow"
        return None

    @property
    def trump(self) -> str | None:
        """Trump suit letter, None before trump is set."""
        suit = int(self.state[self.engine_state.TRUMP])
        return None if suit < 0 else "CDHS"[suit]

    def legal_moves(self) -> list[str]:
        """Legal moves of the seat to act, as text in the engine's (ascending) order."""
        rules = self.engine_rules
        buffer = np.empty(rules.MAX_MOVES, dtype=np.int64)
        n = rules.legal_moves(self.state, buffer)
        return [self.format_move(m) for m in buffer[:n].tolist()]

    # --- playing -----------------------------------------------------------------------
    def play(self, token) -> None:
        """Play the move `token` for the seat to act."""
        S, rules = self.engine_state, self.engine_rules
        if self.is_over:
            raise self.error(f"move {token!r}: the {self.noun} is already over")
        phase = self.phase
        move = self.parse_move(token, phase)
        if not rules.is_legal(self.state, move):
            raise self.error(
                f"illegal move {self.format_move(move)} for {self.to_act} ({phase}); "
                f"legal: {' '.join(self.legal_moves())}"
            )
        in_play = phase in ("lead", "follow")
        if phase == "lead":
            self.tricks.append(Trick(leader=self.to_act))
        if in_play:
            self.tricks[-1].cards.append(self.format_move(move))
        rules.apply_move(self.state, move)
        self.moves.append(self.format_move(move))
        self.history.append(int(move))
        if in_play and self.state[S.N_IN_TRICK] == 0:
            self.tricks[-1].winner = self.seat_letter(int(self.state[S.LEADER]))


def seat_hands(face: TableFace, dealer, hands, hand_size: int, read_hand,
               kind=None) -> np.ndarray:
    """Seat the table: set `face.dealer` from the seat letter `dealer`, and return the four
    hands of `hands` (seat letter -> list of card tokens) as masks by seat relative to it.
    `read_hand(letter, cards, seen)` is the game's parser of one seat's list (`seen`: the
    cards of the seats before it, a duplicate is an error); `kind`, when given, names what a
    non-list value is in the error."""
    error = face.error
    if not isinstance(dealer, str):
        raise error(f"bad dealer {dealer!r}: expected a seat W, N, E or S")
    if not isinstance(hands, dict):
        raise error(f"hands must map seats W, N, E, S to lists of {NUMBERS[hand_size]} cards")
    face.dealer = parse_seat(dealer, error)
    masks = np.zeros(4, dtype=np.int64)
    seen = 0
    for letter in SEAT_CHARS:
        if letter not in hands:
            raise error(f"missing hand for seat {letter}")
        cards = hands[letter]
        if not isinstance(cards, (list, tuple)):
            got = f", got {kind(cards)}" if kind is not None else ""
            raise error(f"hand {letter}: expected a list of {hand_size} cards{got}")
        mask = read_hand(letter, cards, seen)
        seen |= mask
        masks[face.relative(letter)] = mask
    extra = set(hands) - set(SEAT_CHARS)
    if extra:
        raise error(f"unknown seat {sorted(map(str, extra))[0]!r}: expected W, N, E or S")
    return masks


NUMBERS = {5: "five", 6: "six", 13: "thirteen"}  # hand sizes as the error messages spell them
