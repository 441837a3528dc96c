"""`db load`: build a strategy database from exported strategy files, fast.

What is loaded (issue 6): from a **baseline** export its playout, establish-trump and baseline
auction keys (so a database built from a baseline alone can bid); from a **bootstrap** export
its score-aware auction keys. Other kinds of key found in a file are skipped and counted. The
two auction layouts never collide (bootstrap keys contain `/`), so both are stored; "bootstrap
keys win" is the player's rule: it asks for the bootstrap key first when any are loaded and the
game score is known (`player.py`). At most one file per stage; every file must be for the same
game and key layout (abstraction name and version, `games/setback/abstraction/layouts.py`), which
the database's metadata records. The game is the files' (their header's `game`): its key kinds and
the abstraction check come from its registered key codec (`games/registry.py`, `key_codec`;
Setback's is `games/setback/db/keys.py`), so a Euchre export loads the same way.

How it is fast (hundreds of thousands of keys per second on one core): the database is built
in a temporary file (`cfr.atomic_file.atomic_path`, renamed on success, removed on failure or
Ctrl-C) with the journal and fsyncs off and an exclusive lock; SQLAlchemy creates the schema
and holds the connection, but rows go through the DBAPI cursor's `executemany` with
ROWS_PER_STATEMENT rows per INSERT (fewer, larger statements: the per-statement cost of the
sqlite3 module dominates otherwise). Each statement binds its keys' probability bytes once and
SQL `substr` cuts every key's blob from them, so no Python object is made per blob. Keys arrive
sorted from `export`, so the WITHOUT ROWID B-tree is filled in order. Per chunk, the key kinds
and best actions are computed with numpy, not key by key.

One load at a time per target: `load_strategies` holds a writer lock (`cfr.file_lock`) on
`FILE.lock` while it builds FILE, so a second load onto the same FILE is refused, naming the
first one's pid, and a load killed with SIGKILL leaves the old FILE as it was (its temporary
file is removed by the next load).
"""

from __future__ import annotations

import itertools
import json
import os
import sqlite3
import time
from dataclasses import dataclass, field

import numpy as np

from cfr.atomic_file import atomic_path, remove_stale_temporaries
from cfr.errors import WriteFailedError
from cfr.file_lock import WriterLock
from cfr.strategy_file import StrategyChunk, StrategyReader
from db.errors import DatabaseError
from db.game_keys import codec_for
from db.schema import (
    FORMAT_NAME,
    SCHEMA_VERSION,
    metadata_obj,
    metadata_table,
    stages_table,
)

ROWS_PER_STATEMENT = 100
PAGE_SIZE = 16384
CACHE_KIB = 512 * 1024
STAGE_ORDER = ("baseline", "bootstrap")


@dataclass
class LoadReport:
    """What `load_strategies` did: keys stored, by kind and by file, and how fast."""

    path: str
    n_keys: int = 0
    kind_counts: dict = field(default_factory=dict)
    stages: list = field(default_factory=list)
    seconds: float = 0.0
    size_bytes: int = 0

    @property
    def keys_per_second(self) -> float:
        """Keys stored per second of the whole load (reading, converting, inserting)."""
        return self.n_keys / self.seconds if self.seconds > 0 else float("inf")


