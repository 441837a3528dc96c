"""A training run's directory: its settings, its checkpoint and its CSV log.

    DIR/run.json         the stage and every setting that determines the run's results
    DIR/checkpoint.ckpt  the latest checkpoint (replaced atomically)
    DIR/log.csv          iteration,payoff,infosets,seconds,rss_bytes,target,cpu_seconds,
                         cpu_budget: one row per checkpoint (seconds: the batches' wall
                         time; cpu_seconds: the training CPU time, `train.runner`; target:
                         the --iterations the run was asked to reach, cpu_budget: its --for
                         in CPU seconds, each empty when not asked; a log written before a
                         column existed keeps the columns it has)
    DIR/eval.csv         the evaluations while training (`train.evaluation`), if asked
    DIR/writer.lock      while a process trains the run: its pid, under an advisory lock
    DIR/warm_start.ckpt  a run warm-started from a coarser one: that run's checkpoint as it
                         was (`games.setback.train.warm_start`), which every resume seeds from

The checkpoint is written before its log row, so the log never runs ahead of the checkpoint.
One process at a time writes a run (`writer_lock`): a second `train` on the same directory is
refused with the holder's pid; readers (`export`, `train status`) take no lock. A hand-edited
run.json that no longer makes sense is refused in one line (`RunError`).
"""

from __future__ import annotations

import csv
import json
import math
import os

from cfr.atomic_file import TEMP_PREFIX, atomic_writer, remove_stale_temporaries
from cfr.file_lock import WriterLock
from games.registry import PROGRAM
from train.algorithms import ALGORITHMS, UPDATES
from train.errors import RunError

SETTINGS_FILE = "run.json"
CHECKPOINT_FILE = "checkpoint.ckpt"
LOG_FILE = "log.csv"
EVAL_FILE = "eval.csv"  # train.evaluation's
LOCK_FILE = "writer.lock"
WARM_START_FILE = "warm_start.ckpt"  # games.setback.train.warm_start's
LOG_COLUMNS = ("iteration", "payoff", "infosets", "seconds", "rss_bytes", "target",
               "cpu_seconds", "cpu_budget")
REQUIRED = LOG_COLUMNS[:5]  # a log from before the target column has only these
RUN_FORMAT = f"{PROGRAM}/run"
RUN_VERSION = 1


class RunDirectory:
    """Paths and small files of one run."""

    def __init__(self, path: str):
        self.path = path

    @property
    def settings_path(self) -> str:
        """DIR/run.json."""
        return os.path.join(self.path, SETTINGS_FILE)

    @property
    def checkpoint_path(self) -> str:
        """DIR/checkpoint.ckpt."""
        return os.path.join(self.path, CHECKPOINT_FILE)

    @property
    def log_path(self) -> str:
        """DIR/log.csv."""
        return os.path.join(self.path, LOG_FILE)

    def writer_lock(self) -> WriterLock:
        """The run's writer lock, to hold while training it (`with run.writer_lock(): ...`).

        Taking it creates the directory and removes the temporary files a killed writer left
        (safe: holding the lock, we are the only writer). A directory that holds other files
        but no run is refused: a run never writes among someone else's files."""
        self._refuse_foreign_directory()
        try:
            os.makedirs(self.path, exist_ok=True)
        except OSError as exc:
            raise RunError(f"{self.path}: cannot create the run directory "
                           f"({exc.strerror})") from None

        def clear_leftovers():
            for path in (self.settings_path, self.checkpoint_path,
                         os.path.join(self.path, EVAL_FILE),
                         os.path.join(self.path, WARM_START_FILE)):
                remove_stale_temporaries(path)

        return WriterLock(os.path.join(self.path, LOCK_FILE), f"run directory {self.path}",
                          on_acquire=clear_leftovers)

    def _refuse_foreign_directory(self) -> None:
        if not os.path.isdir(self.path) or os.path.exists(self.settings_path):
            return
        try:
            names = os.listdir(self.path)
        except OSError as exc:
            raise RunError(f"{self.path}: cannot read the run directory ({exc.strerror})") \
                from None
        # a warm start keeps its source's checkpoint before the run's first settings
        foreign = [n for n in names if n not in (LOCK_FILE, WARM_START_FILE)
                   and not n.startswith(TEMP_PREFIX)]
        if foreign:
            raise RunError(f"{self.path} holds files but no {SETTINGS_FILE} (e.g. "
                           f"{sorted(foreign)[0]!r}): not a run; give a new or empty directory")

    def has_checkpoint(self) -> bool:
        """Whether the run has been checkpointed at least once."""
        return os.path.exists(self.checkpoint_path)

    def read_settings(self) -> dict:
        """The stage and settings recorded when the run was created."""
        try:
            with open(self.settings_path, encoding="utf-8") as handle:
                doc = json.load(handle)
        except FileNotFoundError:
            raise RunError(f"{self.path} is not a training run (no {SETTINGS_FILE})") from None
        except (OSError, json.JSONDecodeError) as exc:
            raise RunError(f"{self.settings_path}: unreadable run settings ({exc})") from None
        except UnicodeDecodeError:
            raise RunError(f"{self.settings_path}: unreadable run settings (not UTF-8)") \
                from None
        if not isinstance(doc, dict) or doc.get("format") != RUN_FORMAT:
            raise RunError(f"{self.settings_path}: not a {PROGRAM} run settings file")
        version = doc.get("version")
        if not _is_int(version) or version < 1:
            raise RunError(f"{self.settings_path}: bad run format version {version!r}")
        if version > RUN_VERSION:
            raise RunError(f"{self.settings_path}: run format version {version} is "
                            f"newer than this program reads; upgrade {PROGRAM}")
        _check_settings(self.settings_path, doc)
        return doc

    def write_settings(self, stage: str, settings: dict) -> None:
        """Record the run's stage and settings (atomically)."""
        os.makedirs(self.path, exist_ok=True)
        doc = {"format": RUN_FORMAT, "version": RUN_VERSION, "stage": stage,
               "settings": settings}
        with atomic_writer(self.settings_path, suffix=".json") as handle:
            handle.write(json.dumps(doc, indent=2, sort_keys=True).encode())

    def append_log(self, row: dict) -> None:
        """Append one row to the CSV log (writing the header first if the log is new).

        A failed write (a full disk) cuts the log back to its previous length, so the log
        never ends in half a row, and raises `WriteFailedError`."""
        columns = LOG_COLUMNS
        if os.path.exists(self.log_path):  # an older log keeps its own columns
            with open(self.log_path, newline="", encoding="utf-8") as handle:
                header = next(csv.reader(handle), None)
            if header:
                columns = tuple(c for c in header if c in row)
        append_csv_row(self.log_path, columns, row)

    def read_log(self) -> list[dict]:
        """The CSV log's rows as dicts of numbers (empty if there is no log yet)."""
        if not os.path.exists(self.log_path):
            return []
        try:
            with open(self.log_path, newline="", encoding="utf-8") as handle:
                rows = list(csv.DictReader(handle))
            return [{k: float(row[k]) for k in LOG_COLUMNS if k in REQUIRED or row.get(k)}
                    for row in rows]
        except (OSError, UnicodeDecodeError, csv.Error, KeyError, TypeError, ValueError):
            raise RunError(f"{self.log_path}: unreadable training log (expected the columns "
                           f"{','.join(LOG_COLUMNS)} and numbers)") from None


