"""Opening a strategy database read-only, checking it, and looking keys up.

`StrategyDatabase(path)` opens the file through SQLAlchemy with SQLite's read-only URI
(`mode=ro`): the player can never write to it, and any number of processes may read it at once
(SQLite shared locks; the loader replaces a database by renaming a new file over it, so open
readers keep the old one). Before use the file is checked, and each problem is one
`DatabaseError` line: missing; not SQLite or not ours (foreign); shorter than its header says
(truncated); a newer schema version; unreadable pages (corrupt); a key layout (abstraction
name and version, `games/setback/abstraction/layouts.py`, or another game's abstraction as its key
codec checks it) this program does not know. `game` is the database's game; `layout` is a
Setback database's layout (its keys are that layout's strings), None for another game's.

Lookups bind the key as a parameter (never formatted into SQL) and go through the DBAPI cursor
of the SQLAlchemy connection with one precompiled statement: a lookup is one B-tree descent,
a few microseconds.
"""

from __future__ import annotations

import json
import os
import pathlib
import sqlite3

import numpy as np

from db.errors import DatabaseError
from db.game_keys import codec_for
from db.schema import FORMAT_NAME, SCHEMA_VERSION, metadata_table, stages_table, strategy_table
from games.registry import DEFAULT_GAME, PROGRAM

SQLITE_MAGIC = b"SQLite format 3\x00"


