"""`setback-cfr train baseline | distill | status` and each game's own stages: the training
command (`distill`, the stage of every game declaring it, is `cli/train_distill.py`'s).

The command keeps what every game's training shares: the run directory (--run, resume from its
checkpoint), the budget (--iterations, --for), the workers (--workers, --batch, --ray), the
algorithm and its sampling options, the evaluations (--eval-every), the progress bar and
`status`. A game trained on its own abstract game (the registry's `trainer`) needs nothing
more; a game's own options and stages are its train module's (the registry's `commands`,
"train" -> e.g. `games/setback/cli/train_stages.py`), which adds them: `key_options(parser)`
among every stage's common options, `baseline_options(parser)` at the end of `train
baseline`'s (`BASELINE_OPTIONS`, their names, are refused for another game),
`register_train(stages)` its own stages, and `run_baseline(args, run_dir)` trains its baseline
when the registry names no `trainer` for it.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import sys

from cli.arguments import add_sampling_options, duration, non_negative_int, positive_float
from cli.arguments import positive_int
from cli.arguments import seed as seed_type
from cli.errors import UserError
from cli.game_words import declared, title
from cli.train_distill import register_distill
from games import registry  # plain data: imports no game
from train.algorithms import ALGORITHMS, UPDATES  # plain data: no numba at parse time

GIB = 2**30


def register(subparsers) -> None:
    """Add `train`: `baseline`, each game's own stages (its train module's), `status`."""
    modules = registry.commands("train")
    parser = subparsers.add_parser(
        "train", help="train a strategy (baseline, a game's own stages) or show a run's status",
        description="Run the training stages. A run lives in its own directory (--run DIR): "
        "run.json (settings), checkpoint.ckpt, log.csv and, with --eval-every, eval.csv. Running "
        "the same command again resumes the run from its checkpoint.")
    stages = parser.add_subparsers(dest="stage", metavar="STAGE")
    stages.required = True

    base = stages.add_parser(
        "baseline", help="score-insensitive CFR on random deals (weeks-long first stage)",
        description="CFR on the game's abstract deal (--game): one random deal per iteration, "
        "each deal stopped once exhausted, float32 tables; by default external-sampling MCCFR "
        "(--algorithm: the winner of bench/race.py), or the reference's vanilla CFR with "
        "--algorithm cfr. "
        "Creates the run, or resumes it when DIR holds a checkpoint. Ctrl-C or SIGTERM "
        "abandons the batch in flight (within a second), writes the checkpoint of its start "
        "and exits with status 130; a second Ctrl-C exits at once without writing. One "
        "process trains a run at a time: a second one on the same DIR is refused, naming the "
        "first one's pid.")
    base.add_argument("--updates", choices=UPDATES, default=None,
                      help="simultaneous (default): each deal traversed against the strategy "
                      "frozen for the batch, any number of workers; reference: the reference "
                      "program's walk, the table updated in place during the deal (an update "
                      "to a key inside its own subtree is lost), one worker, --algorithm cfr (what "
                      "a new run gets with it); must match when resuming")
    common_options(base, "es-mccfr", *(m.key_options for m in modules.values()
                                       if hasattr(m, "key_options")))
    base.add_argument("--game", choices=registry.names(), default=None,
                      help=f"(default {registry.DEFAULT_GAME}, or the run's when resuming) the "
                      "game to train: " + "; ".join(f"{e.name}: {e.description}"
                                                    for e in registry.GAMES.values())
                      + ". " + " ".join(f"{title(game)} {text}." for game, text in
                                        declared("TRAIN", registry.names(("trainer",))).items())
                      + " Recorded with the run: a resume under another game is refused")
    for module in modules.values():
        if hasattr(module, "baseline_options"):
            module.baseline_options(base)
    base.set_defaults(func=run_baseline)

    for module in modules.values():
        module.register_train(stages)
    register_distill(stages)  # any game declaring it (the registry's `distill`)

    status = stages.add_parser("status", help="print a run's settings and figures",
                               description="Print a run's stage, settings, latest figures "
                               "and evaluations (eval.csv); optionally plot them as a PNG: the "
                               "win rate with its 95% band against training CPU minutes when "
                               "the run was evaluated (--eval-every), else the running payoff, "
                               "over the info sets.")
    status.add_argument("--run", required=True, metavar="DIR", help="the run directory")
    status.add_argument("--plot", metavar="FILE.png", help="write a PNG of the run's progress")
    status.add_argument("--json", action="store_true", help="print the figures as JSON")
    status.set_defaults(func=run_status)


def common_options(parser, default_algorithm: str, *key_options) -> None:
    """Add the options every training stage shares; `key_options`: the games' adders of their
    key-layout options (`--abstraction`), listed after the sampling options."""
    parser.add_argument("--run", required=True, metavar="DIR",
                        help="run directory (created if new, resumed if it has a checkpoint)")
    parser.add_argument("--iterations", type=non_negative_int, default=None, metavar="N",
                        help="train until the run has N iterations in total (default: the "
                        "run's total plus 1000, unless --for is given)")
    parser.add_argument("--for", dest="for_seconds", type=duration, default=None,
                        metavar="DURATION",
                        help="train until the run's training CPU time in total reaches "
                        "DURATION (20s, 90m, 2h): the CPU of the training batches, every "
                        "worker thread's (with --ray: the batches' wall time), without "
                        "start-up, checkpoints or evaluation. Like --iterations it is the "
                        "run's total, so the same command finishes an interrupted run; it "
                        "stops at the first batch boundary past it. With --iterations, "
                        "whichever comes first")
    parser.add_argument("--eval-every", type=positive_float, default=None, metavar="MINUTES",
                        help="every MINUTES of training CPU time, at a batch boundary, play "
                        "the current average strategy straight from memory (a bootstrap run "
                        "with its baseline, as `db load` combines them) in duplicate games "
                        "and append a row to DIR/eval.csv: deals, training CPU seconds, win "
                        "rate with its 95%% interval, games, the evaluation's own CPU seconds "
                        "(never counted as training) and the opponent. The table is the same "
                        "with or without it; a resumed run keeps the same grid")
    parser.add_argument("--eval-games", type=positive_int, default=None, metavar="N",
                        help="duplicate pairs per evaluation (2N games, default 200), on the "
                        "same deals every time (drawn from the run's seed)")
    parser.add_argument("--eval-against", default=None, metavar="SPEC",
                        help="the opponent of the evaluations (default heuristic): a player "
                        "as `tournament` takes it (random, heuristic, db:PATH, ...; for a run of "
                        "another game, as `tournament --game GAME` takes it)")
    parser.add_argument("--checkpoint-every", type=positive_float, default=600.0,
                        metavar="SECONDS",
                        help="write a checkpoint at least this often (default 600); a crash "
                        "loses at most this much work")
    parser.add_argument("--seed", type=seed_type, default=None, metavar="S",
                        help="random seed of a new run (default 0); must match when resuming")
    parser.add_argument("--batch", type=positive_int, default=None, metavar="B",
                        help="deals traversed against one frozen strategy (default 1: plain "
                        "CFR); the table depends on seed and batch, never on --workers; must "
                        "match when resuming. With K workers use B = 128*K (256 for 2): "
                        "the workers share each batch deal by deal and wait for its last "
                        "deal, which a few hundred deals per batch make a small share; the "
                        "price is a strategy updated every B deals instead of every deal")
    parser.add_argument("--workers", type=positive_int, default=None, metavar="K",
                        help="threads sharing each batch, one deal at a time (at most the "
                        "batch size; default 1); up to the number of cores. With --ray: "
                        "Ray workers (default one per CPU of the cluster, at most the batch)")
    parser.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                        help="traverse each batch's deals on Ray workers (pip install "
                        f"'{registry.PROGRAM}[ray]'): on the cluster at ADDRESS (HOST:PORT of "
                        "`ray start --head`, or auto), or without ADDRESS on a new local Ray with "
                        "this machine's cores. The table is the same as --workers 1's, bit "
                        "for bit, and the run resumes with or without --ray")
    parser.add_argument("--memory-limit", type=positive_float, default=None, metavar="GB",
                        help="stop cleanly (at the last checkpoint) rather than let the "
                        "info-set table grow past this many GiB; the message says how far "
                        "the run got and how much memory it would need")
    parser.add_argument("--algorithm", choices=ALGORITHMS, default=None,
                        help=f"(default {default_algorithm}) cfr: the reference's "
                        "chance-sampled CFR, each deal walked whole; cfr+, lcfr, dcfr: its "
                        "variants (regret matching+ with "
                        "linear averaging; linear and discounted CFR), one CFR iteration per "
                        "batch, each batch ending with a sweep of the whole table (use "
                        "--batch 8 or more once the table is large); es-mccfr: external-"
                        "sampling Monte Carlo CFR, one team updated per deal (alternating), "
                        "the other team's moves sampled. Must match when resuming")
    add_sampling_options(parser, "deal", "team")
    for add in key_options:
        add(parser)
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")


SAMPLING_OPTIONS = ("linear_weighting", "prune_threshold", "prune_probability")


def chosen_settings(args, defaults: dict, recorded: dict, unit: str) -> dict:
    """Seed, batch, algorithm and es-mccfr's sampling options (`sampling`) of a run: the
    user's, else what the run (or its source) `recorded`, else `defaults`; more threads than a
    batch has `unit`s (deals, hands) are refused."""
    chosen = {name: getattr(args, name) if getattr(args, name) is not None
              else recorded.get(name, defaults[name]) for name in ("seed", "batch", "algorithm")}
    if args.ray is None and (args.workers or 1) > chosen["batch"]:
        raise UserError(f"--workers {args.workers} exceeds the batch size {chosen['batch']}: "
                        f"every worker needs at least one {unit} per batch (raise --batch)")
    chosen["sampling"] = sampling(args, chosen["algorithm"], recorded)
    return chosen


def sampling(args, algorithm: str, recorded: dict):
    """es-mccfr's `SamplingOptions` (None for another algorithm): the user's flags, else what
    the run (or its source) recorded, sum_visits included, else a new run's; a flag given to
    another algorithm is refused."""
    given = [name for name in SAMPLING_OPTIONS if getattr(args, name) is not None]
    if algorithm != "es-mccfr":
        if given:
            raise UserError(f"--{given[0].replace('_', '-')} applies to --algorithm es-mccfr "
                            "only")
        return None
    from cfr.external_sampling import SamplingOptions
    from train.game_plugin import new_run_sampling

    options = SamplingOptions.from_settings(recorded) \
        if recorded.get("algorithm") == "es-mccfr" else new_run_sampling()
    fields = {"linear_weighting": "linear", "prune_threshold": "prune_threshold",
              "prune_probability": "prune_probability"}
    return dataclasses.replace(options, **{fields[name]: getattr(args, name) for name in given})


def train_stage(args, stage, run_dir, stage_factory, evaluation=None) -> int:
    """Train `stage` (`stage_factory()` rebuilds it in a Ray worker) to --iterations;
    `evaluation`: the stage's own, else the one --eval-every asks for."""
    from train.runner import Trainer

    limit = None if args.memory_limit is None else int(min(args.memory_limit, 2.0**53) * GIB)
    executor, workers = None, args.workers or 1
    if args.ray is not None:
        from train.ray_backend import RayBatches

        # the driver only merges: the traversing arrays live in the Ray workers
        executor, workers = RayBatches(stage_factory, args.ray or None, args.workers), 1
        if stage.settings.get("algorithm") == "es-mccfr" and not args.ray:
            print("note: es-mccfr deals take milliseconds, and on one machine the driver's "
                  "merge makes Ray slower than threads; --workers N trains faster here "
                  "(docs/training.md: Training on a Ray cluster)", file=sys.stderr)
    if evaluation is None:
        evaluation = _evaluation(args, stage, run_dir)  # a bad option fails before training
    trainer = Trainer(run_dir, stage, workers=workers,
                      checkpoint_every=args.checkpoint_every, memory_limit_bytes=limit,
                      show_progress=not args.no_progress, executor=executor)
    target = args.iterations
    if target is None and args.for_seconds is None:
        target = trainer.progress.iteration + 1000
    summary = trainer.run(target, cpu_budget=args.for_seconds,
                          evaluation=evaluation)
    rate = summary["iteration"] and summary["seconds"] and summary["iteration"] / summary["seconds"]
    print(f"{stage.name} run {run_dir.path}: {summary['iteration']:,} iterations, "
          f"payoff {summary['payoff']:.5f}, {summary['infosets']:,} info sets, "
          f"table {summary['memory_bytes'] / 2**20:.1f} MiB"
          + (f", {rate:.2f} deals/s overall" if rate else ""))
    print(f"training CPU {summary['cpu_seconds'] / 60:.2f} min in total"
          + (f" (budget {args.for_seconds / 60:.2f} min)" if args.for_seconds else "")
          + (f"; {len(summary['eval_rows'])} evaluations, "
             f"{summary['eval_cpu_seconds']:.1f} CPU-s apart from it"
             if summary["eval_rows"] else ""))
    if summary.get("ray_workers"):
        print(f"Ray: {summary['ray_workers']} workers, "
              f"{summary['ray_bytes_per_deal'] / 2**10:.0f} KiB sent per deal after the table "
              f"({summary['ray_table_bytes'] / 2**20:.1f} MiB to the workers at start), "
              f"{summary['ray_retried_episodes']} deals retried")
    if summary["stopped"]:
        print(f"stopped by {summary['stopped']}; checkpoint written. Run the same command "
              "again to resume.")
        return 130
    return 0


