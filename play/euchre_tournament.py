"""Euchre tournaments: games to 10 (or single hands) between two players, optionally
duplicate, with a 95% interval; what `setback-cfr tournament --game euchre` runs.

Players (`make_euchre_player`): `random`, `heuristic` (`play.euchre_heuristic`), `db:PATH`
(a database of a Euchre export, `db.euchre_player`; `db:PATH,sample` samples its stored
probabilities), `ismcts[:SIMS][,pyspiel]` (OpenSpiel's ISMCTS bot, `play.ismcts_player`;
`,pyspiel` searches OpenSpiel's own C++ `euchre`), `search[OPTIONS]:db:PATH` (rollout
search on the database, `play.euchre_search_player`) and `oracle[,bid=SPEC]`
(`play.euchre_oracle`: it SEES EVERY HAND, a ceiling for tournaments and ratings; the game
loops hand it the true state).

Games: game g of a tournament with seed s is `games.euchre.match.play_game` on the game seed
`stream_seed(s, g) >> 1` (hand k of it dealt from `stream_seed(game seed, k)`; South deals
first). Player A sits East-West, B North-South; with `duplicate` every game is played a second
time on the same hands with the teams' seats swapped, so each player holds the other's cards
once. Players with a `seed(s)` method are reseeded before each game from the game seed (A and B
on their own streams, the same in both games of a pair).

Hands (`hands=True`): unit i is one hand on game seed `stream_seed(s, i) >> 1`, dealt by
`WNES`[i mod 4], scored alone (no game around it): the figure is the points a hand.

The win rate's interval is Wilson's for single games and the pairs' mean +- 1.96 standard
errors for duplicate pairs (`play.tournament`); points a hand are A's points minus B's over
all hands, with the same interval by pair (duplicate) or by unit.

Workers: units are split into fixed chunks played by forked processes (a database or a search
player is shared by the fork) and put back in order, so the figures never depend on --workers.
A stop request (Ctrl-C or SIGTERM in the command) ends the tournament after the chunks in
flight; the figures are then those of the units finished, said so.
"""

from __future__ import annotations

import math
import os
import random
from concurrent.futures import ProcessPoolExecutor, TimeoutError
from dataclasses import asdict, dataclass

import numpy as np

from games.euchre.api import Hand, format_move
from games.euchre.cards import SEAT_CHARS, format_cards
from games.euchre.errors import EuchreError
from games.euchre.match import deal_hand, play_game
from games.euchre.rules import is_legal
from games.euchre.state import DEALT
from games.euchre.view import SeatView
from games.rng import stream_seed
from games.scaffold.view import ask

PLAYER_SEED_BASE = 1 << 20
CHUNK = 16
Z95 = 1.959963984540054
SPEC_HELP = ("random, heuristic, db:PATH[,sample] (a database of a Euchre export), "
             "ismcts[:SIMS][,pyspiel] (OpenSpiel's ISMCTS bot, SIMS simulations a decision, "
             "default 100; ,pyspiel: it searches OpenSpiel's own C++ euchre) or "
             "search[OPTIONS]:db:PATH (rollout search on the database; OPTIONS worlds=W,"
             "rollout=sample|greedy,bids=search|blueprint,margin=Z,think=MS,threads=T,"
             "voids=on|off) or oracle[,bid=SPEC] (SEES EVERY HAND: double-dummy card play on "
             "the true hand, SPEC's bids, default heuristic; for tournament and rating only)")

# one row per game or hand, from A's side
WON, HANDS, POINTS_A, POINTS_B = range(4)


class EuchreSpecError(ValueError):
    """A player spec this program cannot build (one line)."""


class SeededRandomPlayer:
    """Uniformly random legal moves from its own seeded stream."""

    def __init__(self, seed: int = 0, name: str = "random"):
        self.name = name
        self.seed(seed)

    def seed(self, seed: int) -> None:
        """Restart the stream."""
        self._chooser = random.Random(int(seed))

    def choose(self, view) -> int:
        """A uniformly random legal move."""
        moves = view.legal_moves()
        return int(moves[self._chooser.randrange(len(moves))])


