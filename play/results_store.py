"""The rating ladder's results store: every duplicate pair ever played, in one SQLite file.

Tables (format FORMAT_NAME, version STORE_VERSION, both in `meta`):

- `meta(name TEXT PRIMARY KEY, value TEXT)`: `format`, `version`, `created_utc` and (version
  2) `game`, the game whose players the store rates (`setback`, `euchre` or `spades`: the
  games with a tournament in the registry; a version-1 store,
  written before the choice, is Setback's). One game a store: opening it for another game is
  refused in one line, so a Euchre player can never be rated against a Setback one.
- `players(id INTEGER PRIMARY KEY, spec TEXT, fingerprint TEXT, UNIQUE(spec, fingerprint))`:
  a player's identity is its spec string as written plus the fingerprint of the files it
  reads (`fingerprint`), so a rebuilt database under the same name is a new player, never
  silently the old one.
- `matches(id INTEGER PRIMARY KEY, a, b, seed TEXT, rules TEXT, max_deals INTEGER,
  UNIQUE(a, b, seed, rules, max_deals))`: one row per matchup (player a on East-West in the
  first game of every pair, as `play.tournament` plays them). The seed is text because seeds
  go up to 2**64 - 1, beyond SQLite's signed integers. `rules` is the game's rules version
  (`play.tournament.TournamentGame.rules_version`). A Euchre game to 10 and a Spades game to
  500 always end, so their matches record `max_deals` 0.
- `pairs(match, game, score REAL, rows BLOB, PRIMARY KEY(match, game)) WITHOUT ROWID`: pair
  `game` of the match (pair k is played on the deals of game k of the tournament `seed`),
  a's pair score (the game's `TournamentGame.pair_scores`: wins / 2, an abandoned Setback game
  half a win) and the pair's two tournament rows (Setback:
  `games.setback.play.tournament.COLUMNS`; Euchre and Spades: `play.tournament`'s points rows
  WON, HANDS, POINTS_A, POINTS_B; little-endian int64) for any later analysis.

A match of N games is pairs 0..N-1 of its matchup, so the number of games is not part of the
matchup's key: asking for more games plays only the pairs not stored yet, asking for fewer
reads a prefix, and nothing stored is ever played again. Pairs are written in one
transaction per chunk, so Ctrl-C or a crash loses at most the chunk being played.

A file that is not this format, or is corrupt, or is of a newer version, is refused in one
line (`StoreError`).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time

import numpy as np

FORMAT_NAME = "setback-cfr/results"
STORE_VERSION = 2  # 2: the store records its game (meta `game`); 1 is read as Setback's
# A game's rules version (its `TournamentGame.rules_version`, e.g. "setback-1") names its rules
# as its tournament plays them (deal streams, scoring, the seat and seed layout of duplicate
# pairs); a game bumps it when any of those change, and stored results of an older version are
# then not reused.
DEFAULT_GAME = "setback"
FINGERPRINT_BYTES = 1 << 20  # hashed at each end of a file

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY, spec TEXT NOT NULL, fingerprint TEXT NOT NULL,
    UNIQUE (spec, fingerprint));
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY, a INTEGER NOT NULL REFERENCES players(id),
    b INTEGER NOT NULL REFERENCES players(id), seed TEXT NOT NULL, rules TEXT NOT NULL,
    max_deals INTEGER NOT NULL, UNIQUE (a, b, seed, rules, max_deals));
CREATE TABLE IF NOT EXISTS pairs (
    match INTEGER NOT NULL REFERENCES matches(id), game INTEGER NOT NULL,
    score REAL NOT NULL, rows BLOB NOT NULL, PRIMARY KEY (match, game)) WITHOUT ROWID;
"""


class StoreError(ValueError):
    """A results store that cannot be used (not ours, corrupt, newer)."""


# --- player identity -------------------------------------------------------------------
BARE_NAMES = {"random", "heuristic", "pimc", "pimc-pi", "sds", "ismcts"}


def referenced_files(spec: str) -> list[str]:
    """The existing files a player spec names, in order: every comma-separated piece of the
    spec and every tail of a piece after a ':' or '=' (so `db:x.db`, `strategy:a,b`,
    `pimc-pi:20:db:y.db`, `tables=t.npz` and `bid=db:z.db` all yield their paths), kept
    when it is a regular file (bare player names never count, even if such a file exists)."""
    found: list[str] = []
    for piece in spec.split(","):
        candidates = [piece] + [piece[k + 1:] for k, ch in enumerate(piece) if ch in ":="]
        for candidate in candidates:
            text = candidate.strip()
            if text and text.lower() not in BARE_NAMES and os.path.isfile(text) \
                    and text not in found:
                found.append(text)
                break
    return found


