"""What score-awareness changes in the auction: how often a player wins the auction, at what
bid, and how often it makes it, by the score situation before the deal (issue 26).

Plays duplicate games to 11 between player A and player B (the tournament's own deals and seat
swap, `play.tournament`), and for every deal records the game score before it from A's side
and the auction's outcome. Situations, from A's team's side (first that applies):

- `we 9-10`: A's team has 9 or 10, the other team less than 9;
- `they 9-10`: the other team has 9 or 10, A's team less than 9;
- `both 9-10`;
- `far behind`: A's team trails by 5 or more;
- `far ahead`: A's team leads by 5 or more;
- `even`: the scores differ by at most 1;
- `other`.

For each situation and each side: deals, the share of those deals whose auction that side won,
its mean winning bid, and the share of its contracts it made (with the Wilson 95 % interval).

    python bench/bid_by_score.py --a db:base+boot.db --b heuristic --games 1000 --seed 7
    python bench/bid_by_score.py --a db:base+boot.db --b db:base.db --games 1000 --json out.json

The same deals whoever plays (seed), so two runs with different A's (a baseline alone, the
baseline with its bootstrap) compare the auction policies on the same cards.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

SITUATIONS = ("we 9-10", "they 9-10", "both 9-10", "far behind", "far ahead", "even", "other")


def situation(we: int, they: int) -> str:
    """The score situation of a deal, from the side whose score is `we` (module docstring)."""
    if we >= 9 and they >= 9:
        return "both 9-10"
    if we >= 9:
        return "we 9-10"
    if they >= 9:
        return "they 9-10"
    if they - we >= 5:
        return "far behind"
    if we - they >= 5:
        return "far ahead"
    if abs(we - they) <= 1:
        return "even"
    return "other"


def play_recorded(players, seed: int, game: int, swapped: bool, max_deals: int, record) -> None:
    """Play one game as `games.setback.play.tournament.play_game` does (same deals, seats and
    seeds) and call `record(side, situation_of_a, bidder_side_or_None, bid, made)` after every
    deal."""
    import numpy as np

    from games.rng import stream_seed
    from games.setback import state as S
    from games.setback.game import FIRST_DEALER, game_winner, next_dealer
    from games.setback.rules import apply_move
    from games.setback.scoring import deal_score, is_exhausted
    from games.setback.view import SeatView
    from games.setback.play.tournament import deal_state
    from play.tournament import PLAYER_SEED_BASE

    a, b = players
    game_seed = np.uint64(stream_seed(np.uint64(seed), np.uint64(game)))
    for index, player in enumerate((a, b)):
        if hasattr(player, "seed"):
            player.seed(int(stream_seed(game_seed, PLAYER_SEED_BASE + index)))
    by_team = (b, a) if swapped else (a, b)
    a_team = 1 if swapped else 0
    score = [0, 0]
    dealer = FIRST_DEALER
    for deal in range(max_deals):
        state = deal_state(game_seed, deal)
        history: list[int] = []
        before = situation(score[a_team], score[1 - a_team])
        while not is_exhausted(state):
            seat = int(state[S.TO_ACT])
            player = by_team[(dealer + seat) % 2]
            move = int(player.choose(SeatView.of(state, dealer, (score[0], score[1]), history)))
            apply_move(state, move)
            history.append(move)
        relative = deal_score(state)
        by_abs = [0, 0]
        for rel_team in (0, 1):
            by_abs[(rel_team + dealer) % 2] = int(relative[rel_team])
        high = int(state[S.HIGH_BID])
        if high == 0:
            record(before, None, 0, False)
        else:
            bidder_team = (int(state[S.HIGH_BIDDER]) + dealer) % 2
            side = "A" if bidder_team == a_team else "B"
            record(before, side, high, by_abs[bidder_team] >= 0)
        score[0] += by_abs[0]
        score[1] += by_abs[1]
        if game_winner(score[0], score[1]) >= 0:
            return
        dealer = next_dealer(dealer)


def main(argv=None) -> int:
    """Parse the options, play the games, print the table (and write --json)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", required=True, help="player A (any tournament PLAYER spec)")
    parser.add_argument("--b", default="heuristic", help="player B (default heuristic)")
    parser.add_argument("--games", type=int, default=1000,
                        help="duplicate pairs (default 1000: 2,000 games)")
    parser.add_argument("--seed", type=int, default=7, help="tournament seed (default 7)")
    parser.add_argument("--max-deals", type=int, default=200, help="deals before abandoning")
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    args = parser.parse_args(argv)
    if args.games < 1 or args.max_deals < 1:
        parser.error("--games and --max-deals must be at least 1")

    from tqdm import tqdm

    from play.player_spec import PlayerSpecError, make_player
    from play.tournament import wilson_interval

    try:
        players = (make_player(args.a, args.seed), make_player(args.b, args.seed + 1))
    except PlayerSpecError as exc:
        parser.error(str(exc))
    counts = defaultdict(lambda: {"deals": 0, "A": [0, 0, 0], "B": [0, 0, 0]})

    def record(where, side, bid, made):
        cell = counts[where]
        cell["deals"] += 1
        if side is not None:
            won = cell[side]
            won[0] += 1
            won[1] += bid
            won[2] += int(made)

    for game in tqdm(range(args.games), unit="pair"):
        for swapped in (False, True):
            play_recorded(players, args.seed, game, swapped, args.max_deals, record)

    rows = []
    print(f"A = {args.a}, B = {args.b}: {2 * args.games:,} duplicate games, seed {args.seed}")
    print(f"{'situation (A side)':<20}{'deals':>7}  {'A wins auction':>15}{'A bid':>6}"
          f"{'A made (95% CI)':>22}  {'B wins auction':>15}{'B bid':>6}{'B made (95% CI)':>22}")
    for name in SITUATIONS:
        cell = counts.get(name)
        if not cell:
            continue
        row = {"situation": name, "deals": cell["deals"]}
        text = f"{name:<20}{cell['deals']:>7,}  "
        for side in ("A", "B"):
            won, bids, made = cell[side]
            low, high = wilson_interval(made, won)
            row[side] = {"auctions": won, "share": won / cell["deals"],
                         "mean_bid": bids / won if won else None,
                         "made": made, "made_rate": made / won if won else None,
                         "made_ci": [low, high]}
            text += (f"{100 * won / cell['deals']:>14.1f}%"
                     + (f"{bids / won:>6.2f}{100 * made / won:>9.1f}% ({100 * low:.0f}-"
                        f"{100 * high:.0f})" if won else f"{'-':>6}{'-':>22}") + "  ")
        rows.append(row)
        print(text.rstrip())
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"a": args.a, "b": args.b, "games": 2 * args.games, "seed": args.seed,
                       "rows": rows}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
