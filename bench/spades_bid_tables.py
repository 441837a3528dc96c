"""Spades' bid tables: how fast their deals are played, and what the tables say on held-out deals.

    python bench/spades_bid_tables.py --players heuristic --deals 40000 --heldout 4000 --seed 1
    python bench/spades_bid_tables.py --tables FILE --players db:PATH --heldout 2000 --seed 9
    python bench/spades_bid_tables.py ... --worlds 400 --positions 500

Counts tables on deals 0..N-1 of --seed bid by the population --players (as `setback-cfr
bid-tables --game spades` does) and measures them on the next --heldout deals; with --tables
FILE it measures that file instead, on --heldout deals of --seed (give a seed the file was not
counted on). Printed: deals a second, then for every hand feature the mean log-loss (nats) of
each other bidder's true value from every observer seat after the bidding, under uniform (the
exact distribution when the hidden cards are dealt uniformly) and under the tables, and the cut
(the issue's target: >= 15 % on the spade count); `spades_joint` is the spade count under the
whole belief (the three bidders' tables at once, their counts adding up to the hidden spades).
Then the spade count's cut by the bidder's place in the bidding, and by its seat from the
observer (`games/spades/search/bid_tables.py` defines every figure).

With --worlds W: the belief as search uses it. For --positions held-out (deal, observer) pairs
after the bidding, W worlds drawn uniformly among those consistent with the observer's view
(`games.spades.search.worlds`, as `search:` draws its pool) are weighed by the belief with each
variant's hand groups and scale (`*`: the default belief, `games.spades.search.bid_tables.
DEFAULT_BELIEF` and `DEFAULT_SCALE`; sh = spades_honours); each other bidder's true spade
count, spade honours, side aces and side kings are scored under the weighted worlds (mixed with
0.1 % of uniform so no truth has probability 0) against the same worlds unweighted, and the
mean effective sample size of the W is shown (search resamples its worlds from a pool of 4 x
worlds by default).
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

    from games.spades.search.bid_tables import context, uniform_distribution

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


SEPARATE = ("spades", "honours", "aces", "kings", "voids")
VARIANTS = (("spades", ("spades",), 1.0), ("spades_honours", ("spades_honours",), 1.0),
            ("sh,aces,kings", None, 1.0), ("sh,aces,kings x0.6", None, 0.6),
            ("sh,aces,kings x0.5 *", None, 0.5), ("sh,aces,kings x0.4", None, 0.4),
            ("five separate", SEPARATE, 1.0), ("five separate x0.5", SEPARATE, 0.5))


def pool_losses(tables, hands, bids, worlds: int, positions: int, seed: int) -> list[str]:
    """The belief over a pool of uniform worlds (module docstring) as text lines."""
    import numpy as np

    from games.rng import new_rng
    from games.spades import state as S
    from games.spades.rules import apply_move
    from games.spades.search.bid_tables import SpadesBidBelief, uniform_distribution
    from games.spades.search.worlds import consistent_worlds

    def features(dealt):
        """int64[4, ...]: the spade count, honours, side aces and side kings of the hands."""
        spades = np.bitwise_count((dealt >> 39) & 0x1FFF).astype(np.int64)
        honours = (dealt >> 51 & 1) * 4 + (dealt >> 50 & 1) * 2 + (dealt >> 49 & 1)
        aces = np.bitwise_count(dealt & ((1 << 12) | (1 << 25) | (1 << 38))).astype(np.int64)
        kings = np.bitwise_count(dealt & ((1 << 11) | (1 << 24) | (1 << 37))).astype(np.int64)
        return np.stack([spades, honours, aces, kings])

    beliefs = [(name, SpadesBidBelief(tables, *(() if g is None else (g,)), scale=1.0), t)
               for name, g, t in VARIANTS]
    names = ["uniform"] + [name for name, _, _ in VARIANTS]
    sums = {name: np.zeros(4) for name in names}
    ess_sum = dict.fromkeys(names, 0.0)
    states = np.zeros((worlds, S.STATE_SIZE), np.int64)
    state = S.new_state()
    n = 0
    count = min(positions, 4 * len(hands))
    for p in range(count):
        deal, observer = p // 4, p % 4
        S.reset_hand(state, hands[deal], 0, 0)
        for k in range(4):
            apply_move(state, 52 + int(bids[deal, (k + 1) % 4]))
        view = state.copy()
        for s in range(4):
            if s != observer:
                view[S.HAND + s] = view[S.DEALT + s] = 0
        consistent_worlds(view, observer, np.zeros(4, np.int64), 0,
                          new_rng(seed * 1_000_003 + p), True, states)
        dealt = states[:, S.DEALT:S.DEALT + 4]
        got = features(dealt)  # [feature, world, seat]
        truth = features(np.asarray(hands[deal], np.int64))  # [feature, seat]
        base = [uniform_distribution(g, int(hands[deal, observer])) for g in range(4)]
        weights = {"uniform": np.full(worlds, 1.0 / worlds)}
        for name, belief, temper in beliefs:
            log_w = temper * belief.log_weights(dealt, bids[deal], observer)
            w = np.exp(log_w - log_w.max())
            weights[name] = w / w.sum()
        for name, w in weights.items():
            ess_sum[name] += 1.0 / (w ** 2).sum()
            for seat in range(4):
                if seat != observer:
                    for g in range(4):
                        t = truth[g, seat]
                        p_t = w[got[g, :, seat] == t].sum() * 0.999 + 0.001 * base[g][t]
                        sums[name][g] -= math.log(p_t)
        n += 3
    u = sums["uniform"] / n
    lines = [f"the belief over {worlds} uniform worlds a position, {count:,} positions, "
             f"{n:,} predictions (nats; cut against the same worlds unweighted):",
             f"  {'weights':24}" + "".join(f"{h:>15}" for h in ("spades", "honours", "aces",
                                                                  "kings")) + f"{'ESS':>7}"]
    for name in names:
        m = sums[name] / n
        lines.append(f"  {name:24}" + "".join(f"{m[g]:7.4f}{100 * (u[g] - m[g]) / u[g]:7.1f}%"
                                              for g in range(4))
                     + f"{ess_sum[name] / count:7.1f}")
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
    parser.add_argument("--worlds", type=int, default=0,
                        help="also the belief over W uniform worlds a position (default 0: not)")
    parser.add_argument("--positions", type=int, default=500,
                        help="with --worlds: held-out positions (deal, observer; default 500)")
    args = parser.parse_args(argv)

    from games.spades.play.bid_data import generate, load
    from play.bid_table_build import heldout_lines
    from games.spades.search.bid_tables import SpadesBidTables, heldout_losses

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
    if args.worlds > 0:
        print("\n".join(pool_losses(tables, heldout["hands"], heldout["bids"], args.worlds,
                                     args.positions, args.seed)))


if __name__ == "__main__":
    main()
