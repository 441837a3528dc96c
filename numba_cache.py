"""Numba's on-disk cache, in a directory named by a digest of every source file of the project.

Numba checks a cached function against its own file only: a compiled function that calls
(and inlines) a function of another module keeps its old machine code when only that other
module changes (numba issues #1833 and #9483). After a `git pull` or an edit of an editable
install, that would silently run the old code. Keying the whole cache on the digest of all
the project's sources makes any change of any file a fresh cache (compiled again once), so
stale code can never run. Every package's `__init__` imports this module first, before any
module of it imports numba's compiled functions.

The directory is `$NUMBA_CACHE_DIR` when the user sets it (then no digest applies), else
`$XDG_CACHE_HOME/setback-cfr/numba/<digest>` (`~/.cache/...`); the four newest digests are
kept, older ones removed once a week old. Where that cannot be written, numba's default stays.

While numba compiles, Python's cyclic garbage collector is paused
(`pause_collector_while_compiling`, whatever the directory): a compile makes hundreds of
thousands of short-lived objects, and the full collections they trigger, each walking every
object of the process, were 7 to 8 % of a cold build (issue 55's bench,
`bench/cold_build.py`). The garbage is collected as usual once the compile ends. numba is not
imported for it: the pause is registered when numba's own import reaches its event module, so
a command that never compiles does not load numba.
"""

from __future__ import annotations

import gc
import hashlib
import importlib.abc
import importlib.util
import os
import pathlib
import shutil
import sys
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
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba already imported: its locators read the config object
        config.CACHE_DIR = str(target)


def _pause_collector(event_module) -> None:
    """Register with numba's events (`event_module`, numba.core.event) a listener that turns
    the garbage collector off from the start of the outermost compile to its end (compiles
    nest: a function's callees compile while it is typed), unless it was off already."""

    class PauseCollector(event_module.Listener):
        """The collector off while a compile runs (module docstring)."""

        depth = 0
        was_enabled = False

        def on_start(self, event):
            if self.depth == 0:
                self.was_enabled = gc.isenabled()
                gc.disable()
            self.depth += 1

        def on_end(self, event):
            self.depth -= 1
            if self.depth == 0 and self.was_enabled:
                gc.enable()

    event_module.register("numba:compile", PauseCollector())


class _OnNumbaEvents(importlib.abc.MetaPathFinder):
    """Calls `_pause_collector` once numba's event module is loaded (numba imports it itself,
    early): the one import of it goes through here, then this finder steps aside."""

    def find_spec(self, name, path=None, target=None):
        """numba.core.event's own spec, its loading followed by `_pause_collector`; None for
        every other module."""
        if name != "numba.core.event":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        execute = spec.loader.exec_module

        def exec_module(module):
            execute(module)
            _pause_collector(module)

        spec.loader.exec_module = exec_module
        return spec


_pausing = []  # one entry once `pause_collector_while_compiling` ran in this process


def pause_collector_while_compiling() -> None:
    """Pause the garbage collector during numba's compiles (module docstring), once a process."""
    if _pausing:
        return
    _pausing.append(True)
    if "numba.core.event" in sys.modules:
        _pause_collector(sys.modules["numba.core.event"])
    else:
        sys.meta_path.insert(0, _OnNumbaEvents())


use_source_keyed_cache()
pause_collector_while_compiling()
