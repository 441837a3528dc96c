"""`setback-cfr replay [--game NAME] FILE`: replay a deal from JSON and print every decision as
JSON. The game's replay comes from the registry (`games.registry`); a game that declares
`games/<game>/abstraction/key_choice.py` has it enriched with its abstraction's keys."""

from __future__ import annotations

import json
import sys

from cli.arguments import add_command
from cli.errors import UserError
from cli.game_words import declared, either, title
from games import registry  # plain data: imports no game


def _help() -> str:
    """The command's description: each game's input and output, as the game declares them."""
    games = declared("REPLAY", registry.names(("replay",)))
    return (f"Replay one deal (or hand) of --game ({either(games)}; default "
            f"{registry.DEFAULT_GAME})\nand print JSON. FILE (or - for stdin) holds it as "
            "JSON.\n\n"
            + "\n\n".join(f"--game {game}"
                           + (" (the default)" if game == registry.DEFAULT_GAME else "")
                           + f":\n{text}" for game, text in games.items()))


def _keyed() -> dict:
    """{game: its `key_choice` declaration} of the games whose replay shows their
    abstraction's keys (importing only their layouts' names)."""
    return registry.declarations("abstraction.key_choice")


def register(subparsers) -> None:
    """Add the `replay` subcommand."""
    parser = add_command(subparsers, "replay",
                         "replay a deal from JSON, print decisions, tricks and score", _help())
    parser.add_argument("file", metavar="FILE", help="JSON file with the deal, or - for stdin")
    parser.add_argument("--game", choices=registry.names(("replay",)),
                        default=registry.DEFAULT_GAME,
                        help="the game of the deal (default: %(default)s): every registered "
                        "game" + "".join(f", rules-only ones ({', '.join(rules_only)}) too"
                                         for rules_only in [[g for g in registry.names(("replay",))
                                                             if g not in registry.names()]]
                                         if rules_only))
    keyed = _keyed()
    parser.add_argument("--abstraction", default=None,
                        choices=tuple(dict.fromkeys(n for d in keyed.values()
                                                    for n in d.layout_names())),
                        help="the key layout whose baseline keys the decisions show ("
                        + "; ".join(f"{title(game)}; default: {d.DEFAULT_LAYOUT}, the spec's"
                                    for game, d in keyed.items())
                        + "): what a database trained with `train --abstraction NAME` looks up")
    parser.add_argument("--indent", type=_indent, default=None, metavar="N",
                        help="pretty-print the JSON with N spaces, 0 to 16 (default: one line)")
    parser.set_defaults(func=run)


def _indent(text: str) -> int:
    from argparse import ArgumentTypeError

    from cli.arguments import non_negative_int

    value = non_negative_int(text)
    if value > 16:
        raise ArgumentTypeError(f"at most 16: {value}")
    return value


def load_json(path: str):
    """Read JSON from `path` (or stdin for `-`), with one clear error for bad files."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise UserError(f"{path} is not UTF-8 text (byte {exc.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"{path} is not valid JSON: {exc}") from None
    except RecursionError:
        raise UserError(f"{path} is not valid JSON: nested too deeply") from None
    except ValueError as exc:  # an integer with thousands of digits, say
        raise UserError(f"{path} is not valid JSON: {str(exc).splitlines()[0]}") from None


def run(args) -> int:
    """Replay the deal in `args.file` with the game's replay and print the result as JSON."""
    game = registry.get(getattr(args, "game", registry.DEFAULT_GAME))
    replay = game.load("replay")
    spec = load_json(args.file)
    try:
        keys = _keyed().get(game.name)  # a game whose replay shows its abstraction's keys
        if keys is not None:
            result = replay(spec, describe=keys.describer(
                spec, args.abstraction or keys.DEFAULT_LAYOUT))
        else:
            if args.abstraction is not None:
                raise UserError(f"--abstraction names a "
                                f"{either(title(g) for g in _keyed())} key layout; the game is "
                                f"{game.name}")
            result = replay(spec)
    except game.load("error") as exc:
        raise UserError(str(exc)) from None
    print(json.dumps(result, indent=args.indent))
    return 0