def best_actions(n_actions: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """Index of each key's most probable action (the first on ties), vectorized: the
    segment maxima by `np.maximum.reduceat`, then the first position holding its segment's
    maximum. Every key needs at least one action and finite probabilities."""
    n = n_actions.size
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.zeros(n, dtype=np.int64)
    np.cumsum(n_actions[:-1], out=starts[1:])
    maxima = np.maximum.reduceat(probs, starts)
    at_max = np.flatnonzero(probs == np.repeat(maxima, n_actions))
    return at_max[np.searchsorted(at_max, starts)] - starts


def statement_params(chunk: StrategyChunk, rows: int = ROWS_PER_STATEMENT):
    """The parameters of the INSERT statements of a chunk, `rows` keys per statement:
    `[probability bytes of the statement's keys, key, best, start, length, key, ...]`, where
    start (1-based) and length locate the key's float32 vector in those bytes; SQL `substr`
    cuts each blob, so Python never builds one object per blob."""
    n = len(chunk.keys)
    byte_ends = chunk.offsets * 4
    first_row = np.arange(n) // rows * rows
    flat: list = [None] * (4 * n)
    flat[0::4] = chunk.keys
    flat[1::4] = best_actions(chunk.n_actions, chunk.probs).tolist()
    flat[2::4] = (byte_ends[:-1] - byte_ends[first_row] + 1).tolist()
    flat[3::4] = (chunk.n_actions.astype(np.int64) * 4).tolist()
    data = chunk.probs.astype("<f4", copy=False).tobytes()
    bounds = byte_ends[np.minimum(np.arange(0, n + rows, rows), n)].tolist()
    for s in range((n + rows - 1) // rows):
        yield [data[bounds[s]:bounds[s + 1]]] + flat[4 * rows * s:4 * rows * (s + 1)]


def _select(chunk: StrategyChunk, keep: np.ndarray) -> StrategyChunk:
    """The keys of `chunk` where `keep` is true."""
    n_actions = chunk.n_actions[keep]
    probs = chunk.probs[np.repeat(keep, chunk.n_actions)]
    return StrategyChunk(list(itertools.compress(chunk.keys, keep.tolist())), n_actions, probs)


def _open_readers(paths: list[str]) -> list[StrategyReader]:
    """Open every file, check they belong together, and order them baseline first."""
    readers = []
    try:
        for path in paths:
            readers.append(StrategyReader(path))
        seen: dict[str, str] = {}
        for reader in readers:
            head = reader.header
            game = readers[0].header["game"]
            if head["game"] != game:
                raise DatabaseError(f"{reader.path}: a strategy for game {head['game']!r}, not "
                                    f"{game!r} (as {readers[0].path}): one game a database")
            if head["stage"] not in codec_for(game).stage_kinds:
                raise DatabaseError(f"{reader.path}: unknown stage {head['stage']!r} (expected "
                                    "baseline or bootstrap)")
            if head["stage"] in seen:
                raise DatabaseError(f"{reader.path}: a second {head['stage']} strategy (the "
                                    f"first is {seen[head['stage']]}); load one per stage")
            seen[head["stage"]] = reader.path
            _same_layout(reader, readers[0])
    except BaseException:
        for reader in readers:
            reader.close()
        raise
    return sorted(readers, key=lambda r: STAGE_ORDER.index(r.header["stage"]))


def _same_layout(reader: StrategyReader, first: StrategyReader) -> None:
    """Refuse (one line) a file of a key layout this program does not know, or of another
    layout than the first file's: keys of two layouts never mix in one database."""
    head = reader.header

    def differs(name):
        if head[name] != first.header[name]:
            raise DatabaseError(f"{reader.path}: {name} {head[name]!r} differs from "
                                f"{first.path}'s {first.header[name]!r}: keys of two layouts "
                                "never mix in one database")

    differs("abstraction")
    try:
        codec_for(head["game"]).check_header(head)
    except ValueError as exc:  # the codec's refusal (Setback's LayoutError is one)
        raise DatabaseError(f"{reader.path}: trained under {exc}") from None
    differs("abstraction_version")


def _insert_chunk(cursor, chunk: StrategyChunk) -> None:
    """INSERT the chunk's rows: full statements through `executemany`, then the remainder."""
    n = len(chunk.keys)
    full = n // ROWS_PER_STATEMENT
    params = statement_params(chunk)
    if full:
        cursor.executemany(_insert_sql(ROWS_PER_STATEMENT), itertools.islice(params, full))
    if n > full * ROWS_PER_STATEMENT:
        cursor.execute(_insert_sql(n - full * ROWS_PER_STATEMENT), next(params))


_SQL_CACHE: dict[int, str] = {}


def _insert_sql(rows: int) -> str:
    """`INSERT INTO strategy ("key", best, probs) VALUES (?2, ?3, substr(?1, ?4, ?5)), ...`
    for `rows` rows (?1: the statement's probability bytes)."""
    if rows not in _SQL_CACHE:
        values = ", ".join(f"(?{4 * i + 2}, ?{4 * i + 3}, substr(?1, ?{4 * i + 4}, ?{4 * i + 5}))"
                           for i in range(rows))
        _SQL_CACHE[rows] = f'INSERT INTO strategy ("key", best, probs) VALUES {values}'
    return _SQL_CACHE[rows]


def load_strategies(paths: list[str], db_path: str, progress: bool = True) -> LoadReport:
    """Build the database `db_path` from the strategy files `paths` (replacing any old one
    only on success); return what was loaded. Raises `DatabaseError` / `CfrFileError` with
    one line for a bad file, `LockedError` while another load builds `db_path`, and
    `WriteFailedError` when the disk is full."""
    if not paths:
        raise DatabaseError("no strategy files to load")
    directory = os.path.dirname(os.path.abspath(db_path))
    if not os.path.isdir(directory):
        raise DatabaseError(f"{db_path}: directory {directory} does not exist")
    start = time.perf_counter()
    lock = WriterLock(db_path + ".lock", f"database {db_path}",
                      on_acquire=lambda: remove_stale_temporaries(db_path))
    with lock:
        return _load(paths, db_path, progress, start)


def _load(paths: list[str], db_path: str, progress: bool, start: float) -> LoadReport:
    """`load_strategies` once the writer lock is held."""
    from sqlalchemy import create_engine, insert
    from sqlalchemy.exc import OperationalError
    from sqlalchemy.pool import NullPool
    from tqdm import tqdm

    readers = _open_readers(list(paths))
    codec = codec_for(readers[0].header["game"])
    report = LoadReport(db_path)
    counts = np.zeros(codec.unknown + 1, dtype=np.int64)
    total = sum(int(r.header["n_keys"]) for r in readers)
    try:
        with atomic_path(db_path, suffix=".db") as tmp:
            engine = create_engine("sqlite://", creator=lambda: sqlite3.connect(tmp),
                                   poolclass=NullPool)
            try:
                with engine.connect() as conn, tqdm(total=total, unit="key", unit_scale=True,
                                                     disable=not progress, leave=False) as bar:
                    for pragma in (f"page_size={PAGE_SIZE}", "journal_mode=OFF",
                                   "synchronous=OFF", "locking_mode=EXCLUSIVE",
                                   f"cache_size=-{CACHE_KIB}", "temp_store=MEMORY"):
                        conn.exec_driver_sql(f"PRAGMA {pragma}")
                    metadata_obj.create_all(conn)
                    cursor = conn.connection.dbapi_connection.cursor()
                    for reader in readers:
                        stage = _load_file(cursor, reader, counts, bar, codec)
                        conn.execute(insert(stages_table), stage)
                        report.stages.append(stage)
                    report.n_keys = int(counts[:codec.unknown].sum())
                    report.kind_counts = {name: int(counts[k]) for k, name in
                                          enumerate(codec.kind_names)}
                    head = readers[0].header
                    meta = {
                        "format": FORMAT_NAME,
                        "schema_version": SCHEMA_VERSION,
                        "game": head["game"],
                        "abstraction": head["abstraction"],
                        "abstraction_version": head["abstraction_version"],
                        "created_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                        "n_keys": report.n_keys,
                        "kind_counts": report.kind_counts,
                    }
                    conn.execute(insert(metadata_table),
                                 [{"name": k, "value": json.dumps(v)} for k, v in meta.items()])
                    conn.commit()
            except (sqlite3.OperationalError, OperationalError) as exc:
                # SQLite's own write failures ("database or disk is full", "disk I/O error").
                error = getattr(exc, "orig", exc)
                text = str(error).splitlines()[0] if str(error) else type(error).__name__
                kept = ("the previous database is unchanged" if os.path.exists(db_path)
                        else "nothing was written")
                raise WriteFailedError(f"cannot write {db_path}: {text}; {kept}") from None
            finally:
                engine.dispose()
    finally:
        for reader in readers:
            reader.close()
    report.seconds = time.perf_counter() - start
    report.size_bytes = os.path.getsize(db_path)
    return report


def _load_file(cursor, reader: StrategyReader, counts: np.ndarray, bar, codec) -> dict:
    """Insert one file's keys of the kinds its stage contributes (`codec`: the game's key
    codec); return its `stages` row."""
    UNKNOWN = codec.unknown
    wanted = np.zeros(UNKNOWN + 1, dtype=bool)
    wanted[list(codec.stage_kinds[reader.header["stage"]])] = True
    loaded = skipped = 0
    for chunk in reader.chunks():
        if chunk.n_actions.size and int(chunk.n_actions.min()) < 1:
            raise DatabaseError(f"{reader.path}: a key with no actions")
        if not np.isfinite(chunk.probs).all():
            raise DatabaseError(f"{reader.path}: a probability that is not a finite number")
        kinds = codec.key_kinds(chunk.keys)
        if (kinds == UNKNOWN).any():
            bad = chunk.keys[int(np.argmax(kinds == UNKNOWN))]
            raise DatabaseError(f"{reader.path}: {bad!r} is not a "
                                f"{codec.game.capitalize()} key")
        keep = wanted[kinds]
        if not keep.all():
            skipped += int((~keep).sum())
            chunk, kinds = _select(chunk, keep), kinds[keep]
        try:
            _insert_chunk(cursor, chunk)
        except sqlite3.IntegrityError:
            raise DatabaseError(f"{reader.path}: a key appears twice (in this file or an "
                                "earlier one)") from None
        counts += np.bincount(kinds, minlength=UNKNOWN + 1)
        loaded += len(chunk.keys)
        bar.update(len(chunk.keys) + int((~keep).sum()))
    head = reader.header
    return {
        "stage": head["stage"],
        "source": os.path.abspath(reader.path),
        "iterations": int(head["iterations"]),
        "seed": head.get("seed"),
        "threshold": head.get("threshold"),
        "n_keys_file": int(head["n_keys"]),
        "n_keys_loaded": loaded,
        "n_keys_skipped": skipped,
    }
