"""`train distill`: search teaches a policy network, round after round (expert iteration),
written once for every game that declares it (`DistillGame`, the registry's `distill`: its
network's features, its base table's player, its `net:` player; the games are its
tournament's).

Before round 0, **imitation** (`imitate` games, 0 to skip): the base table plays itself, each
decision whose key it has recorded with the table's probabilities of the legal moves (no
value), and a new network is fitted to them (`nets/imitation.net`): round 0's network starts
from a player of the table's strength instead of random weights. Its data is deleted once
round 0 ends.

A round:
1. **Self-play**: `games` whole games (the game's tournament units), all four seats the
   searcher (`search[OPTIONS]`), whose rollouts follow the round's teacher: the base run's
   table in round 0, then the newest network that passed its gate
   (`search[OPTIONS]:net:nets/round-K.net`; a game whose search cannot roll out with a
   network, `DistillGame.search_on_net` False, searches on the base table every round: the
   stage's first-round shape). Every searched decision is recorded from the acting seat's
   view (the view's state, the deal's moves, the score), with its legal moves, search's mean
   value of each and the move it played. The games are cut into chunks of `chunk` games, each
   a file of its own (`data/round-K/chunk-C.npz`, written atomically): a crash loses at most
   the chunks in flight.
2. **Fit**: the network (`search/policy_net.py`, features the game's `DistillGame.features`)
   is fitted to search's moves (cross-entropy; with `soft` T > 0, to a softmax of search's
   values of the legal moves at temperature T instead of the one move it played:
   `soft_targets`) and values (squared error) on the replay window (the last `window` rounds
   of data), starting from the previous round's weights, for `epochs` passes, and kept as
   `nets/round-K.net` (atomically; every round's network stays). Before it, the previous
   network's agreement with search on the new round's data (data it never saw) is recorded:
   the round's log row's figure.
3. **Gate** (`gate_pairs` duplicate pairs, 0: none): the new network alone against its
   teacher alone (the best policy so far: the base table, or the last network promoted); it
   becomes the next round's teacher only if it wins more than half, so search never rolls
   out with a weaker policy than before (`teacher`), and `export` writes the teacher.
4. **Evaluation** (every `eval_every` rounds): the network alone against `eval_against`,
   duplicate pairs on the same deals each time (DIR/eval.csv, as the other stages').
5. Data older than the window is deleted: what the run keeps on disk is bounded (the window
   and one small network a round).

Determinism: game g of round K has the seed `stream_seed(stream_seed(seed, K), g)`; the searcher
is reseeded per game and searches on one thread without a time budget, so a chunk's records
depend on (seed, round, chunk) alone, whatever `--workers`; the fit reads the window in round
and chunk order with a generator seeded by (seed, round). A run stopped anywhere (Ctrl-C,
SIGTERM, SIGKILL) and resumed with the same command reaches the same networks bit for bit.

Compute: `--for` counts the stage's own CPU (the self-play workers' and the fit's), not the
evaluations; the base run's CPU is recorded beside it (`base_cpu_seconds`), so total compute is
their sum.

Run directory: run.json (stage `distill`, settings with the `game`), the base run's export
(written once: base.strategy, and the game's database of it where its players read one), data/,
nets/, log.csv (one row a round: `iteration` the rounds done, `payoff` the held-out agreement,
`infosets` the decisions in the window, `cpu_seconds`), eval.csv.
"""

from __future__ import annotations

import contextlib
import glob
import importlib
import json
import multiprocessing
import os
import re
import resource
import shutil
import signal
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from train.errors import RunError
from train.run_directory import RunDirectory

STAGE = "distill"
BASE_FILE = "base.strategy"
DEFAULTS = {"searcher": "search[worlds=50]", "games": 160, "imitate": 2000, "chunk": 4,
            "window": 16, "epochs": 2, "hidden": "128x128", "batch": 256, "learning_rate": 1e-3,
            "value_weight": 0.05, "gate_pairs": 200, "soft": 0.3, "refine": "", "seed": 0}
SEARCH_OPTIONS = re.compile(r"^search(\[[^\]:]*\])?$", re.IGNORECASE)
CHUNK_FORMAT = 1  # the chunk files' format version (each file records it)
IMITATION_CHUNK = 50  # games a chunk of the imitation phase (a table's game takes ms)
IMITATION_STREAM = 0x494D4954  # "IMIT": the imitation games' seed stream, no round's
GATE_STREAM = 0x47415445  # "GATE": the gate's pairs, the same every round


# --- settings -----------------------------------------------------------------------------
def searcher_options(spec: str) -> str:
    """The `search[OPTIONS]` of `--searcher` with `threads=1` added when absent (a worker plays
    one game at a time on one thread, so the moves never depend on timing); RunError (one
    line) for anything but `search` or `search[OPTIONS]` without a policy or `think=`."""
    text = spec.strip()
    if not SEARCH_OPTIONS.match(text):
        raise RunError(f"--searcher {spec!r}: expected search or search[OPTIONS] (no policy: "
                       "the stage supplies the base table, then each round's network)")
    options = text[len("search"):].strip("[]")
    items = [o.strip() for o in options.split(",") if o.strip()]
    if any(o.lower().startswith("think=") for o in items):
        raise RunError(f"--searcher {spec!r}: think= would make the data depend on timing; "
                       "set worlds= instead")
    if not any(o.lower().startswith("threads=") for o in items):
        items.append("threads=1")
    return f"search[{','.join(items)}]"


