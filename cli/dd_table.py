"""`setback-cfr dd-table FILE`: the double-dummy table of 52-card deals given as JSON lines
(every declarer and trump, as bridge's double-dummy solvers give it), from the shared solver
of `search/double_dummy.py`."""

from __future__ import annotations

import json
import sys

from cli.arguments import add_command, positive_int
from cli.errors import UserError

SEATS = "NESW"  # clockwise: the solver's seats 0..3; N and S are its side 0
RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "CDHS"  # the solver's suits 0..3
STRAINS = (("NT", 4), ("S", 3), ("H", 2), ("D", 1), ("C", 0))  # output key, solver's trump
HAND_SIZE = 13

HELP = """Print the double-dummy table of each 52-card deal: for every declarer and trump, the
tricks the declarer's side takes with all four hands known and both sides playing perfectly.

FILE (or - for stdin) holds one deal a line, as JSON: {"hands": {"N": [13 cards], "E": [...],
"S": [...], "W": [...]}}. Cards are rank then suit, as everywhere in this program: ranks 2..9,
T (or 10), J, Q, K, A; suits C, D, H, S; case-insensitive ("AS", "td", "10H"). Blank lines are
skipped.

Output: one JSON line a deal, {"NT": {"N": 9, "E": 4, "S": 9, "W": 4}, "S": {...}, "H":
{...}, "D": {...}, "C": {...}}: under each trump (NT for no trump), the tricks the declarer's
side takes when that seat declares, its left-hand opponent leading to the first trick
(declarer N: E leads). A deal's line is printed as soon as it is solved. Seats play clockwise
N, E, S, W; N-S and E-W are partners; suit must be followed; the highest trump, else the
highest card of the suit led, wins the trick.

A bad line (not JSON, a missing seat, a bad or duplicate card, a hand without 13 cards) stops
the command with one line on stderr naming the line, and exit status 2; the deals before it
have been printed. The tables equal OpenSpiel's bridge (Haglund's DDS) on every deal checked
(tests/test_double_dummy.py; bench/dd_vs_dds.py compares and times them)."""


def register(subparsers) -> None:
    """Add the `dd-table` subcommand."""
    parser = add_command(subparsers, "dd-table",
                         "double-dummy table (tricks by declarer and trump) of 52-card deals",
                         HELP)
    parser.add_argument("file", metavar="FILE",
                        help="JSON lines, one deal a line, or - for stdin")
    parser.add_argument("--tt-bits", type=_tt_bits, default=20, metavar="B",
                        help="the solver's transposition table holds 2**B entries of 80 bytes, "
                        "B from 10 to 26 (default: %(default)s, 84 MB); fewer is slower")
    parser.set_defaults(func=run)


def _tt_bits(text: str) -> int:
    from argparse import ArgumentTypeError

    value = positive_int(text)
    if not 10 <= value <= 26:
        raise ArgumentTypeError(f"must be 10 to 26: {value}")
    return value


def parse_deal(line: str) -> list[int]:
    """The four hands of a JSON line (N, E, S, W) as 52-bit card masks, suit * 13 + rank;
    a user error names what is wrong."""
    from games.scaffold.table import parse_card_text

    try:
        spec = json.loads(line)
    except (json.JSONDecodeError, RecursionError, ValueError) as exc:
        raise UserError(f"not valid JSON: {str(exc).splitlines()[0]}") from None
    hands = spec.get("hands") if isinstance(spec, dict) else None
    if not isinstance(hands, dict) or sorted(hands) != sorted(SEATS):
        raise UserError('expected {"hands": {"N": [13 cards], "E": [...], "S": [...], '
                        '"W": [...]}}')
    masks = []
    seen: dict[int, str] = {}
    for seat in SEATS:
        cards = hands[seat]
        if not isinstance(cards, list) or len(cards) != HAND_SIZE:
            count = len(cards) if isinstance(cards, list) else "no list of"
            raise UserError(f"{seat} holds {count} cards: every hand holds {HAND_SIZE}")
        mask = 0
        for token in cards:
            rank, suit = parse_card_text(token, RANK_CHARS, SUIT_CHARS, UserError,
                                         "'AS' or 'TD'", "2..9, T (or 10), J, Q, K, A")
            card = suit * 13 + rank
            if card in seen:
                raise UserError(f"card {token!r} is in {seen[card]}'s hand and {seat}'s"
                                if seen[card] != seat else f"card {token!r} twice in {seat}'s "
                                "hand")
            seen[card] = seat
            mask |= 1 << card
        masks.append(mask)
    return masks


def table_json(table) -> dict:
    """The output object of a solver's table (int[5, 4]: trump 0..3 then no trump, by
    declarer seat N E S W)."""
    return {name: {seat: int(table[trump][i]) for i, seat in enumerate(SEATS)}
            for name, trump in STRAINS}


def _lines(path: str):
    """The lines of `path` (stdin for `-`), read as they come."""
    try:
        if path == "-":
            yield from sys.stdin
            return
        with open(path, encoding="utf-8") as handle:
            yield from handle
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise UserError(f"{path} is not UTF-8 text (byte {exc.start})") from None


def run(args) -> int:
    """Solve every deal of `args.file` and print its table, a line each."""
    from search.double_dummy import DoubleDummySolver

    solver = None
    for number, line in enumerate(_lines(args.file), start=1):
        if not line.strip():
            continue
        try:
            hands = parse_deal(line)
        except UserError as exc:
            raise UserError(f"line {number}: {exc}") from None
        if solver is None:
            solver = DoubleDummySolver(args.tt_bits)
        print(json.dumps(table_json(solver.table(hands))), flush=True)
    return 0
