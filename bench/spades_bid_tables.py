"""Spades' bid tables: how fast their deals are played, and what the tables say on held-out deals.

    python bench/spades_bid_tables.py --players heuristic --deals 40000 --heldout 4000 --seed 1
    python bench/spades_bid_tables.py --tables FILE --players db:PATH --heldout 2000 --seed 9

Counts tables on deals 0..N-1 of --seed bid by the population --players (as `setback-cfr
bid-tables --game spades` does) and measures them on the next --heldout deals; with --tables
FILE it measures that file instead, on --heldout deals of --seed (give a seed the file was not
counted on). Printed: deals a second, then for every hand feature the mean log-loss (nats) of
each other bidder's true value from every observer seat after the bidding, under uniform (the
exact distribution when the hidden cards are dealt uniformly) and under the tables, and the cut
(the issue's target: >= 15 % on the spade count); `spades_joint` is the spade count under the
whole belief (the three bidders' tables at once, their counts adding up to the hidden spades).
Then the spade count's cut by the bidder's place in the bidding, and by its seat from the
observer (`search/spades_bid_tables.py` defines every figure).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def by_place(tables, hands, bids) -> list[str]:
    """The spade count's log-loss, uniform against the tables (one bidder at a time), by the
    bidder's place in the bidding and by its seat from the observer."""
    import numpy as np

    from search.spades_bid_tables import context, uniform_distribution

    sums: dict = {}
    for hand, bid in zip(hands, bids):
        order = np.array([bid[(k + 1) % 4] for k in range(4)], np.int64)
        for observer in range(4):
            base = uniform_distribution(0, int(hand[observer]))
            for k in range(4):
                seat = (k + 1) % 4
                if seat == observer:
                    continue
                post = base * np.exp(tables.log_ratio[context(k, order), bid[seat], :14])
                truth = bin(int(hand[seat]) >> 39 & 0x1FFF).count("1")
                for key in (f"place {k + 1}", ("left", "partner", "right")[(seat - observer)
                                                                           % 4 - 1]):
                    row = sums.setdefault(key, [0, 0.0, 0.0])
                    row[0] += 1
                    row[1] -= math.log(base[truth])
                    row[2] -= math.log(post[truth] / post.sum())
    lines = [f"  {'spade count':14}{'n':>8}{'uniform':>9}{'tables':>9}{'cut':>8}"]
    for key in sorted(sums, key=lambda k: (not k.startswith("place"), k)):
        n, u, t = sums[key]
        lines.append(f"  {key:14}{n:8,}{u / n:9.4f}{t / n:9.4f}{100 * (u - t) / u:7.1f}%")
    return lines


def main(argv=None) -> None:
    """Run the benchmark (module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="heuristic", metavar="SPEC[,SPEC...]",
                        help="the population bidding the deals (default heuristic)")
    parser.add_argument("--deals", type=int, default=40000, help="deals counted (default 40000)")
    parser.add_argument("--heldout", type=int, default=4000, help="deals measured (default 4000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument("--prior", type=float, default=20.0, help="smoothing prior (default 20)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--tables", metavar="FILE", help="measure this tables file instead")
    args = parser.parse_args(argv)

    from cli.bid_tables import heldout_lines
    from play.spades_bid_data import generate, load
    from search.spades_bid_tables import SpadesBidTables, heldout_losses

    start = time.perf_counter()
    if args.tables:
        tables = load(args.tables)
        meta = tables.meta
        if meta.get("seed") == args.seed:
            print(f"note: {args.tables} was counted on seed {args.seed}: its deals "
                  f"0..{meta.get('deals', 0) - 1} are not held out; the ones measured here "
                  "are", file=sys.stderr)
        data = generate(args.players, args.seed, 0, args.heldout, workers=args.workers)
        heldout = {k: v for k, v in data.items()}
        counted = 0
    else:
        data = generate(args.players, args.seed, 0, args.deals + args.heldout,
                        workers=args.workers)
        tables = SpadesBidTables.count(data["hands"][:args.deals], data["bids"][:args.deals],
                                       data["tricks"][:args.deals], {"prior": args.prior})
        heldout = {k: v[args.deals:] for k, v in data.items()}
        counted = args.deals
    seconds = time.perf_counter() - start
    played = counted + args.heldout
    print(f"players {args.players}, seed {args.seed}: {played:,} deals bid in {seconds:.1f} s "
          f"({played / seconds:,.0f} deals/s, {args.workers} worker(s), compile included)"
          + (f"; tables {args.tables} ({meta.get('deals')} deals bid by "
             f"{','.join(meta.get('players', []))}, seed {meta.get('seed')})"
             if args.tables else f"; tables counted on {counted:,} deals, prior {args.prior}"))
    losses = heldout_losses(tables, heldout["hands"], heldout["bids"])
    print("\n".join(heldout_lines({"heldout": losses, "heldout_deals": args.heldout})))
    print("\n".join(by_place(tables, heldout["hands"], heldout["bids"])))


if __name__ == "__main__":
    main()
