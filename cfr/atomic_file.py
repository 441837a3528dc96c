"""Writing files that matter atomically: a temporary file beside the target, fsync, rename.

A reader never sees a half-written checkpoint, strategy or database: until the rename, the old
file (or none) is what exists. A failed write (a full disk, say) removes its temporary file,
keeps the old file and raises `WriteFailedError`, one line. A crash (`kill -9`, power loss)
can leave a temporary file `.tmp-<target name>-*` behind; the next writer holding the
target's writer lock (`cfr.file_lock`) removes it with `remove_stale_temporaries`.
"""

from __future__ import annotations

import contextlib
import errno
import glob
import os
import tempfile

from cfr.errors import CfrFileError, WriteFailedError

TEMP_PREFIX = ".tmp-"
# Errors of the write itself (as opposed to bad input read inside the block).
_WRITE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS, errno.EACCES,
                 errno.EPERM}


def temp_prefix(path: str) -> str:
    """The name prefix of `path`'s temporary files (in `path`'s directory)."""
    return f"{TEMP_PREFIX}{os.path.basename(path)}-"


@contextlib.contextmanager
def atomic_path(path: str, suffix: str = ""):
    """Yield a temporary path in `path`'s directory; on success fsync it and rename it to
    `path` (then fsync the directory); on failure remove it. For writers that open the file
    themselves (SQLite, say). A write that fails for lack of space (or another OS write error)
    raises `WriteFailedError` and leaves `path` as it was. A path naming no file (empty, or
    ending in a separator) is refused at once (`CfrFileError`): its temporary file would have
    landed in the parent of the working directory before the rename failed."""
    if not os.path.basename(os.fspath(path)):
        raise CfrFileError(f"{os.fspath(path)!r}: not a file name; nothing was written")
    directory = os.path.dirname(os.path.abspath(path)) or "."
    try:
        fd, tmp = tempfile.mkstemp(prefix=temp_prefix(path), suffix=suffix, dir=directory)
    except OSError as exc:
        raise _write_failed(path, exc) from None
    os.close(fd)
    committing = False
    try:
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp's 0600 would make every output private
        yield tmp
        committing = True  # from here on every OS error is the write's own
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and (committing or exc.errno in _WRITE_ERRNOS):
            raise _write_failed(path, exc) from None
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


def remove_stale_temporaries(path: str) -> list[str]:
    """Delete the temporary files a crashed writer of `path` left beside it; return their
    paths. Call it only while holding `path`'s writer lock: a live writer's temporary file
    looks the same."""
    directory = os.path.dirname(os.path.abspath(path)) or "."
    pattern = os.path.join(glob.escape(directory), glob.escape(temp_prefix(path)) + "*")
    removed = []
    for stale in glob.glob(pattern):
        with contextlib.suppress(OSError):
            os.unlink(stale)
            removed.append(stale)
    return removed


def _write_failed(path: str, exc: OSError) -> WriteFailedError:
    kept = "the previous file is unchanged" if os.path.exists(path) else "nothing was written"
    return WriteFailedError(f"cannot write {path}: {exc.strerror or exc}; {kept}")


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
