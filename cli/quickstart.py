"""`setback-cfr quickstart`: the whole pipeline in one command, on a small time budget.

1. Train a baseline (`train baseline --for`) on every core the process may use (`--workers`
   threads, batch `BATCH_PER_WORKER` deals a thread) until its share of the budget is spent.
   The budget is `--minutes` on each of those cores, counted in training CPU time
   (`train.runner`: the batches' CPU, not start-up, checkpoints or evaluation), so on an idle
   machine it takes about `--minutes` of wall time, and a loaded machine does not cut the
   training short. It is evaluated `EVAL_POINTS` times on the way (`--eval-every`: duplicate
   games of the live strategy against the heuristic, their CPU apart from the budget).
2. Train the bootstrap auction (`train bootstrap --for`) on that baseline, the same way
   (without evaluations), if `BOOTSTRAP_SHARE` gives it any of the budget. It gives none:
   measured on a 10-CPU-minute es-mccfr baseline (docs/results/bootstrap.md), a bootstrap
   of up to 5 CPU-minutes made the database player weaker against the heuristic, so at the
   quickstart's budgets every minute goes to the baseline.
3. Export both runs (`export`) and load them into one SQLite database (`db load`).
4. Play the database player against the random and the heuristic players (`tournament
   --duplicate`), then rollout search on the database (`search:db:...`,
   games/setback/play/search_player.py) against the heuristic on the same pairs, uniform and
   with the best default belief (`search[belief=policy]`), write a PNG summary of each, and
   the baseline's training curve: its win rate against the heuristic, with the 95 % band, over
   training CPU minutes.
5. Print the figures and the path of everything written, and save them in `quickstart.json`.

Each stage's share of the budget, algorithm and batch are the constants below (the issue 26
measurements chose them). The final tournaments play on `TOURNAMENT_SEED`, deals the
training never saw.

Everything goes into one directory (default `./quickstart-run`). A previous quickstart there is
replaced (the bootstrap run records the baseline it was trained on, so resuming one without the
other would not be the same experiment); any other non-empty directory is refused.
"""

from __future__ import annotations

import json
import os
import shutil
import time

from cli.arguments import add_game_option, positive_float, positive_int
from cli.errors import UserError
from games.registry import PROGRAM

MARKER = "quickstart.json"
# The small embedded default: the share of the budget each stage gets, the settings
# (docs/results/bootstrap.md: at these budgets the bootstrap costs strength).
BASELINE_SHARE = 1.0
BOOTSTRAP_SHARE = 0.0
BASELINE_ALGORITHM = "es-mccfr"
BOOTSTRAP_ALGORITHM = "cfr"
BATCH_PER_WORKER = 128  # the runner's advice: a batch of 128 deals a thread (1 for one thread)
SEED = 0
TOURNAMENT_SEED = 1  # not the training's seed: the final games are on deals it never saw
CHECKPOINT_SECONDS = 20.0  # a crash of the quickstart loses at most this much training
EVAL_POINTS = 5  # evaluations of the baseline while it trains (the last at its budget's end)
EVAL_PAIRS = 100  # duplicate pairs an evaluation (at most --games)
EVAL_OPPONENT = "heuristic"
# The last tournament: rollout search on the database (games/setback/play/search_player.py), on
# the same pairs as the database player's against the heuristic, so the two rates compare directly.
SEARCH_PLAYER = "search"
# the best default belief (docs/results/search.md#beliefs-what-the-play-says-about-the-hidden-cards):
# the quickstart plays it beside uniform search on the same pairs
BELIEF_PLAYER = "search[belief=policy]"


