"""Decision time of several players on the same positions, side by side (issue 36: a search
setting's p50 and p99 against the database player alone).

    python bench/search_speed.py --players db:qs.db "search[threads=2]:db:qs.db" \
        "search[think=20,threads=2]:db:qs.db" --positions 2000 --seed 7

The positions are every decision with two or more legal moves met in games the first player
plays against itself (with the deal's history, as a tournament hands it over), from `--seed`.
Each position is given to every player in turn, in a rotating order, so a load on the machine
touches all of them alike; each player is warmed up (compiled, its blueprint read) first.
Prints each player's p50, p90, p99 and max in milliseconds and its p50 and p99 as a ratio to
the first player's: a ratio measured in one run, never a bare time across runs.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from games.setback import state as S
from games.setback.rules import apply_move
from games.setback.view import SeatView
from play.player_spec import PlayerSpecError, make_player
from games.setback.play.tournament import deal_state


def positions(player, count: int, seed: int) -> list:
    """`count` views (two or more legal moves) from deals `player` plays at every seat."""
    from games.rng import stream_seed

    views, game = [], 0
    while len(views) < count:
        state = deal_state(np.uint64(stream_seed(np.uint64(seed), np.uint64(game))), 0)
        history: list[int] = []
        dealer = game % 4
        while state[S.PHASE] != S.PHASE_OVER and not state[S.EXHAUSTED]:
            view = SeatView.of(state, dealer, (0, 0), history)
            if view.legal_moves().size >= 2:
                views.append(view)
            move = int(player.choose(view))
            apply_move(state, move)
            history.append(move)
        game += 1
    return views[:count]


def main(argv=None) -> int:
    """Time the players and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", nargs="+", required=True, metavar="SPEC",
                        help="player specs; the first is the yardstick of the ratios")
    parser.add_argument("--positions", type=int, default=2000,
                        help="decisions timed per player (default 2000)")
    parser.add_argument("--seed", type=int, default=7, help="the positions' seed (default 7)")
    args = parser.parse_args(argv)
    try:
        players = [make_player(spec, args.seed) for spec in args.players]
    except PlayerSpecError as exc:
        parser.error(str(exc))
    views = positions(players[0], args.positions, args.seed)
    for player in players:  # compile and warm
        for view in views[:5]:
            player.choose(view)
    times = np.zeros((len(players), len(views)))
    for i, view in enumerate(views):
        for k in range(len(players)):
            j = (i + k) % len(players)
            start = time.perf_counter()
            players[j].choose(view)
            times[j, i] = time.perf_counter() - start
    base = np.percentile(times[0], [50, 99])
    print(f"{len(views)} positions (two or more legal moves), seed {args.seed}")
    for spec, row in zip(args.players, times):
        p50, p90, p99 = np.percentile(row, [50, 90, 99]) * 1000
        print(f"{spec}: p50 {p50:.3f} ms, p90 {p90:.3f} ms, p99 {p99:.3f} ms, "
              f"max {row.max() * 1000:.3f} ms; x{p50 / 1000 / base[0]:.1f} p50, "
              f"x{p99 / 1000 / base[1]:.1f} p99 of {args.players[0]}")
    for player in players:
        if hasattr(player, "close"):
            player.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
