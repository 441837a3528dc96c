"""The best-response stage (issue 37): one team learns with es-mccfr while the other plays a
fixed target, so that what the learner wins measures how exploitable the target is.

The target is a Setback strategy (a database `db:PATH` or strategy files `strategy:PATH[,PATH]`,
any key layout), read once into sorted arrays (`db.policy_arrays`) and handed to the
external-sampling pass as a `cfr.frozen_policy.FrozenPolicy`: at a decision of the frozen team
the pass builds the key *in the target's layout*, looks it up and follows it (or, where the
target lacks the key, the database player's rule: bid Three if legal, else Pass; in the playout
the first abstract action, `database_fallback`), walks that one child and writes nothing. The
learner's own decisions build keys in the learner's layout (`--abstraction`, default the
target's: a best response within the target's abstraction; a finer one exploits what the target
throws away) and are updated exactly as in an es-mccfr baseline run.

Who is frozen: episode t (t = 1, 2, ...) freezes team ((t - 1) // 2) mod 2 and, as in every
es-mccfr run, updates traverser (t - 1) mod 2. In four episodes each team of the learner gets
one regret pass (it traverses) and one average-strategy pass (the frozen team "traverses", which
samples a single path); the learner thus learns its keys for both sides of the dealer, and a
real game, where the dealer moves, finds them.

How the target plays: `best` (default) plays each key's most probable action, as `db:` and
`strategy:` players do in `tournament`, `rating` and `serve`, so the learner exploits the
player those commands rate; `sample` draws from the stored probabilities (the strategy itself).
A target's bootstrap (score-aware auction) keys are not used: training deals are
score-insensitive, so the frozen team bids by its baseline auction keys (a warning says so when
the target has bootstrap keys, since in a game it would bid by them).

The run is a training run like the others (`train.runner`): batches, workers, checkpoints,
Ctrl-C, resume bit for bit, `--for`. It records the target (path, layout, number of keys and a
digest of its arrays) with its settings, so a resume against a changed target is refused. The
evaluation while training (`BestResponseEvaluation`) plays the live table against the target
itself in duplicate games and adds points per deal to the usual win rate. `export_best_response`
writes the learner's average strategy as a baseline strategy file: `db load` takes it, and its
database player is the best response (it holds the learner's keys for both teams).

Which strategy plays (`strategy`): `current` (default), regret matching on the learner's
regret sums, the strategy of the last iteration; or `average`, the average strategy every
other stage exports. Against a fixed opponent the regrets point at the best response sooner
than the average, which keeps the early iterations' play: measured on qs (docs/best-response.md)
a 10-CPU-minute learner won 49.5 % of 200 duplicate pairs with its current strategy and 43.25 %
with its average, on the same deals.

Filling from the target (`fill`, the default when the learner has the target's layout): a key
the learner never visited would play the database player's fallback rule, which is weak; with
the fill it plays the target's own stored move there instead (the learner's keys always come
first). The player is still one fixed strategy, so what it wins against the target is still a
lower bound on the target's exploitability, and a tighter one while the learner is young. The
evaluation while training and the export both follow it; a learner of another layout cannot
read the target's keys and is never filled.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

import numpy as np
from numba import njit

from games.setback.abstraction import layouts
from cfr.frozen_policy import DEFAULT_SIG, FrozenPolicy
from games.setback.rules import BID_MOVE
from games.setback.state import PHASE, PHASE_AUCTION
from games.setback.train.evaluation import SetbackEvaluation
from train.algorithms import ES_MCCFR
from train.errors import RunError
from train.evaluation import EvalOptions
from train.runner import Stage

STAGE = "best-response"
DEFAULTS = {"seed": 0, "batch": 1, "algorithm": ES_MCCFR}
TARGET_PLAYS = ("best", "sample")
STRATEGIES = ("current", "average")  # what the learner plays: module docstring
BR_EVAL_FILE = "best_response_eval.csv"
BR_EVAL_COLUMNS = ("iteration", "train_cpu_seconds", "win_rate", "ci_low", "ci_high",
                   "points_per_deal", "ppd_low", "ppd_high", "games", "target")
THREE = BID_MOVE + 3
PASS = BID_MOVE + 0


@njit(DEFAULT_SIG, cache=True, _nrt=False)
def database_fallback(state, actions, n):
    """The database player's move at a key it lacks (`db/player.py`), as an action index: bid
    Three if it is one of the actions, else Pass; in the playout the first abstract action."""
    if state[PHASE] == PHASE_AUCTION:
        for a in range(n):
            if actions[a] == THREE:
                return a
        for a in range(n):
            if actions[a] == PASS:
                return a
    return 0


def frozen_team(t: int) -> int:
    """The team the target plays in episode t (module docstring)."""
    return ((t - 1) // 2) % 2


# --- the target -----------------------------------------------------------------------------
def normalize_spec(spec: str) -> str:
    """`db:PATH` or `strategy:PATH[,PATH]` with absolute paths (a bare path: a strategy file
    if it ends in .msgpack, else a database). Refused in one line (`RunError`) otherwise."""
    text = str(spec).strip()
    kind, sep, rest = text.partition(":")
    kind = kind.lower()
    if not sep or kind not in ("db", "strategy"):
        if not os.path.isfile(text):
            raise RunError(f"--against {text!r}: a target is db:PATH or "
                           "strategy:PATH[,PATH] (no such file)")
        kind, rest = ("strategy" if text.endswith(".msgpack") else "db"), text
    paths = [p.strip() for p in rest.split(",") if p.strip()]
    if not paths or (kind == "db" and len(paths) != 1):
        raise RunError(f"--against {text!r}: db: takes one path, strategy: one or more")
    for path in paths:
        if not os.path.isfile(path):
            raise RunError(f"--against {text!r}: {path}: no such file")
    return f"{kind}:" + ",".join(os.path.abspath(p) for p in paths)


@dataclass(frozen=True)
class Target:
    """The fixed policy a best response is trained against: its spec (absolute paths), its
    arrays (`db.policy_arrays.PolicyArrays`), a digest of them, and how it plays (`best` or
    `sample`)."""

    spec: str
    arrays: object
    digest: str
    plays: str = "best"

    @property
    def layout(self) -> str:
        """The target's key layout name."""
        return self.arrays.layout

    def frozen_policy(self) -> FrozenPolicy:
        """The target as the kernel reads it: its keys, with one-hot vectors of its best
        actions (`best`) or its stored probabilities (`sample`)."""
        a = self.arrays
        probs = a.probs
        if self.plays == "best":
            probs = np.zeros_like(a.probs)
            probs[a.offsets[:-1] + a.best.astype(np.int64)] = 1.0
        return FrozenPolicy(a.keys, a.offsets, probs, layouts.load(a.layout).decision,
                            database_fallback)

    def player(self, seed: int = 0):
        """The target as `tournament` plays it (sampling its probabilities with `sample`)."""
        from games.setback.play.grammar import PlayerSpecError, make_player

        try:
            player = make_player(self.spec, seed)
        except PlayerSpecError as exc:
            raise RunError(f"--against: {exc}") from None
        if self.plays == "sample":
            player.sample = True
            player.seed(seed)
        return player

    def settings(self) -> dict:
        """What the run records of its target (a resume must find the same)."""
        return {"target": self.spec, "target_abstraction": self.layout,
                "target_keys": int(self.arrays.n_keys), "target_digest": self.digest,
                "target_plays": self.plays}

    @property
    def has_bootstrap(self) -> bool:
        """Whether the target holds bootstrap keys (unused by the training, see above)."""
        return int(self.arrays.bootstrap_keys.shape[0]) > 0


