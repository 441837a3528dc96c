"""The refusals of a web table, whatever its game: each carries its HTTP status and a one-line
message (`web.app` answers `{"error": message}` with that status)."""

from __future__ import annotations


class TableError(Exception):
    """A request the game refuses; `status` is its HTTP status, the message one line."""

    status = 400


class IllegalMove(TableError):
    """A move the rules do not allow now (or not a move at all)."""

    status = 422


class Conflict(TableError):
    """A move made against a state the game has left (another tab, or the game is over)."""

    status = 409