def parse_refine(text: str) -> tuple[float, int] | None:
    """(margin, extra searches) of a `refine` setting "MARGIN:EXTRA", None for "" (off).
    ValueError (one line) for anything else."""
    if not text:
        return None
    margin, sep, extra = str(text).partition(":")
    try:
        value = (float(margin), int(extra))
    except ValueError:
        value = None
    if not sep or value is None or not value[0] > 0 or value[1] < 1:
        raise ValueError(f"refine must be MARGIN:EXTRA (MARGIN > 0 deal points, EXTRA >= 1 "
                         f"searches), as in 0.25:2, not {text!r}")
    return value


def parse_hidden(text: str) -> tuple[int, int]:
    """`128x128` -> (128, 128); RunError for anything else."""
    match = re.fullmatch(r"(\d+)x(\d+)", str(text).strip())
    if not match or min(int(match[1]), int(match[2])) < 1:
        raise RunError(f"--hidden {text!r}: expected two layer sizes, as in 128x128")
    return int(match[1]), int(match[2])


def base_cpu_seconds(base_path: str) -> float:
    """The base run's training CPU seconds (its last log row), 0 when it logged none."""
    rows = RunDirectory(base_path).read_log()
    return float(rows[-1].get("cpu_seconds", 0.0)) if rows else 0.0


# --- the run's files ----------------------------------------------------------------------
def round_dir(run_path: str, k: int) -> str:
    """DIR/data/round-K."""
    return os.path.join(run_path, "data", f"round-{k:05d}")


def imitation_dir(run_path: str) -> str:
    """DIR/data/imitation: the base table's recorded self-play, until round 0 ends."""
    return os.path.join(run_path, "data", "imitation")


def imitation_net_path(run_path: str) -> str:
    """DIR/nets/imitation.net: the network fitted to the base table, round 0's start."""
    return os.path.join(run_path, "nets", "imitation.net")


def _chunk_file(directory: str, c: int) -> str:
    return os.path.join(directory, f"chunk-{c:05d}.npz")


def _chunk_files(directories: list) -> list:
    """The chunk files of `directories`, in directory then chunk order."""
    return [p for d in directories for p in sorted(glob.glob(os.path.join(d, "chunk-*.npz")))]


def _chunks_cpu(directories: list) -> float:
    """The CPU seconds the chunks of `directories` took to play."""
    total = 0.0
    for path in _chunk_files(directories):
        with np.load(path) as f:
            total += float(f["cpu_seconds"])
    return total


def _load_chunks(directories: list, game) -> dict:
    """The records of `game`'s chunks in `directories`, concatenated in order."""
    parts = []
    for path in _chunk_files(directories):
        try:
            with np.load(path) as f:
                version = int(f["chunk_format"]) if "chunk_format" in f.files else 0
                part = {name: f[name] for name in RECORD_FIELDS}
        except (OSError, ValueError, KeyError) as exc:
            raise RunError(f"{path}: damaged chunk of games ({exc}); delete it and resume to "
                           "play it again") from None
        if version != CHUNK_FORMAT:
            raise RunError(f"{path}: chunk format {version}; this program reads version "
                           f"{CHUNK_FORMAT} (a run of another version)")
        parts.append(part)
    if not parts:
        return rows_to_arrays([], game)
    return {name: np.concatenate([p[name] for p in parts]) for name in RECORD_FIELDS}


def net_path(run_path: str, k: int) -> str:
    """DIR/nets/round-K.net."""
    return os.path.join(run_path, "nets", f"round-{k:05d}.net")


def rounds_done(run_path: str) -> int:
    """How many rounds have their network (the rounds run in order, so the count)."""
    k = 0
    while os.path.exists(net_path(run_path, k)):
        k += 1
    return k


def latest_net(run_path: str) -> str | None:
    """The newest round's network file, None before the first round ends."""
    k = rounds_done(run_path)
    return net_path(run_path, k - 1) if k else None


def _save_atomic(path: str, data: bytes) -> None:
    from cfr.atomic_file import atomic_writer

    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)  # `--out x.net`: here
    with atomic_writer(path, suffix=os.path.splitext(path)[1]) as handle:
        handle.write(data)


# --- self-play ----------------------------------------------------------------------------
RECORD_FIELDS = ("states", "seats", "histories", "lengths", "scores", "moves", "n_legal",
                 "values", "targets", "chosen")


class RecordingPlayer:
    """A search player whose searched decisions are recorded (the view, never the deal): the
    data of a round. Its moves are the searcher's. With `refine` (margin, extra), a decision
    whose two best moves' values lie within `margin` deal points is searched `extra` times
    more on fresh worlds and the values averaged (the move then the best of the averages):
    more worlds only where the first search could not tell the moves apart."""

    def __init__(self, searcher, refine: tuple | None = None):
        self.searcher = searcher
        self.name = searcher.name
        self.refine = refine
        self.rows: list = []

    def seed(self, seed: int) -> None:
        """Reseed the searcher."""
        self.searcher.seed(seed)

    def choose(self, view) -> int:
        """The searcher's move; a searched decision is recorded."""
        result = self.searcher.decide(view)
        move = int(result["move"])
        if result["reason"] == "search":
            legal = view.legal_moves()
            value = {m["move"]: m["value"] for m in result["moves"]}
            if self.refine is not None and _close(value, self.refine[0]):
                move, value = self._refined(view, move, value)
            chosen = int(np.flatnonzero(legal == move)[0])
            self.rows.append(_row(view, legal, [value[int(m)] for m in legal],
                                  np.eye(legal.size)[chosen], chosen))
        return move

    def _refined(self, view, move: int, value: dict) -> tuple[int, dict]:
        """(the best move, the values) averaged over the first search and `extra` more."""
        extra = self.refine[1]
        totals = dict(value)
        for _ in range(extra):
            for m in self.searcher.decide(view)["moves"]:
                totals[m["move"]] += m["value"]
        mean = {m: v / (extra + 1) for m, v in totals.items()}
        best = max(mean.values())
        if mean[move] < best:  # the first search's move keeps a tie
            move = min(m for m, v in mean.items() if v == best)
        return int(move), mean