def arrays_digest(arrays) -> str:
    """A short digest of a policy's keys, offsets and probabilities."""
    h = hashlib.sha256()
    for part in (arrays.keys, arrays.offsets, arrays.probs):
        h.update(np.ascontiguousarray(part).tobytes())
    return h.hexdigest()[:16]


def load_target(spec: str, plays: str = "best") -> Target:
    """The target named by `spec`, refused in one line (`RunError`) when it is missing, of
    another game, of a layout this program does not know, or holds no baseline keys."""
    from db.errors import DatabaseError
    from games.setback.db.policy_arrays import load_policy_arrays

    if plays not in TARGET_PLAYS:
        raise RunError(f"--target-plays must be one of {', '.join(TARGET_PLAYS)}")
    normalized = normalize_spec(spec)
    try:
        arrays = load_policy_arrays(normalized)
    except (DatabaseError, layouts.LayoutError) as exc:
        raise RunError(f"--against {spec}: {exc}") from None
    if arrays.game != "setback":
        raise RunError(f"--against {spec}: a {arrays.game} strategy, not Setback's")
    if arrays.n_keys == 0:
        raise RunError(f"--against {spec}: holds no baseline keys (a bootstrap alone cannot "
                       "play a deal)")
    return Target(normalized, arrays, arrays_digest(arrays), plays)


