"""The strategy database's schema (SQLite through SQLAlchemy 2.x), version SCHEMA_VERSION.

Three tables:

- `metadata(name TEXT PRIMARY KEY, value TEXT)`: one JSON value per name: `format`
  (FORMAT_NAME, tells our files from other SQLite files), `schema_version`, `game`,
  `abstraction`, `abstraction_version`, `created_utc`, `n_keys`, `kind_counts` (keys per kind:
  auction, establish, playout, bootstrap).
- `stages(id INTEGER PRIMARY KEY, stage, source, iterations, seed, threshold, n_keys_file,
  n_keys_loaded, n_keys_skipped)`: one row per strategy file loaded (its stage, the file it came
  from, the iteration count it was trained for).
- `strategy(key TEXT PRIMARY KEY, best INTEGER, probs BLOB) WITHOUT ROWID`: one row per info-set
  key string. `probs` is the whole probability vector as little-endian float32, in the key's
  canonical action order (its length / 4 is the action count); `best` is the index of the most
  probable action (the first one on ties). WITHOUT ROWID makes the key's B-tree the table
  itself: one lookup is one tree descent, and the file holds each key once.

A vector as one float32 blob is far smaller than one row per action (the key would be repeated
for every action and each row carries its own overhead): see `bench/db_speed.py --compare`.
"""

from __future__ import annotations

from sqlalchemy import Column, Float, Integer, LargeBinary, MetaData, String, Table, Text

SCHEMA_VERSION = 1
FORMAT_NAME = "setback-cfr/strategy-db"

metadata_obj = MetaData()

metadata_table = Table(
    "metadata", metadata_obj,
    Column("name", String, primary_key=True),
    Column("value", Text, nullable=False),
)

stages_table = Table(
    "stages", metadata_obj,
    Column("id", Integer, primary_key=True),
    Column("stage", String, nullable=False),
    Column("source", Text, nullable=False),
    Column("iterations", Integer, nullable=False),
    Column("seed", Integer),
    Column("threshold", Float),
    Column("n_keys_file", Integer, nullable=False),
    Column("n_keys_loaded", Integer, nullable=False),
    Column("n_keys_skipped", Integer, nullable=False),
)

strategy_table = Table(
    "strategy", metadata_obj,
    Column("key", String, primary_key=True),
    Column("best", Integer, nullable=False),
    Column("probs", LargeBinary, nullable=False),
    sqlite_with_rowid=False,
)
