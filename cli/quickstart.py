"""`setback-cfr quickstart`: the whole pipeline in one command, on a small time budget.

1. Train a baseline (`train baseline`) until its share of the budget is spent: the runner is
   given its iteration target in small steps sized from the measured deal rate, so a slow deal
   never overruns the budget by much.
2. Train the bootstrap auction (`train bootstrap`) on that baseline, the same way.
3. Export both runs (`export`) and load them into one SQLite database (`db load`).
4. Play the database player against the random and the heuristic players (`tournament
   --duplicate`), write a PNG summary of each, and the baseline's training curve.
5. Print the figures and the path of everything written, and save them in `quickstart.json`.

Everything goes into one directory (default `./quickstart-run`). A previous quickstart there is
replaced (the bootstrap run records the baseline it was trained on, so resuming one without the
other would not be the same experiment); any other non-empty directory is refused.
"""

from __future__ import annotations

import json
import os
import shutil
import time

from cli.arguments import positive_float, positive_int
from cli.errors import UserError

MARKER = "quickstart.json"
# The small embedded default: the share of --minutes each stage gets, the settings.
BASELINE_SHARE = 0.70
BOOTSTRAP_SHARE = 0.10
SEED = 0
STEP_SECONDS = 20.0  # longest training step between two looks at the clock


def register(subparsers) -> None:
    """Add the `quickstart` subcommand."""
    parser = subparsers.add_parser(
        "quickstart", help="train, export, load and play a small strategy in one command",
        description="The whole pipeline on a small time budget: train a baseline for about "
        f"{int(BASELINE_SHARE * 100)}% of --minutes, a short bootstrap auction on it "
        f"({int(BOOTSTRAP_SHARE * 100)}%), export both, load them into a SQLite database, "
        "then play the database player against the random and the heuristic players "
        "(duplicate games) and print the win rates with 95% intervals and the paths of "
        "everything written. A short baseline is far from converged: the figures show the "
        "pipeline working, and improve with longer training (`setback-cfr train baseline`).")
    parser.add_argument("--minutes", type=positive_float, default=5.0, metavar="M",
                        help="training budget in minutes (default 5); the tournaments come "
                        "on top")
    parser.add_argument("--out", default="quickstart-run", metavar="DIR",
                        help="directory for everything written (default ./quickstart-run)")
    parser.add_argument("--games", type=positive_int, default=500, metavar="N",
                        help="duplicate pairs per tournament (default 500)")
    parser.add_argument("--workers", type=positive_int, default=1, metavar="K",
                        help="tournament worker processes (default 1)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bars")
    parser.set_defaults(func=run)


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


def _train_child(run_path: str, stage_name: str, baseline: str | None, checkpoint_every: float,
                 progress: bool) -> None:
    """Body of the training process: train in steps of about `checkpoint_every` seconds (the
    runner writes a checkpoint after each) until SIGINT. A SIGINT during a step is the
    runner's (it finishes the deal, saves, returns "stopped"); one that comes between steps,
    or while the stage is still loading, is remembered here and ends the loop after the next
    step, so every run gets at least one finished iteration and a checkpoint."""
    import signal

    pending = []
    signal.signal(signal.SIGINT, lambda signum, frame: pending.append(signum))
    from train.baseline import baseline_stage
    from train.bootstrap import bootstrap_stage
    from train.run_directory import RunDirectory
    from train.runner import Trainer

    stage = baseline_stage(SEED, 1) if stage_name == "baseline" \
        else bootstrap_stage(baseline, SEED, 1)
    trainer = Trainer(RunDirectory(run_path), stage, checkpoint_every=3600.0,
                      show_progress=progress)
    target = trainer.progress.iteration + 1
    while True:
        summary = trainer.run(target)
        if summary["stopped"] or pending:
            return
        rate = summary["iteration"] / max(summary["seconds"], 1e-6)
        target = summary["iteration"] + max(1, int(rate * checkpoint_every))


def train_for(run_path: str, stage_name: str, seconds: float, progress: bool,
              baseline: str | None = None) -> dict:
    """Train a stage in `run_path` for about `seconds` of wall time; return its status.

    The runner only stops between deals, and one baseline deal can take over a minute, so it
    trains in a child process: at the deadline the child gets SIGINT (finish the deal, write a
    checkpoint, exit); if it is still busy after a grace period and a checkpoint exists, it is
    killed and the last checkpoint stands (at most `checkpoint_every` of work lost). Without
    any checkpoint yet it is waited for: a run needs at least one finished deal."""
    import multiprocessing
    import signal

    import train.baseline  # noqa: F401  (imported once here, inherited by the child)
    import train.bootstrap  # noqa: F401
    from train.run_directory import RunDirectory
    from train.status import run_status

    checkpoint_every = max(2.0, min(STEP_SECONDS, seconds / 5))
    grace = max(3.0, min(15.0, seconds / 10))
    context = multiprocessing.get_context("fork")
    child = context.Process(target=_train_child, args=(run_path, stage_name, baseline,
                                                       checkpoint_every, progress))
    start = time.monotonic()
    child.start()
    try:
        child.join(seconds)
        if child.is_alive():
            os.kill(child.pid, signal.SIGINT)
            child.join(grace)
        while child.is_alive():
            if RunDirectory(run_path).has_checkpoint():
                child.kill()
            child.join(1.0)
    finally:
        if child.is_alive():
            child.kill()
            child.join()
    if not RunDirectory(run_path).has_checkpoint():
        raise UserError(f"{stage_name} training wrote no checkpoint (exit code "
                        f"{child.exitcode}); see the messages above")
    status = run_status(run_path)
    status["wall_seconds"] = time.monotonic() - start
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
        print(f"setback-cfr: note: no training curve written ({exc})", file=sys.stderr)
        return False


