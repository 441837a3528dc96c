"""`setback-cfr census`: distinct info sets of the abstract Setback game over N random deals."""

from __future__ import annotations

import json
import sys

from cli.arguments import add_command, add_game_option, positive_int, seed as seed_type
from games.registry import PROGRAM
from games.setback.abstraction import layouts  # plain data: nothing compiled for --help

DESCRIPTION = """\
Walk the full abstract game tree of N random deals, exactly as the trainer does (every
abstract action at every decision, forced moves played, each deal stopped once its score is
settled), and report the distinct info sets seen by kind: baseline auction, establish-trump,
playout. Deals are drawn from --seed the way the trainer draws them.
"""

EPILOG = f"""\
examples:
  {PROGRAM} census --deals 1000 --seed 1
  {PROGRAM} census --deals 100 --seed 7 --json
  {PROGRAM} census --deals 1000 --abstraction bidder
"""


def register(subparsers) -> None:
    """Add the `census` subcommand."""
    p = add_command(subparsers, "census", "count the distinct info sets of the abstract "
                    "Setback game over N random deals", DESCRIPTION, EPILOG)
    p.add_argument("--deals", type=positive_int, required=True, metavar="N",
                   help="number of random deals to walk")
    p.add_argument("--seed", type=seed_type, default=0, metavar="S",
                   help="seed of the deals (default: 0)")
    p.add_argument("--abstraction", choices=layouts.names(), default=layouts.DEFAULT,
                   help="the key layout whose info sets are counted (default: %(default)s, "
                        "the spec's keys)")
    p.add_argument("--json", action="store_true",
                   help="print the result as one JSON object instead of a table")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.set_defaults(func=run)
    add_game_option(p, "census")


def run(args) -> int:
    """Run the census and print its result."""
    from tqdm import tqdm

    from games.setback.train.census import run_census

    bar = tqdm(total=args.deals, unit="deal", disable=args.no_progress, file=sys.stderr,
               smoothing=0.1)

    def show(t, result):
        bar.set_postfix(info_sets=f"{result.info_sets:,}", refresh=False)

    try:
        result = run_census(args.deals, args.seed, progress=bar.update, on_deal=show,
                            abstraction=args.abstraction)
    finally:
        bar.close()
    if args.json:
        print(json.dumps({**result.as_dict(), "abstraction": args.abstraction}))
        return 0
    print(f"layout           {args.abstraction}")
    print(f"deals            {result.deals:,} (seed {result.seed})")
    print(f"time             {result.seconds:.1f} s, {result.deals_per_second:.2f} deals/s")
    print(f"decisions        {result.decisions:,} visited with a key")
    for kind, count in result.by_kind.items():
        print(f"{kind:<16} {count:,}")
    print(f"info sets        {result.info_sets:,}")
    return 0