def _close(value: dict, margin: float) -> bool:
    """Whether the two best of the moves' values lie within `margin`."""
    top = sorted(value.values(), reverse=True)
    return len(top) >= 2 and top[0] - top[1] < margin


class RecordingTable:
    """A table player (the base run's) whose decisions are recorded with the table's
    probabilities of the legal moves (an abstract action's probability on the move it plays)
    and no value: the imitation data the network starts from. `policy(player, view)` is the
    game's reading of its table (`DistillGame.table_policy`)."""

    def __init__(self, player, policy):
        self.player = player
        self.policy = policy
        self.name = player.name
        self.rows: list = []

    def seed(self, seed: int) -> None:
        """Reseed the table player."""
        if hasattr(self.player, "seed"):
            self.player.seed(seed)

    def choose(self, view) -> int:
        """The table's move; a decision whose key the table has is recorded."""
        move, actions = self.policy(self.player, view)
        legal = view.legal_moves()
        if legal.size >= 2 and actions:
            target = np.zeros(legal.size)
            for action_move, prob in actions:
                hit = np.flatnonzero(legal == action_move)
                if hit.size and prob:
                    target[hit[0]] += prob
            if target.sum() > 0:
                target /= target.sum()
                self.rows.append(_row(view, legal, [np.nan] * legal.size, target,
                                      int(np.argmax(target))))
        return int(move)


def _row(view, legal, values, target, chosen) -> tuple:
    """One recorded decision (what `rows_to_arrays` stores)."""
    us, them = view.score_us_them
    return (view.state.copy(), view.seat, tuple(view.history), (us, them), legal, values,
            target, chosen)


def rows_to_arrays(rows: list, game) -> dict:
    """Recorded decisions of `game` (a `DistillGame`) as the chunk file's arrays
    (`RECORD_FIELDS`)."""
    n = len(rows)
    width, deal_moves, max_legal = game.state_size, game.max_history, game.max_legal
    out = {"states": np.zeros((n, width), np.int64), "seats": np.zeros(n, np.int8),
           "histories": np.zeros((n, deal_moves), np.int8), "lengths": np.zeros(n, np.int8),
           "scores": np.zeros((n, 2), np.int16), "moves": np.zeros((n, max_legal), np.int8),
           "n_legal": np.zeros(n, np.int8), "values": np.zeros((n, max_legal), np.float32),
           "targets": np.zeros((n, max_legal), np.float32), "chosen": np.zeros(n, np.int8)}
    for i, (state, seat, history, score, legal, values, target, chosen) in enumerate(rows):
        out["states"][i] = state
        out["seats"][i] = seat
        out["histories"][i, :len(history)] = history
        out["lengths"][i] = len(history)
        out["scores"][i] = score
        out["moves"][i, :legal.size] = legal
        out["n_legal"][i] = legal.size
        out["values"][i, :legal.size] = values
        out["targets"][i, :legal.size] = target
        out["chosen"][i] = chosen
    return out


_WORKER = {}  # the forked workers' recording player: (game, kind, spec, refine) -> player


def _recorder(game, kind: str, spec: str, refine: str = ""):
    """The recording player of `game`'s `spec` (`kind` "search": a `RecordingPlayer`, refining
    as the `refine` setting says; "imitate": a `RecordingTable`), built once a process."""
    if _WORKER.get("spec") != (game.name, kind, spec, refine):
        _WORKER["spec"] = (game.name, kind, spec, refine)
        player = game.tournament().make_player(spec, 0)
        if kind == "search":
            _WORKER["player"] = RecordingPlayer(player, parse_refine(refine))
        else:
            _WORKER["player"] = RecordingTable(player, game.table_policy)
    return _WORKER["player"]


def play_chunk(task) -> tuple[int, dict, float]:
    """Play the chunk `task` = (game name, kind, player spec, seed, chunk index, first game,
    games[, refine setting]): (chunk index, its records' arrays, the CPU seconds it took).
    Game g is the tournament's unit g (`TournamentGame.play_unit`), the player in every seat."""
    from play.tournament import DEFAULT_MAX_DEALS

    name, kind, spec, round_seed, c, first, count, *refine = task
    game = distill_game(name)
    tournament = game.tournament()
    cpu = time.process_time()
    player = _recorder(game, kind, spec, *refine)
    player.rows = []
    for g in range(first, first + count):
        tournament.play_unit((player, player), round_seed, g, False, False, DEFAULT_MAX_DEALS)
    return c, rows_to_arrays(player.rows, game), time.process_time() - cpu


