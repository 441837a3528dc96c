"""Strength while training: the run's current average strategy played in duplicate games.

`train baseline|bootstrap --eval-every MINUTES` asks the runner to call `Evaluation.run` at a
batch boundary every MINUTES of training CPU time. It plays the table as it is in memory (no
export, no database): `TableStore` gives a game's database player the reading face of a
strategy database over the live `InfoSetTable`, with exactly the probabilities and best
actions `export` then `db load` would store (the same `average_strategy` with the export's
threshold, the first most probable action on ties).

This module is the evaluation every game shares: when one is due, its rows, the log, the
store over the live table. What is a game's (its players, its games, its win rate) is its
`Evaluation` subclass, which its registry entry names as its `evaluation` entry point
(`make_evaluation` chooses by the run's game: `games/<game>/train/evaluation.py`). The games are
duplicate pairs against the player SPEC, always on the same deals for a run (the tournament
seed is derived from the run's seed alone): two rows differ by the strategy, not by the cards.
Evaluation only reads the table and draws from its own streams, so the table is bit for bit
the one a run without evaluation reaches.

Each evaluation appends a row to DIR/eval.csv (`EVAL_COLUMNS`): the iteration, the training
CPU seconds at that point (see `train.runner`: CPU of the training batches only), the win
rate and its 95 % interval (pairs, as `tournament --duplicate`), the games, the CPU seconds the
evaluation itself took (never counted as training), the opponent and the table's info sets. The file's first line
names its format and version (`# setback-cfr/eval 1`); a newer or foreign file is refused in
one line. Rows are appended with fsync; a failed write cuts the file back to its last row.
"""

from __future__ import annotations

import csv
import math
import os
import time
from dataclasses import dataclass

import numpy as np

from games.registry import DEFAULT_GAME, PROGRAM
from train.errors import RunError
from train.run_directory import EVAL_FILE

EVAL_FORMAT = f"{PROGRAM}/eval"
EVAL_VERSION = 1
EVAL_COLUMNS = ("iteration", "train_cpu_seconds", "win_rate", "ci_low", "ci_high", "games",
                "eval_cpu_seconds", "opponent", "infosets")
DEFAULT_PAIRS = 200
DEFAULT_OPPONENT = "heuristic"
# The evaluation's deals: a stream of the run's seed that no training draw uses (training
# words come from `cfr.rng`, the tournament's deals from `games.rng` streams of this seed).
EVAL_STREAM = 0x4556414C  # "EVAL"
EXPORT_THRESHOLD = 0.001  # train.export.DEFAULT_THRESHOLD (what `export` writes by default)


def eval_path(run_path: str) -> str:
    """DIR/eval.csv."""
    return os.path.join(run_path, EVAL_FILE)


def eval_seed(run_seed: int) -> int:
    """The tournament seed of every evaluation of a run of seed `run_seed`."""
    from games.rng import stream_seed

    return int(stream_seed(np.uint64(run_seed), np.uint64(EVAL_STREAM)))


# --- the live table as a strategy store --------------------------------------------------
class TableStore:
    """A read-only strategy store over an `InfoSetTable` (`lookup(key text) -> (probs,
    best)`), for a game's database player. Probabilities are computed on first lookup and
    cached: the store is built for one evaluation and the table must not change while it is
    used. `text_key` reads a key text into the one-word key the table holds (the game's codec,
    or the run's key layout's), `metadata` is the store's game and abstraction, and `layout`
    whatever the game's player reads of the keys (Setback's: the run's key layout)."""

    def __init__(self, table, label: str, has_bootstrap: bool = False,
                 threshold: float = EXPORT_THRESHOLD, layout=None, text_key=None,
                 metadata: dict | None = None):
        if text_key is None:
            raise ValueError("a TableStore reads key texts with the game's text_key")
        self.table = table
        self.path = label
        self.threshold = float(threshold)
        self.has_bootstrap = bool(has_bootstrap)
        self.layout = layout
        self.metadata = dict(metadata or {})
        self._text_key = text_key
        self._cache: dict[str, tuple[np.ndarray, int] | None] = {}
        self._row = np.zeros(table.key_words, dtype=np.uint64)

    def lookup(self, key: str):
        """(float32 probabilities, best action index) of `key`, or None if it is absent."""
        hit = self._cache.get(key, False)
        if hit is not False:
            return hit
        hit = self._compute(key)
        self._cache[key] = hit
        return hit

    def _compute(self, key: str):
        from cfr.table import ACTIONS_MASK, find_slot
        from train.export import average_strategy

        table = self.table
        self._row[0] = np.uint64(self._text_key(key))
        slot = int(find_slot(table.keys, table.meta, self._row))
        if table.meta[slot] == 0:
            return None
        n = int(table.meta[slot] & ACTIONS_MASK)
        offset = int(table.offsets[slot])
        probs = average_strategy(table.strategy[offset:offset + n],
                                 np.array([n], dtype=np.uint8), self.threshold)
        return probs, int(np.argmax(probs))  # argmax: the first on ties, as `db load`

    def close(self) -> None:
        """Drop the cache (the table is the caller's)."""
        self._cache.clear()


