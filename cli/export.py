"""`setback-cfr export`: a run's average strategy as a strategy file."""

from __future__ import annotations

from cli.arguments import probability
from cli.errors import UserError
from cli.game_words import title
from games.registry import PROGRAM
from games import registry  # plain data: imports no game


def register(subparsers) -> None:
    """Add the `export` subcommand."""
    parser = subparsers.add_parser(
        "export", help="write a run's average strategy as a msgpack strategy file (a distill "
        "run: its newest policy network)",
        description="Write the average strategy of a training run (baseline or bootstrap) "
        "as a strategy file: a versioned header (with the run's key layout, train "
        "--abstraction), then every key string with its float32 "
        "probabilities in canonical action order. Probabilities below --threshold are zeroed "
        "and the rest renormalised, as the reference does. The same checkpoint always gives "
        f"the same file, byte for byte. The file is the input of `{PROGRAM} db load`. A "
        "`train distill` run exports its best policy network instead (the newest that beat its "
        "teacher, else the newest round's) (a versioned "
        "network file: play it as net:FILE or search:net:FILE).")
    parser.add_argument("--run", required=True, metavar="DIR", help="the training run directory")
    parser.add_argument("--out", required=True, metavar="FILE", help="strategy file to write")
    parser.add_argument("--threshold", type=probability, default=0.001, metavar="P",
                        help="zero probabilities below P and renormalise (default 0.001)")
    parser.add_argument("--min-visits", type=int, default=0, metavar="N",
                        help="write only the keys training visited at least N times (default 0: "
                        "every key). For a fine layout's database played with a coarser one "
                        "behind it, db:FINE,backoff=db:COARSE: the coarse key then plays where "
                        "the fine key is rarer than N. An es-mccfr run's visits are its keys' "
                        "strategy-sum totals; runs whose sums count something else (other "
                        "algorithms, linear weighting, warm starts) are refused")
    parser.add_argument("--game", choices=registry.names(), default=None,
                        help="the run's game (default: the one the run records, "
                        f"{title(registry.DEFAULT_GAME)} for runs that record none); a run of "
                        "another game is refused. The strategy file's header records it, and "
                        "`db load` reads it from there")
    parser.set_defaults(func=run)


def run(args) -> int:
    """Export the run's average strategy."""
    from train.export import export_run
    from train.run_directory import RunDirectory

    if args.out.lower().endswith((".db", ".sqlite", ".sqlite3")):
        stem = args.out.rsplit(".", 1)[0]
        raise UserError(f"--out {args.out}: export writes a strategy file, not a database; "
                        f"write {stem}.strategy, then `{PROGRAM} db load --db {args.out} "
                        f"{stem}.strategy`")
    settings = RunDirectory(args.run).read_settings()
    if settings["stage"] == "distill":  # the game's own stage (the registry's `distill`)
        stage = registry.get(settings["settings"].get("game", registry.DEFAULT_GAME))
        meta = stage.load("distill").export_net(args.run, args.out)
        print(f"wrote {args.out}: the policy network of round {meta['round']}, the newest "
              f"that passed its gate (or the newest) "
              f"({meta['window_decisions']:,} searched decisions in its window, "
              f"{meta['cpu_seconds'] / 60:.1f} CPU-min of distillation)")
        return 0
    header = export_run(args.run, args.out, args.threshold, args.game, args.min_visits)
    game = "" if header["game"] == registry.DEFAULT_GAME else f"{header['game']} "
    print(f"wrote {args.out}: {header['n_keys']:,} {game}keys, {header['stage']} stage after "
          f"{header['iterations']:,} iterations (threshold {header['threshold']}"
          + (f", keys visited at least {header['min_visits']:,} times" if header.get("min_visits")
             else "") + ")")
    return 0
