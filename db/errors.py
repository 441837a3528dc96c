"""The one error the strategy database reports: a file that cannot be used, in one line."""

from __future__ import annotations

from cfr.errors import CfrFileError


class DatabaseError(CfrFileError):
    """A strategy database (or a strategy file loaded into one) that cannot be used: missing,
    foreign, truncated, corrupt, of a newer schema, or inconsistent with its other inputs.

    The message is one line naming the file and what is wrong. It subclasses `CfrFileError`,
    which the command line already reports as bad input (one line on stderr, status 2).
    """
