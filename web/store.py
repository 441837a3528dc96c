"""Every web game in SQLite (SQLAlchemy): the game's name (`setback`, `euchre`), seed and
version, and its deals as the hands dealt, the deal's other public setup (Euchre's upcard) and
the moves played.

Each game has an owner (`web.guard`: the token of the browser that started it); games stored
before owners existed (format 1, upgraded in place when the file is opened) have none,
and `web.app` decides who may see those. Games stored before the game was recorded (formats 1
and 2) are Setback's: the upgrade to 3 says so.

A game is rebuilt by replaying its moves (`web.table_base.WebTable.restore`), so the file holds no
derived state that could disagree with the moves. The file carries a format version
(`web_meta`); a newer one, or a file that is not SQLite, is refused with one line.

Saving is optimistic: `save` updates the game's row only where its version is still the one
the change was made from, so two servers on one file, or a write racing a reload, can never
both apply a move; the loser gets `StoreConflict`. The journal is SQLite's WAL with
`synchronous=NORMAL`: a commit is not lost when the server process dies, and costs no fsync.

Writes go through one connection the store holds for its lifetime (the engine's, so it has
the same pragmas), with two fixed statements: checking a pooled connection out and in through
SQLAlchemy for every move cost more than the move's SQL.
"""

from __future__ import annotations

import json
import os
import threading
import time
from contextlib import contextmanager