def make_euchre_player(spec: str, seed: int = 0):
    """The Euchre player of `spec` (module docstring); `EuchreSpecError` for a bad one."""
    text = str(spec).strip()
    from play.euchre_oracle import is_oracle_spec

    if is_oracle_spec(text):  # before the `:` split: its bidder's spec may hold one
        from play.euchre_oracle import make_euchre_oracle_player

        return make_euchre_oracle_player(text, seed, make_euchre_player, EuchreSpecError)
    kind, _, argument = text.partition(":")
    kind = kind.lower()
    if kind == "random" and not argument:
        return SeededRandomPlayer(seed)
    if kind == "heuristic" and not argument:
        from play.euchre_heuristic import EuchreHeuristicPlayer

        return EuchreHeuristicPlayer()
    if kind == "db" and argument:
        from db.errors import DatabaseError
        from db.euchre_player import EuchreDatabasePlayer

        path, _, option = argument.partition(",")
        if option not in ("", "sample"):
            raise EuchreSpecError(f"{text!r}: the only option of db:PATH is ',sample'")
        try:
            return EuchreDatabasePlayer(path, sample=option == "sample", seed=seed,
                                        name=f"db:{os.path.basename(path)}"
                                        + (",sample" if option else ""))
        except DatabaseError as exc:
            raise EuchreSpecError(str(exc)) from None
    if kind.startswith("search"):
        from play.euchre_search_player import make_euchre_search_player

        return make_euchre_search_player(text, seed, make_euchre_player, EuchreSpecError)
    if kind == "ismcts":
        from play.ismcts_player import make_ismcts_player
        from play.player_spec import PlayerSpecError

        try:
            return make_ismcts_player(text, seed, game="euchre")
        except PlayerSpecError as exc:
            raise EuchreSpecError(str(exc)) from None
    raise EuchreSpecError(f"unknown Euchre player {text!r}: expected {SPEC_HELP}")


def _seat_players(a, b, a_is_ew: bool) -> dict:
    return {s: a if (s in "WE") == a_is_ew else b for s in SEAT_CHARS}


def _reseed(players, game_seed: int) -> None:
    for i, player in enumerate(players):
        if hasattr(player, "seed"):
            player.seed(int(stream_seed(np.uint64(game_seed), np.uint64(PLAYER_SEED_BASE + i))))


def play_hand(seats: dict, game_seed: int, dealer: str) -> dict:
    """Play hand 0 of `game_seed` dealt by `dealer` with `seats` (seat letter -> player);
    return its points by team (`EW`, `NS`)."""
    hand = deal_hand(game_seed, 0, dealer)
    dealer_index = SEAT_CHARS.index(dealer)
    history: list[int] = []
    while not hand.is_over:
        seat = hand.to_act
        view = SeatView.of(hand.state, dealer_index, (0, 0), history)
        move = ask(seats[seat], hand.state, view)  # the oracle sees the hand
        if not is_legal(hand.state, move):
            raise EuchreError(f"player {seats[seat].name!r} ({seat}) chose the illegal move "
                              f"{move}; legal: {' '.join(hand.legal_moves())}")
        hand.play(format_move(move))
        history.append(move)
    return hand.points()


def unit_seed(seed: int, unit: int) -> int:
    """The game seed of game (or hand) `unit` of the tournament `seed` (an int64 for numba)."""
    return int(stream_seed(np.uint64(seed), np.uint64(unit))) >> 1


def play_unit(players, seed: int, unit: int, swapped: bool, hands: bool) -> np.ndarray:
    """Game (or hand) `unit` with A on East-West (North-South if `swapped`): its row."""
    a, b = players
    game_seed = unit_seed(seed, unit)
    _reseed(players, game_seed)
    seats = _seat_players(a, b, not swapped)
    team_a, team_b = ("NS", "EW") if swapped else ("EW", "NS")
    row = np.zeros(4, dtype=np.int64)
    if hands:
        points = play_hand(seats, game_seed, SEAT_CHARS[unit % 4])
        row[:] = (points[team_a] > points[team_b], 1, points[team_a], points[team_b])
        return row
    record = play_game(seats, game_seed)
    row[WON] = record.winner == team_a
    row[HANDS] = len(record.hands)
    row[POINTS_A] = sum(h["points"][team_a] for h in record.hands)
    row[POINTS_B] = sum(h["points"][team_b] for h in record.hands)
    return row


_PLAYERS = None  # the forked workers' players


def _play_chunk(task) -> np.ndarray:
    seed, first, last, duplicate, hands = task
    rows = []
    for unit in range(first, last):
        rows.append(play_unit(_PLAYERS, seed, unit, False, hands))
        if duplicate:
            rows.append(play_unit(_PLAYERS, seed, unit, True, hands))
    return np.array(rows, dtype=np.int64).reshape(-1, 4)


