"""A readable Python face of the Spades engine: `Hand`, moves as text, absolute seats.

Every rule is delegated to the numba functions in `rules.py` and `scoring.py` on the same state
array; this module only translates between text (`TS`, `Nil`, `4`, seats `W N E S`, teams `EW`
`NS`) and the engine's integers, and keeps a readable log of the hand.
"""

from __future__ import annotations

import numpy as np

from games.rng import new_rng
from games.scaffold.face import TableFace, seat_hands
from games.scaffold.table import SEAT_CHARS, absolute_team, parse_seat, read_team_score
from games.spades import rules
from games.spades import state as S
from games.spades.cards import format_card, format_cards, parse_card
from games.spades.errors import SpadesError
from games.spades.rules import BID_MOVE
from games.spades.scoring import hand_score, returns_of

MAX_SCORE = 10**6  # a game score beyond any real game's is refused (it keeps the int64 exact)


def format_bid(bid: int) -> str:
    """Text of a bid: `Nil` for 0, else the number."""
    return "Nil" if bid == 0 else str(bid)


def format_move(move: int) -> str:
    """Text of an engine move: a card (`TS`) or a bid (`Nil`, `1` .. `13`)."""
    return format_bid(move - BID_MOVE) if move >= BID_MOVE else format_card(move)


def parse_move(token, phase: str) -> int:
    """Engine move for the text `token` in `phase` (`bid`, `lead` or `follow`): a bid is
    `Nil` or `1` .. `13`, a card is rank then suit."""
    if phase != "bid":
        return parse_card(token)
    text = str(token).strip()
    if text.upper() == "NIL":
        return BID_MOVE
    if text.isdigit() and 1 <= int(text) <= 13 and text[0] != "0":
        return BID_MOVE + int(text)
    raise SpadesError(f"bad bid {token!r}: expected Nil or 1..13")


class Hand(TableFace):
    """One Spades hand, played move by move (`TableFace`).

    Seats are the letters W, N, E, S; `dealer` deals and its left bids and leads first.
    `hands` maps each seat letter to its thirteen cards (text); `score`, the game score before
    the hand by team (`{"NS": a, "EW": b}`, default 0 to 0), sets the bags OpenSpiel reads from
    its last digit.
    """

    engine_state = S
    engine_rules = rules
    error = SpadesError
    noun = "hand"
    PHASE_NAMES = {S.PHASE_BID: "bid"}
    format_move = staticmethod(format_move)
    parse_move = staticmethod(parse_move)
    parse_card, format_card = staticmethod(parse_card), staticmethod(format_card)
    format_cards = staticmethod(format_cards)
    trump = "S"  # spades, always

    def __init__(self, dealer: str, hands: dict, score: dict | None = None):
        masks = seat_hands(self, dealer, hands, S.HAND_SIZE, self.read_hand)
        by_team = _read_score(score)
        state = S.new_state()
        S.reset_hand(state, masks, *(by_team[absolute_team(t, self.dealer)] for t in (0, 1)))
        super().__init__(self.dealer, state)

    @classmethod
    def random(cls, seed: int, dealer: str = "W", score: dict | None = None) -> "Hand":
        """A hand shuffled and dealt by the engine from `seed`."""
        state = S.new_state()
        S.random_hand(new_rng(seed), state, 0, 0)
        return cls(dealer, cls.dealt_text(state, parse_seat(dealer, SpadesError)), score)

    def bids(self) -> dict[str, str]:
        """Each seat's bid so far (`Nil`, `1` .. `13`), in bidding order."""
        return {self.seat_letter(rel): format_bid(int(self.state[S.BID + rel]))
                for rel in (1, 2, 3, 0) if self.state[S.BID + rel] >= 0}

    def tricks_won(self) -> dict[str, int]:
        """Tricks taken so far by each seat."""
        return {letter: int(self.state[S.TAKEN + self.relative(letter)])
                for letter in SEAT_CHARS}

    def scores(self) -> dict[str, int]:
        """Each team's score for the finished hand (what its game score gains)."""
        return self.by_team(hand_score(self.state))

    def points(self) -> dict[str, int]:
        """Each team's points for the finished hand as OpenSpiel's returns have them: the
        hand's score, with OpenSpiel's bonus where its thresholds fire (`returns_of`)."""
        return self.by_team(returns_of(*hand_score(self.state)))

    def game_score(self) -> dict[str, int]:
        """The game score by team after the finished hand."""
        before = self.by_team(self.state[S.SCORE:S.SCORE + 2])
        scores = self.scores()
        return {team: before[team] + scores[team] for team in ("NS", "EW")}


def _read_score(score) -> np.ndarray:
    """The game score `{"NS": a, "EW": b}` as an array by absolute team (EW, NS)."""
    return np.array(read_team_score(score, lambda v: abs(v) <= MAX_SCORE, SpadesError,
                                    '"score" must look like {"NS": 120, "EW": -35} (integers '
                                    f"within +-{MAX_SCORE:,})"), np.int64)