@contextlib.contextmanager
def _signals_interrupt():
    """SIGTERM, and SIGINT even where the shell started the run in the background with SIGINT
    ignored (`nohup ... &`), raise KeyboardInterrupt in the stage's loop, so `kill PID` stops a
    run as Ctrl-C does: the chunks saved are kept, the pool's workers are ended with it."""
    from cfr.stop_signals import stop_signals

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    with stop_signals(interrupt):
        yield


def _worker_signals() -> None:
    """A pool worker's signals: Ctrl-C is the main process's to handle (it ends the pool), and
    SIGTERM, which the pool ends its workers with, ends a worker at once (not the main
    process's handler, which the fork copied)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


# --- fitting --------------------------------------------------------------------------------
def training_rows(data: dict, game) -> tuple:
    """(x float32[n, INPUTS], legal bool[n, OUTPUTS], target float32[n, OUTPUTS] the recorded
    distribution over the legal moves (search's: one-hot on its move; the table's: its
    probabilities), value float32[n] search's value of its move, NaN for the table's) of
    `game`'s records `data` (its features module's `encode_rows`)."""
    features = game.feature_module()
    INPUTS, OUTPUTS, MAX_LEGAL = features.INPUTS, features.OUTPUTS, game.max_legal
    n = data["states"].shape[0]
    x = np.zeros((n, INPUTS), np.float64)
    legal = np.zeros((n, OUTPUTS), np.bool_)
    slots = np.zeros((n, MAX_LEGAL), np.int64)
    features.encode_rows(data["states"], data["seats"].astype(np.int64),
                data["histories"].astype(np.int64), data["lengths"].astype(np.int64),
                data["scores"].astype(np.int64), data["moves"].astype(np.int64),
                data["n_legal"].astype(np.int64), x, legal, slots)
    target = np.zeros((n, OUTPUTS), np.float32)
    rows = np.arange(n)
    for j in range(MAX_LEGAL):
        has = data["n_legal"] > j
        target[rows[has], slots[has, j]] = data["targets"][has, j]
    chosen = data["chosen"].astype(np.int64)
    value = data["values"][rows, chosen].astype(np.float32)  # deal points, a few units
    return x.astype(np.float32), legal, target, value


def soft_targets(data: dict, temperature: float) -> dict:
    """The records `data` with each searched decision's target replaced by a softmax of
    search's values of its legal moves at `temperature` (in deal points): near-ties, where
    search's pick is a coin toss between moves worth the same, teach the network both moves
    instead of whichever sampled worlds favoured. Rows without values (the table's imitation
    records) keep their targets."""
    out = dict(data)
    targets = data["targets"].copy()
    for i in range(targets.shape[0]):
        n = int(data["n_legal"][i])
        values = data["values"][i, :n].astype(np.float64)
        if n and np.all(np.isfinite(values)):
            z = (values - values.max()) / temperature
            e = np.exp(z)
            targets[i, :n] = e / e.sum()
    out["targets"] = targets
    return out


# --- the stage ------------------------------------------------------------------------------
class Distill:
    """One `train distill` invocation on the run at `run_path` (module docstring)."""

    def __init__(self, run_path: str, settings: dict, workers: int = 1,
                 show_progress: bool = True, report=print):
        self.run = RunDirectory(run_path)
        self.path = run_path
        self.settings = settings
        self.workers = max(1, int(workers))
        self.show_progress = show_progress
        self.report = report
        self.hidden = parse_hidden(settings["hidden"])
        self.game = distill_game(settings.get("game"))
        self._teacher_player = None  # (spec, player): the gate's opponent, read once

    # -- helpers --
    def round_seed(self, k: int) -> int:
        """The tournament seed of round K's self-play games."""
        from games.rng import stream_seed

        return int(stream_seed(np.uint64(self.settings["seed"]), np.uint64(k))) >> 1

    def teacher(self, k: int) -> str:
        """The rollout policy of round K's search, by name: `base` (the base table) in round 0;
        after, the previous round's network (`round-K`) if it passed its gate (or there is no
        gate), else the previous round's teacher. Names, not paths, so a run resumed from
        another directory finds its files."""
        if k == 0:
            return "base"
        meta = self._meta(k - 1)
        if meta.get("gate", {}).get("promoted", True):
            return f"round-{k - 1:05d}"
        return meta["teacher"]

    def player_spec(self, teacher: str) -> str:
        """The player of a teacher's name: the base table (the game's `base_spec`, e.g.
        `strategy:DIR/base.strategy`) or `net:DIR/nets/...`."""
        if teacher == "base":
            return self.game.base_spec(self.path)
        return f"net:{os.path.join(self.path, 'nets', teacher + '.net')}"

    def searcher_spec(self, k: int) -> str:
        """Round K's searcher: the search options on the round's teacher (on the base table
        every round for a game whose search cannot roll out with a network yet:
        `DistillGame.search_on_net`)."""
        teacher = self.teacher(k) if self.game.search_on_net else "base"
        return f"{self.settings['searcher']}:{self.player_spec(teacher)}"

    def load_net(self, path: str):
        """The game's network at `path` (`search.policy_net.load_net` with its layout)."""
        from search.policy_net import load_net

        f = self.game.feature_module()
        return load_net(path, f.GAME, f.FEATURE_LAYOUT, f.INPUTS, f.OUTPUTS)

    def new_net(self, seed: int):
        """A new network of the game's features and the run's hidden sizes."""
        from search.policy_net import PolicyNet

        f = self.game.feature_module()
        return PolicyNet.create(f.INPUTS, self.hidden, f.OUTPUTS, seed, f.GAME,
                                f.FEATURE_LAYOUT)

    def cpu_so_far(self) -> float:
        """The stage's CPU seconds: the logged rounds', plus what the unfinished phase has
        saved (the imitation's, round 0's games)."""
        rows = self.run.read_log()
        k = rounds_done(self.path)
        if rows:
            return float(rows[-1]["cpu_seconds"]) + _chunks_cpu([round_dir(self.path, k)])
        if os.path.exists(imitation_net_path(self.path)):
            before = float(self.load_net(imitation_net_path(self.path)).meta["cpu_seconds"])
            return before + _chunks_cpu([round_dir(self.path, 0)])
        return _chunks_cpu([imitation_dir(self.path)])

    # -- the loop --
    def train(self, rounds: int | None, cpu_budget: float | None, eval_every: int | None,
              eval_pairs: int, eval_against: str) -> dict:
        """Run rounds until the run has `rounds` (if given) or its CPU reaches `cpu_budget`
        (checked at every chunk; the round then stops where it is and resumes later), with an
        evaluation every `eval_every` rounds; a summary dict (`stopped` set on Ctrl-C or SIGTERM,
        or the budget)."""
        self._catch_up_logs()
        stopped = None
        try:
            with _signals_interrupt():
                stopped = self._rounds(rounds, cpu_budget, eval_every, eval_pairs, eval_against)
        except KeyboardInterrupt:
            stopped = "interrupt"
        return {"rounds": rounds_done(self.path), "cpu_seconds": self.cpu_so_far(),
                "stopped": stopped, "net": latest_net(self.path)}

    def _rounds(self, rounds, cpu_budget, eval_every, eval_pairs, eval_against) -> str | None:
        """`train`'s loop: None once the run has `rounds`, "budget" when the CPU ran out."""
        done = rounds_done(self.path)
        if eval_every and done and done % eval_every == 0 and not self._evaluated(done):
            self._evaluate(done - 1, eval_pairs, eval_against)  # stopped before it ran
        while rounds is None or rounds_done(self.path) < rounds:
            k = rounds_done(self.path)
            if cpu_budget is not None and self.cpu_so_far() >= cpu_budget:
                return "budget"
            if k == 0 and int(self.settings["imitate"]) > 0 and not os.path.exists(
                    imitation_net_path(self.path)) and not self._imitate(cpu_budget):
                return "budget"
            if not self._self_play(k, cpu_budget):
                return "budget"
            self._fit(k)
            if eval_every and (k + 1) % eval_every == 0:
                self._evaluate(k, eval_pairs, eval_against)
            self._prune(k)
        return None

    def _evaluated(self, rounds: int) -> bool:
        """Whether eval.csv has the evaluation of the run at `rounds` rounds."""
        from train.evaluation import read_eval_log

        return any(int(row["iteration"]) == rounds for row in read_eval_log(self.path))

    def _catch_up_logs(self) -> None:
        """A run killed between a round's network and its log row gets the row (from the
        network's metadata), and its window pruned."""
        logged = len(self.run.read_log())
        for k in range(logged, rounds_done(self.path)):
            self._log_round(k, self._meta(k))
            self._prune(k)

    def _meta(self, k: int) -> dict:
        """Round K's network's metadata."""
        return self.load_net(net_path(self.path, k)).meta

    def _self_play(self, k: int, cpu_budget: float | None) -> bool:
        """Round K's searched games (`_play_chunks`); False when the budget ran out first."""
        return self._play_chunks("search", self.searcher_spec(k), self.round_seed(k),
                                 int(self.settings["games"]), round_dir(self.path, k),
                                 f"round {k} self-play", cpu_budget)

    def _play_chunks(self, kind: str, spec: str, seed: int, games: int, directory: str,
                     desc: str, cpu_budget: float | None, size: int | None = None) -> bool:
        """Games 0..games-1 of the tournament `seed` recorded (`play_chunk`) chunk by chunk
        into `directory`, skipping the chunks on disk; False when the CPU budget ran out
        first (the phase is then unfinished, and resumes with the chunks saved)."""
        from tqdm import tqdm

        size = size or int(self.settings["chunk"])
        refine = self.settings.get("refine", "") if kind == "search" else ""
        tasks = [(self.game.name, kind, spec, seed, c, first, min(size, games - first), refine)
                 for c, first in enumerate(range(0, games, size))
                 if not os.path.exists(_chunk_file(directory, c))]
        if not tasks:
            return True
        spent = self.cpu_so_far()
        games_of = {t[4]: t[6] for t in tasks}
        bar = tqdm(total=games, initial=games - sum(games_of.values()), unit="game",
                   desc=desc, disable=not self.show_progress, leave=False)

        def save(c, arrays, cpu):
            nonlocal spent
            _save_atomic(_chunk_file(directory, c),
                         _npz_bytes({**arrays, "cpu_seconds": np.float64(cpu),
                                     "chunk_format": np.int64(CHUNK_FORMAT)}))
            spent += cpu
            bar.update(games_of[c])

        try:
            if self.workers == 1:
                for task in tasks:
                    if cpu_budget is not None and spent >= cpu_budget:
                        return False
                    save(*play_chunk(task))
            else:
                # built once, shared with the workers by the fork
                _recorder(self.game, kind, spec, refine)
                context = multiprocessing.get_context("fork")
                with context.Pool(self.workers, initializer=_worker_signals) as pool:
                    for c, arrays, cpu in pool.imap_unordered(play_chunk, tasks):
                        save(c, arrays, cpu)
                        if cpu_budget is not None and spent >= cpu_budget:
                            pool.terminate()
                            return False
        finally:
            bar.close()
        return True

    def _imitate(self, cpu_budget: float | None) -> bool:
        """The imitation phase before round 0: `imitate` games of the base table's self-play
        recorded with its probabilities, the new network fitted to them and kept as
        nets/imitation.net, round 0's starting point; False when the budget ran out first."""
        from search.policy_net import net_bytes

        directory = imitation_dir(self.path)
        if not self._play_chunks("imitate", self.game.base_spec(self.path),
                                 self.round_seed(IMITATION_STREAM),
                                 int(self.settings["imitate"]), directory, "imitation games",
                                 cpu_budget, IMITATION_CHUNK):
            return False
        cpu = time.process_time()
        net = self.new_net(self.round_seed(0))
        rows = training_rows(_load_chunks([directory], self.game), self.game)
        history = self._fit_rows(net, rows, self.round_seed(IMITATION_STREAM), "imitation fit")
        net.meta = {"run": os.path.abspath(self.path), "round": "imitation",
                    "decisions": int(rows[0].shape[0]), "fit_history": history,
                    "fit_agreement": net.evaluate(*rows)["agreement"],
                    "cpu_seconds": _chunks_cpu([directory]) + time.process_time() - cpu}
        _save_atomic(imitation_net_path(self.path), net_bytes(net))
        self.report(f"imitation: {rows[0].shape[0]:,} decisions of the base table, agreement "
                    f"{100 * net.meta['fit_agreement']:.1f}% after the fit")
        return True

    def _fit_rows(self, net, rows, seed: int, desc: str) -> list:
        """`net.fit` on `rows` with the run's settings and a progress bar; its history."""
        from tqdm import tqdm

        s = self.settings
        epochs = int(s["epochs"])
        n = rows[0].shape[0]
        bar = tqdm(total=epochs * n, unit="row", desc=desc, disable=not self.show_progress,
                   leave=False)
        done = [0]

        def progress(epoch, seen):
            bar.update(epoch * n + seen - done[0])
            done[0] = epoch * n + seen

        try:
            return net.fit(*rows, epochs, int(s["batch"]), float(s["learning_rate"]), seed,
                           float(s["value_weight"]), progress=progress)
        finally:
            bar.close()

    def _fit(self, k: int) -> None:
        """Fit round K's network on the window (module docstring) and keep it."""
        from search.policy_net import net_bytes

        cpu = time.process_time()
        wall = time.perf_counter()
        s = self.settings
        new = training_rows(_load_chunks([round_dir(self.path, k)], self.game), self.game)
        start = net_path(self.path, k - 1) if k else imitation_net_path(self.path)
        before = 0.0
        if os.path.exists(start):
            net = self.load_net(start)
            held_out = net.evaluate(*new)
            before = 0.0 if k else float(net.meta["cpu_seconds"])  # the imitation's
        else:
            net = self.new_net(self.round_seed(k))
            held_out = {"agreement": None, "cross_entropy": None}
        window = _load_chunks([round_dir(self.path, j) for j in range(
            max(0, k - int(s["window"]) + 1), k + 1)], self.game)
        soft = float(s.get("soft", 0.0))  # runs made before --soft fitted one-hot targets
        rows = training_rows(soft_targets(window, soft) if soft > 0 else window, self.game)
        history = self._fit_rows(net, rows, self.round_seed(k) ^ 0x5EED, f"round {k} fit")
        fitted = net.evaluate(*rows)
        play_cpu = _chunks_cpu([round_dir(self.path, k)])
        fit_cpu = time.process_time() - cpu
        previous = self.run.read_log()
        net.meta = {"run": os.path.abspath(self.path), "round": k,
                    "new_decisions": int(new[0].shape[0]),
                    "window_decisions": int(rows[0].shape[0]),
                    "held_out_agreement": held_out["agreement"],
                    "held_out_cross_entropy": held_out["cross_entropy"],
                    "fit_agreement": fitted["agreement"], "fit_history": history,
                    "play_cpu_seconds": play_cpu, "fit_cpu_seconds": fit_cpu,
                    "cpu_seconds": (previous[-1]["cpu_seconds"] if previous else before)
                    + play_cpu + fit_cpu,
                    "wall_seconds": (previous[-1]["seconds"] if previous else 0.0)
                    + time.perf_counter() - wall,
                    "base_cpu_seconds": s["base_cpu_seconds"], "searcher": s["searcher"]}
        teacher = self.teacher(k)
        gate_cpu = _cpu_with_children()
        gate = self._gate(net, teacher, k)
        gate_cpu = _cpu_with_children() - gate_cpu
        net.meta.update(teacher=teacher, gate=gate)
        net.meta["cpu_seconds"] += gate_cpu
        _save_atomic(net_path(self.path, k), net_bytes(net))
        self._log_round(k, net.meta)

    def _gate(self, net, teacher: str, k: int) -> dict:
        """Round K's network alone against its teacher's policy alone (the table, or the
        network search rolled out with), `gate_pairs` duplicate pairs on the same deals every
        round: promoted (next round's rollouts follow it) when it wins more than half, so the
        teacher never gets weaker (AlphaGo Zero's gating). No gate (`gate_pairs` 0): always
        promoted."""
        pairs = int(self.settings.get("gate_pairs", 0))
        if not pairs:
            return {"promoted": True}
        from games.rng import stream_seed
        from play.tournament import run_tournament

        if self._teacher_player is None or self._teacher_player[0] != teacher:
            self._teacher_player = (teacher, self.game.tournament().make_player(
                self.player_spec(teacher), 0))
        seed = int(stream_seed(np.uint64(self.settings["seed"]), np.uint64(GATE_STREAM))) >> 1
        rows = run_tournament((self.game.net_player(net, f"round {k}"),
                               self._teacher_player[1]),
                              pairs, seed=seed, duplicate=True, workers=self.workers,
                              progress=self.show_progress, game=self.game.name)
        rate, low, high = self.game.win_rate_interval(rows)
        return {"against": teacher, "pairs": pairs, "win_rate": rate, "ci": [low, high],
                "promoted": bool(rate > 0.5)}

    def _log_round(self, k: int, meta: dict) -> None:
        """Round K's row of log.csv (module docstring)."""
        agreement = meta["held_out_agreement"]
        self.run.append_log({
            "iteration": k + 1, "payoff": float("nan") if agreement is None else agreement,
            "infosets": meta["window_decisions"], "seconds": meta["wall_seconds"],
            "rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
            "target": "", "cpu_seconds": meta["cpu_seconds"], "cpu_budget": ""})
        self.report(f"round {k}: {meta['new_decisions']:,} searched decisions "
                    f"({meta['window_decisions']:,} in the window), agreement with search "
                    + ("-" if agreement is None else f"{100 * agreement:.1f}%")
                    + f" before the fit, {100 * meta['fit_agreement']:.1f}% after; "
                    + _gate_text(meta.get("gate", {}))
                    + f"{meta['cpu_seconds'] / 60:.1f} CPU-min in the stage")

    def _evaluate(self, k: int, pairs: int, against: str) -> None:
        """Round K's network alone against `against`, `pairs` duplicate pairs on the run's
        evaluation deals; a row of eval.csv."""
        from play.tournament import run_tournament
        from train.evaluation import append_eval_row, eval_seed, format_eval_row

        cpu = time.process_time()
        make_player = self.game.tournament().make_player
        net = make_player(f"net:{net_path(self.path, k)}", 0)
        opponent = make_player(against, 0)
        rows = run_tournament((net, opponent), pairs, seed=eval_seed(self.settings["seed"]),
                              duplicate=True, workers=self.workers,
                              progress=self.show_progress, game=self.game.name)
        rate, low, high = self.game.win_rate_interval(rows)
        meta = self._meta(k)
        row = {"iteration": k + 1, "train_cpu_seconds": meta["cpu_seconds"],
               "win_rate": rate, "ci_low": low, "ci_high": high, "games": int(rows.shape[0]),
               "eval_cpu_seconds": time.process_time() - cpu, "opponent": against,
               "infosets": meta["window_decisions"]}
        append_eval_row(self.path, row)
        self.report(format_eval_row(row).replace("deals", "rounds", 1))

    def _prune(self, k: int) -> None:
        """Delete the data of the rounds before round K's window (bounded disk)."""
        oldest = k - int(self.settings["window"]) + 1
        shutil.rmtree(imitation_dir(self.path), ignore_errors=True)  # in imitation.net now
        for path in glob.glob(os.path.join(self.path, "data", "round-*")):
            if int(os.path.basename(path).split("-")[1]) < oldest:
                shutil.rmtree(path, ignore_errors=True)


