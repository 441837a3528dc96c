"""`setback-cfr simulate`: complete games (or single hands) between uniformly random legal
players through a game's numba rules engine (the registry's `simulate` entry point), and their
figures."""

from __future__ import annotations

import json
import time

from cli.errors import UserError
from cli.game_words import declared, either
from games import registry  # plain data: imports no game


def register(subparsers) -> None:
    """Add the `simulate` subcommand."""
    default = registry.DEFAULT_GAME
    words = declared("SIMULATE", registry.names(("simulate",)))
    hands = tuple(declared("HANDS", tuple(words)))
    ending = declared("ALWAYS_ENDS", tuple(words))
    sticks = declared("SIMULATE_STICK", tuple(words))
    parser = subparsers.add_parser(
        "simulate",
        help="play random games through the numba rules engine and print statistics",
        description="Play complete games between four uniformly random legal players through "
        "the game's numba rules engine and print the figures. Deterministic for a seed. "
        + " ".join(f"--game {game}{' (the default)' if game == default else ''}: {text}."
                   for game, text in words.items()),
    )
    parser.add_argument("--games", type=int, default=10_000, metavar="N",
                        help="number of games to play (default 10000)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="random seed; game g uses its own stream derived from S (default 0)")
    parser.add_argument("--max-deals", type=int, default=1000, metavar="D",
                        help="abandon a game still undecided after D deals (default 1000; "
                        + " and ".join(f"{registry.words(g, 'GAME')} always ends"
                                       for g in ending) + ")")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.add_argument("--game", choices=registry.names(), default=default,
                        help=f"the game (default {default}); "
                        + ", ".join(f"{game} has no simulation yet "
                                    f"({registry.words(game, 'SIMULATE_NOTE')})"
                                    for game in registry.names() if game not in words))
    parser.add_argument("--hands", action="store_true",
                        help=f"(--game {either(hands)}) play --games single hands instead of "
                        "whole games, each from its own stream")
    parser.add_argument("--no-stick-the-dealer", action="store_true",
                        help=" ".join(f"(--game {game} --hands) {text}"
                                      for game, text in sticks.items()))
    parser.set_defaults(func=run)


def run(args) -> int:
    """Play the games (or hands) in chunks, so the progress bar moves, and print the figures."""
    from tqdm import tqdm

    if not 0 < args.games < 2**63:
        raise UserError("--games must be a positive number (below 2**63)")
    if not 0 <= args.seed < 2**64:
        raise UserError("--seed must be a non-negative integer (below 2**64)")
    entry = registry.get(args.game)
    if not entry.provides("simulate"):
        raise UserError(f"simulate --game {args.game}: {args.game} has no simulation yet "
                        f"({registry.words(args.game, 'SIMULATE_NOTE')})")
    options = {}
    if registry.words(args.game, "HANDS"):
        if args.no_stick_the_dealer and not args.hands:
            raise UserError("--no-stick-the-dealer is for --hands ("
                            f"{registry.words(args.game, 'GAME')} sticks the dealer)")
    elif args.hands or args.no_stick_the_dealer:
        others = [g for g in declared("SIMULATE_STICK" if args.no_stick_the_dealer else "HANDS",
                                      registry.names(("simulate",)))]
        raise UserError(f"--{'hands' if args.hands else 'no-stick-the-dealer'} is for "
                        f"--game {either(others)}")
    if not registry.words(args.game, "ALWAYS_ENDS"):  # a game that may never end
        if not 0 < args.max_deals < 2**63:
            raise UserError("--max-deals must be a positive number (below 2**63)")
        options["max_deals"] = args.max_deals
    simulation = entry.load("simulate")
    stick = not args.no_stick_the_dealer
    with tqdm(total=args.games, unit="hand" if args.hands else "game",
              disable=args.no_progress, leave=False) as bar:
        simulation.simulate(args.seed, 1, args.hands, stick)  # compile first: not timed
        start = time.perf_counter()
        stats = simulation.simulate(args.seed, args.games, args.hands, stick, bar.update,
                                    **options)
        seconds = time.perf_counter() - start
    report = simulation.summarize(stats, seconds, args.hands)
    print(json.dumps(report) if args.json else simulation.format_report(report, args.seed))
    return 0
