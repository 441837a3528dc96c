"""A game to 10 between Euchre players: what tournaments build on.

A player implements `view.Player`: `choose(view) -> move` given only its seat's view (its own
cards, the upcard, the public moves, the score), never the full state; the one exception is a
player declaring `sees_all = True` (the oracle, a ceiling for tournaments), handed a copy of the
true state through `choose_seeing_all(state, view)`. Hand number k of a game
with seed s is dealt from `stream_seed(s, k)`, so a game is reproducible from its seed and the
players' own determinism; every hand is recorded in the replay format, so `setback-cfr replay
--game euchre` replays it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from games.euchre.api import Hand, format_move
from games.euchre.cards import SEAT_CHARS, TEAM_NAMES, format_cards, parse_seat
from games.euchre.errors import EuchreError
from games.euchre.game import FIRST_DEALER, game_winner, next_dealer
from games.euchre.rules import is_legal
from games.euchre.state import DEALT
from games.euchre.view import Player, SeatView
from games.rng import stream_seed
from games.scaffold.view import ask

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


def play_game(players: dict[str, Player], seed: int,
              first_dealer: str = SEAT_CHARS[FIRST_DEALER],
              max_hands: int = MAX_HANDS) -> GameRecord:
    """Play a game to 10 (or its first `max_hands` hands) with `players` (seat letter ->
    player) from `seed`; return its record.

    The deal passes clockwise after every hand; the first team to 10 wins. A player's illegal
    move is an error naming the player.
    """
    if set(players) != set(SEAT_CHARS):
        raise EuchreError("players must map each of the seats W, N, E, S to a player")
    record = GameRecord(seed)
    dealer = parse_seat(first_dealer)
    scores = [0, 0]  # by absolute team, 0 = EW, 1 = NS
    for index in range(max_hands):
        hand = deal_hand(seed, index, SEAT_CHARS[dealer])
        spec = {"dealer": SEAT_CHARS[dealer], "upcard": hand.upcard,
                "hands": {hand.seat_letter(rel): format_cards(hand.state[DEALT + rel])
                          for rel in range(4)}}
        history: list[int] = []
        while not hand.is_over:
            seat = hand.to_act
            view = SeatView.of(hand.state, dealer, (scores[0], scores[1]), history)
            move = ask(players[seat], hand.state, view)  # an oracle is handed the hand
            if not is_legal(hand.state, move):
                raise EuchreError(f"player {players[seat].name!r} ({seat}) chose the illegal "
                                  f"move {move}; legal: {' '.join(hand.legal_moves())}")
            hand.play(format_move(move))
            history.append(move)
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


class RandomPlayer:
    """A player choosing uniformly among the legal moves, from its own seeded stream."""

    def __init__(self, seed: int, name: str = "random"):
        self.name = name
        self._chooser = random.Random(seed)

    def choose(self, view: SeatView) -> int:
        """A uniformly random legal move."""
        moves = view.legal_moves()
        return int(moves[self._chooser.randrange(len(moves))])
