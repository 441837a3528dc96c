"""The perfect-information solver and the PIMC player: speed, nodes against a brute force, and
the decision time of `pimc:W`.

1. Solver speed: --positions random positions (a random deal and auction played at random to
   the start of a trick) at 6, 5 and 4 cards a hand; every legal move of the seat to act is
   solved exactly (`Solver.move_values`). Positions/s and nodes per position.
2. Nodes against the brute force (`tests/search_reference.py`: plain minimax, no pruning, no
   table) on --brute positions at 4 cards a hand: both compute the root value; the ratio of
   node counts. Target: >= 20x fewer nodes.
3. PIMC decision time: `pimc:W` (W from --worlds, a list) plays --deals deals at all four seats
   (heuristic bids); every card decision with two or more legal cards is timed, with the
   worlds solved on every CPU this process may use (the player's default) and, side by side,
   on one thread. Target for pimc:50: p99 < 200 ms.

    python bench/solver_speed.py [--positions 200] [--brute 10] [--deals 10] [--worlds 10,50]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))  # the brute force and the position maker


def solver_speed(positions: int) -> None:
    """Part 1: positions/s and nodes per position at 6, 5 and 4 cards a hand."""
    from games.setback.search.capture_solver import Solver
    from search_reference import random_position

    solver = Solver()
    solver.move_values(random_position(0, 4))  # load the kernels from numba's cache
    print("1. solver, every legal move solved exactly")
    for cards in (6, 5, 4):
        states = [random_position(seed, cards) for seed in range(positions)]
        solver.reset_nodes()
        start = time.perf_counter()
        for state in states:
            solver.move_values(state)
        seconds = time.perf_counter() - start
        print(f"   {cards} cards a hand: {positions / seconds:9.1f} positions/s, "
              f"{solver.nodes / positions:10.0f} nodes/position, "
              f"{solver.nodes / seconds / 1e6:5.2f} M nodes/s")


def brute_ratio(count: int) -> None:
    """Part 2: nodes of the solver and of the brute force on the same 4-card positions."""
    from games.setback.search.capture_solver import Solver
    from search_reference import BruteForce, position_of, random_position

    solver, brute = Solver(), BruteForce()
    solver.reset_nodes()
    for seed in range(count):
        state = random_position(50_000 + seed, 4)
        a = solver.value(state)
        b = brute.value(position_of(state))
        assert a == b, (seed, a, b)
    ratio = brute.nodes / max(solver.nodes, 1)
    print(f"2. 4 cards a hand, {count} positions, root values equal: solver "
          f"{solver.nodes:,} nodes, brute force {brute.nodes:,} nodes: {ratio:.0f}x fewer "
          f"(target >= 20x: {'met' if ratio >= 20 else 'MISSED'})")


def pimc_times(deals: int, worlds: int, threads: int | None = None) -> np.ndarray:
    """Part 3: seconds of every non-forced card decision of `pimc:worlds` over `deals` deals
    (the worlds solved on `threads` threads; None: the player's default)."""
    from games.rng import new_rng, stream_seed
    from games.setback import state as S
    from games.setback.rules import apply_move
    from games.setback.view import SeatView
    from play.player_spec import make_player

    from games.setback.search.world_search import WorldSearch

    player = make_player(f"pimc:{worlds}")
    if threads is not None:
        player.search = WorldSearch(0, threads=threads)
    times = []
    for seed in range(deals):
        state = S.new_state()
        S.random_deal(new_rng(int(stream_seed(seed, 0))), state)
        history: list[int] = []
        while state[S.PHASE] != S.PHASE_OVER:
            view = SeatView.of(state, seed % 4, (0, 0), history)
            start = time.perf_counter()
            move = player.choose(view)
            seconds = time.perf_counter() - start
            if state[S.PHASE] == S.PHASE_PLAY and view.legal_moves().size > 1:
                times.append(seconds)
            apply_move(state, move)
            history.append(move)
    return np.array(times)


def main() -> None:
    """Run the three parts and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=200,
                        help="positions per hand size in part 1 (default 200)")
    parser.add_argument("--brute", type=int, default=10,
                        help="4-card positions solved by the brute force in part 2 (default 10)")
    parser.add_argument("--deals", type=int, default=10,
                        help="deals played by each pimc player in part 3 (default 10)")
    parser.add_argument("--worlds", default="10,50",
                        help="comma-separated world counts of part 3 (default 10,50)")
    args = parser.parse_args()
    solver_speed(args.positions)
    brute_ratio(args.brute)
    pimc_times(1, 2)  # load the kernels from numba's cache before timing
    print("3. pimc decision time (card decisions with two or more legal cards)")
    from search.cpus import usable_cpus

    cpus = usable_cpus()
    for worlds in (int(w) for w in args.worlds.split(",")):
        for threads in (None, 1) if cpus > 1 else (None,):
            ms = 1000 * pimc_times(args.deals, worlds, threads)
            p99 = np.percentile(ms, 99)
            target = f" (target p99 < 200 ms: {'met' if p99 < 200 else 'MISSED'})" \
                if worlds == 50 and threads is None else ""
            label = f"{cpus} threads" if threads is None else "1 thread"
            print(f"   pimc:{worlds}, {label}: {ms.size} decisions, mean {ms.mean():.1f} ms, "
                  f"p50 {np.percentile(ms, 50):.1f}, p90 {np.percentile(ms, 90):.1f}, p99 "
                  f"{p99:.1f}, max {ms.max():.1f} ms{target}")


if __name__ == "__main__":
    main()
