"""Writing files that matter atomically: a temporary file beside the target, fsync, rename.

A reader never sees a half-written checkpoint, strategy or database: until the rename, the old
file (or none) is what exists; a crash leaves at most a stray `.tmp-*` file behind.
"""

from __future__ import annotations

import contextlib
import os
import tempfile


@contextlib.contextmanager
def atomic_path(path: str, suffix: str = ""):
    """Yield a temporary path in `path`'s directory; on success fsync it and rename it to
    `path` (then fsync the directory); on failure remove it. For writers that open the file
    themselves (SQLite, say)."""
    directory = os.path.dirname(os.path.abspath(path)) or "."
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=suffix, dir=directory)
    os.close(fd)
    os.chmod(tmp, 0o666 & ~_umask())  # mkstemp's 0600 would make every output private
    try:
        yield tmp
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_directory(directory)


@contextlib.contextmanager
def atomic_writer(path: str, suffix: str = ""):
    """Yield a binary file object whose contents replace `path` atomically when the block ends
    without an exception."""
    with atomic_path(path, suffix) as tmp:
        with open(tmp, "wb") as handle:
            yield handle
            handle.flush()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _fsync_directory(directory: str) -> None:
    """Make the rename durable (best effort: some filesystems refuse directory fsync)."""
    with contextlib.suppress(OSError):
        dfd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
