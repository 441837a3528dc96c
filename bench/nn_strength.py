"""The learned bidder (`nn:MODEL`, games/setback/play/nn_bidder.py) measured: duplicate games
against another player with the figures `setback-cfr tournament` prints (win rate with its 95 %
interval, auctions won, made rate, a database player's decision counts: `missing_auction`, and for a
gap-filled database `gaps_filled` / `gaps_changed`), plus the decision-time percentiles of every
bidder that records them (nn, sds: auction decisions with two or more legal bids, and the
pitch), and optionally a JSON of it all.

    python bench/nn_strength.py --a "nn:M.nn,play=db:/work/runs/qA.db" \
        --b db:/work/runs/qA.db --games 1000 --seed 7 [--workers 2] [--json out.json]

With --workers above 1 the games run in forked processes and the decision times are those of
the main process only (none): use --workers 1 for the times. Players are any spec of
`play.player_spec` (`sds:W,play=...`, `db:PATH,gaps=nn:M.nn`, ...). Ctrl-C or SIGTERM ends
the run after the last finished chunk of 20 pairs, and the figures (marked interrupted) cover
the pairs played so far.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _stop(signum, frame) -> None:
    raise KeyboardInterrupt


def decision_times(player) -> list:
    """Seconds of every timed decision of `player` or its parts (composite, gap-filled)."""
    out = list(getattr(player, "decision_times", []))
    for part in ("bidder", "base", "gaps", "database"):
        inner = getattr(player, part, None)
        if inner is not None:
            out += decision_times(inner)
    return out


def percentiles(seconds) -> dict | None:
    """{n, p50_ms, p99_ms, max_ms} of decision times, or None when there are none."""
    ms = np.asarray(seconds, dtype=np.float64) * 1000
    if not ms.size:
        return None
    p50, p99 = np.percentile(ms, [50, 99])
    return {"n": int(ms.size), "p50_ms": float(p50), "p99_ms": float(p99),
            "max_ms": float(ms.max())}


def main() -> None:
    """Parse the options, play, print (and write the JSON)."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", required=True, help="player A (a play.player_spec spec)")
    parser.add_argument("--b", required=True, help="player B")
    parser.add_argument("--games", type=int, default=1000,
                        help="duplicate pairs (2 games each; default 1000)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the deals (default 7)")
    parser.add_argument("--workers", type=int, default=1,
                        help="worker processes (default 1; times need 1)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures here")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    args = parser.parse_args()

    from play.player_spec import make_player
    from games.setback.play.tournament import format_summary, summarize
    from play.tournament import run_tournament

    a = make_player(args.a, args.seed)
    b = make_player(args.b, args.seed)
    counts: list = []
    interrupted: list = []
    signal.signal(signal.SIGTERM, _stop)  # a SIGTERM ends it like Ctrl-C: the pairs so far
    start = time.perf_counter()
    rows = run_tournament((a, b), args.games, seed=args.seed, duplicate=True,
                          workers=args.workers, progress=not args.no_progress, counts=counts,
                          interrupted=interrupted)
    seconds = time.perf_counter() - start
    summary = summarize(rows, (a.name, b.name), True, args.seed, seconds, counts)
    summary.interrupted = bool(interrupted)
    print(format_summary(summary))
    if interrupted:
        print(f"  interrupted: {summary.games:,} of {2 * args.games:,} games played")
    report = {"summary": {k: v for k, v in vars(summary).items()}, "counts": counts}
    for label, player in (("A", a), ("B", b)):
        times = percentiles(decision_times(player))
        report[f"times_{label}"] = times
        if times:
            print(f"  {label} decisions timed {times['n']:,}: p50 {times['p50_ms']:.3f} ms, "
                  f"p99 {times['p99_ms']:.3f} ms, max {times['max_ms']:.1f} ms")
    for label, c in zip("AB", counts):
        if c:
            keep = {k: v for k, v in c.items() if k.startswith(("missing", "gaps", "fallback"))}
            print(f"  {label} counts: {keep}")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(report, handle, indent=1, default=str)
    for player in (a, b):
        if hasattr(player, "close"):
            player.close()


if __name__ == "__main__":
    main()
