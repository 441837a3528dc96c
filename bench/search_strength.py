"""Several players against one opponent on the same duplicate pairs, and each one's paired
difference from the first (issue 36: search on the blueprint against the blueprint alone).

    python bench/search_strength.py --players db:qs.db "search:db:qs.db" \
        --against heuristic --pairs 1000 --seed 7 --workers 2

Every player meets the opponent on the same deals (the same seed and pair count), so a pair's
score (1 both games won, 0.5 one, 0 none) is comparable across players: the difference of two
players' pair scores, pair by pair, has a far tighter interval than either win rate. Prints, for
each player, its win rate with the 95 % interval and, from the second player on, its paired
difference from the first with the 95 % interval; `--json FILE` keeps the figures, rewritten
after each player. Every spec is checked before the first match. Ctrl-C stops the player in
progress and reports the pairs played by everyone so far.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np

from play.player_spec import PlayerSpecError, make_player
from games.setback.play.tournament import A_WON, B_WON, WINNER
from play.tournament import pair_interval, run_tournament

Z95 = 1.959964


def pair_scores(rows: np.ndarray) -> np.ndarray:
    """A's score per duplicate pair (rows in pair order)."""
    winner = rows[:, WINNER]
    score = np.where(winner == A_WON, 1.0, np.where(winner == B_WON, 0.0, 0.5))
    return score.reshape(-1, 2).mean(axis=1)


def paired_difference(first: np.ndarray, second: np.ndarray) -> tuple[float, float, float]:
    """(mean, low, high) of second - first over the pairs both played (95 %)."""
    n = min(first.size, second.size)
    diff = second[:n] - first[:n]
    if n < 2:
        return float(diff.mean()) if n else 0.0, -1.0, 1.0
    half = Z95 * float(diff.std(ddof=1)) / math.sqrt(n)
    return float(diff.mean()), float(diff.mean()) - half, float(diff.mean()) + half


def main(argv=None) -> int:
    """Run the matches and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", nargs="+", required=True, metavar="SPEC",
                        help="player specs; the first is the one the others are compared with")
    parser.add_argument("--against", default="heuristic", metavar="SPEC",
                        help="the opponent of every player (default heuristic)")
    parser.add_argument("--pairs", type=int, default=1000, help="duplicate pairs (default 1000)")
    parser.add_argument("--seed", type=int, default=7,
                        help="the deals' seed (default 7; training never uses it)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    if args.pairs < 2 or args.workers < 1:
        parser.error("--pairs must be at least 2 and --workers at least 1")
    for spec in [*args.players, args.against]:  # every spec checked before any match
        try:
            player = make_player(spec, args.seed)
        except PlayerSpecError as exc:
            parser.error(str(exc))
        if hasattr(player, "close"):
            player.close()
    results = []
    for spec in args.players:
        players = (make_player(spec, args.seed), make_player(args.against, args.seed))
        interrupted: list = []
        rows = run_tournament(players, args.pairs, args.seed, duplicate=True,
                              workers=args.workers, interrupted=interrupted)
        for p in players:
            if hasattr(p, "close"):
                p.close()
        scores = pair_scores(rows)
        rate, low, high = pair_interval(scores)
        entry = {"player": spec, "pairs": int(scores.size), "win_rate": rate, "ci_low": low,
                 "ci_high": high}
        if results:
            first = np.array(results[0]["scores"])
            d, dlow, dhigh = paired_difference(first, scores)
            entry.update(diff=d, diff_low=dlow, diff_high=dhigh)
        line = (f"{spec}: {100 * rate:.1f}% ({100 * low:.1f}..{100 * high:.1f}) against "
                f"{args.against}, {scores.size} pairs")
        if "diff" in entry:
            line += (f"; minus {args.players[0]}: {100 * entry['diff']:+.1f} points "
                     f"({100 * entry['diff_low']:+.1f}..{100 * entry['diff_high']:+.1f})")
        print(line, flush=True)
        entry["scores"] = scores.tolist()
        results.append(entry)
        if args.json:  # after every player: a later crash keeps the finished ones
            write_json(args.json, {"against": args.against, "seed": args.seed,
                                   "results": results})
        if interrupted:
            print("interrupted: the figures above are of the pairs played", file=sys.stderr)
            break
    return 0


def write_json(path: str, data: dict) -> None:
    """Write `data` to `path` atomically (a temporary file renamed over it)."""
    import os

    tmp = f"{path}.tmp"
    with open(tmp, "w") as f:
        json.dump(data, f)
    os.replace(tmp, path)


if __name__ == "__main__":
    sys.exit(main())