# --- the stage --------------------------------------------------------------------------------
def best_response_stage(target: Target, seed: int, batch: int, sampling=None,
                        abstraction: str | None = None) -> Stage:
    """The best-response `Stage` against `target`: the learner's layout `abstraction`
    (default the target's), es-mccfr with `sampling` (default: a new run's options)."""
    from games.setback.train.baseline import layout_game, setback_settings

    abstraction = abstraction or target.layout
    settings = setback_settings(seed, batch, "simultaneous", ES_MCCFR, sampling, abstraction,
                                **target.settings())
    return Stage(STAGE, layout_game(abstraction), settings, payoff_sign=1.0,
                 frozen=target.frozen_policy(), frozen_player=frozen_team)


def check_resume(recorded: dict, target: Target) -> None:
    """Refuse (one line) resuming a run recorded against another target than `target`."""
    for name, value in target.settings().items():
        if name in recorded and recorded[name] != value:
            raise RunError(f"this run was trained against {recorded.get('target')} "
                           f"({name} {recorded[name]!r}); --against now gives {value!r}")


# --- evaluation against the target -------------------------------------------------------------
def as_current(table):
    """The table with its strategy sums replaced by the positive parts of its regret sums, so
    that the average-strategy readers (export, `TableStore`) give regret matching's current
    strategy (uniform where no regret is positive). Changes `table` in place: use it on a
    loaded copy or a throwaway view, never on a run's live table."""
    table.strategy = np.maximum(table.regrets, 0).astype(table.strategy.dtype)
    return table


class _CurrentView:
    """A read-only face of a live table whose `strategy` is the current strategy's weights
    (computed once per evaluation; the live table is untouched)."""

    def __init__(self, table):
        self.keys, self.meta, self.offsets = table.keys, table.meta, table.offsets
        self.key_words, self.count = table.key_words, table.count
        self.strategy = np.maximum(table.regrets, 0)


class FilledStore:
    """The learner's store read first, then the target's (same layout): `fill` above."""

    def __init__(self, learner, target, label: str):
        self.learner, self.target = learner, target
        self.path = label
        self.layout = learner.layout
        self.metadata = learner.metadata
        self.has_bootstrap = False

    def lookup(self, key: str):
        """The learner's (probs, best) for `key`, else the target's, else None."""
        hit = self.learner.lookup(key)
        return hit if hit is not None else self.target.lookup(key)

    def close(self) -> None:
        """Drop the learner store's cache (the target is the caller's)."""
        self.learner.close()


def fills(settings: dict, fill: bool | None) -> bool:
    """Whether a run's player is filled from its target: `fill` (None: when the learner has
    the target's layout); True for another layout is refused (`RunError`)."""
    same = layouts.of_header(settings).name == settings.get("target_abstraction")
    if fill and not same:
        raise RunError("--fill-from-target needs the learner to have the target's layout")
    return same if fill is None else bool(fill)


