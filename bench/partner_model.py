"""Does a searching partner mislead a searcher? (issue 53, item 4.) A searcher's rollouts and
beliefs read its partner's moves as the blueprint's; a partner who searches too plays
otherwise. Three teams meet the same opponent on the same duplicate pairs:

- `table`: the blueprint at both seats of the team;
- `one searcher`: search at one seat, the blueprint at its partner's;
- `two searchers`: search at both seats;

    python bench/partner_model.py --search "search[threads=1]:db:L60.db" --table db:L60.db \
        --against heuristic --pairs 1000 --seed 4931 --workers 2

If searching were additive, two searchers would gain twice what one gains over the table; the
shortfall (two searchers' gain minus twice one searcher's, paired per pair) is what the
mismatch costs. Prints each team's win rate and the paired differences with 95 % intervals.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np


class HalfTeam:
    """A team whose West (or North) seat is played by `first` and East (or South) by
    `second`: one player at each of the team's two seats (absolute seats W N E S = 0..3)."""

    def __init__(self, first, second, name: str):
        self.first, self.second, self.name = first, second, name

    def seed(self, seed: int) -> None:
        """Reseed both players."""
        for player in (self.first, self.second):
            if hasattr(player, "seed"):
                player.seed(seed)

    def choose(self, view) -> int:
        """The move of the player sitting at the view's seat."""
        absolute = (view.dealer + view.seat) % 4
        return (self.first if absolute < 2 else self.second).choose(view)


def main(argv=None) -> int:
    """Run the benchmark (module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--search", required=True, help="the searcher, e.g. search:db:PATH")
    parser.add_argument("--table", required=True, help="its blueprint, e.g. db:PATH")
    parser.add_argument("--against", default="heuristic")
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=4931)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)

    from play.player_spec import make_player
    from games.setback.play.tournament import A_WON, B_WON, WINNER, win_rate_interval
    from play.tournament import run_tournament

    table, search = make_player(args.table), make_player(args.search)
    teams = {"table": table, "one searcher": HalfTeam(search, table, "one searcher"),
             "two searchers": search}
    scores = {}
    for label, team in teams.items():
        rows = run_tournament((team, make_player(args.against)), args.pairs, seed=args.seed,
                              duplicate=True, workers=args.workers, progress=False)
        rate, low, high = win_rate_interval(rows, True)
        winner = rows[:, WINNER]
        game = np.where(winner == A_WON, 1.0, np.where(winner == B_WON, 0.0, 0.5))
        scores[label] = game.reshape(-1, 2).mean(axis=1)  # the pair's share of games won
        print(f"{label:14} {100 * rate:5.1f}% ({100 * low:.1f}-{100 * high:.1f}) against "
              f"{args.against}", flush=True)
    one, two, base = scores["one searcher"], scores["two searchers"], scores["table"]
    for text, diff in (("one searcher - table", one - base), ("two searchers - table",
                                                               two - base),
                       ("mismatch: two - 2 x one + table", two - 2 * one + base)):
        mean = float(diff.mean())
        half = 1.96 * float(diff.std(ddof=1)) / np.sqrt(diff.size) if diff.size > 1 else 0.0
        low, high = mean - half, mean + half  # a difference: not clamped to [0, 1]
        print(f"{text:32} {100 * mean:+5.1f} points ({100 * low:+.1f}..{100 * high:+.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