def _evaluation(args, stage, run_dir):
    """The `train.evaluation.Evaluation` that --eval-every asks for, or None."""
    if args.eval_every is None:
        for name in ("eval_games", "eval_against"):
            if getattr(args, name) is not None:
                raise UserError(f"--{name.replace('_', '-')} needs --eval-every MINUTES")
        return None
    from tqdm import tqdm

    from train.evaluation import (DEFAULT_OPPONENT, DEFAULT_PAIRS, EvalOptions,
                                  format_eval_row, make_evaluation)

    options = EvalOptions(60.0 * args.eval_every, args.eval_games or DEFAULT_PAIRS,
                          args.eval_against or DEFAULT_OPPONENT)
    # the game's own (`make_evaluation` asks the registry): games to its goal against its players
    return make_evaluation(run_dir.path, stage, options, show_progress=not args.no_progress,
                           report=lambda row: tqdm.write(format_eval_row(row)))


def recorded_game(run_dir) -> str:
    """The game a run recorded in its settings (a run without one is the default game's:
    runs from before `--game`, and every run of that game, record none)."""
    if not run_dir.has_checkpoint():
        return None
    return run_dir.read_settings()["settings"].get("game", registry.DEFAULT_GAME)


def _game_of(args, run_dir) -> str:
    """--game, else the run's, else the default; a --game that is not the run's is refused."""
    recorded = recorded_game(run_dir)
    if args.game is not None and recorded is not None and args.game != recorded:
        raise UserError(f"{run_dir.path} is a {recorded} run, not {args.game}: leave --game "
                        "out to resume it, or give another --run directory")
    return args.game or recorded or registry.DEFAULT_GAME