class BestResponseEvaluation(SetbackEvaluation):
    """Setback's evaluation (`SetbackEvaluation`) with the target as the opponent (as
    `tournament` plays it), and points per deal besides the win rate: each row also goes to
    DIR/best_response_eval.csv (`BR_EVAL_COLUMNS`; points per deal of the learner minus the
    target's, with the 95 % interval of the pairs' values)."""

    def __init__(self, run_path: str, stage, target: Target, pairs: int, every_seconds: float,
                 show_progress: bool = True, report=None, fill: bool | None = None,
                 strategy: str = "current"):
        if strategy not in STRATEGIES:
            raise RunError(f"the strategy played must be one of {', '.join(STRATEGIES)}")
        self.target = target
        self.strategy = strategy
        self.fill = fills(stage.settings, fill)
        self._fill_player = None
        self._rows_seen = None
        self._br_report = report
        super().__init__(run_path, stage, EvalOptions(every_seconds, pairs, target.spec),
                         show_progress, report=None)

    def _prepare(self) -> None:
        try:
            self.layout = layouts.of_header(self.stage.settings)
        except layouts.LayoutError as exc:
            raise RunError(f"evaluation: {exc}") from None
        self._base = None
        self.opponent(0).close()

    def opponent(self, seed: int):
        """The target, seeded."""
        return self.target.player(seed)

    def player(self, table):
        """The live table's player, filled from the target's keys when `fill`."""
        player, live = super().player(_CurrentView(table) if self.strategy == "current"
                                      else table)
        if not self.fill:
            return player, live
        from games.setback.db.player import DatabasePlayer

        if self._fill_player is None:
            self._fill_player = self.target.player(0)
        store = FilledStore(live, self._fill_player.db, live.path + "+target")
        return DatabasePlayer(store, name=player.name), live

    def win_rate(self, rows: list):
        self._rows_seen = np.array(rows)
        return super().win_rate(rows)

    def run(self, table, iteration: int, training_cpu: float, stop=None) -> dict | None:
        row = super().run(table, iteration, training_cpu, stop)
        if row is None:
            return None
        ppd, low, high = points_per_deal(self._rows_seen)
        row.update(points_per_deal=ppd, ppd_low=low, ppd_high=high)
        append_br_row(self.run_path, {"iteration": int(iteration),
                                      **{k: row[k] for k in BR_EVAL_COLUMNS[1:5]},
                                      "points_per_deal": f"{ppd:.4f}", "ppd_low": f"{low:.4f}",
                                      "ppd_high": f"{high:.4f}", "games": int(row["games"]),
                                      "target": self.target.spec})
        if self._br_report is not None:
            self._br_report(row)
        return row


def points_per_deal(rows: np.ndarray) -> tuple[float, float, float]:
    """Player A's points per deal minus B's over tournament rows played in duplicate pairs
    (consecutive rows), and the 95 % interval of the pairs' values (a pair's value: its
    point difference over its deals)."""
    from games.setback.play.tournament import DEALS, POINTS_A, POINTS_B
    from play.tournament import Z95

    rows = np.asarray(rows, dtype=np.float64).reshape(-1, 2, rows.shape[-1])
    diff = (rows[:, :, POINTS_A] - rows[:, :, POINTS_B]).sum(axis=1)
    deals = np.maximum(rows[:, :, DEALS].sum(axis=1), 1.0)
    values = diff / deals
    mean = float(diff.sum() / deals.sum())
    if values.size < 2:
        return mean, mean, mean
    half = Z95 * float(values.std(ddof=1)) / np.sqrt(values.size)
    return mean, mean - half, mean + half


def append_br_row(run_path: str, row: dict) -> None:
    """Append a row to DIR/best_response_eval.csv (header first when new), fsynced; a failed
    write leaves the file's earlier rows whole (`run_directory.append_csv_row`)."""
    from train.run_directory import append_csv_row

    append_csv_row(os.path.join(run_path, BR_EVAL_FILE), BR_EVAL_COLUMNS, row)


def format_br_row(row: dict) -> str:
    """One line for an evaluation row against the target."""
    return (f"eval at {int(row['iteration']):,} deals, {row['train_cpu_seconds'] / 60:.2f} "
            f"training CPU-min: win rate {100 * row['win_rate']:.1f}% (95% CI "
            f"{100 * row['ci_low']:.1f}-{100 * row['ci_high']:.1f}%), points per deal "
            f"{row['points_per_deal']:+.3f} ({row['ppd_low']:+.3f} to {row['ppd_high']:+.3f}) "
            f"of {int(row['games']):,} games vs the target ({row['eval_cpu_seconds']:.1f} CPU-s)")


