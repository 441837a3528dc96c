"""Tournaments: the one loop every game's tournament runs (`run_tournament`), optionally
duplicate, with the intervals of the win rate.

The loop: a game brings its rules and its players, not its own loop. Its registry entry names
a `TournamentGame` (`tournament`): `play_unit` plays one game (or single hand) of a tournament
seed from A's side, `make_player` builds its players, `pair_scores`, `summarize` and
`format_summary` make its figures. `run_tournament(..., game=NAME)` owns everything else,
once for every game: the duplicate scheme (each unit twice, the seats swapped), the chunks and
the forked workers, the order of the rows, the stop request and Ctrl-C, the progress bar and
the database players' counts. Each game's plug-in is in its place: Setback's
`games.setback.play.tournament.SETBACK` (games to 11), Euchre's
`games.euchre.play.tournament.TOURNAMENT` (games to 10, or hands), Spades'
`games.spades.play.tournament.TOURNAMENT` (games to 500, or hands); the points games (Euchre,
Spades) share the rows WON, HANDS, POINTS_A, POINTS_B and their figures (`summarize_points`:
the win rate and the points a hand, each with its interval).

Duplicate (`duplicate=True`): game g is played twice on the same deals, first with player A
on East-West, then with the players' seats swapped (A on North-South). The cards stay at their
seats and the dealer rotation is unchanged, so in the second game A holds exactly the hands B
held in the first (every A seat gets the cards of the B seat beside it: the hands rotated one
seat relative to the players) and card luck cancels within the pair. A's score of a pair is
its wins / 2; the pairs are independent and identically distributed, and their interval is
`pair_interval`'s (single units: Wilson's, `wilson_interval`).

Workers: units are split by index into fixed chunks (one unit a chunk when serial, so a stop
keeps every finished unit); each worker process (forked, so players such as a strategy file
loaded in memory are shared) plays whole chunks and the results are put back in unit order, so
the figures depend on the seed and never on the number of workers or the chunk size.
"""

from __future__ import annotations

import functools
import math
import os
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Callable

import numpy as np

from games.rng import stream_seed
from games.scaffold.table import SEAT_CHARS

DEFAULT_MAX_DEALS = 200
PLAYER_SEED_BASE = 1 << 20  # stream indices of the players' seeds (deal indices stay below)
Z95 = 1.959963984540054


class IllegalMove(RuntimeError):
    """A player chose a move that is not legal."""


# --- the one loop: every game's units, duplicate, workers, Ctrl-C, progress ---------------
DEFAULT_CHUNK = 16  # units a task with --workers > 1 (one unit a chunk when serial)


@dataclass(frozen=True)
class TournamentGame:
    """What a game brings to the one tournament loop (`run_tournament`): its rules, as
    `play_unit`, and its players, as `make_player`. A game's registry entry names it
    (`tournament`, "module:attribute"); the loop finds it by the game's name.

    `play_unit(players, seed, unit, swapped, hands, max_deals)` plays game (or, with `hands`,
    single hand) `unit` of the tournament `seed` between players (A, B), A on East-West unless
    `swapped`, and returns its row of `width` int64 columns from A's side; it reseeds the
    players that have a `seed(s)` method from (seed, unit, A/B), the same in both games of a
    duplicate pair, and deals from the unit's own stream, so a unit's row never depends on the
    units before it. `pair_scores(rows)` turns rows shaped (pairs, 2, width) into A's score
    of each duplicate pair in [0, 1] (what the rating fits). `summarize(rows, names,
    duplicate, hands, seed, seconds, counts)` and `format_summary(summary)` are its report.
    """

    name: str
    title: str  # "Euchre"
    target: int  # the game's winning score
    width: int  # columns of a row
    play_unit: Callable
    make_player: Callable  # (spec, seed) -> player; a bad spec raises `spec_error`
    spec_error: type
    spec_help: str
    pair_scores: Callable
    summarize: Callable
    format_summary: Callable
    rules_version: str  # the results store's key: bump when a unit's row changes
    hands: bool = False  # has a single-hand mode (--hands: points a hand)
    max_deals: bool = False  # abandons a game after `max_deals` deals (a game that may not end)
    png: bool = False  # the report can be drawn (play.summary_plot)
    lookups: bool = False  # the report lists the database players' lookups (`report()`)


def tournament_game(game) -> TournamentGame:
    """The `TournamentGame` of `game` (a registered name, the object itself, or None: the
    default game's)."""
    if isinstance(game, TournamentGame):
        return game
    from games import registry

    entry = registry.get(registry.DEFAULT_GAME if game is None else game)
    if not entry.provides("tournament"):
        raise registry.UnknownGameError(f"game {game!r} has no tournament yet")
    return entry.load("tournament")


