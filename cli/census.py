"""`setback-cfr census`: distinct info sets of a game's abstract game over N random deals, for a
game whose place declares it (`games/<game>/train/census.py`, its `run_census`; its key
layouts from `games/<game>/abstraction/key_choice.py`; its help from its words' `CENSUS`)."""

from __future__ import annotations

import json
import sys

from cli.arguments import add_command, add_game_option, positive_int, seed as seed_type
from cli.game_words import declared
from games import registry  # plain data: imports no game
from games.registry import PROGRAM

EPILOG = f"""\
examples:
  {PROGRAM} census --deals 1000 --seed 1
  {PROGRAM} census --deals 100 --seed 7 --json
  {PROGRAM} census --deals 1000 --abstraction bidder
"""


def register(subparsers) -> None:
    """Add the `census` subcommand."""
    words = declared("CENSUS")
    keys = {game: registry.declaration(game, "abstraction.key_choice") for game in words}
    p = add_command(subparsers, "census", " / ".join(w[0] for w in words.values()),
                    "\n".join(w[1] for w in words.values()), EPILOG)
    p.add_argument("--deals", type=positive_int, required=True, metavar="N",
                   help="number of random deals to walk")
    p.add_argument("--seed", type=seed_type, default=0, metavar="S",
                   help="seed of the deals (default: 0)")
    p.add_argument("--abstraction", default=None,
                   choices=tuple(dict.fromkeys(n for k in keys.values()
                                               for n in k.layout_names())),
                   help="the key layout whose info sets are counted (default: "
                   + "; ".join(k.DEFAULT_LAYOUT for k in keys.values()) + ", the spec's keys)")
    p.add_argument("--json", action="store_true",
                   help="print the result as one JSON object instead of a table")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.set_defaults(func=run)
    add_game_option(p, "census")


def run(args) -> int:
    """Run the census and print its result."""
    from tqdm import tqdm

    census = registry.declaration(args.game, "train.census")
    abstraction = (args.abstraction
                   or registry.declaration(args.game, "abstraction.key_choice").DEFAULT_LAYOUT)
    bar = tqdm(total=args.deals, unit="deal", disable=args.no_progress, file=sys.stderr,
               smoothing=0.1)

    def show(t, result):
        bar.set_postfix(info_sets=f"{result.info_sets:,}", refresh=False)

    try:
        result = census.run_census(args.deals, args.seed, progress=bar.update, on_deal=show,
                                   abstraction=abstraction)
    finally:
        bar.close()
    if args.json:
        print(json.dumps({**result.as_dict(), "abstraction": abstraction}))
        return 0
    print(f"layout           {abstraction}")
    print(f"deals            {result.deals:,} (seed {result.seed})")
    print(f"time             {result.seconds:.1f} s, {result.deals_per_second:.2f} deals/s")
    print(f"decisions        {result.decisions:,} visited with a key")
    for kind, count in result.by_kind.items():
        print(f"{kind:<16} {count:,}")
    print(f"info sets        {result.info_sets:,}")
    return 0