def file_fingerprint(path: str) -> str:
    """Size and SHA-256 of the first and last MiB of `path` (all of it when smaller): any
    rebuild changes it in practice (a database's metadata, with its creation time, sits in
    its first pages; a strategy file's header and trailer at its ends) while the cost stays
    two MiB read whatever the file's size. The modification time is left out on purpose:
    copying or touching a file does not make it another player."""
    digest = hashlib.sha256()
    size = os.path.getsize(path)
    digest.update(str(size).encode())
    with open(path, "rb") as handle:
        digest.update(handle.read(FINGERPRINT_BYTES))
        if size > FINGERPRINT_BYTES:
            handle.seek(max(FINGERPRINT_BYTES, size - FINGERPRINT_BYTES))
            digest.update(handle.read(FINGERPRINT_BYTES))
    return digest.hexdigest()[:16]


def fingerprint(spec: str) -> str:
    """The fingerprint of the files `spec` reads ('' for players that read none)."""
    parts = [file_fingerprint(path) for path in referenced_files(spec)]
    return "+".join(parts)


# --- the store -------------------------------------------------------------------------
class ResultsStore:
    """An open results store (module docstring). Create or open with `ResultsStore(path)`
    (Setback's players) or `ResultsStore(path, "euchre")` (any game with a tournament); a
    store of another game is a StoreError."""

    def __init__(self, path: str, game: str = DEFAULT_GAME):
        from games import registry

        rated = registry.names(("tournament",))
        if game not in rated:
            raise StoreError(f"no rating for game {game!r}: expected one of "
                             f"{', '.join(rated)}")
        from play.tournament import tournament_game

        self.path = path
        self.game = game
        self.rules = tournament_game(game).rules_version
        existed = os.path.exists(path)
        if existed and not os.path.isfile(path):
            raise StoreError(f"{path}: not a file")
        try:
            self.conn = sqlite3.connect(path, timeout=30, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: cannot open the results store ({_first_line(exc)})") \
                from None
        try:
            if existed and os.path.getsize(path) > 0:
                self._check()
            else:
                self._create()
        except BaseException:
            self.conn.close()
            raise

    def _create(self) -> None:
        try:
            with self._transaction():
                for statement in SCHEMA.split(";"):  # not executescript: it would commit
                    if statement.strip():
                        self.conn.execute(statement)
                self.conn.executemany(
                    "INSERT OR REPLACE INTO meta VALUES (?, ?)",
                    [(k, json.dumps(v)) for k, v in (
                        ("format", FORMAT_NAME), ("version", STORE_VERSION),
                        ("game", self.game), ("created_utc", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())))])
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot create the results store "
                             f"({_first_line(exc)})") from None

    def _check(self) -> None:
        try:
            meta = dict(self.conn.execute("SELECT name, value FROM meta").fetchall())
            fmt = json.loads(meta.get("format", "null"))
            version = json.loads(meta.get("version", "null"))
        except sqlite3.DatabaseError as exc:
            text = _first_line(exc)
            if "no such table" in text or "not a database" in text:
                raise StoreError(f"{self.path}: not a setback-cfr results store") from None
            raise StoreError(f"{self.path}: corrupt results store ({text})") from None
        except (TypeError, ValueError):
            raise StoreError(f"{self.path}: corrupt results store (bad metadata)") from None
        if fmt != FORMAT_NAME:
            raise StoreError(f"{self.path}: not a setback-cfr results store")
        if not isinstance(version, int) or version > STORE_VERSION:
            raise StoreError(f"{self.path}: results store version {version} is newer than "
                             f"this program reads ({STORE_VERSION}); upgrade setback-cfr")
        try:
            for table in ("players", "matches", "pairs"):
                self.conn.execute(f"SELECT count(*) FROM {table}").fetchone()
            check = self.conn.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: corrupt results store ({_first_line(exc)})") \
                from None
        if check != "ok":
            raise StoreError(f"{self.path}: corrupt results store ({check})")
        try:
            stored = json.loads(meta["game"]) if "game" in meta else DEFAULT_GAME
        except (TypeError, ValueError):
            raise StoreError(f"{self.path}: corrupt results store (bad game)") from None
        if stored != self.game:
            raise StoreError(f"{self.path}: a results store of {stored} players, not "
                             f"{self.game}: rate {self.game} players in another --store")

    def _transaction(self):
        return _Transaction(self.conn, self.path)

    # --- players and matches ----------------------------------------------------------
    def player_id(self, spec: str, print_: str) -> int:
        """The id of the player (spec, fingerprint), added if new."""
        with self._transaction():
            self.conn.execute("INSERT OR IGNORE INTO players (spec, fingerprint) VALUES (?, ?)",
                              (spec, print_))
            return int(self.conn.execute(
                "SELECT id FROM players WHERE spec = ? AND fingerprint = ?",
                (spec, print_)).fetchone()[0])

    def match_id(self, a: int, b: int, seed: int, max_deals: int,
                 create: bool = True) -> int | None:
        """The id of the matchup (a on East-West first, seed, the game's rules version,
        max_deals); added if new and `create`, else None when absent."""
        key = (a, b, str(int(seed)), self.rules, int(max_deals))
        query = ("SELECT id FROM matches WHERE a = ? AND b = ? AND seed = ? AND rules = ? "
                 "AND max_deals = ?")
        row = self.conn.execute(query, key).fetchone()
        if row is not None or not create:
            return None if row is None else int(row[0])
        with self._transaction():
            self.conn.execute("INSERT OR IGNORE INTO matches (a, b, seed, rules, max_deals) "
                              "VALUES (?, ?, ?, ?, ?)", key)
            return int(self.conn.execute(query, key).fetchone()[0])

    # --- pairs --------------------------------------------------------------------------
    def stored_games(self, match: int | None, games: int) -> set[int]:
        """The pair indices below `games` already stored for `match`."""
        if match is None:
            return set()
        rows = self.conn.execute("SELECT game FROM pairs WHERE match = ? AND game < ?",
                                 (match, int(games))).fetchall()
        return {int(r[0]) for r in rows}

    def scores(self, match: int | None, games: int) -> np.ndarray:
        """The pair scores of pairs 0..games-1 of `match` that are stored, in pair order."""
        if match is None:
            return np.zeros(0)
        rows = self.conn.execute("SELECT score FROM pairs WHERE match = ? AND game < ? "
                                 "ORDER BY game", (match, int(games))).fetchall()
        return np.array([r[0] for r in rows], dtype=np.float64)

    def add_pairs(self, match: int, games: list[int], rows: np.ndarray) -> None:
        """Store pairs `games` of `match` in one transaction; `rows` holds their tournament
        rows, two per pair (a on East-West, then swapped), as the one tournament loop
        (`play.tournament.run_tournament`) returns them for the store's game."""
        from play.tournament import tournament_game

        plugin = tournament_game(self.game)
        rows = np.asarray(rows, dtype="<i8").reshape(len(games), 2, plugin.width)
        score = plugin.pair_scores(rows)
        with self._transaction():
            self.conn.executemany(
                # OR IGNORE: a pair is deterministic, so another run on the same store that
                # stored it meanwhile stored the same result.
                "INSERT OR IGNORE INTO pairs (match, game, score, rows) VALUES (?, ?, ?, ?)",
                [(match, int(g), float(s), r.tobytes()) for g, s, r in zip(games, score, rows)])

    def counts(self) -> dict:
        """Rows per table (players, matches, pairs)."""
        return {t: int(self.conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0])
                for t in ("players", "matches", "pairs")}

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()


class _Transaction:
    """BEGIN IMMEDIATE .. COMMIT (ROLLBACK on any exception; a full disk is a StoreError).
    Re-entrant: an inner block joins the outer transaction."""

    def __init__(self, conn, path):
        self.conn, self.path = conn, path
        self.outer = False

    def __enter__(self):
        if not self.conn.in_transaction:
            try:
                self.conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:  # locked by another writer for 30 s, read-only, ...
                raise StoreError(f"cannot write {self.path}: {_first_line(exc)}") from None
            self.outer = True
        return self

    def __exit__(self, kind, exc, tb):
        if not self.outer:
            return False
        if kind is None:
            try:
                self.conn.execute("COMMIT")
            except sqlite3.Error as error:
                self.conn.execute("ROLLBACK")
                raise StoreError(f"cannot write {self.path}: {_first_line(error)}") from None
        else:
            self.conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):  # a full disk, a read-only file: one line
                raise StoreError(f"cannot write {self.path}: {_first_line(exc)}; the pairs "
                                 "stored before are kept") from None
        return False


def _first_line(exc: BaseException) -> str:
    text = str(exc)
    return text.splitlines()[0] if text else type(exc).__name__
