"""`setback-cfr solve`: run a CFR variant on a small game and print its exploitability curve."""

from __future__ import annotations

import importlib
import json
import os
import signal
import sys

from cli.errors import UserError
from games.registry import PROGRAM
from cli.arguments import (add_command, add_sampling_options, finite_float, positive_float,
                           positive_int)
from cli.arguments import seed as seed_type

# Games `solve` can run (small enough for exact exploitability): name -> module with GAME.
GAMES = {"kuhn": "games.kuhn", "leduc": "games.leduc"}
ALGORITHMS = ("cfr", "cfr+", "lcfr", "dcfr", "es-mccfr")

DESCRIPTION = """\
Run a CFR variant on a small poker game and report, every K iterations, the exploitability
(NashConv / 2, in chips) of the average strategy and its game value for player 0.

Algorithms (updates alternate between the players unless --simultaneous):
  cfr   vanilla CFR: regret matching, uniform averaging (as OpenSpiel's CFRSolver)
  cfr+  regret matching+ with linear averaging (as OpenSpiel's CFRPlusSolver)
  lcfr  linear CFR: discounted CFR with alpha = beta = gamma = 1
  dcfr  discounted CFR (alpha, beta, gamma default 1.5, 0, 2)
  es-mccfr  external-sampling Monte Carlo CFR (as OpenSpiel's external_sampling_mccfr): per
        iteration one pass per player, walking that player's actions and sampling the
        opponent's and chance from --seed; simple averaging; optional linear weighting and
        Pluribus-style negative-regret pruning
"""

EPILOG = f"""\
examples:
  {PROGRAM} solve kuhn --iterations 1000 --report-every 100
  {PROGRAM} solve leduc --algorithm cfr+ --iterations 1000 --report-every 10 --json
  {PROGRAM} solve leduc --iterations 500 --checkpoint leduc.ckpt   # then --iterations 1000
  {PROGRAM} solve leduc --algorithm es-mccfr --iterations 10000 --seed 3
"""


def register(subparsers) -> None:
    """Add the `solve` subcommand."""
    p = add_command(subparsers, "solve",
                    "solve Kuhn or Leduc poker with CFR and print the exploitability curve",
                    DESCRIPTION, EPILOG)
    p.add_argument("game", metavar="GAME", choices=sorted(GAMES),
                   help="the game: " + ", ".join(sorted(GAMES)))
    p.add_argument("--algorithm", choices=ALGORITHMS, default="cfr",
                   help="CFR variant (default: cfr)")
    p.add_argument("--iterations", type=positive_int, required=True, metavar="N",
                   help="total iterations to reach (a resumed run continues up to N)")
    p.add_argument("--report-every", type=positive_int, default=None, metavar="K",
                   help="report every K iterations, and at N (default: N // 10, at least 1)")
    p.add_argument("--simultaneous", action="store_true",
                   help="update both players in one pass instead of alternating")
    p.add_argument("--sampled-chance", action="store_true",
                   help="sample one chance outcome per chance node and iteration (one deal per "
                        "iteration) instead of enumerating them all")
    p.add_argument("--seed", type=seed_type, default=0, metavar="S",
                   help="seed of the chance sampling (default: 0)")
    p.add_argument("--alpha", type=finite_float, default=None,
                   help="dcfr: discount exponent of positive regrets (default 1.5)")
    p.add_argument("--beta", type=finite_float, default=None,
                   help="dcfr: discount exponent of negative regrets (default 0)")
    p.add_argument("--gamma", type=finite_float, default=None,
                   help="dcfr: exponent of the average-strategy weight t^gamma (default 2)")
    add_sampling_options(p, "iteration", "player")
    p.add_argument("--float32", action="store_true",
                   help="keep regret and strategy sums in float32 (default float64): "
                        "es-mccfr's exploitability curve matches float64's to 0.001 %%; the "
                        "full-width variants' curves drift by up to 40 %% near their floor "
                        "(docs/training.md#number-widths)")
    p.add_argument("--max-memory", type=positive_float, default=None, metavar="MB",
                   help="fail clearly if the info-set table would grow past MB megabytes")
    p.add_argument("--checkpoint", metavar="FILE",
                   help="resume from FILE if it exists; save to it at every report, at the end "
                        "and on Ctrl-C (atomically)")
    p.add_argument("--interface-walk", action="store_true",
                   help="walk the game through its interface every pass instead of a tree "
                        "precomputed once (same results, slower; sampled chance always walks)")
    p.add_argument("--json", action="store_true",
                   help='print one JSON object per report line: {"iteration", '
                        '"exploitability", "value"}')
    p.set_defaults(func=run)


def run(args) -> int:
    """Run the solve command; returns the exit status."""
    from cfr.errors import TableFullError

    try:
        return _solve(args)
    except TableFullError as exc:
        raise UserError(f"{exc}; raise --max-memory") from None


