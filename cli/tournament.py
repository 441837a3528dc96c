"""`setback-cfr tournament`: complete games (or single hands) between two players of any game
with a tournament (Setback to 11, Euchre to 10, Spades to 500), with a 95% interval; every game
is played by the one loop, `play.tournament.run_tournament`."""

from __future__ import annotations

import json

from cli.errors import UserError
from cli.game_words import declared, either, title
from games import registry  # plain data: imports no game
from games.registry import PROGRAM


def register(subparsers) -> None:
    """Add the `tournament` subcommand."""
    default = registry.DEFAULT_GAME
    words = declared("TOURNAMENT", registry.names(("tournament",)))
    others = [game for game in words if game != default]
    players = declared("PLAYERS")  # a game's grammar's players, its words' {players}
    parser = subparsers.add_parser(
        "tournament", help="play complete games between two players and measure the win rate",
        description="Play complete games (South deals first, the deal passes clockwise) "
        "between player A on East-West (--ew) and player B on North-South (--ns). With "
        "--duplicate every game is replayed on the same deals with the teams' seats swapped, "
        "so each player holds the other's cards once and card luck cancels. Prints A's win "
        "rate with a 95% confidence interval (Wilson; by duplicate pair with --duplicate). "
        "Deterministic for a seed, whatever --workers. "
        f"--game {default} (the default) plays "
        + words[default].format(players=players.get(default, ""), program=PROGRAM) + ". "
        + " and ".join(f"--game {game}" for game in others) + " play that game's games (or "
        "--hands) between its players, through the same loop (play/tournament.py). Ctrl-C or "
        "SIGTERM stops after the chunks in play (one game a chunk with one worker), prints the "
        "figures of those completed and exits 130; a second one exits at once.")
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
    parser.add_argument("--game", choices=registry.names(("tournament",)), default=default,
                        help=f"the game (default {default}). "
                        + ". ".join(f"{game}: {words[game]}" for game in others)
                        + ". Each prints A's win rate and the points a hand, each with its 95%% "
                        f"interval (--max-deals and --png are {title(default)}'s)")
    parser.add_argument("--hands", action="store_true",
                        help=f"(--game {either(declared('HANDS'))}) play --games single hands "
                        "instead of whole games, each scored alone from 0 to 0: the figure that "
                        "counts is the points a hand")
    parser.set_defaults(func=run)


def _interruptible(work):
    """`work(stop)` with Ctrl-C and SIGTERM turned into `stop()` becoming true (the first
    signal; a second one exits at once), the previous handlers restored after."""
    import os

    from cfr.stop_signals import stop_signals

    asked: list = []

    def handler(signum, frame):
        if asked:
            os._exit(128 + signum)
        asked.append(signum)

    with stop_signals(handler):
        return work(lambda: bool(asked))


def run(args) -> int:
    """Play the tournament of `args.game` through the one loop and print its figures."""
    game_name = getattr(args, "game", registry.DEFAULT_GAME)
    hands = bool(getattr(args, "hands", False))
    summary, players, game = play(game_name, args.ew, args.ns, args.games, args.seed,
                                  args.duplicate, args.workers, getattr(args, "max_deals", 200),
                                  not args.no_progress, hands)
    extra = {}
    if game.png:
        extra["png"] = write_png(summary, getattr(args, "png", None))
    if game.lookups:  # a database player's lookups (the parent's only, --workers 1)
        extra["lookups"] = {p.name: p.report() for p in players if hasattr(p, "report")}
    if args.json:
        print(json.dumps({**summary.as_dict(), **extra}))
    else:
        print(game.format_summary(summary))
        if extra.get("png"):
            print(f"  summary PNG     {extra['png']}")
        for name, report in extra.get("lookups", {}).items():
            if report["lookups"]:
                print(f"  {name}: {report['found']:,} of {report['lookups']:,} keys found "
                      f"({100 * report['found'] / report['lookups']:.1f} %), the rest played "
                      "by the heuristic" + (" (counted in this process only)"
                                            if args.workers > 1 else ""))
    return 130 if summary.interrupted else 0


def play(game_name: str, ew: str, ns: str, games: int, seed: int, duplicate: bool,
         workers: int, max_deals: int, progress: bool, hands: bool = False):
    """Build the players of `game_name`, play its tournament through the one loop
    (`play.tournament.run_tournament`), and summarize; return (summary, players, the game's
    `TournamentGame`). The summary's `interrupted` says whether Ctrl-C or SIGTERM stopped it
    (its figures are then the units completed, said on stderr); bad input is a `UserError`."""
    import sys
    import time

    from play.tournament import run_tournament, tournament_game

    game = tournament_game(game_name)
    if hands and not game.hands:
        raise UserError(f"--hands is for the games with a single-hand mode "
                        f"({', '.join(_hand_games())}), not {game.name}")
    if not 0 < games < 2**63:
        raise UserError("--games must be a positive number (below 2**63)")
    if not 0 <= seed < 2**64:
        raise UserError("--seed must be a non-negative integer (below 2**64)")
    if not 1 <= workers < 2**63:
        raise UserError("--workers must be at least 1 (and below 2**63)")
    if game.max_deals and not 1 <= max_deals < 2**63:
        raise UserError("--max-deals must be at least 1 (and below 2**63)")
    try:
        players = (game.make_player(ew, seed), game.make_player(ns, seed))
    except game.spec_error as exc:
        raise UserError(str(exc)) from None
    start = time.perf_counter()
    counts: list = []
    interrupted: list = []
    rows = _interruptible(lambda stop: run_tournament(
        players, games, seed, duplicate, workers, max_deals, progress=progress,
        counts=counts, interrupted=interrupted, game=game, hands=hands, stop=stop))
    played = rows.shape[0] // (2 if duplicate else 1)
    if interrupted:
        if played == 0:
            raise KeyboardInterrupt
        what = "duplicate pairs" if duplicate else "hands" if hands else "games"
        print(f"{PROGRAM}: interrupted: the figures below are for the {played:,} {what} "
              "completed", file=sys.stderr)
    summary = game.summarize(rows, (players[0].name, players[1].name), duplicate, hands, seed,
                             time.perf_counter() - start, counts)
    summary.interrupted = bool(interrupted)
    return summary, players, game


def _hand_games() -> list[str]:
    """The games whose tournament has a single-hand mode."""
    from play.tournament import tournament_game

    return [g for g in registry.names(("tournament",)) if tournament_game(g).hands]


def tournament(ew: str, ns: str, games: int, seed: int, duplicate: bool, workers: int,
               max_deals: int, progress: bool, game: str = registry.DEFAULT_GAME):
    """A tournament's summary (`play`: its game's `TournamentGame.summarize`; by default the
    default game's); bad input is a `UserError`."""
    return play(game, ew, ns, games, seed, duplicate, workers, max_deals, progress)[0]


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
        print(f"{PROGRAM}: note: no PNG written ({exc})", file=sys.stderr)
        return None
    except (OSError, ValueError) as exc:  # a bad directory, a NUL in the name, ...
        raise UserError(f"--png {path!r}: cannot write the PNG ({exc})") from None
