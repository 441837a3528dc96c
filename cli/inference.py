"""`setback-cfr inference`: how well uniform, voids-only and policy-weighted beliefs about the
hidden hands match the truth, on self-play positions (the game's `inference` entry point:
Setback's `games/setback/play/inference_eval.py`)."""

from __future__ import annotations

import json

from cli.arguments import (add_command, add_game_option, positive_int, positive_probability,
                           seed)
from cli.errors import UserError
from games.registry import PROGRAM

HELP = f"""Measure policy-based inference on positions from self-play games.

Deals are played by the POLICY's own player at all four seats to a random point of the play;
the seat to act there judges the other seats' hands under four beliefs: uniform (hand sizes
and the cards seen), voids (also the voids shown: what pimc samples), policy (the voids
worlds weighted by the policy's probability of the moves seen: what pimc-pi uses) and bids (the
voids worlds weighted by the policy's probability of the bids only: what
search[belief=bids]:POLICY resamples by). Reported per
belief: the mean log-likelihood of the true hands (nats, higher is better), the accuracy of
"who holds card c" over the cards the other seats hold, and the mean probability given to the
true holder; and the policy weights' effective sample size. With --tables FILE (bid tables,
`{PROGRAM} bid-tables`) two more: tables (the worlds drawn from the tables' belief given the
auction and the pitch; exact log-likelihood) and tables+policy (those worlds weighted by the
policy's probability of the moves after the pitch). --first-trick judges positions of the first
trick only (1 to 3 cards played).

--exact adds two ceilings. The self-play player is deterministic (it plays its most probable
action), so the true posterior over the hidden hands is uniform over the layouts in which that
player makes exactly the moves seen; it is estimated by replaying the player on sampled layouts.
exact:auction is that posterior given the auction and the pitch: no belief built on them (bid
tables included) can beat it on average. exact:all is given every move seen: no belief can.
Every cut against uniform comes with its 95 % interval over the positions."""


def register(subparsers) -> None:
    """Add the `inference` subcommand."""
    parser = add_command(subparsers, "inference",
                         "measure uniform, voids and policy-weighted beliefs on self-play", HELP)
    parser.add_argument("--policy", required=True, metavar="SPEC",
                        help="the policy: db:PATH or strategy:PATH[,PATH...]")
    parser.add_argument("--positions", type=positive_int, default=200, metavar="N",
                        help="self-play positions to judge (default 200)")
    parser.add_argument("--seed", type=seed, default=0, metavar="S",
                        help="seed of the deals and of the world sampler (default 0)")
    parser.add_argument("--worlds", type=positive_int, default=100, metavar="W",
                        help="worlds sampled per belief and position (default 100)")
    parser.add_argument("--floor", type=positive_probability, default=0.01, metavar="P",
                        help="probability floor of an observed move (default 0.01)")
    parser.add_argument("--tables", metavar="FILE",
                        help="bid tables file: add the tables and tables+policy beliefs")
    parser.add_argument("--first-trick", action="store_true",
                        help="judge positions of the first trick only (1-3 cards played)")
    parser.add_argument("--exact", action="store_true",
                        help="add the exact beliefs exact:auction and exact:all (the ceilings)")
    parser.add_argument("--exact-hits", type=positive_int, default=50, metavar="H",
                        help="with --exact: sample layouts until H of them reproduce the moves "
                             "seen (default 50; log f is known to about 1/sqrt(H) nats)")
    parser.add_argument("--exact-samples", type=positive_int, default=200_000, metavar="N",
                        help="with --exact: but draw at most N layouts per position and belief "
                             "(default 200000)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(func=run)
    add_game_option(parser, "inference")


def run(args) -> int:
    """Run the measurement and print the table."""
    from games import registry
    from play.player_spec import PlayerSpecError

    measurement = registry.get(args.game).load("inference")  # the game's own measurement

    if not args.policy.lower().startswith(("db:", "strategy:")):
        raise UserError("--policy must be db:PATH or strategy:PATH[,PATH...]")
    if not 0.0 < args.floor <= 1.0:
        raise UserError("--floor must be in (0, 1]")
    if args.tables is not None:
        import os

        if not os.path.isfile(args.tables):
            raise UserError(f"--tables {args.tables!r}: no such bid tables file")
    try:
        result = measurement.evaluate(args.policy, args.positions, args.seed, args.worlds,
                                      args.floor, progress=not args.json, tables=args.tables,
                                      first_trick=args.first_trick, exact=args.exact,
                                      exact_hits=args.exact_hits,
                                      exact_samples=args.exact_samples)
    except PlayerSpecError as exc:
        raise UserError(str(exc)) from None
    print(json.dumps(result) if args.json else measurement.format_table(result))
    return 0
