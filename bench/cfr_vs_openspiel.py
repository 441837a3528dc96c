"""Benchmark: our vanilla CFR on Leduc poker against OpenSpiel's C++ `pyspiel.CFRSolver`.

Prints CPU seconds per iteration of each, measured in the same run, and their ratio; then the
numba compile time of a first solve in a fresh process with an empty on-disk cache, and with
the cache warm. Usage:

    python bench/cfr_vs_openspiel.py [--iterations N] [--openspiel-iterations M]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

FIRST_CALL = """
import time
t0 = time.perf_counter()
from cfr.solver import Solver
from games.leduc import GAME
t1 = time.perf_counter()
for use_tree in (True, False):
    s = Solver(GAME, "cfr", use_tree=use_tree)
    s.iterate(1)
from cfr.exploitability import Evaluator
from cfr.tree import build_tree
Evaluator(build_tree(GAME))(s.table)
t2 = time.perf_counter()
print(f"{t1 - t0:.3f} {t2 - t1:.3f}")
"""


def first_call_seconds(cache_dir: str) -> tuple[float, float]:
    """(import seconds, first solve + evaluation seconds) in a fresh interpreter."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", FIRST_CALL], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1])


def cpu_per_iteration(step, iterations: int) -> float:
    """CPU seconds per call of `step()`, over `iterations` calls."""
    t = time.process_time()
    for _ in range(iterations):
        step()
    return (time.process_time() - t) / iterations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=2000,
                        help="our iterations to time (default 2000)")
    parser.add_argument("--openspiel-iterations", type=int, default=100,
                        help="OpenSpiel iterations to time (default 100)")
    args = parser.parse_args()

    import pyspiel

    from cfr.solver import Solver
    from games.leduc import GAME

    tree_solver = Solver(GAME, "cfr", use_tree=True)
    walk_solver = Solver(GAME, "cfr")
    tree_solver.iterate(3)  # compile / load, and fill the table
    walk_solver.iterate(3)
    ours_tree = cpu_per_iteration(lambda: tree_solver.iterate(1), args.iterations)
    ours_walk = cpu_per_iteration(lambda: walk_solver.iterate(1), max(1, args.iterations // 4))

    game = pyspiel.load_game("leduc_poker")
    theirs = pyspiel.CFRSolver(game)
    theirs.evaluate_and_update_policy()
    openspiel = cpu_per_iteration(theirs.evaluate_and_update_policy, args.openspiel_iterations)

    print("Leduc poker, vanilla CFR, alternating updates, CPU time per iteration")
    print(f"  pyspiel.CFRSolver (C++)           {openspiel * 1e3:9.3f} ms")
    print(f"  ours, precomputed tree            {ours_tree * 1e3:9.3f} ms   "
          f"{openspiel / ours_tree:6.1f}x faster")
    print(f"  ours, game-interface walk         {ours_walk * 1e3:9.3f} ms   "
          f"{openspiel / ours_walk:6.1f}x faster")

    with tempfile.TemporaryDirectory() as cache:
        cold = first_call_seconds(cache)
        warm = first_call_seconds(cache)
    print("numba compile, fresh process: import + first solve/evaluation")
    print(f"  empty cache (compiles)            {cold[0]:6.2f} s + {cold[1]:6.2f} s")
    print(f"  warm on-disk cache                {warm[0]:6.2f} s + {warm[1]:6.2f} s")


if __name__ == "__main__":
    main()