# --- the eval log --------------------------------------------------------------------------
def read_eval_log(run_path: str) -> list[dict]:
    """The rows of DIR/eval.csv (numbers as floats, the opponent as text); [] without one."""
    path = eval_path(run_path)
    if not os.path.exists(path):
        return []
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            first = handle.readline().strip()
            _check_format_line(path, first)
            rows = list(csv.DictReader(handle))
        out = []
        for row in rows:
            item = {k: float(row[k]) for k in EVAL_COLUMNS if k not in ("opponent", "infosets")}
            item["opponent"] = row["opponent"]
            # a log of this version written before the column existed has none
            item["infosets"] = int(row["infosets"]) if row.get("infosets") else None
            out.append(item)
        return out
    except RunError:
        raise
    except (OSError, UnicodeDecodeError, csv.Error, KeyError, TypeError, ValueError):
        raise RunError(f"{path}: unreadable evaluation log (expected the columns "
                       f"{','.join(EVAL_COLUMNS)})") from None


def _check_format_line(path: str, line: str) -> None:
    prefix = f"# {EVAL_FORMAT} "
    if not line.startswith(prefix):
        raise RunError(f"{path}: not a {PROGRAM} evaluation log (no '{prefix.strip()} N' "
                       "first line)")
    try:
        version = int(line[len(prefix):])
    except ValueError:
        raise RunError(f"{path}: bad evaluation log version {line[len(prefix):]!r}") from None
    if version > EVAL_VERSION:
        raise RunError(f"{path}: evaluation log version {version} is newer than this program "
                       f"reads; upgrade {PROGRAM}")
    if version < 1:
        raise RunError(f"{path}: bad evaluation log version {version}")


def append_eval_row(run_path: str, row: dict) -> None:
    """Append one row to DIR/eval.csv, creating it (format line and header, atomically)
    first. A failed append cuts the file back to its previous rows (`WriteFailedError`)."""
    from cfr.atomic_file import atomic_writer
    from train.run_directory import append_csv_row

    path = eval_path(run_path)
    header = list(EVAL_COLUMNS)
    if not os.path.exists(path):
        with atomic_writer(path, suffix=".csv") as handle:
            handle.write(f"# {EVAL_FORMAT} {EVAL_VERSION}\n{','.join(EVAL_COLUMNS)}\n"
                         .encode())
    else:
        try:
            with open(path, newline="", encoding="utf-8") as existing:
                _check_format_line(path, existing.readline().strip())
                header = next(csv.reader(existing), header)
        except (OSError, UnicodeDecodeError) as exc:
            raise RunError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    append_csv_row(path, header, row, "the evaluation log")


# --- the evaluation ------------------------------------------------------------------------
@dataclass(frozen=True)
class EvalOptions:
    """What `--eval-every`, `--eval-games` and `--eval-against` ask for."""

    every_seconds: float  # of training CPU time
    pairs: int = DEFAULT_PAIRS
    against: str = DEFAULT_OPPONENT

    def __post_init__(self):
        if not (math.isfinite(self.every_seconds) and self.every_seconds > 0):
            raise RunError("--eval-every must be a positive number of minutes")
        if self.pairs < 1:
            raise RunError("--eval-games must be at least 1")