def append_csv_row(path: str, columns, row: dict, log: str = "the log") -> None:
    """Append `row`'s values of `columns` to the CSV file `path` (the header first when the file
    is new), fsynced. A failed write (a full disk) cuts the file back to its previous length, so
    it never ends in half a row, and raises `WriteFailedError` (naming the file as `log`)."""
    from cfr.errors import WriteFailedError

    new = not os.path.exists(path)
    with open(path, "a", newline="", encoding="utf-8") as handle:
        size = handle.tell()
        try:
            writer = csv.writer(handle)
            if new:
                writer.writerow(columns)
            writer.writerow([row[c] for c in columns])
            handle.flush()
            os.fsync(handle.fileno())
        except OSError as exc:
            try:
                os.truncate(path, size)
            except OSError:
                pass
            raise WriteFailedError(f"cannot write {path}: {exc.strerror or exc}; {log} keeps "
                                   "its earlier rows") from None


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_settings(path: str, doc: dict) -> None:
    """Refuse (one line) a run.json whose stage or settings cannot be what a run recorded."""
    if not isinstance(doc.get("stage"), str) or not doc["stage"]:
        raise RunError(f"{path}: the run's stage is missing or not a name")
    settings = doc.get("settings")
    if not isinstance(settings, dict):
        raise RunError(f"{path}: the run's settings are missing or not an object")
    for name, value in settings.items():
        if not (value is None or isinstance(value, (str, bool, float))
                or (_is_int(value) and -2**63 <= value < 2**64)):
            raise RunError(f"{path}: the run's setting {name!r} is not a number, a string or "
                           "a boolean (or is out of range)")
    seed, batch = settings.get("seed"), settings.get("batch")
    if not _is_int(seed) or not 0 <= seed < 2**64:
        raise RunError(f"{path}: the run's seed {seed!r} is not an integer in 0 .. 2**64 - 1")
    if not _is_int(batch) or not 1 <= batch < 2**63:
        raise RunError(f"{path}: the run's batch {batch!r} is not a positive integer")
    _check_algorithm_settings(path, settings)


def _check_algorithm_settings(path: str, settings: dict) -> None:
    """Refuse (one line) a recorded algorithm, update rule or sampling option that no run can
    have written (absent ones take their defaults: runs older than the option)."""
    algorithm = settings.get("algorithm", "cfr")
    if algorithm not in ALGORITHMS:
        raise RunError(f"{path}: the run's algorithm {algorithm!r} is not one of "
                       f"{', '.join(ALGORITHMS)}")
    updates = settings.get("updates", UPDATES[0])
    if updates not in UPDATES:
        raise RunError(f"{path}: the run's updates {updates!r} is not one of "
                       f"{', '.join(UPDATES)}")
    if updates == "reference" and algorithm != "cfr":
        raise RunError(f"{path}: the run's updates 'reference' go with algorithm cfr only")
    for name in ("linear_weighting", "sum_visits"):
        flag = settings.get(name, False)
        if not isinstance(flag, bool):
            raise RunError(f"{path}: the run's {name} {flag!r} is not true or false")
    threshold = settings.get("prune_threshold")
    if threshold is not None and (not _is_number(threshold) or not math.isfinite(threshold)):
        raise RunError(f"{path}: the run's prune_threshold {threshold!r} is not a finite "
                       "number (or null)")
    chance = settings.get("prune_probability", 0.95)
    if not _is_number(chance) or not 0.0 <= chance <= 1.0:
        raise RunError(f"{path}: the run's prune_probability {chance!r} is not a number "
                       "in [0, 1]")


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
