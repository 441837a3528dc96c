"""`setback-cfr bid-tables`: count what the auction says about the hands from self-play deals,
or show a tables file; for every game that declares bid tables (`games/<game>/bid_tables.py`:
the module of its tables, its own options and help). The options' checks, the `--out` and
`--show` checks, the timing and the file (`play/bid_table_file.py`) are written once here."""

from __future__ import annotations

from cli.arguments import add_command, add_game_option, non_negative_int, positive_int, seed
from cli.errors import UserError

HELP = """Bid-inference tables from self-play auctions.

Build: --bidders, --deals N and --out FILE count N seeded deals (written atomically; the counts
do not depend on --workers). Show: --show FILE prints what a tables file says (--sequence picks
the bids, --json prints JSON). A tables file of another game, a damaged one or a newer format is
refused in one line. What each game counts:"""

TYPES = {"count": non_negative_int}  # the option types a declaration names


def declarations() -> dict:
    """{game: its declaration `games/<game>/bid_tables.py`} of the games with bid tables."""
    from games import registry  # plain data: imports no game until asked

    return registry.declarations("bid_tables")


def register(subparsers) -> None:
    """Add the `bid-tables` subcommand."""
    games = declarations()
    parser = add_command(
        subparsers, "bid-tables",
        "count bid-inference tables from self-play auctions, or show them",
        "\n\n".join([HELP] + [decl.HELP for decl in games.values()]))
    parser.add_argument("--bidders", metavar="PLAYER", default=None,
                        help="who bids: " + "; ".join(f"{game}: {decl.BIDDERS_HELP}"
                                                     for game, decl in games.items()))
    parser.add_argument("--deals", type=positive_int, default=None, metavar="N",
                        help="deals to count (required to build)")
    parser.add_argument("--seed", type=seed, default=0, metavar="S",
                        help="seed of the deals (default 0)")
    parser.add_argument("--out", metavar="FILE", help="where to write the tables")
    parser.add_argument("--workers", type=positive_int, default=1, metavar="K",
                        help="worker processes (default 1; the counts do not depend on it)")
    parser.add_argument("--prior", type=_prior, default=20.0, metavar="K",
                        help="smoothing prior strength in deals (default 20, at most 1e9)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.add_argument("--show", metavar="FILE", help="print what a tables file says")
    parser.add_argument("--sequence", metavar="BIDS",
                        help="with --show: " + "; ".join(f"{game}: {decl.SEQUENCE_HELP}"
                                                        for game, decl in games.items()))
    parser.add_argument("--json", action="store_true", help="with --show: print JSON")
    for game, decl in games.items():  # the options that are one game's
        for name, spec in {**decl.BUILD_OPTIONS, **decl.SHOW_OPTIONS}.items():
            spec = dict(spec, help=f"{game}: {spec['help']}")
            if "type" in spec:
                spec["type"] = TYPES[spec["type"]]
            parser.add_argument(f"--{name}", **spec)
    parser.set_defaults(func=run)
    add_game_option(parser, "bid-tables", tuple(games), needs=("tournament",),
                    reason="the games that declare bid tables")


def _prior(text: str) -> float:
    import argparse

    from cli.arguments import positive_float

    value = positive_float(text)
    if value > 1e9:
        raise argparse.ArgumentTypeError(f"must be at most 1e9: {text}")
    return value


def _given(args, option: str) -> bool:
    return getattr(args, option, None) not in (None, False)


def check_options(args, decl, games: dict) -> None:
    """Refuse, in one line, an option of another game's tables, build options with --show, show
    options with a build, and a build without --bidders, --deals and --out."""
    for game, other in games.items():
        for option in {**other.BUILD_OPTIONS, **other.SHOW_OPTIONS}:
            if option not in decl.BUILD_OPTIONS and option not in decl.SHOW_OPTIONS \
                    and _given(args, option):
                raise UserError(f"--{option} goes with --game {game}, not --game {args.game}")
    if args.show is not None:
        build = ("bidders", "deals", "out", *decl.BUILD_OPTIONS)
        if any(_given(args, option) for option in build):
            raise UserError("--show reads a tables file: give no "
                            + ", ".join(f"--{o}" for o in build))
        return
    for option in ("sequence", *decl.SHOW_OPTIONS):
        if _given(args, option):
            raise UserError(f"--{option} goes with --show FILE")
    if not args.bidders or args.deals is None or not args.out:
        raise UserError(f"building needs --bidders {decl.BIDDERS}, --deals N and --out FILE (or "
                        "--show FILE to read one)")


def run(args) -> int:
    """Build or show (see HELP) the tables of `--game`."""
    from play.bid_table_file import tables_model

    games = declarations()
    check_options(args, games[args.game], games)
    model = tables_model(args.game)
    return show(args, model) if args.show is not None else build(args, model)


def build(args, model) -> int:
    """Count, smooth and write the tables of the game's `model`; print its summary."""
    import os
    import time

    from play.bid_table_file import save_tables
    from play.player_spec import PlayerSpecError

    try:
        model.check_bidders(args.bidders, args.seed)  # fail fast, in one line
    except (PlayerSpecError, ValueError) as exc:
        raise UserError(f"--bidders: {exc}") from None
    directory = os.path.dirname(os.path.abspath(args.out))
    if not os.path.isdir(directory):
        raise UserError(f"--out {args.out!r}: no such directory {directory!r}")
    if os.path.isdir(args.out):
        raise UserError(f"--out {args.out!r} is a directory")
    start = time.perf_counter()
    tables = model.build_tables(args, progress=not args.no_progress)
    seconds = time.perf_counter() - start
    tables.meta["seconds"] = round(seconds, 3)
    save_tables(args.out, args.game, tables.meta, tables.arrays())
    print("\n".join(model.summary(tables, args, seconds)))
    return 0


def show(args, model) -> int:
    """Print what the tables file `--show` says (the game's `model.show`), as text or JSON."""
    import json
    import os

    if not os.path.isfile(args.show):
        raise UserError(f"--show {args.show!r}: no such file")
    result, lines = model.show(model.load(args.show), args)
    print(json.dumps(result) if args.json else "\n".join(lines))
    return 0
