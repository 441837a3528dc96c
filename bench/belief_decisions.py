"""Per decision: how often search with a belief picks the move that search in the true deal picks,
and the value it loses (issue 47, level 2 of its measurement).

    python bench/belief_decisions.py --table db:L60.db --deals 300 --seed 47 \
        --beliefs "belief=uniform" "belief=bids" "belief=policy" --json decisions.json

Deals are played to their end by a population (`--population`, default the table itself at
every seat; `heuristic` or any Setback spec for positions the table's model does not describe).
At every decision with two or more legal moves, the *true-deal search* rolls each legal move
out `--truth-rollouts` times from the true deal (the hidden cards known) with the table: its
best mean is the move "search in the true deal picks", and its means value every move. Each
belief's search player (`search[worlds=W,threads=T,<belief options>]:TABLE`, seeded per
decision) then decides from the seat's view: it agrees when it picks the same move, and loses
the true-deal value of that move less the best one's (deal points, the acting team's side).
Prints agreement and loss by phase (the auction, tricks 1-2, 3-4, 5-6) with 95 % intervals,
and each belief's decision time (p50, p99 of wall ms; a timing on a quiet machine only).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

import numpy as np

PHASES = ("auction", "tricks 1-2", "tricks 3-4", "tricks 5-6")
Z95 = 1.959964


def phase_of(state) -> int:
    """The index in PHASES of a decision's phase."""
    from games.setback import state as S

    if int(state[S.PHASE]) == S.PHASE_AUCTION:
        return 0
    return 1 + min(int(state[S.TRICK_NUMBER]), 5) // 2


def positions(population: str, deals: int, seed: int):
    """(full state, dealer, history) of every decision with two or more legal moves of `deals`
    deals played by `population` (one spec, every seat) from seed `seed`."""
    from games.setback.api import Deal, format_move
    from games.setback.view import SeatView
    from play.player_spec import make_player

    player = make_player(population, seed)
    out = []
    for d in range(deals):
        deal = Deal.random(seed * 100_003 + d, dealer="NESW"[d % 4])
        history: list[int] = []
        while not deal.is_over:
            state = deal.state.copy()
            view = SeatView.of(state, deal.dealer, history=history)
            if view.legal_moves().size >= 2:
                out.append((state, deal.dealer, list(history)))
            move = int(player.choose(view))
            history.append(move)
            deal.play(format_move(move))
    if hasattr(player, "close"):
        player.close()
    return out


def true_values(search, state, seat: int, rollouts: int, seed: int):
    """(legal moves, each one's mean rollout value from the true deal, for `seat`'s team)."""
    from games.setback.rules import legal_moves

    buffer = np.zeros(64, np.int64)
    legal = buffer[:legal_moves(state, buffer)].copy()
    worlds = np.repeat(state[None, :], rollouts, axis=0)
    values = search.values(worlds, legal, 1 if seat % 2 == 0 else -1, seed)
    return legal, values.mean(axis=0)


def interval(x: np.ndarray) -> tuple[float, float]:
    """(mean, 95 % half-width) of a sample."""
    if x.size < 2:
        return float(x.mean()) if x.size else 0.0, float("nan")
    return float(x.mean()), Z95 * float(x.std(ddof=1)) / math.sqrt(x.size)