_WORKER_PLAYERS = None  # set before forking; each child inherits it


def _ignore_sigint() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle (it keeps the finished chunks),
    and SIGTERM ends the worker (the pool's `terminate` sends it; a handler inherited from the
    parent, such as the command's stop request, would keep the worker alive and the pool
    waiting for it forever)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _counts(player) -> Counter:
    """A database-backed player's decision counts so far (empty for the others)."""
    return Counter(getattr(player, "counts", {}))


def _play_chunk(task) -> tuple[np.ndarray, list[Counter]]:
    """Play the units of a task (both games of each pair when duplicate, A on East-West
    first); return the rows and what each player's decision counts grew by meanwhile."""
    game, seed, units, duplicate, hands, max_deals = task
    plugin = tournament_game(game)
    before = [_counts(p) for p in _WORKER_PLAYERS]
    rows = []
    for unit in units:
        rows.append(plugin.play_unit(_WORKER_PLAYERS, seed, unit, False, hands, max_deals))
        if duplicate:
            rows.append(plugin.play_unit(_WORKER_PLAYERS, seed, unit, True, hands, max_deals))
    grown = [_counts(p) - b for p, b in zip(_WORKER_PLAYERS, before)]
    return np.array(rows, dtype=np.int64).reshape(-1, plugin.width), grown


class _Stopped(Exception):
    """`stop()` said to end the tournament."""


def run_tournament(players, games, seed: int = 0, duplicate: bool = False,
                   workers: int = 1, max_deals: int = DEFAULT_MAX_DEALS,
                   chunk: int | None = None, progress: bool = True,
                   counts: list | None = None,
                   interrupted: list | None = None, *, game=None, hands: bool = False,
                   stop=None, on_chunk=None, bar=None) -> np.ndarray:
    """Play `games` units of `game` (a registered name, by default the default game; `games`
    an int: units 0..games-1; or a sequence of unit indices) between players (A, B), each twice
    on the same deals with `duplicate`, single hands with `hands`; return the rows in unit order
    (a duplicate unit's two rows together, A on East-West first). Every game's tournament is
    this loop: the game brings only `TournamentGame.play_unit` and its players.

    Units are cut into chunks of `chunk` (default: one unit when serial, `DEFAULT_CHUNK` with
    workers); with `workers` > 1 forked processes play whole chunks (sharing the players,
    e.g. a database, through the fork) and the chunks are put back in order, so the rows
    depend on the seed and never on `workers` or `chunk`. `on_chunk(units, rows)` is called
    for each chunk as it completes, in order. `counts`, if a list, receives each player's
    decision counts (`DatabasePlayer.counts`), summed over the workers. Stopping: `stop()`
    (optional) is asked before each chunk and while waiting for one; Ctrl-C
    (KeyboardInterrupt) also stops when `interrupted` is a list, and propagates otherwise.
    A stopped tournament appends True to `interrupted` (if a list) and returns the rows of
    the chunks completed, in order. `bar`: a tqdm bar to advance by units instead of
    drawing one."""
    from tqdm import tqdm

    global _WORKER_PLAYERS
    plugin = tournament_game(game)
    units = range(games) if isinstance(games, (int, np.integer)) else tuple(games)
    size = int(chunk) if chunk else (1 if workers <= 1 else DEFAULT_CHUNK)
    tasks = [(plugin.name, seed, units[k:k + size], duplicate, hands, max_deals)
             for k in range(0, len(units), size)]
    stop = stop or (lambda: False)
    results, totals = [], [Counter() for _ in players]

    def collect(task, rows, grown):
        results.append(rows)
        for total, more in zip(totals, grown):
            total.update(more)
        shown.update(len(task[2]))
        if on_chunk is not None:
            on_chunk(list(task[2]), rows)

    unit = "pair" if duplicate else "hand" if hands else "game"
    shown = bar if bar is not None else tqdm(total=len(units), unit=unit,
                                             disable=not progress, leave=False)
    _WORKER_PLAYERS = players
    try:
        if workers <= 1 or len(tasks) <= 1:
            for task in tasks:
                if stop():
                    raise _Stopped
                collect(task, *_play_chunk(task))
        else:
            import multiprocessing

            context = multiprocessing.get_context("fork")
            with context.Pool(workers, initializer=_ignore_sigint) as pool:
                done = pool.imap(_play_chunk, tasks)
                for task in tasks:
                    while True:  # wait, asking stop() every half second
                        if stop():
                            raise _Stopped
                        try:
                            result = done.next(timeout=0.5)
                            break
                        except multiprocessing.TimeoutError:
                            continue
                    collect(task, *result)
    except (KeyboardInterrupt, _Stopped) as exc:
        if isinstance(exc, KeyboardInterrupt) and interrupted is None:
            raise
        if interrupted is not None:
            interrupted.append(True)  # keep the chunks completed so far, in unit order
    finally:
        _WORKER_PLAYERS = None
        if bar is None:
            shown.close()
    if counts is not None:
        counts[:] = [dict(sorted(t.items())) for t in totals]
    return (np.concatenate(results) if results
            else np.zeros((0, plugin.width), np.int64))


