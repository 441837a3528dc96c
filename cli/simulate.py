"""`setback-cfr simulate`: complete games to 11 between uniformly random legal players (with
`--game euchre`, games to 10 or single hands of Euchre, through the registry's `simulate`)."""

from __future__ import annotations

import json
import time

from cli.errors import UserError
from games import registry  # plain data: imports no game

CHUNK = 500  # games per numba call between progress-bar updates


def register(subparsers) -> None:
    """Add the `simulate` subcommand."""
    parser = subparsers.add_parser(
        "simulate",
        help="play random games to 11 through the numba rules engine and print statistics",
        description="Play complete games to 11 between four uniformly random legal players "
        "(dealer rotation from South, the tie rule) and print games/s, deals per game, the "
        "share of all-pass deals and how often each point is scored. Deterministic for a seed. "
        "Random bidders overbid, so both teams' scores drift down and some games would never "
        "end: a game still undecided after --max-deals deals is abandoned and counted.",
    )
    parser.add_argument("--games", type=int, default=10_000, metavar="N",
                        help="number of games to play (default 10000)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="random seed; game g uses its own stream derived from S (default 0)")
    parser.add_argument("--max-deals", type=int, default=1000, metavar="D",
                        help="abandon a game still undecided after D deals (default 1000)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.add_argument("--game", choices=registry.names(), default=registry.DEFAULT_GAME,
                        help="the game (default setback). euchre: games to 10 (stick the dealer) "
                        "between random players through the numba engine "
                        "(games/euchre/simulate.py): games/s, hands/s, hands per game, EW's "
                        "wins, how trump was made (round 1, round 2, the stuck dealer), alone "
                        "hands, the makers' results (-2 euchred, 1, 2, 4) and points a hand. "
                        "A Euchre game always ends: --max-deals is Setback's")
    parser.add_argument("--hands", action="store_true",
                        help="(--game euchre) play --games single hands instead of games to "
                        "10, each from its own stream")
    parser.add_argument("--no-stick-the-dealer", action="store_true",
                        help="(--game euchre --hands) the dealer may pass in the second round: "
                        "a hand where all four pass twice is not played (counted)")
    parser.set_defaults(func=run)


def run_game(args) -> int:
    """`simulate --game NAME` for a game other than Setback: its registered `simulate` module
    (`simulate`, `summarize`, `format_report`)."""
    from tqdm import tqdm

    simulation = registry.get(args.game).load("simulate")
    with tqdm(total=args.games, unit="hand" if args.hands else "game",
              disable=args.no_progress, leave=False) as bar:
        simulation.simulate(args.seed, 1, args.hands, not args.no_stick_the_dealer)  # compile
        start = time.perf_counter()
        stats = simulation.simulate(args.seed, args.games, args.hands,
                                    not args.no_stick_the_dealer, bar.update)
        seconds = time.perf_counter() - start
    report = simulation.summarize(stats, seconds, args.hands)
    print(json.dumps(report) if args.json else simulation.format_report(report, args.seed))
    return 0


def run(args) -> int:
    """Play the games in chunks (so the progress bar moves) and print the statistics."""
    import numpy as np
    from tqdm import tqdm

    if not 0 < args.games < 2**63:
        raise UserError("--games must be a positive number (below 2**63)")
    if not 0 <= args.seed < 2**64:
        raise UserError("--seed must be a non-negative integer (below 2**64)")
    if args.game != "setback":
        if not registry.get(args.game).provides("simulate"):
            raise UserError(f"simulate --game {args.game}: {args.game} has no simulation yet "
                            "(tournament --game spades plays its random players)")
        if args.no_stick_the_dealer and not args.hands:
            raise UserError("--no-stick-the-dealer is for --hands (a game to 10 sticks the "
                            "dealer)")
        return run_game(args)
    if args.hands or args.no_stick_the_dealer:
        raise UserError(f"--{'hands' if args.hands else 'no-stick-the-dealer'} is for "
                        "--game euchre")

    from games.setback import random_play as R

    if not 0 < args.max_deals < 2**63:
        raise UserError("--max-deals must be a positive number (below 2**63)")
    stats = np.zeros(R.STAT_SIZE, dtype=np.int64)
    seed = np.uint64(args.seed)  # one signature for every seed (a Python int >= 2**63 is not int64)
    R.simulate_games(seed, 0, 1, 1, np.zeros(R.STAT_SIZE, dtype=np.int64))  # compile first
    start = time.perf_counter()
    with tqdm(total=args.games, unit="game", disable=args.no_progress, leave=False) as bar:
        for first in range(0, args.games, CHUNK):
            count = min(CHUNK, args.games - first)
            R.simulate_games(seed, first, count, args.max_deals, stats)
            bar.update(count)
    seconds = time.perf_counter() - start
    report = summarize(stats, seconds)
    if args.json:
        print(json.dumps(report))
    else:
        print(format_report(report, args.seed))
    return 0


def summarize(stats, seconds: float) -> dict:
    """The simulate figures from the statistics array of `random_play.simulate_games`."""
    from games.setback import random_play as R
    from games.setback.scoring import POINT_NAMES

    games, deals = int(stats[R.STAT_GAMES]), int(stats[R.STAT_DEALS])
    bid_deals = deals - int(stats[R.STAT_ALL_PASS])
    finished = games - int(stats[R.STAT_ABANDONED])
    return {
        "games": games,
        "deals": deals,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 1) if seconds > 0 else None,
        "deals_per_second": round(deals / seconds, 1) if seconds > 0 else None,
        "deals_per_game": round(deals / games, 2),
        "deals_per_decided_game": (
            round(int(stats[R.STAT_DECIDED_DEALS]) / finished, 2) if finished else None
        ),
        "all_pass_share": round(int(stats[R.STAT_ALL_PASS]) / deals, 5),
        "point_scored_share": {
            name: round(int(stats[R.STAT_POINTS + i]) / bid_deals, 5) if bid_deals else None
            for i, name in enumerate(POINT_NAMES)
        },
        "setback_share": round(int(stats[R.STAT_SETBACKS]) / bid_deals, 5) if bid_deals else None,
        "abandoned_games": int(stats[R.STAT_ABANDONED]),
        "ew_win_share": round(int(stats[R.STAT_EW_WINS]) / finished, 5) if finished else None,
    }


def format_report(report: dict, seed: int) -> str:
    """Human-readable lines for a `summarize` report."""
    points = report["point_scored_share"]
    lines = [
        f"games            {report['games']:,} (seed {seed}), {report['deals']:,} deals "
        f"in {report['seconds']:.2f} s",
        f"speed            {report['games_per_second']:,} games/s, "
        f"{report['deals_per_second']:,} deals/s",
        f"deals per game   {report['deals_per_game']} "
        f"({report['deals_per_decided_game']} in decided games)",
        f"all-pass deals   {100 * report['all_pass_share']:.2f}%",
        "points scored    " + ", ".join(
            f"{name} {100 * share:.1f}%" for name, share in points.items() if share is not None
        ) + " of deals with a bid",
        f"bidder set back  {100 * (report['setback_share'] or 0):.1f}% of deals with a bid",
        f"abandoned games  {report['abandoned_games']:,} (undecided at the deal limit)",
    ]
    if report["ew_win_share"] is not None:
        lines.append(f"EW wins          {100 * report['ew_win_share']:.1f}% of decided games")
    return "\n".join(lines)
