"""`setback-cfr solve-deal FILE`: the exact value of every legal move of a deal in its playout,
all four hands known (the perfect-information solver of `games/setback/search/solver.py`)."""

from __future__ import annotations

import json

from cli.arguments import add_command, add_game_option
from cli.errors import UserError

HELP = """Solve a Setback deal with all four hands known and print each legal move's value.

FILE (or - for stdin) is `replay` JSON: {"dealer": "S", "hands": {"W": [6 cards], ...},
"moves": ["3", "P", "P", "P", "AS", ...]} whose auction is complete and whose deal is not over.
A move's value is the deal's final score with the rest played perfectly by both teams, from the
bidder's team's side: its deal score minus the other team's, setback included.

Output: one line per legal move (`AS  +1`), best first for the side to move; with --json one
object {"to_move": "E", "bidder_team": "NS", "values": {"AS": 1, "2C": -3}}."""


def register(subparsers) -> None:
    """Add the `solve-deal` subcommand."""
    parser = add_command(subparsers, "solve-deal",
                         "exact value of each legal move of a deal, all hands known", HELP)
    parser.add_argument("file", metavar="FILE", help="replay JSON of the deal, or - for stdin")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object instead of a table")
    parser.set_defaults(func=run)
    add_game_option(parser, "solve-deal")


def solve_spec(spec) -> dict:
    """The `--json` object for a replay-style `spec` (bad input raises a user error)."""
    from games.setback import state as S
    from games.setback.api import Deal
    from games.setback.cards import format_card
    from games.setback.errors import SetbackError
    from games.setback.replay import replay
    from games.setback.search.solver import Solver

    replay(spec)  # every check of the replay input, with its messages
    deal = Deal(spec["dealer"], spec["hands"])
    for move in spec["moves"]:
        deal.play(str(move))
    if deal.is_over:
        raise UserError("the deal is over: there is no move to solve")
    if deal.phase == "bid":
        raise UserError("the auction is not complete: solve-deal needs the playout "
                        "(add the remaining bids to \"moves\")")
    try:
        moves, values = Solver().move_values(deal.state)
    except ValueError as exc:
        raise SetbackError(str(exc)) from None
    bidder = int(deal.state[S.HIGH_BIDDER])
    return {
        "to_move": deal.to_act,
        "bidder_team": deal.team_name(bidder % 2),
        "values": {format_card(int(m)): int(v) for m, v in zip(moves, values)},
    }


def run(args) -> int:
    """Solve the deal in `args.file` and print the values."""
    from cli.replay import load_json

    result = solve_spec(load_json(args.file))
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
