"""`setback-cfr replay [--game NAME] FILE`: replay a deal from JSON and print every decision as
JSON. The game's replay comes from the registry (`games.registry`); Setback's is enriched with
the abstraction's keys."""

from __future__ import annotations

import json
import sys

from games.setback.abstraction import layouts  # plain data: nothing compiled for --help
from cli.arguments import add_command
from cli.errors import UserError
from games import registry

MAX_SCORE = 10**9  # far beyond any real game; keeps the scores inside the key builder's int64

HELP = """Replay one Setback deal (or, with --game euchre or spades, one Euchre or Spades hand)
and print JSON.

FILE (or - for stdin) holds {"dealer": "S", "hands": {"W": [6 cards], "N": [...], "E": [...],
"S": [...]}, "moves": ["3", "P", "P", "P", "AS", ...]}. Cards are rank+suit (AS, TH, 10H,
case-insensitive); bids are P, 2, 3, 4; the moves may stop anywhere in the deal.

Output: {"decisions": [{"seat", "phase", "legal", "move", "key", "actions"}...], "tricks":
[{"leader", "cards", "winner"}...], "next": {"seat", "phase", "legal", "key", "actions"} or
null, and, once the deal is over, "points": {"high", "low", "jack", "game"} and "deal_score":
{"EW", "NS"}}. "key" is the abstraction's baseline info-set key (null for a forced move) and
"actions" its abstract actions in canonical order with the card or bid each plays
([{"action": "Tx", "move": "7S"}, ...]). With "score": {"EW": a, "NS": b} in the input,
every bid also gets its score-aware "bootstrap_key". Bad input (a bad or
duplicate card, a wrong hand size, an illegal move) exits with status 2 and one line on stderr.

--game euchre: FILE holds {"dealer": "N", "hands": {"W": [5 cards], "N": [...], "E": [...],
"S": [...]}, "upcard": "JD", "moves": ["P", "D", "9C", "partner", "AS", ...]}: cards 9 T J Q K A
of C D H S; P passes; a suit letter orders up (first round: only the upcard's suit) or names
trump (second round: another suit); after an order-up the dealer discards a card; the maker
answers alone or partner; then the cards. The rules and the order of decisions are OpenSpiel
2.0.2's euchre with its defaults (stick the dealer: the dealer may not pass last; add
"stick_the_dealer": false to switch it off; no lone defender). Output: "decisions" (seat,
phase: order, name, discard, alone, lead or follow; legal, in canonical order: cards by suit
then rank, P, C D H S, alone, partner; move), "tricks", "next", and once the hand is over
"contract" {"trump", "maker", "alone"}, "tricks_won" and "points": {"NS": a, "EW": b} (the
side that scores gets 1, 2 or 4, the other 0).

--game spades: FILE holds {"dealer": "W", "hands": {"W": [13 cards], "N": [...], "E": [...],
"S": [...]}, "moves": ["3", "Nil", "4", "2", "KH", ...]}: cards 2..9 T J Q K A of C D H S;
the seat left of the dealer bids first and leads the first trick; a bid is Nil or 1..13 (at
most 13 less the partner's bid); then the cards (follow suit if you can; lead a spade only
from a hand of spades: OpenSpiel never breaks spades). The rules, the scores and the order of
decisions are OpenSpiel 2.0.2's spades with its defaults (its North bids first: its dealer is
West). "score": {"NS": a, "EW": b}, the game score before the hand, sets the bags a team
carries (the last digit, as OpenSpiel reads it). Output: "decisions" (seat, phase: bid, lead
or follow; legal, in OpenSpiel's order: cards by suit then rank, then Nil, 1..13; move),
"tricks", "next", and once the hand is over "bids", "tricks_won" by seat and "points": {"NS":
a, "EW": b}, OpenSpiel's returns (and with "score", the game score after the hand)."""


def register(subparsers) -> None:
    """Add the `replay` subcommand."""
    parser = add_command(subparsers, "replay",
                         "replay a deal from JSON, print decisions, tricks and score", HELP)
    parser.add_argument("file", metavar="FILE", help="JSON file with the deal, or - for stdin")
    parser.add_argument("--game", choices=registry.names(("replay",)),
                        default=registry.DEFAULT_GAME,
                        help="the game of the deal (default: %(default)s): every registered "
                        "game, rules-only ones (spades) too")
    parser.add_argument("--abstraction", choices=layouts.names(), default=None,
                        help="the key layout whose baseline keys the decisions show (Setback; "
                             "default: reference, the spec's): what a database trained with "
                             "`train --abstraction NAME` looks up")
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


def abstraction_describer(spec, layout: str = "reference"):
    """The replay hook adding the abstraction's `key`, `actions` and (with a `score` in the
    input) `bootstrap_key` to every decision."""
    from games.setback.abstraction.describe import describe_decision

    score = spec.get("score") if isinstance(spec, dict) else None
    if score is not None:
        if (not isinstance(score, dict) or set(score) != {"EW", "NS"}
                or not all(isinstance(v, int) and not isinstance(v, bool)
                           and abs(v) <= MAX_SCORE for v in score.values())):
            raise UserError('"score" must look like {"EW": 3, "NS": -2} (integers within '
                            '+-1,000,000,000)')

    def describe(deal, _spec) -> dict:
        return describe_decision(deal.state, score, deal.dealer, layout)

    return describe


def run(args) -> int:
    """Replay the deal in `args.file` with the game's replay and print the result as JSON."""
    game = registry.get(getattr(args, "game", registry.DEFAULT_GAME))
    replay = game.load("replay")
    spec = load_json(args.file)
    try:
        if game.name == "setback":  # the abstraction's keys exist for Setback only so far
            result = replay(spec, describe=abstraction_describer(
                spec, args.abstraction or layouts.DEFAULT))
        else:
            if args.abstraction is not None:
                raise UserError(f"--abstraction names a Setback key layout; the game is "
                                f"{game.name}")
            result = replay(spec)
    except game.load("error") as exc:
        raise UserError(str(exc)) from None
    print(json.dumps(result, indent=args.indent))
    return 0