def check_file(path: str) -> None:
    """Raise `DatabaseError` unless `path` exists and is a whole SQLite file (by its header:
    magic, page size, page count)."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as handle:
            header = handle.read(100)
    except FileNotFoundError:
        raise DatabaseError(f"{path}: no such strategy database") from None
    except IsADirectoryError:
        raise DatabaseError(f"{path}: is a directory, not a strategy database") from None
    except OSError as exc:
        raise DatabaseError(f"{path}: cannot open strategy database ({exc.strerror})") from None
    if size == 0:
        raise DatabaseError(f"{path}: empty file, not a strategy database")
    if not header.startswith(SQLITE_MAGIC):
        raise DatabaseError(f"{path}: not a {PROGRAM} strategy database (not SQLite)")
    if len(header) < 100:
        raise DatabaseError(f"{path}: truncated strategy database ({size} bytes)")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    valid = header[24:28] == header[92:96]  # the page count is valid for this change counter
    if valid and size < pages * page_size:
        raise DatabaseError(f"{path}: truncated strategy database ({size} of "
                            f"{pages * page_size} bytes)")


def _is_count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _check_metadata(path: str, metadata: dict, stages: list[dict]) -> None:
    """Refuse (one line) metadata or stage rows of the wrong types: a database edited by hand
    or by another program, whose figures `db info` could not print."""
    counts = metadata.get("kind_counts")
    problems = [name for name in ("game", "abstraction", "created_utc")
                if not isinstance(metadata.get(name), str)]
    if not _is_count(metadata.get("n_keys")):
        problems.append("n_keys")
    if not isinstance(counts, dict) or not all(isinstance(k, str) and _is_count(v)
                                               for k, v in counts.items()):
        problems.append("kind_counts")
    for row in stages:
        if not (isinstance(row.get("stage"), str) and isinstance(row.get("source"), str)
                and all(_is_count(row.get(c)) for c in ("iterations", "n_keys_file",
                                                         "n_keys_loaded", "n_keys_skipped"))):
            problems.append("stages")
            break
    if problems:
        raise DatabaseError(f"{path}: corrupt strategy database (bad {', '.join(problems)})")


class StrategyDatabase:
    """A strategy database opened read-only: its metadata, its stages, and key lookups."""

    def __init__(self, path: str):
        from sqlalchemy import bindparam, create_engine, select
        from sqlalchemy.pool import NullPool
        from sqlalchemy.dialects import sqlite as sqlite_dialect

        self.path = str(path)
        check_file(self.path)
        self._uri = pathlib.Path(os.path.abspath(self.path)).as_uri() + "?mode=ro"
        self._engine = create_engine(
            "sqlite://", creator=lambda: sqlite3.connect(self._uri, uri=True), poolclass=NullPool)
        self._lookup_sql = str(
            select(strategy_table.c.best, strategy_table.c.probs)
            .where(strategy_table.c.key == bindparam("key"))
            .compile(dialect=sqlite_dialect.dialect()))
        self._connect()
        try:
            self.metadata, self.stages = self._read_metadata()
        except BaseException:
            self.close()
            raise
        counts = self.metadata.get("kind_counts", {})
        self.n_keys = int(self.metadata.get("n_keys", 0))
        self.has_bootstrap = int(counts.get("bootstrap", 0)) > 0

    # --- connection ------------------------------------------------------------------
    def _connect(self) -> None:
        """(Re)open the connection for this process: after a fork the child opens its own (no
        pool: a connection is never handed across processes) and leaves the parent's alone."""
        self._pid = os.getpid()
        self._conn = self._engine.connect()
        self._cursor = self._conn.connection.dbapi_connection.cursor()

    def _error(self, exc: Exception) -> DatabaseError:
        text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if "not a database" in text or "no such table" in text:
            return DatabaseError(f"{self.path}: not a {PROGRAM} strategy database ({text})")
        return DatabaseError(f"{self.path}: corrupt strategy database ({text})")

    def _read_metadata(self) -> tuple[dict, list[dict]]:
        from sqlalchemy import select
        from sqlalchemy.exc import DBAPIError

        try:
            rows = self._conn.execute(select(metadata_table.c.name, metadata_table.c.value))
            metadata = {name: json.loads(value) for name, value in rows}
        except DBAPIError as exc:
            raise self._error(exc.orig) from None
        except (TypeError, ValueError):  # a value that is not JSON text (NULL, a number)
            raise DatabaseError(f"{self.path}: corrupt strategy database (bad metadata)") \
                from None
        if metadata.get("format") != FORMAT_NAME:
            raise DatabaseError(f"{self.path}: not a {PROGRAM} strategy database")
        version = metadata.get("schema_version")
        if not isinstance(version, int) or version > SCHEMA_VERSION:
            raise DatabaseError(f"{self.path}: schema version {version} is newer than this "
                                f"program reads ({SCHEMA_VERSION}); upgrade {PROGRAM}")
        self.game = metadata.get("game", DEFAULT_GAME)
        try:  # an abstraction (and version) this program knows: its keys are the ones asked
            codec = codec_for(self.game)
            codec.check_header(metadata)
            # the key layout a game lets a database choose (Setback's), which its player reads
            header_layout = getattr(codec, "header_layout", None)
            self.layout = header_layout(metadata) if header_layout else None
        except ValueError as exc:  # the codec's refusal (Setback's LayoutError is one)
            raise DatabaseError(f"{self.path}: built for {exc}") from None
        try:
            rows = self._conn.execute(select(stages_table).order_by(stages_table.c.id))
            stages = [dict(row._mapping) for row in rows]
            self._cursor.execute(self._lookup_sql, ("",)).fetchone()  # the table is readable
        except DBAPIError as exc:
            raise self._error(exc.orig) from None
        except sqlite3.Error as exc:
            raise self._error(exc) from None
        _check_metadata(self.path, metadata, stages)
        return metadata, stages

    # --- lookups ---------------------------------------------------------------------
    def lookup(self, key: str) -> tuple[np.ndarray, int] | None:
        """(probabilities as float32, best action index) of `key`, or None if it is absent."""
        if self._pid != os.getpid():
            self._connect()
        try:
            row = self._cursor.execute(self._lookup_sql, (key,)).fetchone()
        except sqlite3.Error as exc:
            raise self._error(exc) from None
        if row is None:
            return None
        return np.frombuffer(row[1], dtype="<f4"), int(row[0])

    def info(self) -> dict:
        """The metadata, the stages loaded and the counts, as one JSON-ready dict."""
        return {
            "path": self.path,
            "size_bytes": os.path.getsize(self.path),
            **self.metadata,
            "stages": self.stages,
        }

    def close(self) -> None:
        """Close the connection."""
        if getattr(self, "_conn", None) is not None and self._pid == os.getpid():
            self._conn.close()
        self._conn = None
        self._engine.dispose()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

