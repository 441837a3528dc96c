"""Strength against compute for a `train distill` run (issue 53's curve): each chosen round's
network alone (and, with --search, search on it) against one opponent on the same duplicate
pairs, beside baseline-only tables of known compute; prints a table and draws a PNG.

    python bench/distill_curve.py --run runs/distill --rounds 4,9,19 --against heuristic \
        --pairs 1000 --seed 4901 --workers 2 --table db:L60.db@3600 --table db:L120.db@7200 \
        --search --png distill-curve.png

Compute is total CPU: the base run's plus the stage's up to that round (the network file's
metadata), and for a table the seconds given after `@`. Every player meets the opponent on the
same pairs (the seed), so two players' figures are comparable pair for pair; the tournament's
own interval is printed with each.

With `--results FILE` every measurement is kept in FILE (JSON, written atomically after each)
under its player, opponent, pairs and seed, and read back instead of played again: a
tournament of seeded players is deterministic, so a curve grows a point at a time as a long
run reaches more compute, and a stopped measurement loses only the point in flight.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np


def cached(results: str | None, spec: str, against: str, pairs: int, seed: int,
           workers: int) -> dict:
    """`measure`, read from and added to the JSON file `results` (module docstring)."""
    if results is None:
        return measure(spec, against, pairs, seed, workers)
    import json

    key = f"{spec} | against {against} | {pairs} pairs | seed {seed}"
    known = json.load(open(results)) if os.path.exists(results) else {}
    if key not in known:
        known[key] = measure(spec, against, pairs, seed, workers)
        with open(results + ".tmp", "w") as f:
            json.dump(known, f)
        os.replace(results + ".tmp", results)
    return known[key]


def measure(spec: str, against: str, pairs: int, seed: int, workers: int) -> dict:
    """{rate, low, high, scores} of `spec` against `against` over `pairs` duplicate pairs
    (`scores`: its score a pair, for paired differences)."""
    from play.player_spec import make_player
    from play.tournament import pair_interval, run_tournament
    from search_strength import pair_scores

    # seeded as bench/search_strength.py seeds them, so the two benches' figures agree
    players = (make_player(spec, seed), make_player(against, seed))
    rows = run_tournament(players, pairs, seed=seed, duplicate=True, workers=workers,
                          progress=False)
    for player in players:
        if hasattr(player, "close"):
            player.close()
    scores = pair_scores(rows)
    rate, low, high = pair_interval(scores)
    return {"rate": rate, "low": low, "high": high, "scores": scores.tolist()}


def main(argv=None) -> int:
    """Run the benchmark (module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", required=True, help="the distill run directory")
    parser.add_argument("--rounds", default=None,
                        help="rounds to measure, comma-separated (default: every round)")
    parser.add_argument("--against", default="heuristic", help="the opponent (default heuristic)")
    parser.add_argument("--pairs", type=int, default=1000, help="duplicate pairs (default 1000)")
    parser.add_argument("--seed", type=int, default=4901, help="the pairs' seed (default 4901)")
    parser.add_argument("--workers", type=int, default=2, help="tournament processes")
    parser.add_argument("--search", action="store_true",
                        help="also search[threads=1]:net:FILE for each round")
    parser.add_argument("--table", action="append", default=[], metavar="SPEC@CPU_SECONDS",
                        help="a baseline-only player and its training CPU seconds (repeatable; "
                             "every point's paired difference from the first is printed)")
    parser.add_argument("--png", default=None, help="draw the curve into this PNG")
    parser.add_argument("--results", default=None, metavar="FILE",
                        help="keep every measurement in this JSON file and reuse those there "
                             "(module docstring)")
    args = parser.parse_args(argv)

    from games.setback.search.net import FEATURE_LAYOUT, GAME, INPUTS, OUTPUTS
    from search.policy_net import load_net
    from train.distill import net_path, rounds_done

    done = rounds_done(args.run)
    rounds = (list(range(done)) if args.rounds is None
              else [int(r) for r in args.rounds.split(",") if r.strip()])
    if not rounds or max(rounds) >= done:
        print(f"{args.run} has {done} rounds", file=sys.stderr)
        return 2
    points = []  # (label, total CPU hours, rate, low, high, name, scores)
    for k in rounds:
        path = net_path(args.run, k)
        meta = load_net(path, GAME, FEATURE_LAYOUT, INPUTS, OUTPUTS).meta
        hours = (meta["base_cpu_seconds"] + meta["cpu_seconds"]) / 3600
        kinds = [("network", f"net:{path}")]
        if args.search:
            kinds.append(("search on it", f"search[threads=1]:net:{path}"))
        for label, spec in kinds:
            m = cached(args.results, spec, args.against, args.pairs, args.seed, args.workers)
            points.append((label, hours, m["rate"], m["low"], m["high"], f"round {k}",
                           m["scores"]))
            print(f"round {k:>3}  {hours:6.2f} CPU-h  {label:13} {100 * m['rate']:5.1f}% "
                  f"({100 * m['low']:.1f}-{100 * m['high']:.1f})", flush=True)
    for item in args.table:
        spec, _, seconds = item.rpartition("@")
        hours = float(seconds) / 3600
        m = cached(args.results, spec, args.against, args.pairs, args.seed, args.workers)
        points.append(("table alone", hours, m["rate"], m["low"], m["high"],
                       os.path.basename(spec), m["scores"]))
        print(f"{os.path.basename(spec):>9}  {hours:6.2f} CPU-h  table alone   "
              f"{100 * m['rate']:5.1f}% ({100 * m['low']:.1f}-{100 * m['high']:.1f})",
              flush=True)
    if args.table:
        from search_strength import paired_difference

        base = next(p for p in points if p[0] == "table alone")
        print(f"paired differences from {base[5]} ({base[1]:.2f} CPU-h), the same pairs:")
        for p in points:
            if p is not base:
                d, low, high = paired_difference(np.array(base[6]), np.array(p[6]))
                print(f"  {p[5]:>9} {p[1]:6.2f} CPU-h {p[0]:13} {100 * d:+5.1f} points "
                      f"({100 * low:+.1f}..{100 * high:+.1f})")
    if args.png:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, axis = plt.subplots(figsize=(8, 4.5))
        for label in dict.fromkeys(p[0] for p in points):
            mine = sorted(p[1:5] for p in points if p[0] == label)
            x = np.array([p[0] for p in mine])
            y = np.array([100 * p[1] for p in mine])
            err = np.array([[100 * (p[1] - p[2]) for p in mine],
                            [100 * (p[3] - p[1]) for p in mine]])
            axis.errorbar(x, y, yerr=err, marker="o", capsize=4, label=label)
        axis.set_xscale("log", base=2)
        hours = [p[1] for p in points]
        ticks = [h for h in (0.5, 1, 1.5, 2, 3, 4, 6, 8, 12, 16) if
                 min(hours) / 1.2 <= h <= max(hours) * 1.2]
        axis.set_xticks(ticks, [f"{h:g}" for h in ticks])
        axis.minorticks_off()
        axis.grid(alpha=0.3)
        axis.set_xlabel("total training CPU-hours (base run + distill)")
        axis.set_ylabel(f"% of games won vs {args.against}")
        axis.set_title(f"{args.pairs:,} duplicate pairs, seed {args.seed}", fontsize=10)
        axis.legend()
        fig.tight_layout()
        fig.savefig(args.png)
        print(f"wrote {args.png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
