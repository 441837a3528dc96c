"""`setback-cfr rating`: a rating ladder of players from duplicate matches kept in a store."""

from __future__ import annotations

import json
import math
import sys

from cli.errors import UserError
from cli.game_words import declared, title
from games import registry  # plain data: imports no game
from games.registry import PROGRAM

DEFAULT_STORE = "ratings.db"


def register(subparsers) -> None:
    """Add the `rating` subcommand."""
    default = registry.DEFAULT_GAME
    words = declared("RATING", registry.names(("tournament",)))
    players = declared("PLAYERS")  # a game's grammar's players, its words' {players}
    parser = subparsers.add_parser(
        "rating", help="rate players on the Elo scale from duplicate matches (a ladder)",
        description="Play duplicate matches between the players (every game replayed on the "
        "same deals with the seats swapped; the pair is the unit) and fit Bradley-Terry "
        "ratings on the Elo scale (400 points = odds of 10 to 1), one player fixed at the "
        "anchor's rating, with 95% intervals from a bootstrap over the duplicate pairs. An "
        "abandoned game counts half a win to each side; every match also gets one virtual "
        "drawn pair so that a player who won every pair keeps a finite rating. Every pair "
        "played is kept in a SQLite results store, keyed by the players (spec and a "
        "fingerprint of the files they read, so a rebuilt database is a new player), the "
        "seed, the rules version and --max-deals: nothing stored is ever played again, a "
        "re-run costs nothing, more --games plays only the new pairs, and adding a player "
        "to a rated ladder plays only its own matches (--round-robin plays every pair). "
        "Prints the ratings and the matrix of pairwise win rates (row against column, so "
        "a cycle shows), and draws both with --png. Deterministic for a seed, whatever "
        "--workers. "
        + " ".join(f"With --game {game}{' (the default)' if game == default else ''} the "
                   f"matches are duplicate {text.format(players=players.get(game, ''))}."
                   for game, text in words.items()) + " "
        "A store holds one game's "
        "players; every game's matches are played by the one tournament loop "
        "(play/tournament.py).")
    parser.add_argument("players", nargs="+", metavar="PLAYER",
                        help="the players to rate (at least two, counting the anchor)")
    parser.add_argument("--games", type=int, default=200, metavar="N",
                        help="duplicate pairs per match (2N games; default 200)")
    parser.add_argument("--anchor", default="heuristic=1500", metavar="PLAYER=RATING",
                        help="the player fixed at a rating (default heuristic=1500); it is "
                        "added to the players if not listed")
    parser.add_argument("--store", default=DEFAULT_STORE, metavar="FILE.db",
                        help=f"the SQLite results store (default {DEFAULT_STORE} in the "
                        "current directory; created if missing)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="seed of the deals, the players and the bootstrap (default 0)")
    parser.add_argument("--workers", type=int, default=1, metavar="K",
                        help="worker processes playing pairs (default 1); the results do not "
                        "depend on it")
    parser.add_argument("--round-robin", action="store_true",
                        help="play every pair of players, even two already rated")
    parser.add_argument("--max-deals", type=int, default=200, metavar="D",
                        help="abandon a game still undecided after D deals (default 200; part "
                        f"of a match's key in the store). {title(default)}'s: "
                        + " and ".join(declared("GAME", tuple(declared("ALWAYS_ENDS"))).values())
                        + " always end")
    parser.add_argument("--game", choices=registry.names(("tournament",)),
                        default=registry.DEFAULT_GAME,
                        help=f"the game of the players (default {default}): "
                        + ", ".join(f"{game} plays {goal}" for game, goal in
                                    declared("GOAL", tuple(words)).items())
                        + ". The store records its game; a store of another game is refused")
    parser.add_argument("--bootstrap", type=int, default=1000, metavar="B",
                        help="bootstrap replicates for the intervals (default 1000)")
    parser.add_argument("--png", metavar="FILE",
                        help="draw the ratings with their intervals and the win-rate matrix "
                        "into this PNG")
    parser.add_argument("--json", action="store_true", help="print everything as JSON")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.set_defaults(func=run)


def parse_anchor(text: str) -> tuple[str, float]:
    """(spec, rating) of `--anchor SPEC=RATING`, split at the last '=' (specs may hold '=');
    a bad value is a UserError."""
    spec, sep, value = str(text).rpartition("=")
    if not sep or not spec.strip():
        raise UserError(f"--anchor {text!r}: expected PLAYER=RATING, as in heuristic=1500")
    try:
        rating = float(value)
    except ValueError:
        raise UserError(f"--anchor {text!r}: the rating {value!r} is not a number") from None
    if not math.isfinite(rating):
        raise UserError(f"--anchor {text!r}: the rating must be a finite number")
    return spec.strip(), rating


def run(args) -> int:
    """Play the missing matches, fit, and print (and draw) the ratings."""
    from play.ladder import LadderError, run_ladder
    from play.player_spec import PlayerSpecError
    from play.rating import RatingError
    from play.results_store import ResultsStore, StoreError

    anchor, anchor_rating = parse_anchor(args.anchor)
    if not 0 < args.games < 2**40:
        raise UserError("--games must be a positive number (below 2**40)")
    if not 0 <= args.seed < 2**64:
        raise UserError("--seed must be a non-negative integer (below 2**64)")
    if not 1 <= args.workers < 2**20:
        raise UserError("--workers must be at least 1")
    if not 1 <= args.max_deals < 2**31:
        raise UserError("--max-deals must be at least 1 (and below 2**31)")
    if not 0 <= args.bootstrap <= 1_000_000:
        raise UserError("--bootstrap must be between 0 and 1,000,000")
    if args.png and not args.png.lower().endswith(".png"):
        raise UserError(f"--png {args.png!r}: the picture is a PNG file (name it *.png)")
    players = [p.strip() for p in args.players]
    if anchor not in players:
        players.append(anchor)
        print(f"{PROGRAM}: note: the anchor {anchor} is added to the players",
              file=sys.stderr)
    try:
        store = ResultsStore(args.store, args.game)
    except StoreError as exc:
        raise UserError(str(exc)) from None
    try:
        result = run_ladder(players, store, args.games, args.seed, anchor, anchor_rating,
                            args.workers, args.max_deals, args.round_robin,
                            not args.no_progress, args.bootstrap)
    except (PlayerSpecError, LadderError, RatingError, StoreError) as exc:  # every game's
        # spec error is a PlayerSpecError
        raise UserError(str(exc)) from None
    except KeyboardInterrupt:
        counts = store.counts()
        print(f"{PROGRAM}: interrupted: the pairs completed are kept in {args.store} "
              f"({counts['pairs']:,} pairs stored); run again to go on", file=sys.stderr)
        raise SystemExit(130) from None
    finally:
        store.close()
    png = write_png(result, args.png) if args.png else None
    if args.json:
        print(json.dumps({**result.as_dict(), "png": png}))
    else:
        print(format_result(result))
        if png:
            print(f"picture: {png}")
    return 0


def write_png(result, path: str) -> str | None:
    """Draw the ratings and the matrix into `path`; without matplotlib, say so and go on."""
    from play.rating_plot import write_rating_png
    from play.summary_plot import PlotUnavailable

    try:
        return write_rating_png(result, path)
    except PlotUnavailable as exc:
        print(f"{PROGRAM}: note: no PNG written ({exc})", file=sys.stderr)
        return None
    except (OSError, ValueError) as exc:
        raise UserError(f"--png {path!r}: cannot write the PNG ({exc})") from None


def format_result(result) -> str:
    """The ratings table, the win-rate matrix and the cycles, as text."""
    r = result.ratings
    names = [e.spec for e in result.entrants]
    order = sorted(range(len(names)), key=lambda k: -r.rating[k])
    width = max(len(n) for n in names)
    what = "" if result.game == registry.DEFAULT_GAME else f"{result.game}, "
    lines = [f"Ratings ({what}Bradley-Terry, Elo scale; anchor {names[r.anchor]} = "
             f"{r.anchor_rating:g}; 95% intervals: {r.replicates} bootstrap resamples of the "
             "duplicate pairs)",
             f"  {'#':>2}  {'player':<{width}}  {'rating':>7}  {'95% interval':>17}  "
             f"{'pairs':>7}  {'games':>7}"]
    for k in order:
        interval = ("anchor" if k == r.anchor
                    else f"{r.low[k]:7.0f} .. {r.high[k]:<7.0f}")
        lines.append(f"  {k + 1:>2}  {names[k]:<{width}}  {r.rating[k]:7.0f}  "
                     f"{interval:>17}  {r.pairs[k]:7,}  {2 * r.pairs[k]:7,}")
    lines.append("")
    lines.append("Pair score of the row player against the column player, % (95% interval), "
                 "duplicate pairs n")
    cells = [[_cell(result.matrix[a][b]) if a != b else "-" for b in order] for a in order]
    col = max(12, max(len(c) for row in cells for c in row))
    lines.append("  " + " " * (4 + width) + "".join(f"  {f'#{k + 1}':>{col}}" for k in order))
    for a, row in zip(order, cells):
        lines.append(f"  {f'#{a + 1}':>2}  {names[a]:<{width}}"
                     + "".join(f"  {c:>{col}}" for c in row))
    if result.cycles:
        for c in result.cycles:
            lines.append("  cycle: " + " > ".join(names[k] for k in c + (c[0],)))
    else:
        lines.append("  no cycle (no three players beating each other in a ring)")
    for m in result.matches:
        if m["uniform"]:
            lines.append(f"  note: every pair of {m['a']} vs {m['b']} scored {m['score_a']:g}: "
                         "the bootstrap cannot show that match's uncertainty, and its rating "
                         "gap is set by the one virtual drawn pair (play more pairs)")
    lines.append("")
    lines.append(f"{result.played_pairs:,} pairs played now; store {result.store}: "
                 f"{result.store_counts['players']} players, "
                 f"{result.store_counts['matches']} matches, "
                 f"{result.store_counts['pairs']:,} pairs; {result.games} pairs a match, "
                 f"seed {result.seed}")
    return "\n".join(lines)


def _cell(cell) -> str:
    if cell is None:
        return "not met"
    return (f"{100 * cell['rate']:.1f} ({100 * cell['low']:.0f}-{100 * cell['high']:.0f}) "
            f"n={cell['pairs']}")
