"""A game to 500 between Spades players: what tournaments build on.

A player implements `view.Player`: `choose(view) -> move` given only its seat's view (its own
cards, the public bids and cards, the score), never the full state; the one exception is a
player declaring `sees_all = True` (an oracle), handed a copy of the true state by
`games.scaffold.view.ask`. Hand number k of a game with seed s is dealt from
`stream_seed(s, k)`; West deals first (OpenSpiel's North bids first) and the deal passes left.
Every hand is recorded in the replay format with the game score before it, so `setback-cfr
replay --game spades` replays it to the same score.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from games.rng import stream_seed
from games.scaffold.table import SEAT_CHARS, TEAM_NAMES, next_dealer
from games.scaffold.view import ask
from games.spades.api import Hand, format_move
from games.spades.cards import format_cards
from games.spades.errors import SpadesError
from games.spades.random_play import FIRST_DEALER, MAX_HANDS
from games.spades.rules import is_legal
from games.spades.scoring import game_winner
from games.spades.state import DEALT
from games.spades.view import Player, SeatView


@dataclass
class GameRecord:
    """A finished (or abandoned) game: the winner (`EW`, `NS`, or None if abandoned), the
    final score by team, and every hand as replay input with its scores and points."""

    seed: int
    winner: str | None = None
    score: dict = field(default_factory=lambda: {"NS": 0, "EW": 0})
    hands: list = field(default_factory=list)


def play_game(players: dict[str, Player], seed: int, first_dealer: str = "W",
              max_hands: int = MAX_HANDS) -> GameRecord:
    """Play a game to 500 (or the mercy rule) with `players` (seat letter -> player) from
    `seed`; return its record. A player's illegal move is an error naming the player."""
    if set(players) != set(SEAT_CHARS):
        raise SpadesError("players must map each of the seats W, N, E, S to a player")
    record = GameRecord(seed)
    dealer = SEAT_CHARS.index(first_dealer) if first_dealer in SEAT_CHARS else FIRST_DEALER
    score = {"NS": 0, "EW": 0}
    for index in range(max_hands):
        dealt = Hand.random(int(stream_seed(seed, index)), SEAT_CHARS[dealer])
        hands = {dealt.seat_letter(rel): format_cards(dealt.state[DEALT + rel])
                 for rel in range(4)}
        hand = Hand(SEAT_CHARS[dealer], hands, dict(score))
        history: list[int] = []
        while not hand.is_over:
            seat = hand.to_act
            view = SeatView.of(hand.state, dealer, (score["EW"], score["NS"]), history)
            move = ask(players[seat], hand.state, view)
            if not is_legal(hand.state, move):
                raise SpadesError(f"player {players[seat].name!r} ({seat}) chose the illegal "
                                  f"move {move}; legal: {' '.join(hand.legal_moves())}")
            hand.play(format_move(move))
            history.append(move)
        record.hands.append({"dealer": SEAT_CHARS[dealer], "hands": hands,
                             "moves": list(hand.moves), "score": dict(score),
                             "scores": hand.scores(), "points": hand.points()})
        score = hand.game_score()
        winner = game_winner(score["EW"], score["NS"])
        if winner >= 0:
            record.winner = TEAM_NAMES[winner]
            break
        dealer = next_dealer(dealer)
    record.score = score
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
