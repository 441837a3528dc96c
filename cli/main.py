"""Entry point of the `setback-cfr` console script.

Each subcommand lives in its own module under `cli/` and exposes `register(subparsers)`, which
adds its parser and sets `func` (a callable taking the parsed arguments and returning an exit
status). Modules import their heavy dependencies inside `func`, so `--help` stays instant.

Errors meant for the user are raised as `cli.errors.UserError` (or the domain errors listed in
`cli.errors.USER_ERRORS`); they end the program with status 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from importlib import metadata

from cli.errors import report_user_errors
from games import registry  # plain data: imports no game
from games.registry import PROGRAM

# Subcommand modules, in the order `--help` lists them.
SUBCOMMAND_MODULES = (
    "cli.replay",
    "cli.simulate",
    "cli.solve",
    "cli.census",
    "cli.train",
    "cli.export",
    "cli.db",
    "cli.tournament",
    "cli.quickstart",
    "cli.serve",
    "cli.decide",
    "cli.solve_deal",
    "cli.dd_table",
    "cli.inference",
    "cli.bid_tables",
    "cli.rating",
    "cli.exploit",
    "cli.learn",
)

# The documentation page (under docs/) that explains each command: its `--help` ends with it.
# A (sub)command not listed takes its parent's page (`train best-response` -> "train"), so a
# new subcommand is never without one; tests/test_docs.py checks every page exists and names
# its command. The options of every command are also listed, generated from these parsers,
# in docs/reference/cli.md.
DOCS_PAGES = {
    "": "index.md",
    "quickstart": "getting-started.md",
    "replay": "getting-started.md",
    "simulate": f"games/{registry.DEFAULT_GAME}.md",  # the default game's simulator
    "solve": "training.md",
    "census": "training.md",
    "train": "training.md",
    "train distill": "training-distill.md",
    "export": "training.md",
    "db": "training.md",
    "tournament": "playing/tournaments.md",
    "rating": "playing/rating.md",
    "exploit": "best-response.md",
    "serve": "playing/browser.md",
    "decide": "playing/browser.md",
    "solve-deal": "search/index.md",
    "dd-table": "search/double-dummy.md",
    "inference": "search/index.md",
    "bid-tables": "search/bid-tables.md",
    "learn": "search/learned-bidder.md",
    "learn belief": "search/beliefs.md",
}
DOCS_DIR = "docs/"


def docs_page(command: str) -> str:
    """The docs page (relative to docs/) of `command` ("train baseline"; "" for the program):
    its own entry, else its nearest listed parent's."""
    words = command.split()
    while words and " ".join(words) not in DOCS_PAGES:
        words.pop()
    return DOCS_PAGES[" ".join(words)]


def subcommands(parser: argparse.ArgumentParser, path: tuple = ()):
    """Yield (command path, parser) for every (sub)command under `parser`, depth first."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield path + (name,), sub
                yield from subcommands(sub, path + (name,))


def _add_docs_epilogs(parser: argparse.ArgumentParser) -> None:
    """End every command's `--help` with its documentation page (after any epilog of its own)."""
    for path, sub in [((), parser), *subcommands(parser)]:
        line = f"Documentation: {DOCS_DIR}{docs_page(' '.join(path))}"
        if line not in (sub.epilog or ""):
            sub.epilog = f"{sub.epilog.rstrip()}\n\n{line}" if sub.epilog else line


def version() -> str:
    """The installed package's version (from its metadata)."""
    try:
        return metadata.version(PROGRAM)
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    """Build the top-level parser with every available subcommand registered."""
    parser = argparse.ArgumentParser(
        prog=PROGRAM,
        description="Train, inspect and play strategies of card games with counterfactual "
        "regret minimization. The games (--game): "
        + "; ".join(f"{e.name}: {e.description}" for e in registry.GAMES.values()) + ".",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name in SUBCOMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:  # not written yet: the command is simply absent
                continue
            raise
        module.register(subparsers)
    _add_docs_epilogs(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse `argv` (default: sys.argv) and run the chosen subcommand; return its exit status."""
    parser = build_parser()
    if any("\0" in str(a) for a in (sys.argv[1:] if argv is None else argv)):
        # Only possible in-process (a shell cannot pass NUL); open() would raise ValueError.
        print(f"{PROGRAM}: error: an argument contains a NUL byte", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    with report_user_errors():
        status = args.func(args)
    return int(status or 0)


if __name__ == "__main__":
    sys.exit(main())
