"""`setback-cfr db load|query|info`: the SQLite strategy database.

- `db load STRATEGY... --db FILE` builds FILE from exported strategy files (a baseline, a
  bootstrap, or both), in a temporary file renamed on success;
- `db query --db FILE KEY` prints a key's actions and probabilities;
- `db info --db FILE` prints the metadata (schema and abstraction versions, the stages loaded
  with their iteration counts and source files) and the key counts by kind.
"""

from __future__ import annotations

import json

from cli.errors import UserError
from cli.game_words import declared, either, title
from games.registry import PROGRAM
from games import registry  # plain data: imports no game


def _load_words() -> str:
    """What `db load` keeps of each game's strategy files: the game's own words (its stages'
    keys), else, for a game trained on its own abstract game, all the keys of its baseline."""
    own = declared("DB_LOAD")
    others = [game for game in registry.names(("trainer",)) if game not in own]
    return "; ".join([*own.values(), *([
        f"from {either(f'a {title(g)}' for g in others)} baseline strategy (`export` of a "
        f"`train baseline --game {either(others)}` run): all its keys"] if others else [])]) + "."


def register(subparsers) -> None:
    """Add the `db` subcommand with its `load`, `query` and `info` subcommands."""
    parser = subparsers.add_parser(
        "db",
        help="build and inspect the SQLite strategy database the players read",
        description="The strategy database: trained strategies served to play from SQLite. "
        "`load` builds one from exported strategy files, `query` shows one key, `info` the "
        "metadata and counts.",
    )
    commands = parser.add_subparsers(dest="db_command", metavar="DB_COMMAND")
    commands.required = True

    load = commands.add_parser(
        "load",
        help="build a database from exported strategy files",
        description=f"Build the database FILE from exported strategy files (`{PROGRAM} "
        "export`). " + _load_words() + " The game is read from the files (one game "
        "a database, recorded in it). At most one file per stage. FILE is built in a "
        "temporary file beside it and renamed over it only on success, so an interrupted or "
        "failed load leaves any old FILE untouched.",
    )
    load.add_argument("strategies", nargs="+", metavar="STRATEGY",
                      help=f"strategy files written by `{PROGRAM} export`")
    load.add_argument("--db", required=True, metavar="FILE", help="the database to build")
    load.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    load.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    load.set_defaults(func=run_load)

    query = commands.add_parser(
        "query",
        help="print a key's actions and probabilities",
        description="Print the actions of KEY (a key string of the database's layout, "
        "`db info` names it: abstraction.md's for reference, e.g. `0AJx2` or "
        "`...+0At4t..0TTTQ`; quote it in the shell) in canonical order with their "
        "probabilities, marking the best. A key absent from the database is an error "
        "(status 2).",
    )
    query.add_argument("key", metavar="KEY", help="the info-set key string")
    query.add_argument("--db", required=True, metavar="FILE", help="the database to read")
    query.add_argument("--json", action="store_true", help="print the answer as one JSON object")
    query.set_defaults(func=run_query)

    info = commands.add_parser(
        "info",
        help="print the database's metadata and key counts",
        description="Print the schema version, game, abstraction and its version, the stages "
        "loaded (iterations, seed, source file, keys loaded) and the number of keys by kind.",
    )
    info.add_argument("--db", required=True, metavar="FILE", help="the database to read")
    info.add_argument("--json", action="store_true", help="print the metadata as one JSON object")
    info.set_defaults(func=run_info)


def run_load(args) -> int:
    """Load the strategy files and print what was stored."""
    import os

    from db.loader import load_strategies

    for path in args.strategies:
        if not os.path.isfile(path):
            raise UserError(f"{path}: no such strategy file")
    if os.path.isdir(args.db):
        raise UserError(f"--db {args.db}: is a directory")
    report = load_strategies(args.strategies, args.db, progress=not args.no_progress)
    summary = {
        "db": report.path,
        "n_keys": report.n_keys,
        "kind_counts": report.kind_counts,
        "stages": report.stages,
        "seconds": round(report.seconds, 3),
        "keys_per_second": round(report.keys_per_second),
        "size_bytes": report.size_bytes,
    }
    if args.json:
        print(json.dumps(summary))
        return 0
    print(f"loaded {report.n_keys:,} keys into {report.path} in {report.seconds:.2f} s "
          f"({summary['keys_per_second']:,} keys/s, {report.size_bytes / 1e6:.1f} MB)")
    print("keys      " + ", ".join(f"{n} {c:,}" for n, c in report.kind_counts.items()))
    for stage in report.stages:
        skipped = f", {stage['n_keys_skipped']:,} skipped" if stage["n_keys_skipped"] else ""
        print(f"{stage['stage']:<10}{stage['n_keys_loaded']:,} keys from {stage['source']} "
              f"({stage['iterations']:,} iterations{skipped})")
    return 0


def run_query(args) -> int:
    """Print one key's actions and probabilities."""
    from db.database import StrategyDatabase
    from db.game_keys import codec_for

    with StrategyDatabase(args.db) as database:
        hit = database.lookup(args.key)
        codec = codec_for(database.game)  # the game's key kinds and action names
    if hit is None:
        raise UserError(f"key {args.key!r} is not in {args.db}")
    probs, best = hit
    names = codec.action_names(args.key, probs.size)
    kind = int(codec.key_kinds([args.key])[0])
    answer = {
        "key": args.key,
        "kind": codec.kind_names[kind] if kind != codec.unknown else None,
        "actions": [{"action": n, "probability": round(float(p), 6)}
                    for n, p in zip(names, probs)],
        "best": names[best],
    }
    if args.json:
        print(json.dumps(answer))
        return 0
    print(f"key {args.key}  ({answer['kind']}, {probs.size} actions)")
    width = max(len(n) for n in names)
    for i, (name, p) in enumerate(zip(names, probs)):
        print(f"  {name:<{width}}  {float(p):.4f}" + ("  best" if i == best else ""))
    return 0


def run_info(args) -> int:
    """Print the metadata, the stages and the counts."""
    from db.database import StrategyDatabase

    with StrategyDatabase(args.db) as database:
        info = database.info()
    if args.json:
        print(json.dumps(info))
        return 0
    print(f"database       {info['path']} ({info['size_bytes'] / 1e6:.1f} MB)")
    print(f"schema         {info['format']} version {info['schema_version']}")
    print(f"game           {info['game']}, abstraction {info['abstraction']} version "
          f"{info['abstraction_version']}")
    print(f"created        {info['created_utc']}")
    print(f"keys           {info['n_keys']:,}: " + ", ".join(
        f"{name} {count:,}" for name, count in info["kind_counts"].items()))
    for stage in info["stages"]:
        print(f"stage          {stage['stage']}: {stage['iterations']:,} iterations, seed "
              f"{stage['seed']}, {stage['n_keys_loaded']:,} keys from {stage['source']}")
    return 0