def main(argv=None) -> int:
    """Measure every belief on the same positions and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--table", required=True, metavar="POLICY",
                        help="the blueprint: db:PATH (search's rollouts and the true-deal search)")
    parser.add_argument("--beliefs", nargs="+", default=["belief=uniform", "belief=policy"],
                        metavar="OPTIONS", help="search options of each player measured "
                        "(inside search[...]), e.g. 'belief=policy,temper=0.5'")
    parser.add_argument("--population", metavar="SPEC",
                        help="who plays the deals (default: the table, at every seat)")
    parser.add_argument("--deals", type=int, default=200, help="deals played (default 200)")
    parser.add_argument("--seed", type=int, default=47, help="deals and searches (default 47)")
    parser.add_argument("--worlds", type=int, default=100, help="worlds a decision (default 100)")
    parser.add_argument("--threads", type=int, default=1, help="search threads (default 1)")
    parser.add_argument("--truth-rollouts", type=int, default=200,
                        help="rollouts of each move from the true deal (default 200)")
    parser.add_argument("--every", type=int, default=1,
                        help="measure every K-th decision (default 1: all)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    if min(args.deals, args.worlds, args.threads, args.truth_rollouts, args.every) < 1:
        parser.error("--deals, --worlds, --threads, --truth-rollouts and --every must be >= 1")
    from tqdm import tqdm

    from games.setback.db.policy_arrays import load_policy_arrays
    from games.setback.view import SeatView
    from play.player_spec import PlayerSpecError, make_player
    from search.rollout_search import RolloutSearch
    from games.setback.train.baseline import layout_game

    try:
        players = [make_player(f"search[worlds={args.worlds},threads={args.threads},{b}]:"
                               f"{args.table}", args.seed) for b in args.beliefs]
    except PlayerSpecError as exc:
        parser.error(str(exc))
    table = load_policy_arrays(args.table)
    truth = RolloutSearch(layout_game(table.layout), table, threads=args.threads)
    found = positions(args.population or args.table, args.deals, args.seed)[::args.every]
    rows = {b: {"agree": [], "loss": [], "phase": [], "ms": []} for b in args.beliefs}
    for i, (state, dealer, history) in enumerate(tqdm(found, desc="decisions", unit="dec")):
        view = SeatView.of(state, dealer, history=history)
        legal, value = true_values(truth, state, view.seat, args.truth_rollouts,
                                   args.seed * 7919 + i)
        best = int(np.argmax(value))
        for belief, player in zip(args.beliefs, players):
            player.seed(args.seed * 104_729 + i)
            start = time.perf_counter()
            move = int(player.choose(view))
            rows[belief]["ms"].append(1000.0 * (time.perf_counter() - start))
            pick = int(np.flatnonzero(legal == move)[0])
            rows[belief]["agree"].append(float(pick == best))
            rows[belief]["loss"].append(float(value[best] - value[pick]))
            rows[belief]["phase"].append(phase_of(state))
    for player in players:
        player.close()
    truth.close()
    print(f"{len(found)} decisions of {args.deals} deals (population "
          f"{args.population or args.table}), seed {args.seed}, {args.worlds} worlds, "
          f"true-deal search of {args.truth_rollouts} rollouts a move")
    summary = {}
    for belief in args.beliefs:
        r = {k: np.array(v) for k, v in rows[belief].items()}
        entry = {"phases": {}}
        print(f"\n{belief}")
        print(f"  {'phase':<11} {'decisions':>9} {'agree %':>16} {'loss (points)':>20}")
        for p, name in enumerate(PHASES + ("all",)):
            mask = r["phase"] == p if p < len(PHASES) else np.ones(r["phase"].size, bool)
            a, ah = interval(r["agree"][mask])
            l_, lh = interval(r["loss"][mask])
            print(f"  {name:<11} {int(mask.sum()):>9} {100 * a:>8.1f} ± {100 * ah:<5.1f} "
                  f"{l_:>12.4f} ± {lh:.4f}")
            entry["phases"][name] = {"decisions": int(mask.sum()), "agree": a,
                                     "agree_half": ah, "loss": l_, "loss_half": lh}
        ms = r["ms"]
        entry["ms_p50"], entry["ms_p99"] = float(np.percentile(ms, 50)), float(
            np.percentile(ms, 99))
        print(f"  decision time p50 {entry['ms_p50']:.1f} ms, p99 {entry['ms_p99']:.1f} ms "
              f"({args.threads} thread{'s' if args.threads > 1 else ''})")
        entry["agree_per_decision"] = rows[belief]["agree"]
        entry["loss_per_decision"] = rows[belief]["loss"]
        summary[belief] = entry
    if len(args.beliefs) > 1:
        base = args.beliefs[0]
        print(f"\npaired against {base} (same decisions):")
        for belief in args.beliefs[1:]:
            da, dah = interval(np.array(rows[belief]["agree"]) - np.array(rows[base]["agree"]))
            dl, dlh = interval(np.array(rows[belief]["loss"]) - np.array(rows[base]["loss"]))
            print(f"  {belief}: agreement {100 * da:+.1f} ± {100 * dah:.1f} points, "
                  f"loss {dl:+.4f} ± {dlh:.4f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "beliefs": summary}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
