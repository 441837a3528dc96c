"""What a game between the players of any four-seat game shares: its record, a hand played out
through the seats' views, a game of hands to a winning score, and the random player. Each
game's `match.py` keeps only its deal and what a hand adds to the score.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from games.scaffold.table import SEAT_CHARS, TEAM_NAMES, next_dealer
from games.scaffold.view import ask


@dataclass
class GameRecord:
    """A finished (or abandoned) game: the winner (`EW`, `NS`, or None if abandoned), the
    final score by team, and every hand as replay input with its result."""

    seed: int
    winner: str | None = None
    score: dict = field(default_factory=lambda: {"NS": 0, "EW": 0})
    hands: list = field(default_factory=list)


def new_record(players: dict, seed: int, error: type) -> GameRecord:
    """The empty record of game `seed`; `error` unless `players` maps each seat to a player."""
    if set(players) != set(SEAT_CHARS):
        raise error("players must map each of the seats W, N, E, S to a player")
    return GameRecord(seed)


def play_out(hand, players: dict, view_of, error: type) -> None:
    """Play `hand` (a `games.scaffold.face.TableFace`) to its end, each move the acting seat's
    player's (`players`: seat letter -> player) given `view_of(history)`, the hand's moves so
    far (through `ask`: an oracle is handed the true state); a player's illegal move is `error`
    naming the player."""
    history: list[int] = []
    while not hand.is_over:
        seat = hand.to_act
        move = ask(players[seat], hand.state, view_of(history))
        if not hand.engine_rules.is_legal(hand.state, move):
            raise error(f"player {players[seat].name!r} ({seat}) chose the illegal "
                        f"move {move}; legal: {' '.join(hand.legal_moves())}")
        hand.play(hand.format_move(move))
        history.append(move)


def play_game(players: dict, seed: int, dealer: int, max_hands: int, deal, finish, winner_of,
              view_class, error: type) -> GameRecord:
    """Game `seed` with `players` (seat letter -> player), hands dealt by `dealer` (absolute)
    first and then by each seat in turn, until `winner_of(EW's score, NS's)` names a team
    (0 EW, 1 NS; -1 to play on) or `max_hands` are played; return its record. Hand k is
    `deal(seed, k, dealer's letter, score)`: (the hand, a `TableFace`; its replay input), and
    `finish(hand, score)` gives (what the record keeps of it beside its input and moves, the
    game score after it); scores are by team (`{"NS": a, "EW": b}`), a seat's view is
    `view_class.of(state, dealer, (EW's score, NS's), history)`."""
    record = new_record(players, seed, error)
    score = {"NS": 0, "EW": 0}
    for index in range(max_hands):
        hand, spec = deal(seed, index, SEAT_CHARS[dealer], score)
        play_out(hand, players, lambda history: view_class.of(
            hand.state, dealer, (score["EW"], score["NS"]), history), error)
        kept, score = finish(hand, score)
        record.hands.append({**spec, "moves": list(hand.moves), **kept})
        winner = winner_of(score["EW"], score["NS"])
        if winner >= 0:
            record.winner = TEAM_NAMES[winner]
            break
        dealer = next_dealer(dealer)
    record.score = score
    return record


class RandomPlayer:
    """A player choosing uniformly among the legal moves (any game's view), from its own
    seeded generator; `seed(s)` restarts it, which the tournament does before every game so
    a game's moves do not depend on which worker played the games before it."""

    def __init__(self, seed: int = 0, name: str = "random"):
        self.name = name
        self.seed(seed)

    def seed(self, seed: int) -> None:
        """Restart the generator from `seed`."""
        self.rng = np.random.default_rng(int(seed))

    def choose(self, view) -> int:
        """A uniformly random legal move."""
        legal = view.legal_moves()
        return int(legal[self.rng.integers(legal.size)])