def register(subparsers) -> None:
    """Add the `quickstart` subcommand."""
    parser = subparsers.add_parser(
        "quickstart", help="train, export, load and play a small strategy in one command",
        description="The whole pipeline on a small time budget: train an es-mccfr baseline on "
        "every core for --minutes, evaluating it "
        f"{EVAL_POINTS} times on the way against the {EVAL_OPPONENT} player (the curve is "
        "baseline-training.png), export it, load it into a SQLite database (a bootstrap "
        "auction stage is left out: at these budgets it costs strength, "
        "docs/results/bootstrap.md), "
        "then play the database player against the random and the heuristic players "
        "and rollout search on the database against the heuristic on the same pairs "
        "(duplicate games) and print the win rates with 95% intervals and the paths of "
        "everything written. A short baseline is far from converged: the figures show the "
        f"pipeline working, and improve with longer training (`{PROGRAM} train baseline`).")
    parser.add_argument("--minutes", type=positive_float, default=5.0, metavar="M",
                        help="training budget (default 5): M minutes on each of the --workers "
                        "cores, counted as M x workers minutes of training CPU time (the CPU "
                        "of the training batches, as `train --for` counts it), so about M "
                        "minutes of wall time on an idle machine; the evaluations while "
                        "training, the start-up and the tournaments come on top")
    parser.add_argument("--out", default="quickstart-run", metavar="DIR",
                        help="directory for everything written (default ./quickstart-run)")
    parser.add_argument("--games", type=positive_int, default=500, metavar="N",
                        help="duplicate pairs per tournament (default 500)")
    parser.add_argument("--eval-games", type=positive_int, default=None, metavar="N",
                        help=f"duplicate pairs of each evaluation while the baseline trains "
                        f"(default {EVAL_PAIRS}, at most --games)")
    parser.add_argument("--workers", type=positive_int, default=None, metavar="K",
                        help="training threads and tournament processes (default: every core "
                        "this process may use)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bars")
    parser.set_defaults(func=run)
    add_game_option(parser, "quickstart")


def prepare_directory(path: str) -> None:
    """Create `path`, replacing a previous quickstart there; refuse any other content."""
    if os.path.isdir(path) and os.listdir(path):
        if not os.path.isfile(os.path.join(path, MARKER)):
            raise UserError(f"{path} exists and is not a quickstart directory: choose "
                            "another --out")
        print(f"replacing the previous quickstart in {path}")
        shutil.rmtree(path)
    elif os.path.exists(path) and not os.path.isdir(path):
        raise UserError(f"{path} exists and is not a directory")
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, MARKER), "w") as f:
        json.dump({"status": "running"}, f)


def train_for(run_path: str, stage, seconds: float, progress: bool, workers: int = 1,
              evaluation=None) -> dict:
    """Train `stage` in `run_path` until the run has `seconds` of training CPU time (`train
    --for`), evaluating it if `evaluation` (a `train.evaluation.Evaluation`) is given; return
    its status (`train status`), with the wall seconds it took. Ctrl-C stops it at a batch
    boundary with a checkpoint (`UserError`, exit 2: the quickstart is not resumable)."""
    from train.run_directory import RunDirectory
    from train.runner import Trainer
    from train.status import run_status

    start = time.monotonic()
    run = RunDirectory(run_path)
    with run.writer_lock():
        trainer = Trainer(run, stage, workers=workers, checkpoint_every=CHECKPOINT_SECONDS,
                          show_progress=progress)
        summary = trainer.run(None, cpu_budget=seconds, evaluation=evaluation)
    if summary["stopped"]:
        raise UserError(f"stopped by {summary['stopped']} while training {run_path}")
    status = run_status(run_path)
    status["wall_seconds"] = time.monotonic() - start
    status["eval_cpu_seconds"] = summary["eval_cpu_seconds"]
    return status


def _plot_training(run_path: str, png: str) -> bool:
    """The baseline's training curve (`train status --plot`); False, with a note, when it
    cannot be drawn."""
    import sys

    from train.errors import RunError
    from train.status import plot_status

    try:
        plot_status(run_path, png)
        return True
    except (RunError, OSError) as exc:
        print(f"{PROGRAM}: note: no training curve written ({exc})", file=sys.stderr)
        return False