# --- export --------------------------------------------------------------------------------------
def export_best_response(run_path: str, out: str, threshold: float | None = None,
                         fill: bool | None = None, target: Target | None = None,
                         strategy: str = "current") -> dict:
    """Write the best-response run's average strategy to the strategy file `out` as a
    baseline strategy (its keys are baseline keys of the learner's layout; `db load` takes
    it, and its player plays the learned keys for both teams), with the target's keys the
    learner lacks when `fill` (None: when the layouts agree; `target`: the run's, loaded if
    None), of the learner's `strategy` (`current` or `average`); return its header."""
    from cfr import checkpoint
    from cfr.strategy_file import write_strategy
    from train.export import DEFAULT_THRESHOLD, table_strategy_chunks
    from train.run_directory import RunDirectory

    threshold = DEFAULT_THRESHOLD if threshold is None else float(threshold)
    run = RunDirectory(run_path)
    if not run.has_checkpoint():
        raise RunError(f"{run_path} has no checkpoint yet: train it first")
    recorded = run.read_settings()
    if recorded["stage"] != STAGE:
        raise RunError(f"{run_path} is a {recorded['stage']} run, not a best response "
                       "(use `export`)")
    settings = recorded["settings"]
    try:
        layout = layouts.of_header(settings)
    except layouts.LayoutError as exc:
        raise RunError(f"{run_path}: {exc}") from None
    fill = fills(settings, fill)
    if strategy not in STRATEGIES:
        raise RunError(f"the strategy exported must be one of {', '.join(STRATEGIES)}")
    ckpt = checkpoint.load(run.checkpoint_path)
    if strategy == "current":
        as_current(ckpt.table)  # the loaded copy only
    header = {"game": "setback", "abstraction": layout.abstraction,
              "abstraction_version": layout.version, "stage": "baseline",
              "iterations": ckpt.iteration, "seed": settings.get("seed"),
              "threshold": threshold,
              "settings": {**settings, "best_response": True, "filled_from_target": fill,
                           "strategy_played": strategy}}
    key_text = layouts.load(layout.name).key_text
    if not fill:
        chunks = table_strategy_chunks(ckpt.table, threshold, key_text)
    else:
        if target is None:
            target = load_target(settings["target"], settings.get("target_plays", "best"))
        check_resume(settings, target)
        chunks = _filled_chunks(ckpt.table, threshold, key_text, target)
    n = write_strategy(out, header, chunks)
    return {**header, "n_keys": n}


def _filled_chunks(table, threshold: float, key_text, target: Target):
    """The strategy chunks of the learner's table and of the target's keys it lacks (their
    stored probabilities; in `best` mode the one-hot best move), in ascending key order."""
    from cfr.strategy_file import StrategyChunk
    from cfr.table import ACTIONS_MASK
    from train.export import CHUNK_KEYS, _ranges, average_strategy

    slots = np.flatnonzero(table.meta)
    keys = table.keys[slots, 0]
    n_actions = (table.meta[slots] & ACTIONS_MASK).astype(np.int64)
    index = np.repeat(table.offsets[slots].astype(np.int64), n_actions) + _ranges(n_actions)
    probs = average_strategy(table.strategy[index], n_actions.astype(np.uint8), threshold)
    policy = target.frozen_policy()
    missing = ~np.isin(policy.keys, keys)
    t_n = np.diff(policy.offsets)[missing]
    t_index = np.repeat(policy.offsets[:-1][missing], t_n) + _ranges(t_n)
    all_keys = np.concatenate([keys, policy.keys[missing]])
    all_n = np.concatenate([n_actions, t_n])
    all_probs = np.concatenate([probs, policy.probs[t_index]])
    starts = np.concatenate([[0], np.cumsum(all_n)[:-1]])
    order = np.argsort(all_keys, kind="stable")
    for first in range(0, order.size, CHUNK_KEYS):
        part = order[first:first + CHUNK_KEYS]
        n = all_n[part]
        vector = all_probs[np.repeat(starts[part], n) + _ranges(n)]
        yield StrategyChunk([key_text(int(k)) for k in all_keys[part]], n.astype(np.uint8),
                            vector.astype(np.float32))
