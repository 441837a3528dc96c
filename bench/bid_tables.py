"""Bid tables: how fast they are counted, and what they are worth as a belief.

    python bench/bid_tables.py rate --deals 1000000 [--python-bidders db:PATH --python-deals 2000]
    python bench/bid_tables.py belief --tables FILE --policy db:PATH --positions 300

`rate`: deals per second (wall and CPU of this process, one worker) of the compiled heuristic
bidders, and, side by side in the same run, of a player asked through Python (a database
player: five Python decisions per deal, the four bids and the pitch).
`belief`: `setback-cfr inference --first-trick` with the tables: the log-likelihood of the true
hidden hands at the first trick under the uniform, voids, policy, tables and tables+policy
beliefs, and the cut in log-loss against uniform (the issue's target: >= 10 % for tables),
with the two exact ceilings (`--exact`: exact:auction caps any belief built on the auction and
the pitch, the tables included; exact:all caps any belief at all).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _timed(spec: str, deals: int, seed: int):
    from games.setback.play.bid_tables import count_chunk

    count_chunk((spec, seed, 0, 10))  # compile / open the database first
    wall, cpu = time.perf_counter(), time.process_time()
    count_chunk((spec, seed, 10, deals))
    return time.perf_counter() - wall, time.process_time() - cpu


def rate(args) -> None:
    """Print the counting rates."""
    rows = [("heuristic (compiled)", "heuristic", args.deals)]
    if args.python_bidders:
        rows.append((f"{args.python_bidders} (Python)", args.python_bidders, args.python_deals))
        rows.append(("heuristic (Python)", "heuristic-python", args.python_deals))
    print(f"{'bidders':45} {'deals':>10} {'wall s':>8} {'CPU s':>8} {'deals/s wall':>13} "
          f"{'deals/CPU-s':>12} {'us/decision':>12}")
    for name, spec, deals in rows:
        if spec == "heuristic-python":
            wall, cpu = _python_heuristic(deals, args.seed)
        else:
            wall, cpu = _timed(spec, deals, args.seed)
        print(f"{name:45} {deals:10,} {wall:8.2f} {cpu:8.2f} {deals / wall:13,.0f} "
              f"{deals / max(cpu, 1e-9):12,.0f} {1e6 * cpu / (5 * deals):12.2f}")
    print("(us/decision: CPU per bid or pitch, five per deal; the machine is shared, so wall "
          "rates are lower bounds)")


def _python_heuristic(deals: int, seed: int):
    """The heuristic through its Python interface (what any non-compiled player costs)."""
    from games.setback.play import bid_tables
    from games.setback.play.heuristic import HeuristicPlayer

    counts = bid_tables.empty_counts()
    player = HeuristicPlayer()
    bid_tables.count_deal(*bid_tables.play_auction(player, seed, 0), *counts)
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(1, deals + 1):
        bid_tables.count_deal(*bid_tables.play_auction(player, seed, i), *counts)
    return time.perf_counter() - wall, time.process_time() - cpu


def belief(args) -> None:
    """Print the first-trick inference table with the tables."""
    from games.setback.play.inference_eval import evaluate, format_table

    result = evaluate(args.policy, args.positions, args.seed, args.worlds, tables=args.tables,
                      first_trick=True, progress=True, exact=True)
    print(format_table(result))


def main() -> None:
    """Parse the command line and run one measurement."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    r = sub.add_parser("rate", help="counting rates")
    r.add_argument("--deals", type=int, default=1_000_000)
    r.add_argument("--python-bidders", default=None)
    r.add_argument("--python-deals", type=int, default=2000)
    r.add_argument("--seed", type=int, default=0)
    b = sub.add_parser("belief", help="first-trick log-likelihood with the tables")
    b.add_argument("--tables", required=True)
    b.add_argument("--policy", required=True)
    b.add_argument("--positions", type=int, default=300)
    b.add_argument("--worlds", type=int, default=100)
    b.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rate(args) if args.what == "rate" else belief(args)


if __name__ == "__main__":
    main()