def run_euchre_tournament(players, units: int, seed: int = 0, duplicate: bool = False,
                          hands: bool = False, workers: int = 1, progress: bool = True,
                          stop=None) -> np.ndarray:
    """Play `units` games (or hands; twice each with `duplicate`) between players (A, B);
    return the rows (WON, HANDS, POINTS_A, POINTS_B) in unit order (a duplicate unit's two
    rows together, A on East-West first). `stop()` (optional), asked between chunks, ends the
    tournament early: the rows are then those of the chunks finished, in order (one unit a
    chunk with one worker, so an interrupted run keeps every finished unit)."""
    global _PLAYERS
    from tqdm import tqdm

    _PLAYERS = players
    size = 1 if workers <= 1 else CHUNK
    tasks = [(seed, first, min(first + size, units), duplicate, hands)
             for first in range(0, units, size)]
    stop = stop or (lambda: False)
    parts = []
    with tqdm(total=units, unit="hand" if hands else "game", disable=not progress,
              leave=False) as bar:
        if workers <= 1:
            for task in tasks:
                if stop():
                    break
                parts.append(_play_chunk(task))
                bar.update(task[2] - task[1])
        else:
            import multiprocessing

            with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")
                                     ) as pool:
                futures = [pool.submit(_play_chunk, task) for task in tasks]
                for task, future in zip(tasks, futures):
                    while not stop():
                        try:
                            parts.append(future.result(timeout=0.5))
                            break
                        except TimeoutError:
                            continue
                    if stop():
                        for other in futures:
                            other.cancel()
                        break
                    bar.update(task[2] - task[1])
    return np.concatenate(parts) if parts else np.zeros((0, 4), dtype=np.int64)


@dataclass
class EuchreSummary:
    """A Euchre tournament's figures, from player A's side."""

    a: str
    b: str
    unit: str  # "games" or "hands"
    duplicate: bool
    seed: int
    units_played: int
    win_rate: float
    low: float
    high: float
    hands: int
    points_a_per_hand: float
    points_b_per_hand: float
    difference_per_hand: float
    difference_low: float
    difference_high: float
    seconds: float

    def as_dict(self) -> dict:
        """The figures as one JSON-ready dict."""
        return asdict(self)


def _mean_interval(values: np.ndarray) -> tuple[float, float, float]:
    n = values.size
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = float(values.mean())
    if n < 2:
        return mean, -math.inf, math.inf
    half = Z95 * float(values.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def summarize_euchre(rows: np.ndarray, names: tuple[str, str], duplicate: bool, hands: bool,
                     seed: int, seconds: float) -> EuchreSummary:
    """The figures of a tournament's rows."""
    from play.tournament import pair_interval, wilson_interval

    won = rows[:, WON].astype(np.float64)
    if duplicate:
        rate, low, high = pair_interval(won.reshape(-1, 2).mean(axis=1))
    else:
        rate = float(won.mean()) if won.size else 0.5
        low, high = wilson_interval(float(won.sum()), int(won.size))
    n_hands = int(rows[:, HANDS].sum())
    diff = (rows[:, POINTS_A] - rows[:, POINTS_B]).astype(np.float64)
    per_unit_hands = rows[:, HANDS].astype(np.float64)
    if duplicate:  # per pair: its point difference over its hands
        diff_units = diff.reshape(-1, 2).sum(axis=1) / per_unit_hands.reshape(-1, 2).sum(axis=1)
    else:
        diff_units = diff / np.maximum(per_unit_hands, 1)
    _, d_low, d_high = _mean_interval(diff_units)
    total = max(n_hands, 1)
    return EuchreSummary(
        a=names[0], b=names[1], unit="hands" if hands else "games", duplicate=duplicate,
        seed=seed, units_played=int(rows.shape[0]), win_rate=rate, low=low, high=high,
        hands=n_hands, points_a_per_hand=float(rows[:, POINTS_A].sum()) / total,
        points_b_per_hand=float(rows[:, POINTS_B].sum()) / total,
        difference_per_hand=float(diff.sum()) / total, difference_low=d_low,
        difference_high=d_high, seconds=seconds)


def format_euchre_summary(s: EuchreSummary) -> str:
    """The summary as a few lines of text."""
    what = "hands" if s.unit == "hands" else "games to 10"
    pairs = f" ({s.units_played // 2:,} duplicate pairs)" if s.duplicate else ""
    won = "hands won" if s.unit == "hands" else "win rate"
    return "\n".join([
        f"Euchre {what}: A = {s.a} (East-West first) vs B = {s.b}, seed {s.seed}",
        f"  {s.unit:<15} {s.units_played:,}{pairs}, {s.hands:,} hands, {s.seconds:.1f} s",
        f"  A {won:<13} {100 * s.win_rate:.1f} % (95% {100 * s.low:.1f} .. "
        f"{100 * s.high:.1f})",
        f"  points a hand   A {s.points_a_per_hand:.3f}, B {s.points_b_per_hand:.3f}, A - B "
        f"{s.difference_per_hand:+.3f} (95% {s.difference_low:+.3f} .. "
        f"{s.difference_high:+.3f})",
    ])


def hand_record(game_seed: int, dealer: str) -> dict:
    """The replay input (`setback-cfr replay --game euchre`) of hand 0 of `game_seed`."""
    hand: Hand = deal_hand(game_seed, 0, dealer)
    return {"dealer": dealer, "upcard": hand.upcard,
            "hands": {hand.seat_letter(r): format_cards(hand.state[DEALT + r])
                      for r in range(4)}}