def _gate_text(gate: dict) -> str:
    """The log line's words on a round's gate."""
    if "win_rate" not in gate:
        return ""
    low, high = gate["ci"]
    return (f"{100 * gate['win_rate']:.1f}% ({100 * low:.1f}-{100 * high:.1f}) against its "
            f"teacher alone: {'promoted' if gate['promoted'] else 'not promoted'}; ")


def _cpu_with_children() -> float:
    """This process's CPU seconds and its finished children's (a tournament's workers)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def _npz_bytes(arrays: dict) -> bytes:
    import io

    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def prepare_run(run_path: str, base: str | None, options: dict, game: str | None = None) -> dict:
    """Create the run (its settings) or check a resumed one's; the settings (`ensure_base`
    then exports the base table once). The game is the base run's (`game`, when given, must
    be it); a base that is not a trained baseline run of a game declaring the stage is refused
    in one line."""
    from games import registry

    run = RunDirectory(run_path)
    if os.path.exists(run.settings_path):
        recorded = run.read_settings()
        if recorded["stage"] != STAGE:
            raise RunError(f"{run_path} is a {recorded['stage']} run, not a distill run")
        settings = recorded["settings"]
        ran = settings.get("game", registry.DEFAULT_GAME)
        if game is not None and game != ran:
            raise RunError(f"{run_path} distills a {ran} run, not {game}")
        if options.get("searcher") is not None:
            options = {**options, "searcher": searcher_options(options["searcher"])}
        if base is not None and os.path.abspath(base) != settings["base_run"]:
            raise RunError(f"{run_path} distills {settings['base_run']}, not {base}")
        changed = [name for name, value in options.items()
                   if value is not None and settings.get(name) != value]
        if changed:
            raise RunError(f"{run_path} was created with {changed[0]}="
                           f"{settings.get(changed[0])!r}; a resumed run keeps its settings")
        return settings
    if base is None:
        raise RunError("a new distill run needs --from BASE_RUN (a trained baseline run)")
    base_run = RunDirectory(base)
    recorded = base_run.read_settings()
    found = recorded["settings"].get("game", registry.DEFAULT_GAME)
    takes = registry.names(("distill",))
    if found not in takes or recorded["stage"] != "baseline" or game not in (None, found):
        wanted = " or ".join(takes) if game is None else game
        raise RunError(f"{base}: distill starts from a {wanted} baseline run, not a "
                       f"{found} {recorded['stage']} run")
    if not base_run.has_checkpoint():
        raise RunError(f"{base} has no checkpoint yet: train it first")
    settings = {**DEFAULTS, **{k: v for k, v in options.items() if v is not None},
                "base_run": os.path.abspath(base), "base_cpu_seconds": base_cpu_seconds(base),
                "game": found}
    settings["searcher"] = searcher_options(settings["searcher"])
    parse_hidden(settings["hidden"])
    try:
        parse_refine(settings["refine"])
    except ValueError as exc:
        raise RunError(str(exc)) from None
    run.write_settings(STAGE, settings)
    return settings


def ensure_base(run_path: str, settings: dict) -> None:
    """Export the base run into the run directory unless it is there (the game's
    `export_base`, atomically, after the settings: a run stopped during the export exports
    again when resumed)."""
    distill_game(settings.get("game")).export_base(settings["base_run"], run_path)


def export_strategy(base_run: str, run_path: str) -> str:
    """DIR/base.strategy, the base run's export, written unless it is there; its path (a
    game's `export_base` that plays its table from the strategy file)."""
    from train.export import export_run

    path = os.path.join(run_path, BASE_FILE)
    if not os.path.exists(path):
        export_run(base_run, path)
    return path


