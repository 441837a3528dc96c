"""Exploitability curves with float32 sums against float64, every algorithm, Kuhn and Leduc
(issue 38: the narrower width must show no loss where we use it).

    python bench/number_widths.py [--games kuhn,leduc] [--algorithms cfr,cfr+,lcfr,dcfr,es-mccfr]
                                  [--marks 100,300,1000,3000,10000] [--seed 3]

Each algorithm runs twice from an empty table, the same seed, sums in float64 then float32;
the exploitability of the average strategy is measured at each mark (full-width variants on
the game tree, es-mccfr with the trainer's summed visits). Prints both curves and the ratio
float32 / float64 at each mark. `tests/test_float32_curves.py` holds es-mccfr to 1 % of
float64; the full-width variants are reported, not held (docs/training.md#number-widths).
"""

from __future__ import annotations

import argparse
import importlib
import sys

import numpy as np

from cfr.exploitability import Evaluator
from cfr.solver import ALGORITHMS, ES_MCCFR, Solver
from cfr.tree import build_tree
from cli.solve import GAMES


def curve(game, evaluate, algorithm: str, dtype, marks: list[int], seed: int) -> list[float]:
    """The algorithm's exploitability at each mark, sums kept in `dtype`."""
    if algorithm == ES_MCCFR:
        from cfr.external_sampling import SamplingOptions

        solver = Solver(game, algorithm, seed=seed, dtype=dtype,
                        sampling=SamplingOptions(sum_visits=True))
    else:
        solver = Solver(game, algorithm, seed=seed, dtype=dtype, use_tree=True)
    points = []
    for mark in marks:
        solver.iterate(mark - solver.iteration)
        points.append(float(evaluate(solver.table)[0]))
    return points


def names(text: str) -> list[str]:
    """A comma-separated list (argparse type)."""
    return [t.strip() for t in text.split(",") if t.strip()]


def rising_marks(text: str) -> list[int]:
    """Comma-separated iteration counts, positive and rising (argparse type)."""
    try:
        marks = [int(t) for t in names(text)]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of whole numbers: {text!r}") from None
    if not marks or marks[0] < 1 or any(b <= a for a, b in zip(marks, marks[1:])):
        raise argparse.ArgumentTypeError(f"marks must be positive and rising: {text!r}")
    return marks


def main(argv=None) -> int:
    """Run the curves and print them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=names, default=["kuhn", "leduc"],
                        help="games, comma-separated (default kuhn,leduc)")
    parser.add_argument("--algorithms", type=names, default=list(ALGORITHMS),
                        help=f"algorithms, comma-separated (default {','.join(ALGORITHMS)})")
    parser.add_argument("--marks", type=rising_marks, default=[100, 300, 1000, 3000, 10000],
                        help="iteration counts to measure at (default 100,300,1000,3000,10000)")
    parser.add_argument("--seed", type=int, default=3, help="the runs' seed (default 3)")
    args = parser.parse_args(argv)
    for bad in [g for g in args.games if g not in GAMES] + \
               [a for a in args.algorithms if a not in ALGORITHMS]:
        parser.error(f"unknown game or algorithm {bad!r} (games: {', '.join(GAMES)}; "
                     f"algorithms: {', '.join(ALGORITHMS)})")
    print("game    algorithm  " + "  ".join(f"{m:>21,}" for m in args.marks))
    for game_name in args.games:
        game = importlib.import_module(GAMES[game_name]).GAME
        evaluate = Evaluator(build_tree(game))
        for algorithm in args.algorithms:
            wide = curve(game, evaluate, algorithm, np.float64, args.marks, args.seed)
            narrow = curve(game, evaluate, algorithm, np.float32, args.marks, args.seed)
            cells = "  ".join(f"{w:9.3g} {n:9.3g} {n / w:4.2f}" for w, n in zip(wide, narrow))
            print(f"{game_name:<7} {algorithm:<9}  {cells}", flush=True)
    print("each cell: float64, float32, float32 / float64")
    return 0


if __name__ == "__main__":
    sys.exit(main())