def make_opponent(spec: str, seed: int = 0):
    """The opponent player of SPEC, a bad spec refused in one line (`RunError`)."""
    from play.player_spec import PlayerSpecError, make_player

    try:
        return make_player(spec, seed)
    except PlayerSpecError as exc:
        raise RunError(f"--eval-against: {exc}") from None


class Evaluation:
    """The evaluations of one training invocation: when they are due, playing them, their
    rows. `start(training_cpu)` fixes the next due point from the run's recorded training
    CPU and its eval log, so a resumed run evaluates on the same grid (every
    `every_seconds` of training CPU) and never twice at one grid point."""

    def __init__(self, run_path: str, stage, options: EvalOptions, show_progress: bool = True,
                 report=None):
        self.run_path = run_path
        self.stage = stage
        self.options = options
        self.show_progress = show_progress
        self.report = report  # called with each new row (a dict), e.g. to print it
        self.seed = eval_seed(int(stage.settings["seed"]))
        self.next_due = options.every_seconds
        self.rows: list[dict] = []
        cpu = time.process_time()
        self._prepare()
        self._setup_cpu = time.process_time() - cpu  # added to the first row's eval CPU

    def _prepare(self) -> None:
        """Check what can fail before training (the run's keys, the opponent's spec), and
        load what the evaluated player needs besides the table: the game's."""
        raise NotImplementedError

    def opponent(self, seed: int):
        """The opponent player (`--eval-against`), seeded: the game's."""
        raise NotImplementedError

    def start(self, training_cpu: float) -> None:
        """Set the next due point: the first grid point past both the run's training CPU and
        its last logged evaluation."""
        every = self.options.every_seconds
        done = [r["train_cpu_seconds"] for r in read_eval_log(self.run_path)]
        reached = max([training_cpu] + done)
        self.next_due = (math.floor(reached / every) + 1) * every

    def due(self, training_cpu: float) -> bool:
        """Whether an evaluation is due at this training CPU."""
        return training_cpu >= self.next_due

    def player(self, table):
        """The evaluated player over the live `table`, and the live table's store (to close
        once played: it caches probabilities): the game's."""
        raise NotImplementedError

    def run(self, table, iteration: int, training_cpu: float, stop=None) -> dict | None:
        """Play the evaluation of `table` at `iteration` / `training_cpu`, append its row and
        return it; None (no row) when `stop()` turned true part-way. Moves the next due point
        past `training_cpu`."""
        from tqdm import tqdm

        every = self.options.every_seconds
        self.next_due = (math.floor(training_cpu / every) + 1) * every
        cpu = time.process_time()
        player, live = self.player(table)
        players = (player, self.opponent(self.seed))
        rows = []
        with tqdm(total=self.options.pairs, unit="pair", leave=False,
                  disable=not self.show_progress, desc="evaluating") as bar:
            for game in range(self.options.pairs):
                if stop is not None and stop():
                    return None
                rows += self.play_pair(players, game)
                bar.update(1)
        live.close()
        rate, low, high = self.win_rate(rows)
        eval_cpu = time.process_time() - cpu + self._setup_cpu
        self._setup_cpu = 0.0
        row = {"iteration": int(iteration), "train_cpu_seconds": f"{training_cpu:.3f}",
               "win_rate": f"{rate:.4f}", "ci_low": f"{low:.4f}", "ci_high": f"{high:.4f}",
               "games": 2 * self.options.pairs, "eval_cpu_seconds": f"{eval_cpu:.2f}",
               "opponent": self.options.against, "infosets": int(table.count)}
        append_eval_row(self.run_path, row)
        parsed = {k: (v if k == "opponent" else float(v)) for k, v in row.items()}
        self.rows.append(parsed)
        if self.report is not None:
            self.report(parsed)
        return parsed

    def play_pair(self, players, game: int) -> list:
        """Both games of duplicate pair `game` (the evaluated player first on one side, then
        on the other): their rows, the game's."""
        raise NotImplementedError

    def win_rate(self, rows: list) -> tuple[float, float, float]:
        """The evaluated player's win rate over the pairs' rows and its 95 % interval: the
        game's."""
        raise NotImplementedError

    @property
    def cpu_seconds(self) -> float:
        """The evaluations' CPU seconds in this invocation."""
        return sum(r["eval_cpu_seconds"] for r in self.rows)


