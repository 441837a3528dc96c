"""`setback-cfr decide FILE`: the bots' move for one seat's position, as `POST /api/decide`
answers it (`web.position`, the one reader, driven by the game's declaration: the game's web
adapter, `web.game_tables`)."""

from __future__ import annotations

import json

from cli.arguments import add_command, add_game_option
from cli.errors import UserError

HELP = """Ask the bots for one decision and print it as JSON.

FILE (or - for stdin) is one seat's position: the replay JSON of the deal so far with only the
hand of the seat to act, as dealt, e.g.
  {"dealer": "S", "score": {"EW": 9, "NS": 8},
   "hands": {"E": ["AH", "TS", "6H", "2C", "JD", "QS"]},
   "moves": ["3", "P", "P", "P", "AS", "4S"]}
("score", the game score before the deal, defaults to 0-0). The seat to act follows from the
dealer and the moves; the other hands stay hidden. With --game spades the position is a Spades
hand so far: the seat to act's 13 cards as dealt, the bids (Nil, 1..13) then the cards, and
"score" the game score before the hand (its bags).

Output, as `POST /api/decide` of `setback-cfr serve` answers: {"seat", "move", "legal",
"probabilities": {abstract action: probability or null}, "explanation": {the key, whether it
was found, each abstract action with its probability and card, the reason}}. A position that
hides the acting seat's hand, shows another seat's, or that no deal can reach exits with
status 2 and one line."""


def register(subparsers) -> None:
    """Add the `decide` subcommand."""
    from cli.replay import _indent

    parser = add_command(subparsers, "decide",
                         "the bots' move for one seat's position (replay JSON, one hand)", HELP)
    parser.add_argument("file", metavar="FILE", help="the position as JSON, or - for stdin")
    parser.add_argument("--bots", metavar="PLAYER", default=None,
                        help="the player deciding: random, heuristic, db:PATH, "
                        "strategy:PATH[,PATH...], pimc[:W], search[OPTIONS]:POLICY ... "
                        "(default: serve's, db:quickstart-run/strategy.db if it exists, else "
                        "heuristic); with --game spades a Spades player of `tournament --game "
                        "spades` (default heuristic)")
    parser.add_argument("--indent", type=_indent, default=None, metavar="N",
                        help="pretty-print the JSON with N spaces, 0 to 16 (default: one line)")
    parser.set_defaults(func=run)
    add_game_option(parser, "decide", supported=("setback", "spades"),
                    reason="a Euchre player's moves: `tournament --game euchre`")


def run(args) -> int:
    """Decide the position in `args.file` and print the answer."""
    from cli.replay import load_json
    from cli.serve import default_bots
    from play.player_spec import PlayerSpecError
    from web.game_tables import web_game

    adapter = web_game(args.game)
    decision = adapter.load("decide")
    spec = load_json(args.file)
    try:
        bots = adapter.load("bots")(args.bots or default_bots(args.game))
    except PlayerSpecError as exc:
        raise UserError(str(exc)) from None
    print(json.dumps(decision(bots, spec), indent=args.indent))
    return 0
