"""Numba's on-disk cache, in a directory named by a digest of every source file of the project.

Numba checks a cached function against its own file only: a compiled function that calls
(and inlines) a function of another module keeps its old machine code when only that other
module changes (numba issues #1833 and #9483). After a `git pull` or an edit of an editable
install, that would silently run the old code. Keying the whole cache on the digest of all
the project's sources makes any change of any file a fresh cache (compiled again once), so
stale code can never run. Every package's `__init__` imports this module first, before any
module of it imports numba's compiled functions.

The directory is `$NUMBA_CACHE_DIR` when the user sets it (then nothing here applies), else
`$XDG_CACHE_HOME/setback-cfr/numba/<digest>` (`~/.cache/...`); the four newest digests are
kept, older ones removed once a week old. Where that cannot be written, numba's default stays.
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import shutil
import time

PACKAGES = ("abstraction", "cfr", "cli", "db", "games", "play", "search", "train", "web")
KEEP = 4  # digest directories always kept (e.g. switching between branches)
STALE_SECONDS = 7 * 24 * 3600  # older ones are removed once unchanged this long
ROOT = pathlib.Path(__file__).resolve().parent


def source_digest(root: pathlib.Path = ROOT) -> str:
    """A digest of the path and contents of every Python file of the project's packages."""
    digest = hashlib.blake2b(digest_size=8)
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_base() -> pathlib.Path:
    """Where the digest directories live."""
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return pathlib.Path(xdg) / "setback-cfr" / "numba"


def _prune(base: pathlib.Path, current: pathlib.Path) -> None:
    # a directory is removed only when both old and not among the newest: a long run started
    # from an older tree may still compile into its own
    others = sorted((p for p in base.iterdir() if p.is_dir() and p != current),
                    key=lambda p: p.stat().st_mtime, reverse=True)
    stale = time.time() - STALE_SECONDS
    for old in others[KEEP - 1:]:
        if old.stat().st_mtime < stale:
            shutil.rmtree(old, ignore_errors=True)


def use_source_keyed_cache() -> None:
    """Point numba's cache at this source tree's digest directory (module docstring)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    try:
        base = cache_base()
        target = base / source_digest()
        fresh = not target.exists()
        target.mkdir(parents=True, exist_ok=True)
        if not os.access(target, os.W_OK):
            return
        if fresh:
            _prune(base, target)
    except OSError:
        return
    os.environ["NUMBA_CACHE_DIR"] = str(target)  # for numba imported later, and children
    import sys

    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba already imported: its locators read the config object
        config.CACHE_DIR = str(target)


use_source_keyed_cache()
