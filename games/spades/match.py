"""A game to 500 between Spades players (`view.Player`: each sees its seat's view, the hands
played out by `games.scaffold.match.play_out`): what tournaments build on. Hand number k of a
game with seed s is dealt from `stream_seed(s, k)`; West deals first (OpenSpiel's North bids
first) and the deal passes left. Every hand is recorded in the replay format with the game
score before it, so `setback-cfr replay --game spades` replays it to the same score.
"""

from __future__ import annotations

from games.rng import stream_seed
from games.scaffold.match import GameRecord, RandomPlayer, new_record, play_out  # noqa: F401
from games.scaffold.table import SEAT_CHARS, TEAM_NAMES, next_dealer
from games.spades.api import Hand
from games.spades.cards import format_cards
from games.spades.errors import SpadesError
from games.spades.random_play import FIRST_DEALER, MAX_HANDS
from games.spades.scoring import game_winner
from games.spades.state import DEALT
from games.spades.view import Player, SeatView


def play_game(players: dict[str, Player], seed: int, first_dealer: str = "W",
              max_hands: int = MAX_HANDS) -> GameRecord:
    """Play a game to 500 (or the mercy rule) with `players` (seat letter -> player) from
    `seed`; return its record. A player's illegal move is an error naming the player."""
    record = new_record(players, seed, SpadesError)
    dealer = SEAT_CHARS.index(first_dealer) if first_dealer in SEAT_CHARS else FIRST_DEALER
    score = {"NS": 0, "EW": 0}
    for index in range(max_hands):
        dealt = Hand.random(int(stream_seed(seed, index)), SEAT_CHARS[dealer])
        hands = {dealt.seat_letter(rel): format_cards(dealt.state[DEALT + rel])
                 for rel in range(4)}
        hand = Hand(SEAT_CHARS[dealer], hands, dict(score))
        play_out(hand, players, lambda history: SeatView.of(
            hand.state, dealer, (score["EW"], score["NS"]), history), SpadesError)
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