def export_net(run_path: str, out: str) -> dict:
    """Copy the run's best network to `out` (atomically): the newest that passed its gate (the
    next round's teacher), or the newest when none has (or the run has no gate); its
    metadata."""
    k = rounds_done(run_path)
    if not k:
        raise RunError(f"{run_path} has no network yet: its first round has not ended")
    stage = Distill(run_path, RunDirectory(run_path).read_settings()["settings"],
                    show_progress=False)
    teacher = stage.teacher(k)
    name = teacher if teacher != "base" else f"round-{k - 1:05d}"
    with open(os.path.join(run_path, "nets", name + ".net"), "rb") as handle:
        data = handle.read()
    _save_atomic(out, data)
    return json.loads(data.split(b"\n", 2)[1])["meta"]


# --- what a game declares -------------------------------------------------------------------
@dataclass(frozen=True)
class DistillGame:
    """What a game declares to `train distill` (its registry entry's `distill` names it):
    - `name`: the registered game; its `tournament` entry plays the games (self-play is the
      tournament's unit g with the recording player in every seat) and builds the players by
      their specs (`net:FILE` for a network, `search[OPTIONS]:BASE` for the searcher);
    - `features`: the dotted module of its network's side (`GAME`, `FEATURE_LAYOUT`,
      `INPUTS`, `OUTPUTS`, `encode_rows(states, seats, histories, lengths, scores, moves,
      n_legal, x, legal, slots)`);
    - `state_size`, `max_history` (moves in a deal), `max_legal` (legal moves at most): the
      recorded decisions' shapes;
    - `base_spec(run_path)`: the spec of the base table's player; `export_base(base_run,
      run_path)` writes what it reads into the run directory unless it is there;
    - `net_player(net, name)`: a player of a `PolicyNet` in memory (the gate's);
    - `table_policy(player, view)`: (the base player's move, [(move, probability)...] of the
      table's stored policy at the view, empty when the table has no entry): the imitation;
    - `search_on_net`: whether its search rolls out with a network (`search[...]:net:FILE`);
      without, every round searches on the base table (the stage's first-round shape) while
      the gate still keeps the best network as the teacher `export` writes.
    """

    name: str
    features: str
    state_size: int
    max_history: int
    max_legal: int
    base_spec: Callable
    export_base: Callable
    net_player: Callable
    table_policy: Callable
    search_on_net: bool = True

    def feature_module(self):
        """The features module (imported now)."""
        return importlib.import_module(self.features)

    def tournament(self):
        """The game's `play.tournament.TournamentGame`."""
        from play.tournament import tournament_game

        return tournament_game(self.name)

    def win_rate_interval(self, rows: np.ndarray) -> tuple[float, float, float]:
        """(A's win rate, low, high) of duplicate `rows` (the game's pair scores)."""
        from play.tournament import pair_interval

        tournament = self.tournament()
        return pair_interval(tournament.pair_scores(rows.reshape(-1, 2, tournament.width)))

    def export_net(self, run_path: str, out: str) -> dict:
        """`export` of a distill run of this game (module function `export_net`)."""
        return export_net(run_path, out)


def distill_game(name: str | None) -> DistillGame:
    """The `DistillGame` of the registered game `name` (None: the default game), RunError (one
    line) for a game that does not declare the stage."""
    from games import registry

    entry = registry.get(registry.DEFAULT_GAME if name is None else name)
    if not entry.provides("distill"):
        raise RunError(f"train distill: game {entry.name!r} does not declare it (the games "
                       f"that do: {', '.join(registry.names(('distill',)))})")
    return entry.load("distill")
