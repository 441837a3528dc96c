"""Where does the reference layout merge situations that play differently? (issue 27, step 1)

Self-play deals (the heuristic player in every seat, or a random player with --random) are
played out; at every keyed playout decision (leading tricks 2-6, following in any trick: the
playout key of `../shared/spec/abstraction.md`), the exact solver
(`games/setback/search/capture_solver.py`, all four hands known) values each abstract
action's representative card, from the acting team's view. The true situations are then grouped, under two bases, plus one candidate refinement the
acting seat could know:
- `key`: the reference playout key itself (exact, but a few hundred deals fill few keys twice);
- `skeleton`: only the kind, the trick and the abstract actions (the key's own fields then
  count as the refinement `ref`): coarse enough for most situations to share a group, so each
  field's worth shows, the reference's fields beside the candidates.

| refinement | what it adds to the playout key |
|--|--|
| `team`    | whether my team is the bidder's |
| `bid`     | the winning bid (2, 3, 4) |
| `team+bid`| both |
| `need`    | bid minus the points the bidder's team holds for certain (Jack captured, Ace of trump
|           | played, Two of trump captured), and the same count for the defenders (capped) |
| `out`     | trumps neither played nor in my hand (0..7+) |
| `all`     | team+bid, need and out together |
| `ref`     | (skeleton base only) the reference key's positions 0-11 |
| `ref+all` | (skeleton base only) the reference key and `all`: the finest grouping |

Within a group every situation has the same abstract actions. Per group the figures are:
- `sd`: the within-group standard deviation of each action's value (pooled over actions,
  ddof 1: unbiased whatever the group sizes, so finer groupings are compared fairly);
- `sd adv`: the same for each action's advantage (its value minus the mean over the
  situation's actions): what decides between actions, without the deal's overall value;
- `loo loss`: leave-one-out merge loss: each situation plays the action whose mean value over
  the *other* situations of its group is best, and loses its exact best value minus that
  action's value (what a key that cannot tell them apart costs, estimated without fitting the
  situation itself).
Only groups of two or more situations count (`in groups`); a finer grouping keeps fewer.
Part of every spread is hidden information no layout can remove (the values are perfect-
information values); a refinement's worth is how much of the spread it removes.

    python bench/abstraction_spread.py --deals 300           # a few minutes
    python bench/abstraction_spread.py --deals 100 --random  # random self-play
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402

REFINEMENTS = ("none", "team", "bid", "team+bid", "need", "out", "all", "ref", "ref+all")
BASES = ("key", "skeleton")


def parse_args(argv=None):
    """The command line (module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=300,
                        help="self-play deals (default 300; all-pass deals are skipped)")
    parser.add_argument("--seed", type=int, default=0, help="deal seed (default 0)")
    parser.add_argument("--random", action="store_true",
                        help="random players instead of the heuristic (more varied positions)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    return args


def certain_points(state, team: int) -> int:
    """Points `team` holds for certain from public cards: the Jack of trump captured, the Ace
    of trump played by one of its seats (High), the Two of trump captured (Low)."""
    from games.setback import state as S
    from games.setback.cards import JACK, make_card

    trump = int(state[S.TRUMP])
    won = int(state[S.WON + team])
    points = (won >> make_card(JACK, trump)) & 1
    points += (won >> make_card(2, trump)) & 1
    ace = make_card(14, trump)
    if int(state[S.PLAYED]) >> ace & 1:
        # the Ace's owner is the seat that was dealt it; dealt cards of others are not public,
        # but a played card's seat is (recorded by the trick it fell in): read it off DEALT
        for seat in range(4):
            if int(state[S.DEALT + seat]) >> ace & 1:
                points += seat % 2 == team
    return int(points)


def refinement_fields(state, seat: int) -> dict:
    """The candidate refinements (module docstring) of the seat to act, from what it knows."""
    from games.setback import state as S
    from games.setback.cards import suit_mask

    bidder_team = int(state[S.HIGH_BIDDER]) % 2
    bid = int(state[S.HIGH_BID])
    trump = int(state[S.TRUMP])
    mine = certain_points(state, bidder_team)
    theirs = certain_points(state, 1 - bidder_team)
    trumps = int(suit_mask(trump))
    seen = (int(state[S.PLAYED]) | int(state[S.HAND + seat])) & trumps
    out = 13 - bin(seen).count("1")
    return {"team": int(seat % 2 == bidder_team), "bid": bid,
            "need": (max(0, bid - mine), min(theirs, 4 - bid + 1)), "out": min(out, 7)}


def group_key(record: dict, base: str, refinement: str):
    """The group of a situation: its base (`key` or `skeleton`) plus a refinement's fields."""
    f = record["fields"]
    every = (f["team"], f["bid"], f["need"], f["out"])
    extra = {"none": (), "team": (f["team"],), "bid": (f["bid"],),
             "team+bid": (f["team"], f["bid"]), "need": f["need"], "out": (f["out"],),
             "all": every, "ref": (record["key"],), "ref+all": (record["key"],) + every
             }[refinement]
    start = (record["key"],) if base == "key" else (record["kind"], record["trick"],
                                                     record["tokens"])
    return start + tuple(extra)


def collect(args) -> list[dict]:
    """Play the self-play deals and record every keyed playout decision with its exact
    action values (acting team's view)."""
    from tqdm import tqdm

    from games.setback.abstraction.decision import SIT_FOLLOW, SIT_LEAD, abstract_decision
    from games.setback import state as S
    from games.setback.rules import apply_move
    from games.setback.scoring import is_exhausted
    from games.setback.view import SeatView
    from games.setback.play.heuristic import HeuristicPlayer
    from games.scaffold.match import RandomPlayer
    from games.setback.play.tournament import deal_state
    from games.setback.search.capture_solver import Solver

    player = RandomPlayer(args.seed) if args.random else HeuristicPlayer()
    auction = HeuristicPlayer()  # sensible contracts even with random card play
    solver = Solver()
    moves = np.zeros(8, dtype=np.int64)
    records = []
    for d in tqdm(range(args.deals), desc="deals", disable=args.no_progress):
        state = deal_state(args.seed, d)
        while int(state[S.PHASE]) == S.PHASE_AUCTION:
            apply_move(state, int(auction.choose(SeatView.of(state, 0))))
        if int(state[S.HIGH_BID]) == 0:
            continue
        while not is_exhausted(state):
            if int(state[S.TRUMP]) >= 0:
                n, situation, tokens, key = abstract_decision(state, moves)
                if n >= 2 and situation in (SIT_LEAD, SIT_FOLLOW):
                    seat = int(state[S.TO_ACT])
                    cards, values = solver.move_values(state)
                    sign = 1 if seat % 2 == int(state[S.HIGH_BIDDER]) % 2 else -1
                    by_card = dict(zip(cards.tolist(), (sign * values).tolist()))
                    records.append({
                        "key": int(key), "tokens": int(tokens),
                        "kind": "lead" if situation == SIT_LEAD else "follow",
                        "trick": int(state[S.TRICK_NUMBER]) + 1,
                        "values": np.array([by_card[int(moves[j])] for j in range(n)], float),
                        "fields": refinement_fields(state, seat)})
            apply_move(state, int(player.choose(SeatView.of(state, 0))))
    return records


def spread(records: list[dict], base: str, refinement: str) -> dict:
    """`sd`, `sd adv`, `loo loss` (module docstring) of the records grouped by `base` plus
    `refinement`."""
    groups = defaultdict(list)
    for r in records:
        groups[group_key(r, base, refinement)].append(r["values"])
    ss = ss_adv = dof = 0.0
    loss = 0.0
    kept = n_groups = 0
    for members in groups.values():
        m = len(members)
        if m < 2:
            continue
        values = np.stack(members)  # situations x actions
        adv = values - values.mean(axis=1, keepdims=True)
        ss += float(((values - values.mean(axis=0)) ** 2).sum())
        ss_adv += float(((adv - adv.mean(axis=0)) ** 2).sum())
        dof += (m - 1) * values.shape[1]
        total = values.sum(axis=0)
        for i in range(m):
            others = (total - values[i]) / (m - 1)
            loss += float(values[i].max() - values[i][int(np.argmax(others))])
        kept += m
        n_groups += 1
    return {"situations": len(records), "in_groups": kept, "groups": n_groups,
            "sd": (ss / dof) ** 0.5 if dof else float("nan"),
            "sd_adv": (ss_adv / dof) ** 0.5 if dof else float("nan"),
            "loo_loss": loss / kept if kept else float("nan")}


def buckets(records: list[dict]) -> dict:
    """The records by (kind, trick), with `all` for every playout decision."""
    out = {("all", 0): records}
    for r in records:
        out.setdefault((r["kind"], r["trick"]), []).append(r)
    return out


def main(argv=None) -> int:
    """Collect, then print the tables: every playout decision under both bases and every
    refinement; then per (kind, trick) on the skeleton base."""
    args = parse_args(argv)
    start = time.perf_counter()
    records = collect(args)
    print(f"{len(records):,} keyed playout decisions from {args.deals} deals "
          f"({'random' if args.random else 'heuristic'} self-play, seed {args.seed}), "
          f"{time.perf_counter() - start:.0f} s")
    header = (f"{'kind':6} {'trick':>5} {'base':8} {'refinement':10} {'in groups':>9} "
              f"{'groups':>6} {'sd':>6} {'sd adv':>6} {'loo loss':>8}")
    print(header)
    for (kind, trick), rows in sorted(buckets(records).items(), key=lambda kv: (
            kv[0][0] != "all", kv[0][0], kv[0][1])):
        for base in BASES if kind == "all" else ("skeleton",):
            for refinement in REFINEMENTS:
                if base == "key" and refinement.startswith("ref"):
                    continue
                s = spread(rows, base, refinement)
                if s["groups"] == 0:
                    continue
                print(f"{kind:6} {trick if trick else '*':>5} {base:8} {refinement:10} "
                      f"{s['in_groups']:>5,}/{s['situations']:<5,} {s['groups']:>6,} "
                      f"{s['sd']:>6.3f} {s['sd_adv']:>6.3f} {s['loo_loss']:>8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
