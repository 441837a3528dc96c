"""`setback-cfr tournament`: complete games to 11 between two players, with a 95% interval."""

from __future__ import annotations

import json

from cli.errors import UserError
from games import registry  # plain data: imports no game


def register(subparsers) -> None:
    """Add the `tournament` subcommand."""
    from play.player_spec import SPEC_HELP

    parser = subparsers.add_parser(
        "tournament", help="play complete games between two players and measure the win rate",
        description="Play complete games to 11 (South deals first, the deal passes clockwise) "
        "between player A on East-West (--ew) and player B on North-South (--ns). With "
        "--duplicate every game is replayed on the same deals with the teams' seats swapped, "
        "so each player holds the other's cards once and card luck cancels. Prints A's win "
        "rate with a 95% confidence interval (Wilson; by duplicate pair with --duplicate), "
        "points per deal, bids made and set, and writes a PNG summary (needs the `plot` "
        "extra). Deterministic for a seed, whatever --workers. PLAYER is "
        f"{SPEC_HELP}; db:PATH is a database from `setback-cfr db load`, strategy: reads "
        "exported strategy files into memory, and PLAYER,bid=SPEC bids (the auction only) "
        "like SPEC and plays the cards, the pitch included, like PLAYER.")
    parser.add_argument("--ew", required=True, metavar="PLAYER", help="player A, East-West")
    parser.add_argument("--ns", required=True, metavar="PLAYER", help="player B, North-South")
    parser.add_argument("--games", type=int, default=1000, metavar="N",
                        help="games to play (duplicate pairs with --duplicate; default 1000)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="random seed of the deals and of the random players (default 0)")
    parser.add_argument("--duplicate", action="store_true",
                        help="replay every game's deals with the teams swapped")
    parser.add_argument("--workers", type=int, default=1, metavar="K",
                        help="worker processes (default 1); the figures do not depend on it")
    parser.add_argument("--max-deals", type=int, default=200, metavar="D",
                        help="abandon a game still undecided after D deals (default 200)")
    parser.add_argument("--png", metavar="FILE", default=None,
                        help="also draw the figures as a PNG picture at FILE (*.png); "
                        "default: no picture, nothing written to the working directory")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.add_argument("--game", choices=registry.names(), default=registry.DEFAULT_GAME,
                        help="the game (default setback). euchre: games to 10 "
                        "(games/euchre/match.py) between Euchre players: "
                        "random, heuristic (play/euchre_heuristic.py), db:PATH[,sample] (a "
                        "database of a Euchre export), ismcts[:SIMS][,pyspiel] or "
                        "search[OPTIONS]:db:PATH (rollout search on the database) or "
                        "oracle[,bid=SPEC] (SEES EVERY HAND: double-dummy card play on the true "
                        "deal, a ceiling); prints A's "
                        "win rate and the points a hand, each with its 95%% interval "
                        "(--max-deals and --png are Setback's)")
    parser.add_argument("--hands", action="store_true",
                        help="(--game euchre) play --games single hands instead of games to "
                        "10, each scored alone: the figure that counts is the points a hand")
    parser.set_defaults(func=run)


def run_euchre(args) -> int:
    """`tournament --game euchre`: play Euchre games to 10 (or hands) and print the figures."""
    import time

    from play.euchre_tournament import (EuchreSpecError, format_euchre_summary,
                                        make_euchre_player, run_euchre_tournament,
                                        summarize_euchre)

    if not 0 < args.games < 2**63:
        raise UserError("--games must be a positive number (below 2**63)")
    if not 0 <= args.seed < 2**64:
        raise UserError("--seed must be a non-negative integer (below 2**64)")
    if not 1 <= args.workers < 2**63:
        raise UserError("--workers must be at least 1 (and below 2**63)")
    try:
        players = (make_euchre_player(args.ew, args.seed), make_euchre_player(args.ns, args.seed))
    except EuchreSpecError as exc:
        raise UserError(str(exc)) from None
    start = time.perf_counter()
    rows = _interruptible(lambda stop: run_euchre_tournament(
        players, args.games, args.seed, args.duplicate, args.hands, args.workers,
        not args.no_progress, stop=stop))
    played = rows.shape[0] // (2 if args.duplicate else 1)
    if played == 0:
        raise KeyboardInterrupt
    if played < args.games:
        import sys

        what = "duplicate pairs" if args.duplicate else "hands" if args.hands else "games"
        print(f"setback-cfr: interrupted: the figures below are for the {played:,} {what} "
              "completed", file=sys.stderr)
    summary = summarize_euchre(rows, (players[0].name, players[1].name), args.duplicate,
                               args.hands, args.seed, time.perf_counter() - start)
    # a database player's lookups (the parent's only when the games ran here, --workers 1)
    lookups = {p.name: p.report() for p in players if hasattr(p, "report")}
    if args.json:
        print(json.dumps({**summary.as_dict(), "lookups": lookups}))
    else:
        print(format_euchre_summary(summary))
        for name, report in lookups.items():
            if report["lookups"]:
                print(f"  {name}: {report['found']:,} of {report['lookups']:,} keys found "
                      f"({100 * report['found'] / report['lookups']:.1f} %), the rest played "
                      "by the heuristic" + (" (counted in this process only)"
                                            if args.workers > 1 else ""))
    return 0


def _interruptible(work):
    """`work(stop)` with Ctrl-C and SIGTERM turned into `stop()` becoming true (the first
    signal; a second one exits at once), the previous handlers restored after."""
    import os
    import signal

    asked: list = []

    def handler(signum, frame):
        if asked:
            os._exit(128 + signum)
        asked.append(signum)

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        return work(lambda: bool(asked))
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def run(args) -> int:
    """Play the tournament and print its figures."""
    if args.game == "euchre":
        return run_euchre(args)
    if args.hands:
        raise UserError("--hands is for --game euchre")
    summary = tournament(args.ew, args.ns, args.games, args.seed, args.duplicate,
                         args.workers, args.max_deals, not args.no_progress)
    png = write_png(summary, args.png)
    if args.json:
        print(json.dumps({**summary.as_dict(), "png": png}))
    else:
        from play.tournament import format_summary

        print(format_summary(summary))
        if png:
            print(f"  summary PNG     {png}")
    return 130 if summary.interrupted else 0


def tournament(ew: str, ns: str, games: int, seed: int, duplicate: bool, workers: int,
               max_deals: int, progress: bool):
    """Build the players, play, and summarize (`play.tournament.Summary`); bad input is a
    `UserError`."""
    import time

    from play.player_spec import PlayerSpecError, make_player
    from play.tournament import run_tournament, summarize

    if not 0 < games < 2**63:
        raise UserError("--games must be a positive number (below 2**63)")
    if not 0 <= seed < 2**64:
        raise UserError("--seed must be a non-negative integer (below 2**64)")
    if not 1 <= workers < 2**63:
        raise UserError("--workers must be at least 1 (and below 2**63)")
    if not 1 <= max_deals < 2**63:
        raise UserError("--max-deals must be at least 1 (and below 2**63)")
    try:
        players = (make_player(ew, seed), make_player(ns, seed))
    except PlayerSpecError as exc:
        raise UserError(str(exc)) from None
    start = time.perf_counter()
    counts: list = []
    interrupted: list = []
    rows = run_tournament(players, games, seed, duplicate, workers, max_deals,
                          progress=progress, counts=counts, interrupted=interrupted)
    if interrupted:
        import sys

        if rows.shape[0] == 0:
            raise KeyboardInterrupt
        print(f"setback-cfr: interrupted: the figures below are for the {rows.shape[0]:,} "
              "games completed", file=sys.stderr)
    summary = summarize(rows, (players[0].name, players[1].name), duplicate, seed,
                        time.perf_counter() - start, counts)
    summary.interrupted = bool(interrupted)
    return summary


def write_png(summary, path: str | None) -> str | None:
    """Write the PNG summary unless `path` is 'none'; without matplotlib, say so and go on."""
    import sys

    from play.summary_plot import PlotUnavailable, write_summary_png

    if not path or path.lower() == "none":
        return None
    if not path.lower().endswith(".png"):
        raise UserError(f"--png {path!r}: the summary is a PNG file (name it *.png) or 'none'")
    try:
        return write_summary_png(summary, path)
    except PlotUnavailable as exc:
        print(f"setback-cfr: note: no PNG written ({exc})", file=sys.stderr)
        return None
    except (OSError, ValueError) as exc:  # a bad directory, a NUL in the name, ...
        raise UserError(f"--png {path!r}: cannot write the PNG ({exc})") from None