def run_plugin_baseline(args, run_dir, game: str) -> int:
    """Create or resume the baseline run of a game trained on its own abstract game (Euchre's
    `games.euchre.train.game`, Spades' `games.spades.train.game`: the registry's `trainer`) and
    train it; another game's baseline options are refused."""
    from train.game_plugin import PLUGIN_DEFAULTS

    for owner, module in registry.commands("train").items():
        for name in getattr(module, "BASELINE_OPTIONS", ()) if owner != game else ():
            if getattr(args, name, None) is not None:
                raise UserError(f"--{name.replace('_', '-')} is {title(owner)}'s: the {game} "
                                "baseline has one abstraction "
                                f"(games/{game}/abstraction/keys.py)")
    if args.updates == "reference":
        raise UserError("--updates reference is the reference program's walk: not with "
                        f"--game {game}")
    stage_of = registry.get(game).load("trainer")
    with run_dir.writer_lock():
        _game_of(args, run_dir)  # again, now that nobody else writes it
        recorded = run_dir.read_settings()["settings"] if run_dir.has_checkpoint() else {}
        chosen = chosen_settings(args, PLUGIN_DEFAULTS, recorded, "hand")
        factory = functools.partial(stage_of, chosen["seed"], chosen["batch"],
                                    chosen["algorithm"], chosen["sampling"])
        return train_stage(args, factory(), run_dir, factory)


def run_baseline(args) -> int:
    """Create or resume a baseline run of --game (else the run's, else the default game) and
    train it to --iterations: by the registry's `trainer`, else by the game's train module."""
    from train.run_directory import RunDirectory

    run_dir = RunDirectory(args.run)
    game = _game_of(args, run_dir)
    if registry.get(game).provides("trainer"):
        return run_plugin_baseline(args, run_dir, game)
    module = registry.commands("train").get(game)
    if module is None or not hasattr(module, "run_baseline"):
        raise UserError(f"the {game} game has no baseline trainer")
    return module.run_baseline(args, run_dir)


def run_status(args) -> int:
    """Print the run's figures (and plot them with --plot)."""
    from train.status import format_status, plot_status, run_status as status_of

    status = status_of(args.run)
    print(json.dumps(status) if args.json else format_status(status))
    if args.plot:
        plot_status(args.run, args.plot)
        if not args.json:
            print(f"plot        {args.plot}")
    return 0
