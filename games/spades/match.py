"""A game to 500 between Spades players (`view.Player`: each sees its seat's view, on the
one loop of `games.scaffold.match.play_game`): what tournaments build on. Hand number k of a
game with seed s is dealt from `stream_seed(s, k)`; West deals first (OpenSpiel's North bids
first) and the deal passes left. Every hand is recorded in the replay format with the game
score before it, so `setback-cfr replay --game spades` replays it to the same score.
"""

from __future__ import annotations

from games.rng import stream_seed
from games.scaffold import match
from games.scaffold.match import GameRecord, RandomPlayer  # noqa: F401 (re-exported)
from games.scaffold.table import SEAT_CHARS
from games.spades.api import Hand
from games.spades.errors import SpadesError
from games.spades.random_play import FIRST_DEALER, MAX_HANDS
from games.spades.scoring import game_winner
from games.spades.view import Player, SeatView


def _deal(seed: int, index: int, dealer: str, score: dict) -> tuple:
    """Hand number `index` of the game `seed`, dealt by `dealer` at the game score `score`,
    and its replay input."""
    dealt = Hand.random(int(stream_seed(seed, index)), dealer)
    hands = dealt.dealt_text(dealt.state, dealt.dealer)
    return Hand(dealer, hands, dict(score)), {"dealer": dealer, "hands": hands}


def _finish(hand: Hand, score: dict) -> tuple[dict, dict]:
    """A hand's game score before it, its scores and points, and the game score after it."""
    return ({"score": dict(score), "scores": hand.scores(), "points": hand.points()},
            hand.game_score())


def play_game(players: dict[str, Player], seed: int, first_dealer: str = "W",
              max_hands: int = MAX_HANDS) -> GameRecord:
    """Play a game to 500 (or the mercy rule) with `players` (seat letter -> player) from
    `seed`; return its record. A player's illegal move is an error naming the player."""
    dealer = SEAT_CHARS.index(first_dealer) if first_dealer in SEAT_CHARS else FIRST_DEALER
    return match.play_game(players, seed, dealer, max_hands, _deal, _finish, game_winner,
                           SeatView, SpadesError)
