"""One writer at a time: an advisory `flock` lock on a small file that holds the writer's pid.

`WriterLock(path, what)` takes an exclusive, non-blocking `fcntl.flock` on `path` (created if
needed) and writes this process's pid into it; a second writer (another process, or the same
process through another open) is refused at once with `LockedError`, one line naming the
holder's pid. The kernel drops the lock when the holder's file is closed, so a process killed
by SIGKILL never leaves a stale lock: the lock file may stay behind, but nobody holds it.

On release the holder deletes the lock file while still holding the lock. A waiter that opened
the old file just before may then lock a deleted inode; it therefore checks, after locking,
that `path` still names the inode it locked, and starts again otherwise. Readers take no lock.
"""

from __future__ import annotations

import errno
import fcntl
import os

from cfr.errors import CfrFileError


class LockedError(CfrFileError):
    """Another process holds the writer lock (one line naming its pid)."""


class WriterLock:
    """Context manager holding an exclusive writer lock on `path` (see the module docstring).

    `what` names the thing locked in the refusal, e.g. "run directory runs/a"; `on_acquire`
    (optional) runs once the lock is held, e.g. to clear a crashed writer's leftovers."""

    def __init__(self, path: str, what: str, on_acquire=None):
        self.path = path
        self.what = what
        self.on_acquire = on_acquire
        self._fd: int | None = None

    def acquire(self) -> "WriterLock":
        """Take the lock or raise `LockedError` (`CfrFileError` if the file cannot be made)."""
        for _ in range(100):  # only a release racing this open makes us retry
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise CfrFileError(f"{self.path}: cannot create the lock file "
                                   f"({exc.strerror})") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                holder = _read_pid(fd)
                os.close(fd)
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise CfrFileError(f"{self.path}: cannot lock ({exc.strerror})") from None
                who = f"process {holder}" if holder else "another process"
                raise LockedError(f"{self.what} is in use by {who} (lock {self.path}); one "
                                  "writer at a time: wait for it to finish or stop it") from None
            if _same_file(fd, self.path):
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
                self._fd = fd
                if self.on_acquire is not None:
                    try:
                        self.on_acquire()
                    except BaseException:
                        self.release()
                        raise
                return self
            os.close(fd)  # we locked a file its holder had just deleted: try again
        raise CfrFileError(f"{self.path}: cannot lock (the lock file keeps changing)")

    def release(self) -> None:
        """Delete the lock file and drop the lock (a no-op when not held)."""
        if self._fd is None:
            return
        try:
            if _same_file(self._fd, self.path):
                os.unlink(self.path)
        except OSError:
            pass  # the lock itself is what matters; a leftover file is harmless
        finally:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> "WriterLock":
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii").strip()
        return int(text) if text.isdigit() else None
    except (OSError, UnicodeDecodeError):
        return None


def _same_file(fd: int, path: str) -> bool:
    try:
        st = os.stat(path)
    except OSError:
        return False
    mine = os.fstat(fd)
    return (st.st_dev, st.st_ino) == (mine.st_dev, mine.st_ino)
