"""Argument types shared by the subcommands (argparse reports a bad value and exits 2)."""

from __future__ import annotations

import argparse
import math


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None


def positive_int(text: str) -> int:
    """An integer of at least 1 (and below 2**63: counts reach the numba kernels as int64)."""
    value = _integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {value}")
    if value >= 2**63:
        raise argparse.ArgumentTypeError(f"must be below 2**63: {value}")
    return value


def seed(text: str) -> int:
    """A random seed: an integer in 0 .. 2**64 - 1."""
    value = _integer(text)
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"must be in 0 .. 2**64 - 1: {value}")
    return value


def non_negative_int(text: str) -> int:
    """An integer of at least 0 (and below 2**63)."""
    value = _integer(text)
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError(f"must be in 0 .. 2**63 - 1: {value}")
    return value


def _float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number: {text}")
    return value


def finite_float(text: str) -> float:
    """Any finite number (no nan, no inf)."""
    return _float(text)


def probability(text: str) -> float:
    """A number in [0, 1)."""
    value = _float(text)
    if not 0.0 <= value < 1.0:
        raise argparse.ArgumentTypeError(f"must be in [0, 1): {text}")
    return value


def unit_interval(text: str) -> float:
    """A number in [0, 1]."""
    value = _float(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be in [0, 1]: {text}")
    return value


def positive_probability(text: str) -> float:
    """A number in (0, 1]: a probability that may be taken as a logarithm."""
    value = _float(text)
    if not 0.0 < value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be in (0, 1]: {text}")
    return value


def positive_float(text: str) -> float:
    """A finite number greater than 0 (no nan, no inf)."""
    value = _float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number above 0: {text}")
    return value


def non_negative_float(text: str) -> float:
    """A finite number >= 0."""
    value = _float(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0: {text}")
    return value


def add_sampling_options(parser, step: str, updater: str) -> None:
    """The es-mccfr options (`cfr.external_sampling.SamplingOptions`), worded for a command
    whose passes are `step`s (iteration, deal) updating one `updater` (player, team). All
    default to None: not given."""
    parser.add_argument("--linear-weighting", action="store_true", default=None,
                        help=f"es-mccfr: weight {step} t's regret and strategy increments by t "
                        "(Pluribus's linear MCCFR)")
    parser.add_argument("--prune-threshold", type=finite_float, default=None, metavar="R",
                        help=f"es-mccfr: in a pruning {step}, skip the updating {updater}'s "
                        "actions whose regret sum is below R (negative; default: no pruning)")
    parser.add_argument("--prune-probability", type=unit_interval, default=None, metavar="P",
                        help=f"es-mccfr with --prune-threshold: the chance that a {step} "
                        "prunes (default 0.95, as Pluribus)")


_DURATION_UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0}


def duration(text: str) -> float:
    """A duration in seconds from a number and a unit: `20s`, `90m`, `2h`, `1.5h` (s, m, h;
    above 0, at most 10,000 hours). Anything else (no unit, another unit, spaces) is refused."""
    import re

    match = re.fullmatch(r"(\d+(?:\.\d+)?)([smh])", text.strip() if text else "")
    if match is None or text != text.strip():
        raise argparse.ArgumentTypeError(
            f"not a duration: {text!r} (a number and a unit s, m or h: 20s, 90m, 2h)")
    seconds = float(match.group(1)) * _DURATION_UNITS[match.group(2)]
    if not 0 < seconds <= 10_000 * 3600.0:
        raise argparse.ArgumentTypeError(f"must be above 0 and at most 10000h: {text}")
    return seconds


def add_command(subparsers, name: str, help: str, description: str, epilog: str | None = None):
    """The parser of the subcommand `name` whose description (and epilog) are laid out by
    hand, in lines and paragraphs, so argparse prints them as written instead of refilling
    them."""
    return subparsers.add_parser(name, help=help, description=description, epilog=epilog,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)

def add_game_option(parser, command: str, supported: tuple | None = None,
                    reason: str = "", needs: tuple | None = None) -> None:
    """`--game NAME` (default the registry's default game, every registered game a choice, or
    those providing the entry points `needs`) on a command that reads or plays one game but
    supports only `supported` (default: the games whose words' `COMMANDS` name `command`, with
    their reason): another game is refused in one line (exit status 2) naming the command and
    `reason`, before the command does anything. Call it after the parser's
    `set_defaults(func=...)`: it wraps that function."""
    import functools

    from games import registry  # plain data: imports no game

    if supported is None:  # the games that declare the command theirs, and why
        declared = {name: registry.words(name, "COMMANDS", {}) for name in registry.GAMES}
        supported = tuple(name for name, commands in declared.items() if command in commands)
        reason = reason or "; ".join(dict.fromkeys(declared[name][command]
                                                   for name in supported))
    choices = registry.names() if needs is None else registry.names(needs)
    others = [name for name in choices if name not in supported]
    parser.add_argument(
        "--game", choices=choices, default=registry.DEFAULT_GAME,
        help=f"the game (default {registry.DEFAULT_GAME}); {command} is "
        f"{' and '.join(supported)}'s only" + (f": --game {' or '.join(others)} is refused"
                                              if others else "")
        + (f" ({reason})" if reason else ""))
    func = parser.get_default("func")

    @functools.wraps(func)
    def checked(args):
        if args.game not in supported:
            from cli.errors import UserError

            raise UserError(f"{command} is {' and '.join(supported)}'s only, not for --game "
                            f"{args.game}" + (f" ({reason})" if reason else ""))
        return func(args)

    parser.set_defaults(func=checked)


def hidden_widths(text: str) -> tuple[int, int]:
    """The two hidden layers' widths of `--hidden H1,H2`; UserError (one line) otherwise."""
    from cli.errors import UserError

    try:
        hidden = tuple(int(h) for h in text.split(","))
        if len(hidden) != 2 or min(hidden) < 1:
            raise ValueError
    except ValueError:
        raise UserError(f"--hidden {text!r}: two positive widths, as 256,256") from None
    return hidden