def _sampling_options(args):
    """es-mccfr's options from the arguments (None for the other algorithms), or UserError."""
    es_only = (args.linear_weighting, args.prune_threshold is not None,
               args.prune_probability is not None)
    if args.algorithm != "es-mccfr":
        if any(es_only):
            raise UserError("--linear-weighting, --prune-threshold and --prune-probability "
                            "only apply to --algorithm es-mccfr")
        return None
    if args.simultaneous:
        raise UserError("es-mccfr updates one player per pass: --simultaneous does not apply")
    if args.prune_probability is not None and args.prune_threshold is None:
        raise UserError("--prune-probability needs --prune-threshold")
    from cfr.external_sampling import SamplingOptions

    probability = 0.95 if args.prune_probability is None else args.prune_probability
    return SamplingOptions(bool(args.linear_weighting), args.prune_threshold, probability)


def _solve(args) -> int:
    import numpy as np
    from tqdm import tqdm

    from cfr.exploitability import Evaluator
    from cfr.solver import Solver
    from cfr.tree import build_tree
    from cfr.variants import make_variant

    if args.algorithm != "dcfr" and any(v is not None for v in (args.alpha, args.beta, args.gamma)):
        raise UserError("--alpha, --beta and --gamma only apply to --algorithm dcfr")
    sampling = _sampling_options(args)
    game = importlib.import_module(GAMES[args.game]).GAME
    max_bytes = None if args.max_memory is None else int(min(args.max_memory, 2.0**53) * 2**20)
    use_tree = not args.interface_walk
    dtype = np.float32 if args.float32 else np.float64
    if args.checkpoint and os.path.exists(args.checkpoint):
        solver = Solver.resume(game, args.checkpoint, use_tree=use_tree, max_bytes=max_bytes)
        wanted = Solver(game, args.algorithm, simultaneous=args.simultaneous,
                        sampled_chance=args.sampled_chance, seed=args.seed, dtype=dtype,
                        alpha=args.alpha, beta=args.beta, gamma=args.gamma,
                        sampling=sampling).settings()
        if solver.settings() != wanted:
            diff = sorted(k for k in wanted if solver.settings().get(k) != wanted[k])
            raise UserError(f"{args.checkpoint}: checkpoint was made with other settings "
                            f"({', '.join(diff)}); use the same options or another file")
    else:
        if sampling is None:
            make_variant(args.algorithm, args.alpha, args.beta, args.gamma)
        solver = Solver(game, args.algorithm, simultaneous=args.simultaneous,
                        sampled_chance=args.sampled_chance, seed=args.seed, dtype=dtype,
                        max_bytes=max_bytes, use_tree=use_tree,
                        alpha=args.alpha, beta=args.beta, gamma=args.gamma, sampling=sampling)
    evaluate = Evaluator(build_tree(game))
    total = args.iterations
    every = args.report_every or max(1, total // 10)
    out = sys.stdout

    def report() -> float:
        expl, value = evaluate(solver.table)
        if args.json:
            out.write(json.dumps({"iteration": solver.iteration, "exploitability": expl,
                                  "value": value}) + "\n")
            out.flush()
        else:
            tqdm.write(f"{solver.iteration:>10}  {expl:>14.6e}  {value:>+12.6f}", file=out)
        return value

    if not args.json:
        print(f"{game.name}, {solver.algorithm}, "
              f"{'simultaneous' if solver.simultaneous else 'alternating'} updates, "
              f"{'sampled' if solver.sampled_chance else 'enumerated'} chance", file=out)
        print(f"{'iteration':>10}  {'exploitability':>14}  {'value':>12}", file=out)
    value = None
    bar = tqdm(total=total, initial=min(solver.iteration, total), unit="it",
               desc=f"{args.game} {solver.algorithm}", file=sys.stderr, leave=False,
               disable=None)
    # Ctrl-C only raises a flag, checked between iterations, so an iteration is never cut in
    # half (a checkpoint of a half-done iteration could not resume bit for bit).
    interrupted = []
    previous = signal.signal(signal.SIGINT, lambda *_: interrupted.append(True))
    try:
        while solver.iteration < total and not interrupted:
            solver.iterate(1)
            bar.update(1)
            if solver.iteration % every == 0 or solver.iteration == total:
                value = report()
                if args.checkpoint:
                    solver.save(args.checkpoint)
    finally:
        signal.signal(signal.SIGINT, previous)
    if interrupted:
        bar.close()
        if args.checkpoint:
            solver.save(args.checkpoint)
            print(f"saved {solver.iteration} iterations to {args.checkpoint}", file=sys.stderr)
        raise KeyboardInterrupt
    bar.close()
    if value is None:  # nothing left to run: report where the checkpoint stands
        value = report()
    if args.checkpoint:
        solver.save(args.checkpoint)
    if not args.json:
        print(f"game value (player 0) of the average strategy: {value:+.6f}", file=out)
    return 0
