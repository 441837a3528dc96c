"""The double-dummy solver (`search/double_dummy.py`) against OpenSpiel's bridge, whose tables
come from Bo Haglund's DDS: random 52-card deals, each deal's 20 declarer/trump entries
compared entry for entry and timed side by side in the same process and run (issue 55, item 5).

DDS's table is read back from `score_by_contract()`: the score of every one-level undoubled
contract, not vulnerable, gives the declarer's tricks (made: 50 + the trick score; down: -50 a
trick). OpenSpiel computes the table (`CalcDDtable`, which may use a thread a trump on every
core) when the 52nd card is dealt: that action is what is timed, in wall time and in this
process's CPU time (all its threads); ours is `DoubleDummySolver.table` on one thread, timed
the same two ways (on a busy machine the CPU ratio is the steadier), its transposition table
kept from deal to deal (as `setback-cfr dd-table` keeps it). Targets: 0 differences on 10,000
entries (500 deals), ours at most 3x DDS's time a deal.

    python bench/dd_vs_dds.py [--deals 500] [--seed 0] [--start 0] [--every]
                              [--fixture tests/data/dd_tables.json]

--start N skips the seed's first N deals (they are still drawn, so deal N is the same deal as
in a full run: a slow stretch can be rerun alone); --every prints a line a deal (its time,
nodes and ratio), so a run stopped early still shows where it got.

With --fixture PATH it writes the deals and DDS's tables (the stored set tests/
test_double_dummy.py checks) and compares nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

SEATS = "NESW"  # OpenSpiel deals card i to seat i % 4: N E S W, as the solver's seats 0..3
STRAINS = "CDHS"  # OpenSpiel's denominations 0..3 (4 is NT): the solver's trump indices
RANKS = "23456789TJQKA"


def bridge_game():
    """OpenSpiel's bridge (double-dummy results on, nobody vulnerable)."""
    import pyspiel

    return pyspiel.load_game("bridge")


def deal_state(game, order):
    """OpenSpiel's state after dealing the 52 cards of `order` (OpenSpiel card ids, rank * 4
    + suit), and the wall and CPU seconds its last card took (DDS's table is made then)."""
    state = game.new_initial_state()
    for action in order[:-1]:
        state.apply_action(action)
    wall, cpu = time.perf_counter(), time.process_time()
    state.apply_action(order[-1])
    return state, time.perf_counter() - wall, time.process_time() - cpu


def dds_table(game, state) -> np.ndarray:
    """DDS's table (int[5, 4]: trump C D H S then NT, by declarer N E S W) read back from the
    scores of the one-level undoubled contracts."""
    scores = state.score_by_contract()
    table = np.zeros((5, 4), dtype=np.int64)
    for strain in range(5):
        name = "CDHSN"[strain]
        first, per = ((20, 20), (20, 20), (30, 30), (30, 30), (40, 30))[strain]
        for seat in range(4):
            index = 1 + strain * 12 + seat * 3
            assert game.contract_string(index) == f"1{name} {SEATS[seat]}", index
            score = scores[index] * (1 if seat % 2 == 0 else -1)  # NS's side -> declarer's
            if score < 0:
                table[strain, seat] = 7 + score // 50
            else:
                table[strain, seat] = 7 + (score - 50 - first) // per
    return table