# --- figures ----------------------------------------------------------------------------
def wilson_interval(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion wins/n (z = 1.96 for 95%)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def pair_interval(pair_scores: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high) of i.i.d. pair scores in [0, 1]: mean +- z standard errors."""
    n = pair_scores.size
    if n == 0:
        return 0.5, 0.0, 1.0
    mean = float(pair_scores.mean())
    if n < 2:
        return mean, 0.0, 1.0
    half = z * float(pair_scores.std(ddof=1)) / math.sqrt(n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def default_workers() -> int:
    """One worker per available core."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1


# --- points games (Euchre, Spades): rows WON, HANDS, POINTS_A, POINTS_B ---------------------
# One row per game (or hand) from A's side: A won it (a hand: A scored more), the hands it
# lasted, and each side's points over them.
WON, HANDS, UNIT_POINTS_A, UNIT_POINTS_B = range(4)
POINTS_WIDTH = 4


def seat_players(a, b, a_is_ew: bool) -> dict:
    """The seats (letters W N E S) of players A and B, A on East-West if `a_is_ew`."""
    return {s: a if (s in "WE") == a_is_ew else b for s in "WNES"}


def reseed(players, game_seed: int) -> None:
    """Reseed the players that have a `seed(s)` method from the game seed, A and B on their
    own streams (the same in both games of a duplicate pair)."""
    for i, player in enumerate(players):
        if hasattr(player, "seed"):
            player.seed(int(stream_seed(np.uint64(game_seed), np.uint64(PLAYER_SEED_BASE + i))))


def unit_seed(seed: int, unit: int) -> int:
    """The game seed of game (or hand) `unit` of the tournament `seed` (halved: an int64 for
    numba)."""
    return int(stream_seed(np.uint64(seed), np.uint64(unit))) >> 1


def points_unit(play_game: Callable, gained: str) -> Callable:
    """The `TournamentGame.play_unit` of a points game (its rows: WON, HANDS, POINTS_A,
    POINTS_B from A's side): a game is `play_game(seats, game_seed)` (a record whose `winner`
    is a team and whose `hands` each give each team's points under `gained`), a single hand
    hand 0 of `play_game(seats, game_seed, dealer, max_hands=1)` (each team's `points`), dealt
    by `WNES`[unit mod 4]; `seats` map the seat letters to the players, A on East-West unless
    swapped."""

    def play_unit(players, seed: int, unit: int, swapped: bool, hands: bool,
                  max_deals: int = 0) -> np.ndarray:
        """Game (or hand) `unit` with A on East-West (North-South if `swapped`): its row
        (`max_deals` is not used: a points game always ends)."""
        a, b = players
        game_seed = unit_seed(seed, unit)
        reseed(players, game_seed)
        seats = seat_players(a, b, not swapped)
        team_a, team_b = ("NS", "EW") if swapped else ("EW", "NS")
        row = np.zeros(POINTS_WIDTH, dtype=np.int64)
        if hands:
            record = play_game(seats, game_seed, SEAT_CHARS[unit % 4], max_hands=1)
            points = record.hands[0]["points"]
            row[:] = (points[team_a] > points[team_b], 1, points[team_a], points[team_b])
            return row
        record = play_game(seats, game_seed)
        row[WON] = record.winner == team_a
        row[HANDS] = len(record.hands)
        row[UNIT_POINTS_A] = sum(h[gained][team_a] for h in record.hands)
        row[UNIT_POINTS_B] = sum(h[gained][team_b] for h in record.hands)
        return row

    return play_unit


def points_tournament(name: str, title: str, target: int, play_game: Callable, gained: str,
                      grammar, rules_version: str, lookups: bool = False) -> TournamentGame:
    """The `TournamentGame` of a points game to `target` (`points_unit` on `play_game` and
    `gained`, the points reports) whose players are `grammar`'s
    (`play.player_grammar.Grammar`); it has single hands."""
    return TournamentGame(
        name=name, title=title, target=target, width=POINTS_WIDTH,
        play_unit=points_unit(play_game, gained), make_player=grammar.make,
        spec_error=grammar.error, spec_help=grammar.help, pair_scores=points_pair_scores,
        summarize=summarize_points, format_summary=points_report(title, target),
        rules_version=rules_version, hands=True, lookups=lookups)


def points_report(title: str, target: int) -> Callable:
    """A points game's `TournamentGame.format_summary` (`format_points_summary` under its
    `title` and winning score `target`)."""
    return functools.partial(format_points_summary, title=title, target=target)


def points_pair_scores(rows: np.ndarray) -> np.ndarray:
    """A's score of each duplicate pair (rows shaped (pairs, 2, width)): its wins / 2."""
    return rows[:, :, WON].astype(np.float64).mean(1)


@dataclass
class PointsSummary:
    """A points game's tournament figures (Euchre, Spades), from player A's side."""

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


def ratio_interval(numerators: np.ndarray, denominators: np.ndarray) -> tuple[float, float]:
    """The 95 % interval of sum(numerators) / sum(denominators) over i.i.d. units (the
    linearised ratio estimator): centred on the ratio the report prints, where the mean of the
    units' own ratios would weigh a short game's hands as much as a long game's."""
    n = numerators.size
    total = float(denominators.sum())
    if n == 0:
        return 0.0, 0.0  # nothing played (a stop before the first unit), as before
    if n < 2 or total <= 0:
        return -math.inf, math.inf
    ratio = float(numerators.sum()) / total
    residuals = numerators - ratio * denominators
    half = Z95 * math.sqrt(float((residuals ** 2).sum()) * n / (n - 1)) / total
    return ratio - half, ratio + half


def summarize_points(rows: np.ndarray, names: tuple[str, str], duplicate: bool, hands: bool,
                     seed: int, seconds: float, counts: list | None = None) -> PointsSummary:
    """The figures of a points game's rows: A's win rate (Wilson's interval for single
    units, the pairs' for duplicate ones) and A's points a hand minus B's, its interval by
    unit or by pair (`ratio_interval`: the points over the hands, the pair the unit)."""
    won = rows[:, WON].astype(np.float64)
    if duplicate:
        rate, low, high = pair_interval(won.reshape(-1, 2).mean(axis=1))
    else:
        rate = float(won.mean()) if won.size else 0.5
        low, high = wilson_interval(float(won.sum()), int(won.size))
    n_hands = int(rows[:, HANDS].sum())
    diff = (rows[:, UNIT_POINTS_A] - rows[:, UNIT_POINTS_B]).astype(np.float64)
    per_unit_hands = rows[:, HANDS].astype(np.float64)
    if duplicate:  # the pair is the unit: its point difference and its hands
        diff = diff.reshape(-1, 2).sum(axis=1)
        per_unit_hands = per_unit_hands.reshape(-1, 2).sum(axis=1)
    d_low, d_high = ratio_interval(diff, per_unit_hands)
    total = max(n_hands, 1)
    return PointsSummary(
        a=names[0], b=names[1], unit="hands" if hands else "games", duplicate=duplicate,
        seed=seed, units_played=int(rows.shape[0]), win_rate=rate, low=low, high=high,
        hands=n_hands, points_a_per_hand=float(rows[:, UNIT_POINTS_A].sum()) / total,
        points_b_per_hand=float(rows[:, UNIT_POINTS_B].sum()) / total,
        difference_per_hand=float(diff.sum()) / total, difference_low=d_low,
        difference_high=d_high, seconds=seconds)


def format_points_summary(s: PointsSummary, title: str, target: int) -> str:
    """A points game's summary as a few lines of text (`title`: the game's name)."""
    what = "hands" if s.unit == "hands" else f"games to {target}"
    pairs = f" ({s.units_played // 2:,} duplicate pairs)" if s.duplicate else ""
    won = "hands won" if s.unit == "hands" else "win rate"
    return "\n".join([
        f"{title} {what}: A = {s.a} (East-West first) vs B = {s.b}, seed {s.seed}",
        f"  {s.unit:<15} {s.units_played:,}{pairs}, {s.hands:,} hands, {s.seconds:.1f} s",
        f"  A {won:<13} {100 * s.win_rate:.1f} % (95% {100 * s.low:.1f} .. "
        f"{100 * s.high:.1f})",
        f"  points a hand   A {s.points_a_per_hand:.3f}, B {s.points_b_per_hand:.3f}, A - B "
        f"{s.difference_per_hand:+.3f} (95% {s.difference_low:+.3f} .. "
        f"{s.difference_high:+.3f})",
    ])
