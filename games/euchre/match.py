"""A game to 10 played by Python players through the `Hand` API: what tournaments build on.

A player is a callable `choose(hand, seat) -> move text` given the live `Hand` (it must look
only at what `seat` may see: its own cards, the upcard, the moves; a tournament wraps players
accordingly) and returning one of `hand.legal_moves()`. Hand number k of a game with seed s is
dealt from `stream_seed(s, k)`, so a game is reproducible from its seed and the players' own
determinism; every hand is recorded in the replay format, so `setback-cfr replay --game
euchre` replays it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from games.euchre.api import Hand
from games.euchre.cards import SEAT_CHARS, TEAM_NAMES, format_cards, parse_seat
from games.euchre.errors import EuchreError
from games.euchre.game import FIRST_DEALER, game_winner, next_dealer
from games.euchre.state import DEALT
from games.rng import stream_seed

Choose = Callable[[Hand, str], str]
MAX_HANDS = 1000  # far beyond any real game (a hand always scores with stick the dealer)


@dataclass
class GameRecord:
    """A finished (or abandoned) game: the winner (`EW`, `NS`, or None if abandoned), the
    final score by team, and every hand as replay input with its points."""

    seed: int
    winner: str | None = None
    score: dict = field(default_factory=lambda: {"NS": 0, "EW": 0})
    hands: list = field(default_factory=list)


def deal_hand(seed: int, index: int, dealer: str) -> Hand:
    """Hand number `index` of the game `seed`, dealt by `dealer`."""
    return Hand.random(int(stream_seed(seed, index)), dealer)


def play_game(players: dict[str, Choose], seed: int,
              first_dealer: str = SEAT_CHARS[FIRST_DEALER]) -> GameRecord:
    """Play a game to 10 with `players` (seat letter -> choose) from `seed`; return its record.

    The deal passes clockwise after every hand; the first team to 10 wins.
    """
    if set(players) != set(SEAT_CHARS):
        raise EuchreError("players must map each of the seats W, N, E, S to a player")
    record = GameRecord(seed)
    dealer = parse_seat(first_dealer)
    scores = [0, 0]  # by absolute team, 0 = EW, 1 = NS
    for index in range(MAX_HANDS):
        hand = deal_hand(seed, index, SEAT_CHARS[dealer])
        spec = {"dealer": SEAT_CHARS[dealer], "upcard": hand.upcard,
                "hands": {hand.seat_letter(rel): format_cards(hand.state[DEALT + rel])
                          for rel in range(4)}}
        while not hand.is_over:
            seat = hand.to_act
            move = players[seat](hand, seat)
            hand.play(move)
        points = hand.points()
        record.hands.append({**spec, "moves": list(hand.moves), "points": points})
        scores[0] += points["EW"]
        scores[1] += points["NS"]
        winner = game_winner(scores[0], scores[1])
        if winner >= 0:
            record.winner = TEAM_NAMES[winner]
            break
        dealer = next_dealer(dealer)
    record.score = {"NS": scores[1], "EW": scores[0]}
    return record


def random_player(seed: int) -> Choose:
    """A player choosing uniformly among the legal moves, from its own seeded stream."""
    import random

    chooser = random.Random(seed)

    def choose(hand: Hand, seat: str) -> str:
        """A uniformly random legal move."""
        return chooser.choice(hand.legal_moves())

    return choose