def run(args) -> int:
    """Run the pipeline and print the summary."""
    from cli.tournament import tournament, write_png
    from db.loader import load_strategies
    from play.tournament import format_summary
    from train.export import export_run

    if args.minutes <= 0:
        raise UserError("--minutes must be positive")
    if args.games <= 0:
        raise UserError("--games must be a positive number")
    if args.workers < 1:
        raise UserError("--workers must be at least 1")
    out = args.out
    prepare_directory(out)
    budget = 60.0 * args.minutes
    progress = not args.no_progress
    paths = {
        "baseline_run": os.path.join(out, "baseline"),
        "bootstrap_run": os.path.join(out, "bootstrap"),
        "baseline_strategy": os.path.join(out, "baseline.strategy"),
        "bootstrap_strategy": os.path.join(out, "bootstrap.strategy"),
        "database": os.path.join(out, "strategy.db"),
        "png_training": os.path.join(out, "baseline-training.png"),
        "png_vs_random": os.path.join(out, "db-vs-random.png"),
        "png_vs_heuristic": os.path.join(out, "db-vs-heuristic.png"),
        "summary": os.path.join(out, MARKER),
    }
    start = time.monotonic()

    print(f"[1/5] baseline: training for {BASELINE_SHARE * budget:.0f} s")
    base = train_for(paths["baseline_run"], "baseline", BASELINE_SHARE * budget, progress)
    print(f"      {base['iteration']:,} deals, {base['infosets']:,} info sets, "
          f"payoff {base['payoff']} ({base['wall_seconds']:.0f} s)")

    print(f"[2/5] bootstrap: training for {BOOTSTRAP_SHARE * budget:.0f} s")
    boot = train_for(paths["bootstrap_run"], "bootstrap", BOOTSTRAP_SHARE * budget, progress,
                     baseline=paths["baseline_run"])
    print(f"      {boot['iteration']:,} episodes, {boot['infosets']:,} info sets "
          f"({boot['wall_seconds']:.0f} s)")

    if not _plot_training(paths["baseline_run"], paths["png_training"]):
        paths.pop("png_training")

    print("[3/5] export and load")
    exported = [export_run(paths["baseline_run"], paths["baseline_strategy"]),
                export_run(paths["bootstrap_run"], paths["bootstrap_strategy"])]
    report = load_strategies([paths["baseline_strategy"], paths["bootstrap_strategy"]],
                             paths["database"], progress=progress)
    print(f"      {paths['database']}: {report.n_keys:,} keys")

    results = {}
    for step, opponent in ((4, "random"), (5, "heuristic")):
        print(f"[{step}/5] db player vs {opponent}: {args.games:,} duplicate pairs")
        summary = tournament(f"db:{paths['database']}", opponent, args.games, SEED, True,
                             args.workers, 200, progress)
        png = write_png(summary, paths[f"png_vs_{opponent}"])
        if png is None:
            paths.pop(f"png_vs_{opponent}")
        print("\n".join("      " + line for line in format_summary(summary).splitlines()))
        results[opponent] = summary.as_dict()

    figures = {
        "minutes": args.minutes,
        "seconds": round(time.monotonic() - start, 1),
        "baseline": {k: base[k] for k in ("iteration", "infosets", "payoff", "wall_seconds")},
        "bootstrap": {k: boot[k] for k in ("iteration", "infosets", "wall_seconds")},
        "exported_keys": [h["n_keys"] for h in exported],
        "database_keys": report.n_keys,
        "tournaments": results,
        "paths": paths,
    }
    with open(paths["summary"], "w") as f:
        json.dump(figures, f, indent=2)
    print()
    print(f"quickstart done in {figures['seconds']:.0f} s")
    for opponent, r in results.items():
        print(f"  db player vs {opponent:<9} win rate {100 * r['win_rate']:.1f}% "
              f"(95% CI {100 * r['ci_low']:.1f}% .. {100 * r['ci_high']:.1f}%, "
              f"{r['games']:,} games)")
    print("written:")
    for name, path in paths.items():
        print(f"  {name:<19} {path}")
    print("next: a longer budget trains a stronger player (`setback-cfr quickstart --minutes "
          "30`); play it yourself: `setback-cfr tournament --ew "
          f"db:{paths['database']} --ns heuristic --games 1000 --duplicate`")
    return 0