def hands_of(order) -> list[int]:
    """The solver's four hands (N E S W, card = suit * 13 + rank) of an OpenSpiel deal."""
    hands = [0, 0, 0, 0]
    for i, action in enumerate(order):
        hands[i % 4] |= 1 << ((action % 4) * 13 + action // 4)
    return hands


def hand_text(mask: int) -> list[str]:
    """The cards of a solver hand as text ("AS", "TD")."""
    return [RANKS[c % 13] + STRAINS[c // 13] for c in range(52) if mask >> c & 1]


def random_order(rng) -> list[int]:
    """A uniformly shuffled deck of OpenSpiel card ids."""
    order = list(range(52))
    rng.shuffle(order)
    return order


def write_fixture(path: str, deals: int, seed: int) -> None:
    """Write `deals` random deals of `seed` with DDS's tables as JSON."""
    game = bridge_game()
    rng = random.Random(seed)
    rows = []
    for _ in range(deals):
        order = random_order(rng)
        state, _, _ = deal_state(game, order)
        table = dds_table(game, state)
        hands = hands_of(order)
        rows.append({"hands": {SEATS[s]: hand_text(hands[s]) for s in range(4)},
                     "table": {strain: {SEATS[s]: int(table[t, s]) for s in range(4)}
                               for strain, t in (("NT", 4), ("S", 3), ("H", 2), ("D", 1),
                                                 ("C", 0))}})
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({"source": f"bench/dd_vs_dds.py --fixture, {deals} deals of seed {seed}, "
                             "OpenSpiel bridge's score_by_contract() (DDS)",
                   "deals": rows}, handle, indent=None)
        handle.write("\n")
    print(f"wrote {deals} deals and DDS's tables to {path}")


def compare(deals: int, seed: int, tt_bits: int, start: int = 0, every: bool = False) -> None:
    """Compare and time random deals `start` to `deals` - 1 of `seed`; print the figures
    (every 50 deals a running tally; with `every` a line a deal)."""
    from search.double_dummy import DoubleDummySolver

    game = bridge_game()
    solver = DoubleDummySolver(tt_bits)
    warm = random_order(random.Random(-1))
    solver.table(hands_of(warm))  # load (or compile) the kernels outside the timing
    rng = random.Random(seed)
    for _ in range(start):
        random_order(rng)  # deal `start` is the same deal as in a run from 0
    differences = 0
    ratios, dds_wall_total, dds_cpu_total = [], 0.0, 0.0
    cpu_ratios, ours_cpu_total = [], 0.0
    ours_times = []
    for k in range(start, deals):
        order = random_order(rng)
        state, dds_wall, dds_cpu = deal_state(game, order)
        want = dds_table(game, state)
        nodes = solver.nodes
        wall, start_cpu = time.perf_counter(), time.process_time()
        got = solver.table(hands_of(order))
        ours = time.perf_counter() - wall
        ours_cpu = time.process_time() - start_cpu
        wrong = int((got != want).sum())
        differences += wrong
        if wrong:
            print(f"deal {k}: {wrong} entries differ\n ours {got.tolist()}\n DDS  "
                  f"{want.tolist()}", flush=True)
        ratios.append(ours / dds_wall)
        cpu_ratios.append(ours_cpu / max(dds_cpu, 1e-6))
        ours_times.append(ours)
        ours_cpu_total += ours_cpu
        dds_wall_total += dds_wall
        dds_cpu_total += dds_cpu
        if every:
            print(f"deal {k}: ours {ours_cpu:.2f} s CPU, {(solver.nodes - nodes) / 1e6:.1f} M "
                  f"nodes; DDS {dds_cpu:.3f} s CPU; ratio {cpu_ratios[-1]:.1f}", flush=True)
        if (k + 1) % 50 == 0 and k + 1 < deals:
            _report(start, k + 1, seed, differences, ours_times, ours_cpu_total, dds_wall_total,
                    dds_cpu_total, ratios, cpu_ratios)
    _report(start, deals, seed, differences, ours_times, ours_cpu_total, dds_wall_total,
            dds_cpu_total, ratios, cpu_ratios)


def _report(start, end, seed, differences, ours_times, ours_cpu_total, dds_wall_total,
            dds_cpu_total, ratios, cpu_ratios) -> None:
    """Print the figures of deals `start` to `end` - 1."""
    ours_total = sum(ours_times)
    count = len(ours_times)
    which = "" if start == 0 else f" ({start} to {end - 1})"
    print(f"{count} deals{which} of seed {seed}, {20 * count:,} entries compared: "
          f"{differences} differences")
    print(f"time a deal (20 entries): ours median {statistics.median(ours_times):.3f} s, "
          f"total {ours_total:.1f} s; DDS total {dds_wall_total:.1f} s wall, "
          f"{dds_cpu_total:.1f} s CPU")
    print(f"ratio ours/DDS a deal, wall: median {statistics.median(ratios):.2f}, "
          f"p90 {sorted(ratios)[int(0.9 * (len(ratios) - 1))]:.2f}, max {max(ratios):.2f}, "
          f"totals {ours_total / dds_wall_total:.2f}")
    print(f"ratio ours/DDS a deal, CPU (ours {ours_cpu_total:.1f} s): median "
          f"{statistics.median(cpu_ratios):.2f}, p90 "
          f"{sorted(cpu_ratios)[int(0.9 * (len(cpu_ratios) - 1))]:.2f}, totals "
          f"{ours_cpu_total / max(dds_cpu_total, 1e-9):.2f}", flush=True)


def main() -> None:
    """Parse the options and run the comparison (or write the fixture)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=500, help="random deals (default 500)")
    parser.add_argument("--seed", type=int, default=0, help="the deals' seed (default 0)")
    parser.add_argument("--start", type=int, default=0,
                        help="the first deal compared (default 0: all of them)")
    parser.add_argument("--every", action="store_true", help="print a line a deal")
    parser.add_argument("--tt-bits", type=int, default=20,
                        help="our transposition table's size, log2 (default 20)")
    parser.add_argument("--fixture", metavar="PATH",
                        help="write the deals and DDS's tables to PATH instead")
    args = parser.parse_args()
    if args.fixture:
        write_fixture(args.fixture, args.deals, args.seed)
    else:
        compare(args.deals, args.seed, args.tt_bits, args.start, args.every)


if __name__ == "__main__":
    main()
