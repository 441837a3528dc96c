"""How often Spades' oracle is exact before 7 tricks are left on Nil-heavy hands: the value
search (`search/trick_values.py`) of every card at each early decision, within the oracle's
`NODE_LIMIT` (past it the oracle rolls out: `games/spades/play/oracle.py`).

The draw: hands dealt at game scores whose bags are about to roll over (each team's score drawn
from SCORES), each seat bidding Nil with probability --nil, else the heuristic's bid; the
heuristic plays every card. At each decision with more than --exact-tricks tricks left and two
legal cards or more, the solver (one `TrickPlaySolver`, reused as the oracle reuses its own)
values every card. Printed: the decisions, how many the trick count solves and how many the
value search does, of those how many finished within the limit (exact) and how many passed it,
their nodes and seconds a decision (p50 / p99 / worst) and in all.

Before and after on one machine and one draw: run it on two trees back to back (--tree), each
writing its decisions (--out), the second comparing with the first (--compare): the values of
every decision both finished must be equal (the count of those differing is printed).

    python -u bench/spades_nil_exact.py [--hands 24] [--seed 0] [--nil 0.3]
        [--node-limit 40000000] [--exact-tricks 7] [--tree PATH] [--out PATH]
        [--compare PATH] [--every]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time

from tqdm import tqdm

SCORES = (7, 8, 9, 38, 119, 248, -23, 0)  # game scores, most with bags near rolling over


def _parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--hands", type=int, default=24, help="hands drawn (default 24)")
    parser.add_argument("--seed", type=int, default=0,
                        help="the draw's seed: hand h is dealt from seed * 10000 + h (default 0)")
    parser.add_argument("--nil", type=float, default=0.3,
                        help="the probability each seat bids Nil (default 0.3)")
    parser.add_argument("--node-limit", type=int, default=None,
                        help="nodes a decision's value search may take (default: the oracle's "
                             "NODE_LIMIT, 40,000,000)")
    parser.add_argument("--exact-tricks", type=int, default=7,
                        help="decisions with more tricks left than this are measured (default 7)")
    parser.add_argument("--tree", default=None,
                        help="the source tree to measure (default: this script's own)")
    parser.add_argument("--out", default=None,
                        help="write every measured decision (JSON: values, nodes, seconds)")
    parser.add_argument("--compare", default=None,
                        help="a run's --out to compare with: values of decisions both finished")
    parser.add_argument("--every", action="store_true",
                        help="print a line a decision (else a progress bar over the hands)")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    if not 0.0 <= args.nil <= 1.0:
        parser.error("--nil is a probability: from 0 to 1")
    if args.node_limit is not None and args.node_limit < 1:
        parser.error("--node-limit must be at least 1")
    if not 0 <= args.exact_tricks <= 12:
        parser.error("--exact-tricks is a count of tricks left: from 0 to 12")
    if args.tree and not os.path.isfile(os.path.join(args.tree, "games", "registry.py")):
        parser.error(f"--tree {args.tree} is not a checkout of this project (no games/registry.py)")
    args.base = None
    if args.compare:  # read before the run, not after it
        try:
            with open(args.compare) as f:
                args.base = {(r["hand"], r["decision"]): r for r in json.load(f)["rows"]}
        except (OSError, ValueError, KeyError, TypeError) as exc:
            parser.error(f"--compare {args.compare}: not a run's --out file ({exc})")
    return args


def _draw(S, rules, heuristic_move, seed, h, nil):
    """Hand `h` of the draw: dealt, bid (Nil with probability `nil`, else the heuristic's)."""
    from games.rng import new_rng

    rng = random.Random(seed * 10000 + h)
    state = S.new_state()
    S.random_hand(new_rng(seed * 10000 + h), state, rng.choice(SCORES), rng.choice(SCORES))
    while state[S.PHASE] == S.PHASE_BID:
        move = rules.BID_MOVE if rng.random() < nil else int(heuristic_move(state))
        rules.apply_move(state, move)
    return state


def _quantiles(xs, fmt="{:,}"):
    """p50, p99 and the worst of `xs`."""
    xs = sorted(xs)
    if not xs:
        return "-"
    p50, p99 = xs[len(xs) // 2], xs[min(len(xs) - 1, int(0.99 * len(xs)))]
    return f"p50 {fmt.format(p50)}, p99 {fmt.format(p99)}, worst {fmt.format(xs[-1])}"


def _warm_up(S, rules, heuristic_move, trick_play, solver_class):
    """Compile the solver's kernels (numba) before anything is timed: hands where every seat
    bids Nil, valued with 3 tricks left by a solver thrown away, until one needs the value
    search."""
    for h in range(-1, -100, -1):
        state = _draw(S, rules, heuristic_move, 0, h, 1.0)
        while trick_play.N_TRICKS - int(state[S.TRICK_NUMBER]) > 3:
            rules.apply_move(state, int(heuristic_move(state)))
        solver = solver_class()
        solver.card_values(state, trick_play)
        if not solver.solvable_by_tricks(state, trick_play):
            return


def main(argv=None) -> int:
    args = _parse(argv)
    tree = os.path.abspath(args.tree or os.path.dirname(os.path.dirname(__file__)))
    sys.path.insert(0, tree)
    from games.spades import rules, trick_play
    from games.spades import state as S
    from games.spades.play.oracle import NODE_LIMIT
    from games.spades.search.policy import heuristic_move
    from search.trick_values import TrickPlaySolver

    limit = NODE_LIMIT if args.node_limit is None else args.node_limit
    commit = subprocess.run(["git", "-C", tree, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    print(f"tree {tree} ({commit}), {args.hands} hands, seed {args.seed}, Nil {args.nil}, "
          f"node limit {limit:,}, decisions with more than {args.exact_tricks} tricks left")
    _warm_up(S, rules, heuristic_move, trick_play, TrickPlaySolver)
    solver = TrickPlaySolver()
    rows = []
    for h in tqdm(range(args.hands), desc="hands", unit="hand", disable=args.every):
        state = _draw(S, rules, heuristic_move, args.seed, h, args.nil)
        decision = 0
        while state[S.PHASE] == S.PHASE_PLAY:
            legal = int(rules.legal_cards(state))
            if (trick_play.N_TRICKS - int(state[S.TRICK_NUMBER]) > args.exact_tricks
                    and legal & (legal - 1)):
                by_tricks = solver.solvable_by_tricks(state, trick_play)
                solver.reset_nodes()
                start = time.perf_counter()
                found = solver.card_values(state.copy(), trick_play, node_limit=limit)
                seconds = time.perf_counter() - start
                row = {"hand": h, "decision": decision, "by_tricks": by_tricks,
                       "exact": found is not None, "nodes": solver.nodes, "seconds": seconds,
                       "values": None if found is None else [int(v) for v in found[1]]}
                rows.append(row)
                if args.every:
                    print(f"  hand {h} decision {decision}: {'tricks' if by_tricks else 'value'}"
                          f" {'exact' if row['exact'] else 'PAST'} {row['nodes']:,} nodes "
                          f"{seconds:.3f} s", flush=True)
            decision += 1
            rules.apply_move(state, int(heuristic_move(state)))
    searched = [r for r in rows if not r["by_tricks"]]
    exact = [r for r in searched if r["exact"]]
    print(f"decisions {len(rows)}: by the trick count {len(rows) - len(searched)}, "
          f"by the value search {len(searched)}: exact {len(exact)}, past the node limit "
          f"{len(searched) - len(exact)}")
    print(f"value search, nodes a decision: {_quantiles([r['nodes'] for r in searched])}")
    seconds = _quantiles([r["seconds"] for r in searched], "{:.3f}")
    print(f"value search, seconds a decision: {seconds}; all decisions "
          f"{sum(r['seconds'] for r in rows):.1f} s")
    print(f"finished value searches, seconds: "
          f"{_quantiles([r['seconds'] for r in exact], '{:.3f}')}")
    if args.out:
        with open(args.out, "w") as f:
            settings = {k: v for k, v in vars(args).items() if k != "base"}
            json.dump({"tree": tree, "commit": commit, "args": settings, "rows": rows}, f)
    if args.compare:
        base = args.base
        both = differ = now_only = base_only = 0
        for r in rows:
            b = base.get((r["hand"], r["decision"]))
            if b is None:
                continue
            if b["exact"] and r["exact"]:
                both += 1
                differ += b["values"] != r["values"]
            now_only += r["exact"] and not b["exact"]
            base_only += b["exact"] and not r["exact"]
        print(f"against {args.compare}: {both} decisions both finished, {differ} with "
              f"differing values; exact here only {now_only}, there only {base_only}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