def run(args) -> int:
    """Run the pipeline and print the summary."""
    from cli.tournament import tournament, write_png
    from db.loader import load_strategies
    from play.tournament import default_workers, tournament_game
    from games import registry
    from train.evaluation import EvalOptions, format_eval_row, make_evaluation
    from train.export import export_run

    if args.minutes <= 0:
        raise UserError("--minutes must be positive")
    if args.games <= 0:
        raise UserError("--games must be a positive number")
    workers = args.workers if args.workers is not None else default_workers()
    if workers < 1:
        raise UserError("--workers must be at least 1")
    batch = 1 if workers == 1 else BATCH_PER_WORKER * workers
    out = args.out
    prepare_directory(out)
    budget = 60.0 * args.minutes * workers  # training CPU seconds
    progress = not args.no_progress
    with_bootstrap = BOOTSTRAP_SHARE > 0
    paths = {
        "baseline_run": os.path.join(out, "baseline"),
        "bootstrap_run": os.path.join(out, "bootstrap"),
        "baseline_strategy": os.path.join(out, "baseline.strategy"),
        "bootstrap_strategy": os.path.join(out, "bootstrap.strategy"),
        "database": os.path.join(out, "strategy.db"),
        "png_training": os.path.join(out, "baseline-training.png"),
        "png_vs_random": os.path.join(out, "db-vs-random.png"),
        "png_vs_heuristic": os.path.join(out, "db-vs-heuristic.png"),
        "png_search_vs_heuristic": os.path.join(out, "search-vs-heuristic.png"),
        "png_belief_vs_heuristic": os.path.join(out, "search-belief-vs-heuristic.png"),
        "summary": os.path.join(out, MARKER),
    }
    if not with_bootstrap:
        paths.pop("bootstrap_run")
        paths.pop("bootstrap_strategy")
    start = time.monotonic()

    base_seconds = BASELINE_SHARE * budget
    eval_pairs = args.eval_games or min(EVAL_PAIRS, args.games)
    print(f"[1/7] baseline: training for {base_seconds:.0f} CPU-s on {workers} "
          f"thread{'s' if workers > 1 else ''} (batch {batch}), evaluated every "
          f"{base_seconds / EVAL_POINTS:.0f} CPU-s ({eval_pairs:,} duplicate pairs vs "
          f"{EVAL_OPPONENT}, on top of the budget)")
    # the default game's baseline stage (the registry's `baseline`: Setback's)
    baseline_stage = registry.get(registry.DEFAULT_GAME).load("baseline")
    stage = baseline_stage(SEED, batch, algorithm=BASELINE_ALGORITHM)
    # the grid a hair early, so the last evaluation falls on the budget's last batch
    evaluation = make_evaluation(paths["baseline_run"], stage,
                                 EvalOptions(base_seconds / EVAL_POINTS * (1 - 1e-9), eval_pairs,
                                             EVAL_OPPONENT),
                                 show_progress=progress,
                                 report=lambda row: print("      " + format_eval_row(row)))
    base = train_for(paths["baseline_run"], stage, base_seconds, progress, workers,
                     evaluation)
    print(f"      {base['iteration']:,} deals, {base['infosets']:,} info sets, "
          f"{base['cpu_seconds']:.0f} training CPU-s ({base['wall_seconds']:.0f} s wall, "
          f"evaluations included)")

    boot = None
    if with_bootstrap:
        print(f"[2/7] bootstrap: training for {BOOTSTRAP_SHARE * budget:.0f} CPU-s")
        # the default game's score-aware stage (the registry's `bootstrap`: Setback's)
        bootstrap_stage = registry.get(registry.DEFAULT_GAME).load("bootstrap")
        boot = train_for(paths["bootstrap_run"],
                         bootstrap_stage(paths["baseline_run"], SEED, batch,
                                         BOOTSTRAP_ALGORITHM),
                         BOOTSTRAP_SHARE * budget, progress, workers)
        print(f"      {boot['iteration']:,} episodes, {boot['infosets']:,} info sets, "
              f"{boot['cpu_seconds']:.0f} training CPU-s ({boot['wall_seconds']:.0f} s wall)")
    else:
        print("[2/7] bootstrap: left out (at this budget it costs strength; "
              f"docs/results/bootstrap.md); train one with `{PROGRAM} train bootstrap`")

    if not _plot_training(paths["baseline_run"], paths["png_training"]):
        paths.pop("png_training")

    print("[3/7] export and load")
    stages = ["baseline"] + (["bootstrap"] if with_bootstrap else [])
    exported = [export_run(paths[f"{name}_run"], paths[f"{name}_strategy"]) for name in stages]
    report = load_strategies([paths[f"{name}_strategy"] for name in stages],
                             paths["database"], progress=progress)
    print(f"      {paths['database']}: {report.n_keys:,} keys")

    results = {}
    search_spec = f"{SEARCH_PLAYER}:db:{paths['database']}"
    belief_spec = f"{BELIEF_PLAYER}:db:{paths['database']}"
    matches = (  # (result name, label, player, opponent, picture)
        ("random", "db player", f"db:{paths['database']}", "random", "png_vs_random"),
        ("heuristic", "db player", f"db:{paths['database']}", "heuristic", "png_vs_heuristic"),
        ("search_vs_heuristic", "search player", search_spec, "heuristic",
         "png_search_vs_heuristic"),
        ("belief_vs_heuristic", "search, belief=policy", belief_spec, "heuristic",
         "png_belief_vs_heuristic"))
    steps = 3 + len(matches)
    for step, (name, label, player, opponent, png_key) in enumerate(matches, start=4):
        print(f"[{step}/{steps}] {label} vs {opponent}: {args.games:,} duplicate pairs"
              + (f" (the same pairs, {player})" if player.startswith("search") else ""))
        summary = tournament(player, opponent, args.games, TOURNAMENT_SEED, True, workers, 200,
                             progress)
        if write_png(summary, paths[png_key]) is None:
            paths.pop(png_key)
        text = tournament_game(registry.DEFAULT_GAME).format_summary(summary)
        print("\n".join("      " + line for line in text.splitlines()))
        results[name] = summary.as_dict()

    figures = {
        "minutes": args.minutes,
        "workers": workers,
        "batch": batch,
        "seconds": round(time.monotonic() - start, 1),
        "baseline": {k: base[k] for k in ("iteration", "infosets", "payoff", "cpu_seconds",
                                          "wall_seconds", "evaluations", "eval_cpu_seconds")},
        "bootstrap": boot and {k: boot[k] for k in ("iteration", "infosets", "cpu_seconds",
                                                    "wall_seconds")},
        "exported_keys": [h["n_keys"] for h in exported],
        "database_keys": report.n_keys,
        "tournaments": results,
        "paths": paths,
    }
    with open(paths["summary"], "w") as f:
        json.dump(figures, f, indent=2)
    print()
    print(f"quickstart done in {figures['seconds']:.0f} s")
    for name, label, _, opponent, _ in matches:
        r = results[name]
        print(f"  {label + ' vs ' + opponent:<36} win rate {100 * r['win_rate']:.1f}% "
              f"(95% CI {100 * r['ci_low']:.1f}% .. {100 * r['ci_high']:.1f}%, "
              f"{r['games']:,} games)")
    print("written:")
    for name, path in paths.items():
        print(f"  {name:<24} {path}")
    print(f"next: a longer budget trains a stronger player (`{PROGRAM} quickstart --minutes "
          f"30`); play it yourself: `{PROGRAM} tournament --ew "
          f"db:{paths['database']} --ns heuristic --games 1000 --duplicate`")
    return 0
