"""A training run's directory: its settings, its checkpoint and its CSV log.

    DIR/run.json         the stage and every setting that determines the run's results
    DIR/checkpoint.ckpt  the latest checkpoint (replaced atomically)
    DIR/log.csv          iteration,payoff,infosets,seconds,rss_bytes,target: one row per
                         checkpoint (target: the --iterations the run was asked to reach;
                         logs written before it existed have five columns and keep them)

The checkpoint is written before its log row, so the log never runs ahead of the checkpoint.
"""

from __future__ import annotations

import csv
import json
import os

from cfr.atomic_file import atomic_writer
from train.errors import RunError

SETTINGS_FILE = "run.json"
CHECKPOINT_FILE = "checkpoint.ckpt"
LOG_FILE = "log.csv"
LOG_COLUMNS = ("iteration", "payoff", "infosets", "seconds", "rss_bytes", "target")
RUN_FORMAT = "setback-cfr/run"
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
        if not isinstance(doc, dict) or doc.get("format") != RUN_FORMAT:
            raise RunError(f"{self.settings_path}: not a setback-cfr run settings file")
        if int(doc.get("version", 0)) > RUN_VERSION:
            raise RunError(f"{self.settings_path}: run format version {doc.get('version')} is "
                            "newer than this program reads; upgrade setback-cfr")
        return doc

    def write_settings(self, stage: str, settings: dict) -> None:
        """Record the run's stage and settings (atomically)."""
        os.makedirs(self.path, exist_ok=True)
        doc = {"format": RUN_FORMAT, "version": RUN_VERSION, "stage": stage,
               "settings": settings}
        with atomic_writer(self.settings_path, suffix=".json") as handle:
            handle.write(json.dumps(doc, indent=2, sort_keys=True).encode())

    def append_log(self, row: dict) -> None:
        """Append one row to the CSV log (writing the header first if the log is new)."""
        columns = LOG_COLUMNS
        new = not os.path.exists(self.log_path)
        if not new:  # an older log keeps its own columns
            with open(self.log_path, newline="", encoding="utf-8") as handle:
                header = next(csv.reader(handle), None)
            if header:
                columns = tuple(c for c in header if c in row)
        with open(self.log_path, "a", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            if new:
                writer.writerow(columns)
            writer.writerow([row[c] for c in columns])
            handle.flush()
            os.fsync(handle.fileno())

    def read_log(self) -> list[dict]:
        """The CSV log's rows as dicts of numbers (empty if there is no log yet)."""
        if not os.path.exists(self.log_path):
            return []
        with open(self.log_path, newline="", encoding="utf-8") as handle:
            return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(handle)]
