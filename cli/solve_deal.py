"""`setback-cfr solve-deal FILE`: the exact value of every legal move of a deal in its playout,
all four hands known, for a game whose place declares it (`games/<game>/search/deal_values.py`,
its `solve_spec`; the words of its `--help` are the game's `SOLVE_DEAL`)."""

from __future__ import annotations

import json

from cli.arguments import add_command, add_game_option
from cli.game_words import declared
from games import registry  # plain data: imports no game

DECLARATION = "search.deal_values"  # the module of a game's place that solves a deal


def register(subparsers) -> None:
    """Add the `solve-deal` subcommand."""
    parser = add_command(subparsers, "solve-deal",
                         "exact value of each legal move of a deal, all hands known",
                         "\n\n".join(declared("SOLVE_DEAL").values()))
    parser.add_argument("file", metavar="FILE", help="replay JSON of the deal, or - for stdin")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object instead of a table")
    parser.set_defaults(func=run)
    add_game_option(parser, "solve-deal")


def solve_spec(spec, game: str = registry.DEFAULT_GAME) -> dict:
    """The `--json` object for a replay-style `spec` of `game` (bad input raises the game's
    error, a user error)."""
    return registry.declaration(game, DECLARATION).solve_spec(spec)


def run(args) -> int:
    """Solve the deal in `args.file` and print the values."""
    from cli.replay import load_json

    result = solve_spec(load_json(args.file), args.game)
    if args.json:
        print(json.dumps(result))
        return 0
    bidder_moves = result["to_move"] in result["bidder_team"]
    ranked = sorted(result["values"].items(), key=lambda kv: -kv[1] if bidder_moves else kv[1])
    print(f"{result['to_move']} to move; values are {result['bidder_team']}'s (the bidder's "
          "team) deal score minus the other team's")
    for card, value in ranked:
        print(f"  {card}  {value:+d}")
    return 0
