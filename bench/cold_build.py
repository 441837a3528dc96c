"""The numba cache's cold build, two checkouts side by side (issue 55: "no more than 1.2x").

A cold build is what a fresh machine or a changed source pays before its first game: every
compiled function used by a workload compiled again, with an empty cache. For each checkout
(`--tree`, the first is the reference), the workload's commands run in a fresh process with an
empty `NUMBA_CACHE_DIR` (cold), then again with the cache they left (warm); the compile cost is
cold minus warm. The checkouts alternate within each repetition, so a loaded machine slows both
alike; the figures are the ratios of each checkout to the first, per repetition and over all.

The default workload is what issue 55 rewrote: one game of the oracle (the double-dummy solver
and the card values) against the heuristic in each of Setback, Euchre and Spades, and a replay
of each game's rules (`tournament --game G --ew oracle --ns heuristic --games 1`). It is not
the whole test suite's compile time; `--command` replaces it (each a `setback-cfr` argument
string, run as `python -m cli.main ARGS` in the checkout).

    python bench/cold_build.py --tree ../base --tree . --repeat 2
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shlex
import subprocess
import sys
import tempfile
import time

DEFAULT_COMMANDS = tuple(
    f"tournament --game {game} --ew oracle --ns heuristic --games 1 --seed 3 --no-progress"
    for game in ("setback", "euchre", "spades"))


def run_workload(tree: pathlib.Path, commands: list[str], cache: str) -> float:
    """Wall seconds of the workload's commands run one after another in `tree`, each in a
    fresh process with `cache` as its numba cache; a failing command stops the bench."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(tree))
    start = time.perf_counter()
    for command in commands:
        done = subprocess.run([sys.executable, "-m", "cli.main", *shlex.split(command)],
                              cwd=tree, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{tree}: `{command}` exited {done.returncode}: "
                             f"{done.stderr.strip().splitlines()[-1:]}")
    return time.perf_counter() - start


def main(argv=None) -> int:
    """Measure and print the cold and warm times and the compile-cost ratios."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", action="append", required=True,
                        help="a checkout (give two or more; the first is the reference)")
    parser.add_argument("--command", action="append",
                        help="a setback-cfr argument string of the workload (repeatable; "
                             "default: the oracle against the heuristic, one game a game)")
    parser.add_argument("--repeat", type=int, default=2, help="repetitions (default 2)")
    args = parser.parse_args(argv)
    trees = [pathlib.Path(t).resolve() for t in args.tree]
    if len(trees) < 2:
        parser.error("give at least two --tree checkouts to compare")
    for tree in trees:
        if not (tree / "cli" / "main.py").is_file():
            parser.error(f"{tree}: not a checkout of this project (no cli/main.py)")
    if args.repeat < 1:
        parser.error(f"--repeat {args.repeat}: expected 1 or more")
    commands = args.command or list(DEFAULT_COMMANDS)
    totals = {t: [0.0, 0.0] for t in trees}
    for r in range(args.repeat):
        for tree in trees:
            with tempfile.TemporaryDirectory(prefix="cold-build-") as cache:
                cold = run_workload(tree, commands, cache)
                warm = run_workload(tree, commands, cache)
            totals[tree][0] += cold
            totals[tree][1] += warm
            print(f"repeat {r + 1}: {tree}: cold {cold:.1f} s, warm {warm:.1f} s, "
                  f"compile {cold - warm:.1f} s", flush=True)
    ref_cold, ref_warm = totals[trees[0]]
    for tree in trees:
        cold, warm = totals[tree]
        print(f"{tree}: cold/reference {cold / ref_cold:.2f}, compile (cold - warm)/reference "
              f"{(cold - warm) / (ref_cold - ref_warm):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