class PluginEvaluation(Evaluation):
    """The evaluations of a plug-in game's baseline run (Euchre's, Spades'), from its
    declarations alone: the live table read with the game's codec
    (`games/<game>/abstraction/codec.py`'s `text_key`) and played by
    `db.plugin_player.PluginDatabasePlayer` (the heuristic plays a key the table lacks, as the
    database player does); the opponent and the duplicate units from the game's
    `TournamentGame` (its `make_player`, `play_unit`, `pair_scores`: pair k is unit k of the
    game's tournament of the evaluation seed, the evaluated player on East-West first), so the
    win rate and its interval are `tournament --game NAME --duplicate`'s. A game names this
    class as its registry entry's `evaluation`."""

    def _prepare(self) -> None:
        """Check the run's abstraction against this program's and the opponent's spec before
        training."""
        from games import registry
        from play.tournament import tournament_game

        self.game = self.stage.settings.get("game", DEFAULT_GAME)
        self.version = registry.declaration(self.game, "abstraction.version")
        expected = (self.version.ABSTRACTION_NAME, self.version.ABSTRACTION_VERSION)
        settings = self.stage.settings
        recorded = (settings.get("abstraction"), settings.get("abstraction_version"))
        if recorded != expected:
            raise RunError(f"evaluation: the run's abstraction {recorded[0]} version "
                           f"{recorded[1]} is not this program's ({expected[0]} "
                           f"version {expected[1]})")
        self.tournament = tournament_game(self.game)
        self.opponent(0)  # a bad spec fails now, not after an hour of training

    def opponent(self, seed: int):
        """The game's opponent player (`--eval-against`), seeded; a bad spec in one line."""
        try:
            return self.tournament.make_player(self.options.against, seed)
        except self.tournament.spec_error as exc:
            raise RunError(f"--eval-against: {exc}") from None

    def player(self, table):
        """The game's database player over the live `table`, and the table's store."""
        from db.plugin_player import PluginDatabasePlayer
        from games import registry

        label = f"live:{os.path.basename(os.path.normpath(self.run_path))}"
        text_key = registry.declaration(self.game, "abstraction.codec").text_key
        live = TableStore(table, label, text_key=text_key,
                          metadata={"game": self.game,
                                    "abstraction": self.version.ABSTRACTION_NAME,
                                    "abstraction_version": self.version.ABSTRACTION_VERSION})
        return PluginDatabasePlayer(live, name=label, game=self.game), live

    def play_pair(self, players, game: int) -> list:
        """Both units of duplicate pair `game` (the evaluated player on East-West, then
        swapped): their tournament rows."""
        play_unit = self.tournament.play_unit
        return [play_unit(players, self.seed, game, False, False),
                play_unit(players, self.seed, game, True, False)]

    def win_rate(self, rows: list) -> tuple[float, float, float]:
        """The win rate over the pairs (the game's `pair_scores`) and its 95 % interval."""
        from play.tournament import pair_interval

        rows = np.array(rows)
        return pair_interval(self.tournament.pair_scores(rows.reshape(-1, 2, rows.shape[1])))


def make_evaluation(run_path: str, stage, options: EvalOptions, show_progress: bool = True,
                    report=None) -> Evaluation:
    """The evaluation of a run of `stage`: the `Evaluation` class the registry entry of the
    run's game (its settings' `game`, the default game when they record none) names as its
    optional `evaluation` entry point (found through the registry, which imports no game, so
    a game's evaluation may build on this module without an import loop)."""
    from games.registry import get

    game = stage.settings.get("game", DEFAULT_GAME)
    entry = get(game)
    if "evaluation" not in entry.optional:
        raise RunError(f"--eval-every: no in-training evaluation for game {game!r}")
    return entry.load("evaluation")(run_path, stage, options, show_progress, report)


def format_eval_row(row: dict) -> str:
    """One line for an evaluation row."""
    return (f"eval at {int(row['iteration']):,} deals, {row['train_cpu_seconds'] / 60:.2f} "
            f"training CPU-min: win rate {100 * row['win_rate']:.1f}% (95% CI "
            f"{100 * row['ci_low']:.1f}-{100 * row['ci_high']:.1f}%) of {int(row['games']):,} "
            f"games vs {row['opponent']} ({row['eval_cpu_seconds']:.1f} CPU-s)")
