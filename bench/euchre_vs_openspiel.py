"""Our Euchre engine against OpenSpiel's `euchre` on as many random hands as asked: the driver
of `tests/test_euchre_vs_openspiel.py` (seat to act and legal moves at every decision, the
points at the end), for runs longer than the test suite's 10,000 hands.

    python bench/euchre_vs_openspiel.py [--hands N] [--first SEED] [--no-stick-the-dealer]

Prints what was checked (decisions, kinds of hands) and the rate; on the first disagreement
prints it (with the hand as `setback-cfr replay --game euchre` input) and exits with status 1.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests"))


def main() -> int:
    """Compare the hands and report; status 0 when every hand agreed."""
    from tqdm import tqdm

    from test_euchre_vs_openspiel import compare_hands

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100_000, help="hands to compare")
    parser.add_argument("--first", type=int, default=1_000_000,
                        help="seed of the first hand (the test suite uses 0..9,999)")
    parser.add_argument("--no-stick-the-dealer", action="store_true",
                        help="compare with OpenSpiel's stick_the_dealer=false")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args()
    if args.hands <= 0 or args.first < 0:
        parser.error("--hands must be positive and --first non-negative")
    bar = tqdm(total=args.hands, unit="hand", disable=args.no_progress)
    start = time.perf_counter()
    seen, problem = compare_hands(args.first, args.hands, not args.no_stick_the_dealer,
                                  progress=lambda: bar.update())
    bar.close()
    seconds = time.perf_counter() - start
    for kind, count in sorted(seen.items()):
        print(f"{kind:<36} {count:>10,}")
    print(f"{seen['hands'] / seconds:,.0f} hands/s ({seconds:.1f} s)")
    if problem is not None:
        print(f"DISAGREEMENT: {problem}")
        return 1
    print(f"all {seen['hands']:,} hands agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