from sqlalchemy import (
    BigInteger,
    Column,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    create_engine,
    event,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import DatabaseError as SQLDatabaseError

from games.registry import PROGRAM

FORMAT_NAME = f"{PROGRAM}-web-games"
FORMAT_VERSION = 3  # 2: games.owner; 3: games.game and deals.setup

metadata = MetaData()
meta_table = Table("web_meta", metadata,
                   Column("name", String, primary_key=True),
                   Column("value", Text, nullable=False))
games_table = Table("games", metadata,
                    Column("id", String, primary_key=True),
                    Column("owner", String),  # None: a game from before owners (format 1)
                    Column("game", String, nullable=False, server_default="setback"),
                    Column("seed", BigInteger, nullable=False),
                    Column("bots", Text, nullable=False),
                    Column("version", Integer, nullable=False),
                    Column("status", String, nullable=False),
                    Column("winner", String),
                    Column("score_ew", Integer, nullable=False),
                    Column("score_ns", Integer, nullable=False),
                    Column("n_deals", Integer, nullable=False),
                    Column("created", BigInteger, nullable=False),
                    Column("updated", BigInteger, nullable=False),
                    Index("games_by_owner", "owner", "updated"))
deals_table = Table("deals", metadata,
                    Column("game_id", String, primary_key=True),
                    Column("number", Integer, primary_key=True),
                    Column("dealer", String, nullable=False),
                    Column("hands", Text, nullable=False),  # {"W": [6 cards], ...}
                    Column("moves", Text, nullable=False),  # space separated, e.g. "3 P P P AS"
                    Column("setup", Text))  # JSON, e.g. Euchre's {"upcard": "JD"}; None: Setback


_INSERT_GAME = ("INSERT INTO games (id, owner, game, seed, bots, version, status, winner, "
                "score_ew, score_ns, n_deals, created, updated) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
_UPDATE_GAME = ("UPDATE games SET version = ?, status = ?, winner = ?, score_ew = ?, "
                "score_ns = ?, n_deals = ?, updated = ? WHERE id = ? AND version = ?")
_CLAIM_GAME = "UPDATE games SET owner = ? WHERE id = ? AND owner IS NULL"
_PUT_DEAL = ("INSERT OR REPLACE INTO deals (game_id, number, dealer, hands, moves, setup) "
             "VALUES (?, ?, ?, ?, ?, ?)")


class StoreError(Exception):
    """The games file cannot be used (not SQLite, another format, a newer version)."""


class StoreConflict(Exception):
    """The game changed in the file since it was read (another server or a racing write)."""


def default_games_path() -> str:
    """`$XDG_DATA_HOME/setback-cfr/games.db` (default `~/.local/share/setback-cfr/games.db`)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"),
                                                           ".local", "share")
    return os.path.join(base, PROGRAM, "games.db")


def _pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


class GameStore:
    """The games file at `path` (created with its directory if missing)."""

    def __init__(self, path: str):
        self.path = str(path)
        if os.path.isdir(self.path):
            raise StoreError(f"{self.path}: is a directory, not a games file")
        folder = os.path.dirname(os.path.abspath(self.path))
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"{folder}: cannot create the games folder ({exc.strerror})") \
                from None
        # The connections are used by whichever thread serves a request (one at a time).
        self.engine = create_engine(f"sqlite:///{os.path.abspath(self.path)}",
                                    connect_args={"check_same_thread": False})
        event.listen(self.engine, "connect", _pragmas)
        try:
            self._check_format()
        except SQLDatabaseError as exc:
            self.engine.dispose()
            text = str(exc.orig).splitlines()[0] if exc.orig else str(exc)
            raise StoreError(f"{self.path}: not a {PROGRAM} games file ({text})") from None
        self._writer = self.engine.raw_connection()
        self._writing = threading.Lock()  # one transaction at a time on the writer

    def _check_format(self) -> None:
        with self.engine.begin() as conn:
            metadata.create_all(conn)
            rows = dict(conn.execute(select(meta_table.c.name, meta_table.c.value)).all())
            if not rows:
                conn.execute(insert(meta_table), [
                    {"name": "format", "value": json.dumps(FORMAT_NAME)},
                    {"name": "format_version", "value": json.dumps(FORMAT_VERSION)}])
                return
        if json.loads(rows.get("format", "null")) != FORMAT_NAME:
            raise StoreError(f"{self.path}: not a {PROGRAM} games file")
        version = json.loads(rows.get("format_version", "null"))
        if not isinstance(version, int) or version > FORMAT_VERSION:
            raise StoreError(f"{self.path}: games file format {version} is newer than this "
                             f"program reads ({FORMAT_VERSION}); upgrade {PROGRAM}")
        if version < FORMAT_VERSION:
            # Each column is added where it is missing (the version says which may be; a
            # column already there, from a file written by a later program and marked older
            # by hand, is kept as it is).
            with self.engine.begin() as conn:
                def has(table: str, column: str) -> bool:
                    rows = conn.exec_driver_sql(f"PRAGMA table_info({table})").all()
                    return any(row[1] == column for row in rows)

                if not has("games", "owner"):  # format 1: no owners; its games keep NULL
                    conn.exec_driver_sql("ALTER TABLE games ADD COLUMN owner VARCHAR")
                conn.exec_driver_sql("CREATE INDEX IF NOT EXISTS games_by_owner "
                                     "ON games (owner, updated)")
                if not has("games", "game"):  # formats 1 and 2 held Setback games only
                    conn.exec_driver_sql("ALTER TABLE games ADD COLUMN game VARCHAR NOT NULL "
                                         "DEFAULT 'setback'")
                if not has("deals", "setup"):
                    conn.exec_driver_sql("ALTER TABLE deals ADD COLUMN setup TEXT")
                conn.execute(update(meta_table).where(meta_table.c.name == "format_version")
                             .values(value=json.dumps(FORMAT_VERSION)))

    # --- writing ---------------------------------------------------------------------
    def create(self, table) -> None:
        """Store a new game (`web.table_base.WebTable`) with its deals so far."""
        row = self._game_row(table)
        with self._transaction() as cursor:
            cursor.execute(_INSERT_GAME, (
                row["id"], row["owner"], row["game"], row["seed"], row["bots"], row["version"], row["status"],
                row["winner"], row["score_ew"], row["score_ns"], row["n_deals"],
                row["updated"], row["updated"]))
            cursor.executemany(_PUT_DEAL, [self._deal_row(table, r) for r in table.records])

    def save(self, table, from_version: int, first_deal: int) -> None:
        """Store `table`'s new state, changed from version `from_version`: its game row and
        its deals from number `first_deal` on. Raises `StoreConflict` (and writes nothing)
        when the stored game is no longer at `from_version`."""
        row = self._game_row(table)
        with self._transaction() as cursor:
            cursor.execute(_UPDATE_GAME, (
                row["version"], row["status"], row["winner"], row["score_ew"],
                row["score_ns"], row["n_deals"], row["updated"], table.id, from_version))
            if cursor.rowcount != 1:
                raise StoreConflict(f"game {table.id} changed since it was read")
            cursor.executemany(_PUT_DEAL, [self._deal_row(table, r)
                                           for r in table.records[first_deal:]])

    def claim(self, game_id: str, owner: str) -> bool:
        """Give the ownerless game `game_id` to `owner`; False if it has an owner already."""
        with self._transaction() as cursor:
            cursor.execute(_CLAIM_GAME, (owner, game_id))
            return cursor.rowcount == 1

    @contextmanager
    def _transaction(self):
        """A cursor on the writer, committed when the block ends, rolled back if it raises."""
        with self._writing:
            cursor = self._writer.cursor()
            try:
                yield cursor
            except BaseException:
                self._writer.rollback()
                raise
            else:
                self._writer.commit()
            finally:
                cursor.close()

    @staticmethod
    def _game_row(table) -> dict:
        return {"id": table.id, "owner": table.owner, "game": table.game, "seed": table.seed,
                "bots": table.bots.spec,
                "version": table.version, "status": table.status, "winner": table.winner,
                "score_ew": table.score["EW"], "score_ns": table.score["NS"],
                "n_deals": len(table.records), "updated": int(time.time())}

    @staticmethod
    def _deal_row(table, record) -> tuple:
        setup = getattr(record, "setup", None)  # a Setback deal has none
        return (table.id, record.number, record.dealer, json.dumps(record.hands),
                " ".join(record.moves), None if setup is None else json.dumps(setup))

    # --- reading ---------------------------------------------------------------------
    def load(self, game_id: str) -> dict | None:
        """`{"id", "game", "seed", "bots", "version", ..., "deals": [{"dealer", "hands",
        "moves", "setup"}]}` of a stored game, or None if there is none with that id."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games_table).where(games_table.c.id == game_id)).first()
            if row is None:
                return None
            deals = conn.execute(select(deals_table)
                                 .where(deals_table.c.game_id == game_id)
                                 .order_by(deals_table.c.number)).all()
        game = dict(row._mapping)
        game["deals"] = [{"dealer": d.dealer, "hands": json.loads(d.hands),
                          "moves": d.moves.split(),
                          "setup": None if d.setup is None else json.loads(d.setup)}
                         for d in deals]
        return game

    def games(self, owner: str, unowned: bool = False, limit: int = 50,
              game: str | None = None) -> list[dict]:
        """`owner`'s most recently played games, newest first (id, status, score, deals,
        times); with `unowned`, the games from before owners too; with `game`, that game's
        only."""
        mine = games_table.c.owner == owner
        if unowned:
            mine = or_(mine, games_table.c.owner.is_(None))
        if game is not None:
            mine = and_(mine, games_table.c.game == game)
        with self.engine.connect() as conn:
            rows = conn.execute(select(games_table).where(mine)
                                .order_by(games_table.c.updated.desc(), games_table.c.id)
                                .limit(limit)).all()
        return [{"id": r.id, "game": r.game, "status": r.status, "winner": r.winner, "bots": r.bots,
                 "score": {"EW": r.score_ew, "NS": r.score_ns}, "deals": r.n_deals,
                 "created": r.created, "updated": r.updated} for r in rows]

    def close(self) -> None:
        """Release the connections."""
        with self._writing:
            self._writer.close()
        self.engine.dispose()
