"""Errors the CFR core reports to its callers."""

from __future__ import annotations


class CfrFileError(Exception):
    """A checkpoint file that cannot be read: truncated, corrupt, foreign or a newer version.

    The message is one line naming the file and what is wrong; the CLI prints it and exits 2.
    """


class TableFullError(MemoryError):
    """Growing the info-set table would exceed its configured memory cap."""


class WriteFailedError(Exception):
    """An output file could not be written (disk full, read-only, ...): the previous file is
    left as it was. One line; the command line exits with status 1 (not bad input)."""
