"""`train bootstrap | best-response` and Setback's part of `train baseline` (its key
layouts, warm start and baseline stage): Setback's train module, which the shared command
(`cli/train.py`, whose docstring says what it asks of a game's module) adds through the
registry's `commands["train"]`.
"""

from __future__ import annotations

import argparse
import functools
import sys

from cli.arguments import add_sampling_options, duration, non_negative_int, positive_float
from cli.arguments import positive_int
from cli.arguments import seed as seed_type
from cli.errors import UserError
from cli.train import chosen_settings, common_options, train_stage
from games.setback.abstraction import layouts  # plain data: nothing compiled for --help

# the dests of `baseline_options` and `key_options`: another game's baseline refuses them
BASELINE_OPTIONS = ("abstraction", "warm_start", "warm_start_rule")


def key_options(parser) -> None:
    """Add --abstraction (the key layout) to a stage's common options."""
    parser.add_argument("--abstraction", choices=layouts.names(), default=None,
                        help=f"(default {layouts.DEFAULT}) the info-set key layout "
                        "(games/setback/abstraction/layouts.py): "
                        + "; ".join(f"{e.name}: {e.summary}" for e in layouts.LAYOUTS.values())
                        + ". Recorded with the run (must match when resuming), its exports "
                        "and databases; a bootstrap run takes its baseline's")


def baseline_options(parser) -> None:
    """Add --warm-start and --warm-start-rule, the end of `train baseline`'s options."""
    parser.add_argument("--warm-start", metavar="COARSE_RUN", default=None,
                        help="start a new run where the baseline run COARSE_RUN stopped, in the "
                        "finer key layout --abstraction names (required; its keys must refine "
                        "COARSE_RUN's: bidder and contract refine reference, contract refines "
                        "bidder; another pair is refused). Each fine key, when training first "
                        "meets it, starts from its coarse key's regret and strategy sums "
                        "(--warm-start-rule), so the table plays as COARSE_RUN's and learns what "
                        "the extra fields buy. The run continues COARSE_RUN's iterations, deal "
                        "stream and training time (--iterations and --for count them), with its "
                        "seed, batch, algorithm and sampling options unless given. COARSE_RUN's "
                        "checkpoint is kept in DIR/warm_start.ckpt (a hard link where possible) "
                        "and recorded in run.json, so resuming (leave --warm-start out) is bit "
                        "for bit even if COARSE_RUN trains on. Threads only: not with --ray or "
                        "--updates reference. Documentation: docs/training.md")
    parser.add_argument("--warm-start-rule", metavar="RULE", default=None,
                        help="(default copy, the best measured; with --warm-start) how a fine "
                        "key is seeded from its coarse key: copy, its regret and strategy sums "
                        "as they are; sums:F, the regrets copied and the strategy sums times F "
                        "(0 < F <= 1: the average forgets the coarse history sooner); "
                        "discount:F, both times F (the fine key's own visits move it 1/F times "
                        "sooner). Every rule starts the fine key at its coarse key's current and "
                        "average strategy. Must match when resuming")


def register_train(stages) -> None:
    """Add Setback's own stages: bootstrap, best-response."""
    boot = stages.add_parser(
        "bootstrap", help="score-aware auction stage on top of a baseline",
        description="CFR on the score-aware auction: random deal and random dealer-relative "
        "game scores (-3..10), the four bids as CFR decisions, the playout by the baseline's "
        "best action, +-5.5 for winning the game. Same checkpoint/resume machinery.")
    boot.add_argument("--baseline", required=True, metavar="RUN_OR_STRATEGY",
                      help="a baseline run directory or an exported baseline strategy file")
    common_options(boot, "cfr", key_options)
    boot.set_defaults(func=run_bootstrap)

    _register_best_response(stages)


