"""`setback-cfr decide FILE`: the bots' move for one seat's position, as `POST /api/decide`
answers it (`web.position`, the one reader, driven by the game's declaration: the game's web
adapter, `web.game_tables`)."""

from __future__ import annotations

import json

from cli.arguments import add_command
from cli.errors import UserError
from cli.game_words import declared
from games import registry  # plain data: imports no game
from games.registry import PROGRAM

def _help() -> str:
    """The command's description: each deciding game's position, as the game declares it."""
    positions = "\n\n".join(declared("DECIDE").values())
    return f"""Ask the bots for one decision and print it as JSON.

{positions}

Output, as `POST /api/decide` of `{PROGRAM} serve` answers: {{"seat", "move", "legal",
"probabilities": {{abstract action: probability or null}}, "explanation": {{the key, whether it
was found, each abstract action with its probability and card, the reason}}}}. A position that
hides the acting seat's hand, shows another seat's, or that no deal can reach exits with
status 2 and one line."""


def register(subparsers) -> None:
    """Add the `decide` subcommand."""
    from cli.replay import _indent

    parser = add_command(subparsers, "decide",
                         "the bots' move for one seat's position (replay JSON, one hand)", _help())
    parser.add_argument("file", metavar="FILE", help="the position as JSON, or - for stdin")
    parser.add_argument("--bots", metavar="PLAYER", default=None,
                        help="the player deciding: " + "; ".join(
                            text if game == registry.DEFAULT_GAME else f"with --game {game} {text}"
                            for game, text in declared("DECIDE_BOTS").items()))
    parser.add_argument("--indent", type=_indent, default=None, metavar="N",
                        help="pretty-print the JSON with N spaces, 0 to 16 (default: one line)")
    parser.set_defaults(func=run)
    deciding = tuple(declared("DECIDE"))  # the games whose table reads a single position
    parser.add_argument("--game", choices=deciding, default=registry.DEFAULT_GAME,
                        help=f"the game (default {registry.DEFAULT_GAME})")


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
