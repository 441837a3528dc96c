"""Fuzz every input boundary with the test suite's generators, many more cases per boundary.

    nice -n 15 python bench/fuzz.py                 # 10,000 cases per boundary
    nice -n 15 python bench/fuzz.py --cases 500 --only checkpoint

The boundaries and their rules are tests/fuzz_cases.py's (replay JSON, checkpoint, strategy
file, database, run.json, command-line options): every case must be accepted (status 0) or
refused with the documented status and one line, never a traceback, never a changed file.
Prints, per boundary, the cases run, how they ended (by exit status or refusal) and the rule
violations found (the first of each kind in full); exits 1 if there was any.
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
                    problem = boundary.check(case)
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
