"""Random complete Setback deals per second: the numba core against the Python API.

Both sides deal a fresh shuffled deal and play it to the end with uniformly random legal moves;
the figures come from one run, side by side, so their ratio is meaningful on a shared machine.
Target: the numba core plays >= 200,000 random deals per second on one core.

    python bench/rules_speed.py [--deals N] [--api-deals M] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time


def numba_rate(deals: int, seed: int) -> tuple[float, int]:
    """Deals per second through `random_play.play_random_deals` (compiled before timing)."""
    from games.setback.random_play import play_random_deals

    play_random_deals(seed, 10)  # compile / load from cache outside the timing
    start = time.perf_counter()
    moves = play_random_deals(seed, deals)
    return deals / (time.perf_counter() - start), moves


def api_rate(deals: int, seed: int) -> tuple[float, int]:
    """Deals per second through the Python `Deal` API (text moves, legality checked)."""
    from games.setback.api import Deal

    chooser = random.Random(seed)
    Deal.random(0).legal_moves()  # warm up
    moves = 0
    start = time.perf_counter()
    for i in range(deals):
        deal = Deal.random(seed * 1_000_003 + i)
        while not deal.is_over:
            deal.play(chooser.choice(deal.legal_moves()))
            moves += 1
    return deals / (time.perf_counter() - start), moves


def main() -> None:
    """Measure both rates in one run and print them with their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1_000_000, help="deals through numba")
    parser.add_argument("--api-deals", type=int, default=5_000, help="deals through the API")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    fast, fast_moves = numba_rate(args.deals, args.seed)
    slow, slow_moves = api_rate(args.api_deals, args.seed)
    print(f"numba core   {fast:>12,.0f} deals/s  ({args.deals:,} deals, "
          f"{fast_moves / args.deals:.1f} moves/deal)")
    print(f"Python API   {slow:>12,.0f} deals/s  ({args.api_deals:,} deals, "
          f"{slow_moves / args.api_deals:.1f} moves/deal)")
    print(f"ratio        {fast / slow:>12,.0f}x")
    print(f"target       numba >= 200,000 deals/s: {'met' if fast >= 200_000 else 'NOT met'}")


if __name__ == "__main__":
    main()
