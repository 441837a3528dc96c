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

from cli.errors import report_user_errors

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
    "cli.inference",
    "cli.bid_tables",
    "cli.rating",
    "cli.learn",
)


def build_parser() -> argparse.ArgumentParser:
    """Build the top-level parser with every available subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="setback-cfr",
        description="Train, inspect and play Setback (Auction Pitch) strategies with "
        "counterfactual regret minimization.",
    )
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
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse `argv` (default: sys.argv) and run the chosen subcommand; return its exit status."""
    parser = build_parser()
    if any("\0" in str(a) for a in (sys.argv[1:] if argv is None else argv)):
        # Only possible in-process (a shell cannot pass NUL); open() would raise ValueError.
        print("setback-cfr: error: an argument contains a NUL byte", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    with report_user_errors():
        status = args.func(args)
    return int(status or 0)


if __name__ == "__main__":
    sys.exit(main())