def _register_best_response(stages) -> None:
    """Add `train best-response` (issue 37; `games/setback/train/best_response.py`)."""
    br = stages.add_parser(
        "best-response", help="train a best response to a fixed strategy (how exploitable "
        "it is)",
        description="One team learns with es-mccfr while the other team's seats play the "
        "fixed target POLICY (--against); the learner's winnings against it measure how far "
        "the target is from unbeatable (an approximate best response). The target costs a "
        "lookup, not a traversal: its decisions are read from its stored strategy (keys of its "
        "own layout; where it lacks a key, the database player's rule: bid Three if legal, "
        "else Pass, in the playout the first abstract action) and never written. The teams "
        "swap sides every two deals, so the learner learns both sides of the dealer. Same "
        "runner as the other stages: checkpoints, Ctrl-C (status 130), resume bit for bit by "
        "running the same command again (a changed target is refused), --for. Export the "
        "result with --export FILE, then `db load FILE --db BR.db` and play it as db:BR.db. "
        "Documentation: docs/best-response.md.")
    br.add_argument("--against", required=True, metavar="POLICY",
                    help="the fixed target: db:PATH (a strategy database) or "
                    "strategy:PATH[,PATH] (strategy files), of any Setback key layout; a bare "
                    "path is a strategy file if it ends in .msgpack, else a database. Missing "
                    "files, another game's strategy or an unknown layout are refused in one "
                    "line. Its bootstrap (score-aware auction) keys are not used: training "
                    "deals carry no game score")
    br.add_argument("--run", required=True, metavar="DIR",
                    help="run directory (created if new, resumed if it has a checkpoint)")
    br.add_argument("--abstraction", choices=layouts.names(), default=None,
                    help="the learner's info-set key layout (default: the target's, a best "
                    "response within the target's abstraction; a finer one, bidder or "
                    "contract, may also exploit what the target's keys throw away). Must "
                    "match when resuming")
    br.add_argument("--target-plays", choices=("best", "sample"), default=None,
                    help="(default best) best: the target plays each key's most probable "
                    "action, as db: and strategy: players do in tournament, rating and serve "
                    "(so the learner exploits the player those commands rate); sample: it "
                    "draws from its stored probabilities. Must match when resuming")
    br.add_argument("--iterations", type=non_negative_int, default=None, metavar="N",
                    help="train until the run has N deals in total (default: the run's total "
                    "plus 1000, unless --for is given)")
    br.add_argument("--for", dest="for_seconds", type=duration, default=None,
                    metavar="DURATION",
                    help="train until the run's training CPU time in total reaches DURATION "
                    "(20s, 10m, 1h): the training batches' CPU, every worker's, without "
                    "start-up, checkpoints or evaluation; the run's total, so the same command "
                    "finishes an interrupted run. With --iterations, whichever comes first")
    br.add_argument("--eval-every", type=positive_float, default=None, metavar="MINUTES",
                    help="every MINUTES of training CPU time, play the learner's current "
                    "average strategy (from memory) against the target in duplicate games "
                    "and append a row to DIR/eval.csv (win rate, 95%% interval) and "
                    "DIR/best_response_eval.csv (also points per deal, learner minus target, "
                    "with its 95%% interval); never counted as training time")
    br.add_argument("--eval-games", type=positive_int, default=None, metavar="N",
                    help="duplicate pairs per evaluation (2N games, default 200), the same "
                    "deals every time (drawn from the run's seed)")
    br.add_argument("--export", metavar="FILE",
                    help="after training, write the learner's strategy that --strategy "
                    "names (default: its current one) to the "
                    "strategy file FILE (a baseline strategy of the learner's layout, for "
                    "`db load`; its player is the best response). To export without training "
                    "more, repeat the run's --for or --iterations")
    br.add_argument("--fill-from-target", dest="fill", action=argparse.BooleanOptionalAction,
                    default=None,
                    help="(default: on when the learner has the target's layout) the "
                    "evaluations and --export play the target's own stored move at a key the "
                    "learner never visited, instead of the database player's fallback rule; "
                    "still one fixed strategy, so its winnings remain a lower bound on the "
                    "target's exploitability. Not a training setting: the table is the same")
    br.add_argument("--strategy", choices=("current", "average"), default="current",
                    help="(default current) what the evaluations and --export play: current, "
                    "regret matching on the learner's regrets (the last iteration's strategy, "
                    "which against a fixed target reaches the best response sooner); average, "
                    "the average strategy the other stages export. Not a training setting")
    br.add_argument("--seed", type=seed_type, default=None, metavar="S",
                    help="random seed of a new run (default 0); must match when resuming. "
                    "Measure the result on another tournament seed")
    br.add_argument("--batch", type=positive_int, default=None, metavar="B",
                    help="deals traversed against one frozen table (default 1); with K "
                    "workers use 128*K; must match when resuming")
    br.add_argument("--workers", type=positive_int, default=None, metavar="K",
                    help="threads sharing each batch (at most the batch size; default 1); the "
                    "table never depends on it")
    br.add_argument("--checkpoint-every", type=positive_float, default=600.0,
                    metavar="SECONDS",
                    help="write a checkpoint at least this often (default 600)")
    br.add_argument("--memory-limit", type=positive_float, default=None, metavar="GB",
                    help="stop cleanly (at the last checkpoint) rather than let the table "
                    "grow past this many GiB")
    add_sampling_options(br, "deal", "team")
    br.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    br.set_defaults(func=run_best_response)



