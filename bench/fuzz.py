"""Fuzz every input boundary with the test suite's generators, many more cases per boundary.

    nice -n 15 python bench/fuzz.py                 # 10,000 cases per boundary
    nice -n 15 python bench/fuzz.py --cases 500 --only checkpoint

The boundaries and their rules are tests/fuzz_cases.py's (replay JSON, checkpoint, strategy
file, database, run.json, command-line options): every case must be accepted (status 0) or
refused with the documented status and one line, never a traceback, never a changed file.
Prints, per boundary, the cases run, how they ended (by exit status or refusal) and the rule
violations found (the first of each kind in full); exits 1 if there was any.

Every case runs confined to the boundary's temporary directory: the fuzzed values that name a
path outside it are re-rooted inside it (`CliBoundary.confined`), and an audit hook
(`Confinement`) refuses, and counts as a violation, anything a case would write elsewhere (a
file opened for writing, a directory made, a rename, a removal, an SQLite file opened for
writing); numba's and matplotlib's caches and compiled Python files excepted.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]


class Confinement:
    """An audit hook (`sys.addaudithook`) that, while `inside(folder)` holds, refuses with
    PermissionError every write outside `folder` and the caches, and records it in `escapes`.
    Python's audit events see every write made through Python (open, os.*, shutil, sqlite3);
    a write made by C code on its own (SQLite's journal beside a database it was allowed to
    open) follows a write the hook has already judged."""

    WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
    PATH_EVENTS = {"os.mkdir": (0,), "os.remove": (0,), "os.rmdir": (0,), "os.rename": (0, 1),
                   "os.replace": (0, 1), "os.link": (0, 1), "os.symlink": (1,),
                   "os.truncate": (0,), "shutil.rmtree": (0,), "shutil.move": (0, 1),
                   "shutil.copyfile": (1,), "os.utime": (0,), "os.chmod": (0,)}

    def __init__(self):
        import matplotlib

        import numba_cache  # noqa: F401  (sets NUMBA_CACHE_DIR)

        self.folder = None
        self.escapes: list[str] = []
        self.caches = [os.path.realpath(c) for c in (
            os.environ.get("NUMBA_CACHE_DIR"), matplotlib.get_cachedir(),
            matplotlib.get_configdir()) if c]
        self.allowed: list[str] = []
        sys.addaudithook(self._hook)

    def inside(self, folder: str):
        """Confine the writes to `folder` (and the caches) from now on."""
        self.folder = os.path.realpath(folder)
        self.allowed = [self.folder] + self.caches

    def release(self) -> None:
        """Stop confining."""
        self.folder = None

    def _allowed(self, path) -> bool:
        if isinstance(path, int) or path is None:
            return True  # a file descriptor: its opening was judged
        path = os.fsdecode(path)
        if path in ("", "/dev/null") or "__pycache__" in path:
            return True
        full = os.path.realpath(path)
        return any(full == a or full.startswith(a + os.sep) for a in self.allowed)

    def _hook(self, event: str, args) -> None:
        if self.folder is None:
            return
        if event == "open":
            path, mode, flags = args
            writing = (flags or 0) & self.WRITE_FLAGS or any(c in (mode or "") for c in "wax+")
            paths = [path] if writing else []
        elif event == "sqlite3.connect":
            database = os.fsdecode(args[0]) if not isinstance(args[0], int) else ""
            if database.startswith("file:"):
                database, _, query = database[5:].partition("?")
                if "mode=ro" in query:
                    return
            paths = [] if database == ":memory:" else [database]
        elif event in self.PATH_EVENTS:
            paths = [args[i] for i in self.PATH_EVENTS[event] if i < len(args)]
        else:
            return
        for path in paths:
            if not self._allowed(path):
                self.escapes.append(f"{event} {os.fsdecode(path)!r}")
                raise PermissionError(f"bench/fuzz.py: a write outside {self.folder}: "
                                      f"{os.fsdecode(path)!r}")


def main() -> int:
    """Run the boundaries and print the counts."""
    from hypothesis import HealthCheck, given, settings

    from fuzz_cases import BOUNDARIES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000, help="cases per boundary")
    parser.add_argument("--seed", type=int, default=0, help="hypothesis seed (default 0)")
    parser.add_argument("--only", action="append", default=None, metavar="NAME",
                        help="run only the boundaries whose name contains NAME")
    args = parser.parse_args()
    confinement = Confinement()
    total_problems = 0
    for boundary_class in BOUNDARIES:
        boundary = boundary_class()
        if args.only and not any(n in boundary.name for n in args.only):
            continue
        with tempfile.TemporaryDirectory() as workdir:
            cwd = os.getcwd()
            os.chdir(workdir)  # relative paths among the fuzzed options land here
            try:
                boundary.setup(workdir)
                ran, problems = [0], collections.Counter()
                examples = {}
                start = time.perf_counter()

                @settings(max_examples=args.cases, deadline=None, database=None,
                          derandomize=False, suppress_health_check=list(HealthCheck))
                @given(case=boundary.cases())
                def one(case):
                    ran[0] += 1
                    if ran[0] % 1000 == 0:  # partial counts, for runs cut short
                        print(f"  {boundary.name}: {ran[0]:,} cases, "
                              f"{sum(problems.values())} problems", flush=True)
                    del confinement.escapes[:]
                    confinement.inside(workdir)
                    try:
                        problem = boundary.check(case)
                    finally:
                        confinement.release()
                    if confinement.escapes:  # last: the line a problem is counted by
                        problem = (f"{problem or ''}\nwrote outside its directory: "
                                   f"{confinement.escapes[0]}")
                    if problem:
                        kind = re.sub(r"\d+", "N", problem.strip().splitlines()[-1])[:120]
                        problems[kind] += 1
                        examples.setdefault(kind, (case, problem))

                from hypothesis import seed as hypothesis_seed

                hypothesis_seed(args.seed)(one)()
                seconds = time.perf_counter() - start
            finally:
                os.chdir(cwd)
        total_problems += sum(problems.values())
        print(f"{boundary.name:<18} {ran[0]:>7,} cases  {sum(problems.values()):>5} problems  "
              f"{seconds:7.1f} s", flush=True)
        for kind, count in problems.most_common():
            case, problem = examples[kind]
            print(f"    {count:>6} x {kind}\n        e.g. {str(case)[:200]!r}\n"
                  f"        {problem[-1500:]}")
    return 1 if total_problems else 0


if __name__ == "__main__":
    sys.exit(main())
