"""A game to 10 between Euchre players (`view.Player`: each sees its seat's view, the hands
played out by `games.scaffold.match.play_out`): what tournaments build on. Hand number k of a
game with seed s is dealt from `stream_seed(s, k)`, so a game is reproducible from its seed and
the players' own determinism; every hand is recorded in the replay format, so `setback-cfr
replay --game euchre` replays it.
"""

from __future__ import annotations

from games.euchre.api import Hand
from games.euchre.cards import SEAT_CHARS, TEAM_NAMES, format_cards, parse_seat
from games.euchre.errors import EuchreError
from games.euchre.game import FIRST_DEALER, game_winner, next_dealer
from games.euchre.state import DEALT
from games.euchre.view import Player, SeatView
from games.rng import stream_seed
from games.scaffold.match import GameRecord, RandomPlayer, new_record, play_out  # noqa: F401

MAX_HANDS = 1000  # far beyond any real game (a hand always scores with stick the dealer)


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
    record = new_record(players, seed, EuchreError)
    dealer = parse_seat(first_dealer)
    scores = [0, 0]  # by absolute team, 0 = EW, 1 = NS
    for index in range(max_hands):
        hand = deal_hand(seed, index, SEAT_CHARS[dealer])
        spec = {"dealer": SEAT_CHARS[dealer], "upcard": hand.upcard,
                "hands": {hand.seat_letter(rel): format_cards(hand.state[DEALT + rel])
                          for rel in range(4)}}
        play_out(hand, players, lambda history: SeatView.of(
            hand.state, dealer, (scores[0], scores[1]), history), EuchreError)
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