def _settings(args, defaults: dict, run_dir, inherited: dict | None = None) -> dict:
    """Seed, batch and algorithm (with es-mccfr's options): the user's, else the run's (when
    resuming), else `inherited`'s (a new run's source: the coarse run of a warm start), else
    the defaults."""
    recorded = inherited or {}
    if run_dir.has_checkpoint():
        recorded = run_dir.read_settings()["settings"]
    abstraction = args.abstraction or _recorded_layout(recorded)
    return {**chosen_settings(args, defaults, recorded, "deal"), "abstraction": abstraction}


def _recorded_layout(settings: dict) -> str:
    """The key layout's name a run recorded (a new run, or one older than the choice:
    `reference`)."""
    try:
        return layouts.of_header(settings).name
    except layouts.LayoutError as exc:
        raise UserError(str(exc)) from None


def run_baseline(args, run_dir) -> int:
    """Create or resume the Setback baseline run in `run_dir` (`train.run_directory.RunDirectory`)
    and train it to --iterations."""
    from games.setback.train.baseline import DEFAULTS, baseline_stage

    source = _warm_source(args, run_dir)  # a refused pair writes nothing
    chosen = _settings(args, DEFAULTS, run_dir, source)
    with run_dir.writer_lock():
        chosen = _settings(args, DEFAULTS, run_dir, source)  # again, now nobody else writes
        updates = args.updates
        if updates is None:  # the run's own, else the default
            updates = (run_dir.read_settings()["settings"].get("updates", DEFAULTS["updates"])
                       if run_dir.has_checkpoint() else DEFAULTS["updates"])
        if updates == "reference" and args.algorithm is None and not run_dir.has_checkpoint():
            chosen["algorithm"], chosen["sampling"] = "cfr", None  # the reference's walk is cfr's
        if updates == "reference" and args.ray is not None:
            raise UserError("--updates reference updates the table as it walks: not with --ray")
        if updates == "reference" and chosen["algorithm"] != "cfr":
            raise UserError("--updates reference is the reference's cfr walk: only with "
                            "--algorithm cfr")
        warm = None
        if args.ray is None and updates != "reference":  # else the trainer refuses a warm run
            warm = _warm_start(args, run_dir, chosen["abstraction"])
        elif source is not None or (run_dir.has_checkpoint() and _is_warm(run_dir)):
            raise UserError("a warm-started run trains with threads (--workers), not --ray "
                            "or --updates reference")
        factory = functools.partial(baseline_stage, chosen["seed"], chosen["batch"], updates,
                                    chosen["algorithm"], chosen["sampling"],
                                    chosen["abstraction"], warm)
        return train_stage(args, factory(), run_dir, factory)


def _is_warm(run_dir) -> bool:
    from games.setback.train.warm_start import is_warm

    return is_warm(run_dir.read_settings()["settings"])


def _warm_source(args, run_dir) -> dict | None:
    """The settings of --warm-start's coarse run for a new run (the defaults of its seed,
    batch, algorithm and sampling options), once the pair of layouts is known to refine; None
    without --warm-start or when resuming. Refuses (one line) what a warm start cannot be."""
    if args.warm_start is None:
        if args.warm_start_rule is not None and not run_dir.has_checkpoint():
            raise UserError("--warm-start-rule needs --warm-start COARSE_RUN")
        return None
    if run_dir.has_checkpoint():
        return None  # `_warm_start` checks it names the run's own source
    if args.abstraction is None:
        raise UserError("--warm-start needs --abstraction FINE: the layout whose keys refine "
                        f"{args.warm_start}'s")
    from train.errors import RunError
    from games.setback.train.warm_start import check_pair, parse_rule, source_settings

    try:
        if args.warm_start_rule is not None:
            parse_rule(args.warm_start_rule)
        check_pair(args.warm_start, args.abstraction)
        return source_settings(args.warm_start)
    except RunError as exc:
        raise UserError(str(exc)) from None


def _warm_start(args, run_dir, fine: str):
    """The run's `games.setback.train.warm_start.WarmStart` (None for a run without one): a new one
    from --warm-start (keeping the coarse checkpoint in DIR), or the one the run recorded."""
    import os

    from games.setback.train import warm_start
    from train.errors import RunError

    try:
        if not run_dir.has_checkpoint():
            if args.warm_start is None:
                return None
            return warm_start.start(run_dir.path, args.warm_start, fine,
                                    args.warm_start_rule or warm_start.DEFAULT_RULE)
        settings = run_dir.read_settings()["settings"]
        if not warm_start.is_warm(settings):
            if args.warm_start is not None or args.warm_start_rule is not None:
                raise UserError(f"{run_dir.path} already holds a run, created without "
                                "--warm-start: a warm start begins a new run (give another "
                                "--run)")
            return None
        if args.warm_start is not None and \
                os.path.abspath(args.warm_start) != settings["warm_start"]:
            raise UserError(f"{run_dir.path} was warm-started from {settings['warm_start']}, "
                            f"not {args.warm_start}: leave --warm-start out to resume it")
        if args.warm_start_rule is not None and \
                warm_start.parse_rule(args.warm_start_rule)[0] != settings["warm_start_rule"]:
            raise UserError(f"{run_dir.path} seeds with --warm-start-rule "
                            f"{settings['warm_start_rule']}: leave the rule out to resume it")
        return warm_start.resume(run_dir.path, settings, fine)
    except RunError as exc:
        raise UserError(str(exc)) from None


