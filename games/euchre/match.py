"""A game to 10 between Euchre players (`view.Player`: each sees its seat's view), on the one
loop of `games.scaffold.match.play_game`: what tournaments build on. Hand number k of a game
with seed s is dealt from `stream_seed(s, k)`, so a game is reproducible from its seed and the
players' own determinism; every hand is recorded in the replay format, so `setback-cfr replay
--game euchre` replays it.
"""

from __future__ import annotations

from games.euchre.api import Hand
from games.euchre.cards import SEAT_CHARS, parse_seat
from games.euchre.errors import EuchreError
from games.euchre.game import FIRST_DEALER, game_winner
from games.euchre.view import Player, SeatView
from games.rng import stream_seed
from games.scaffold import match
from games.scaffold.match import GameRecord, RandomPlayer  # noqa: F401 (re-exported)

MAX_HANDS = 1000  # far beyond any real game (a hand always scores with stick the dealer)


def deal_hand(seed: int, index: int, dealer: str, score: dict | None = None) -> tuple:
    """Hand number `index` of the game `seed`, dealt by `dealer`, and its replay input."""
    hand = Hand.random(int(stream_seed(seed, index)), dealer)
    return hand, {"dealer": dealer, "upcard": hand.upcard,
                  "hands": hand.dealt_text(hand.state, hand.dealer)}


def _finish(hand: Hand, score: dict) -> tuple[dict, dict]:
    """A hand's points, and the score after it."""
    points = hand.points()
    return {"points": points}, {team: score[team] + points[team] for team in ("NS", "EW")}


def play_game(players: dict[str, Player], seed: int,
              first_dealer: str = SEAT_CHARS[FIRST_DEALER],
              max_hands: int = MAX_HANDS) -> GameRecord:
    """Play a game to 10 (or its first `max_hands` hands) with `players` (seat letter ->
    player) from `seed`; return its record. The deal passes clockwise after every hand; the
    first team to 10 wins. A player's illegal move is an error naming the player."""
    return match.play_game(players, seed, parse_seat(first_dealer), max_hands, deal_hand,
                           _finish, game_winner, SeatView, EuchreError)
