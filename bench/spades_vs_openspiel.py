"""Our Spades engine against OpenSpiel's `spades` on as many random hands and whole games as
asked: the driver of `tests/test_spades_vs_openspiel.py` (seat to act, the acting seat's cards
and the legal moves at every decision; the returns and the game scores at the end of every
hand; whole games to 500 hand after hand at the game score), for runs longer than the suite's.

    python bench/spades_vs_openspiel.py [--hands N] [--games G] [--first SEED]

Prints what was checked (decisions, hands, games, kinds of result) and the rate; on the first
disagreement prints it (with the hand as `setback-cfr replay --game spades` input) and exits
with status 1. Nothing is skipped: every hand dealt is played to its end and compared.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests"))


def main() -> int:
    """Compare the hands and games and report; status 0 when every one agreed."""
    from tqdm import tqdm

    from test_spades_vs_openspiel import compare_hands

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=10_000, help="single hands to compare")
    parser.add_argument("--games", type=int, default=1_000, help="whole games to compare")
    parser.add_argument("--first", type=int, default=1_000_000,
                        help="seed of the first hand and game (the test suite uses 0..999)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args()
    if args.hands < 0 or args.games < 0 or args.hands + args.games == 0 or args.first < 0:
        parser.error("--hands and --games must be non-negative, not both 0; --first "
                     "non-negative")
    bar = tqdm(total=args.hands + args.games, unit="hand or game", disable=args.no_progress)
    start = time.perf_counter()
    seen, problem = compare_hands(args.first, args.hands, args.games,
                                  progress=lambda: bar.update())
    bar.close()
    seconds = time.perf_counter() - start
    for kind, count in sorted(seen.items()):
        print(f"{kind:<36} {count:>10,}")
    print(f"{seen['hands'] / seconds:,.0f} hands/s ({seconds:.1f} s)")
    if problem is not None:
        print(f"DISAGREEMENT: {problem}")
        return 1
    print(f"all {seen['hands']:,} hands agree ({args.hands:,} single hands and "
          f"{seen['games']:,} whole games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