def run_bootstrap(args) -> int:
    """Create or resume a bootstrap run on top of a baseline and train it."""
    from games.setback.train.baseline_policy import load_policy
    from games.setback.train.bootstrap import DEFAULTS, stage_from_policy
    from train.run_directory import RunDirectory

    run_dir = RunDirectory(args.run)
    chosen = _settings(args, DEFAULTS, run_dir)
    with run_dir.writer_lock():
        if _settings(args, DEFAULTS, run_dir) != chosen:  # another writer just created it
            raise UserError(f"{run_dir.path} changed while starting; run the command again")
        policy = load_policy(args.baseline)
        if args.abstraction not in (None, policy.abstraction):
            raise UserError(f"--abstraction {args.abstraction}: the baseline {args.baseline} "
                            f"was trained with the {policy.abstraction} layout, whose keys its "
                            "playouts ask (leave --abstraction out)")
        factory = functools.partial(stage_from_policy, policy,
                                    chosen["seed"], chosen["batch"], chosen["algorithm"],
                                    chosen["sampling"])
        return train_stage(args, factory(), run_dir, factory)


def run_best_response(args) -> int:
    """Create or resume a best-response run against --against and train it."""
    from games.setback.train.best_response import (DEFAULTS, BestResponseEvaluation,
                                                   best_response_stage, check_resume,
                                                   export_best_response, format_br_row, load_target)
    from train.errors import RunError
    from train.run_directory import RunDirectory

    run_dir = RunDirectory(args.run)
    if args.eval_games is not None and args.eval_every is None:
        raise UserError("--eval-games needs --eval-every MINUTES")
    for name in ("algorithm", "ray", "eval_against", "updates", "game"):
        setattr(args, name, None)  # what `_settings` asks of the other stages' options
    with run_dir.writer_lock():
        recorded = run_dir.read_settings() if run_dir.has_checkpoint() else None
        if recorded is not None and recorded["stage"] != "best-response":
            raise UserError(f"{run_dir.path} is a {recorded['stage']} run, not a best "
                            "response")
        settings = recorded["settings"] if recorded else {}
        plays = args.target_plays or settings.get("target_plays", "best")
        try:
            target = load_target(args.against, plays)
            if recorded:
                check_resume(settings, target)
        except RunError as exc:
            raise UserError(str(exc)) from None
        layout = args.abstraction or (settings and _recorded_layout(settings)) or target.layout
        if args.fill and layout != target.layout:
            raise UserError(f"--fill-from-target: the learner's layout {layout} cannot read "
                            f"the target's {target.layout} keys")
        if target.has_bootstrap:
            print(f"note: {target.spec} holds bootstrap (score-aware auction) keys; the "
                  "training deals carry no score, so the target bids here by its baseline "
                  "auction keys", file=sys.stderr)
        chosen = _settings(args, DEFAULTS, run_dir)
        if not args.abstraction and not recorded:
            chosen["abstraction"] = target.layout
        factory = functools.partial(best_response_stage, target, chosen["seed"],
                                    chosen["batch"], chosen["sampling"], chosen["abstraction"])
        stage = factory()
        evaluation = None
        if args.eval_every is not None:
            from tqdm import tqdm

            from train.evaluation import DEFAULT_PAIRS

            evaluation = BestResponseEvaluation(
                run_dir.path, stage, target, args.eval_games or DEFAULT_PAIRS,
                60.0 * args.eval_every, show_progress=not args.no_progress,
                report=lambda row: tqdm.write(format_br_row(row)), fill=args.fill,
                strategy=args.strategy)
        status = train_stage(args, stage, run_dir, factory, evaluation=evaluation)
    if args.export and status == 0:
        header = export_best_response(run_dir.path, args.export, fill=args.fill,
                                      target=target, strategy=args.strategy)
        filled = header["settings"]["filled_from_target"]
        print(f"wrote {args.export}: {header['n_keys']:,} keys of the best response "
              f"({header['iterations']:,} deals, its {args.strategy} strategy, layout "
              f"{settings_layout(header)}"
              + (", the target's keys where it has none" if filled else "") + ")")
    return status


def settings_layout(header: dict) -> str:
    """The layout name a strategy header records."""
    return layouts.of_header(header).name
