"""`train status`: a run's settings and figures, and a PNG of its progress.

The picture: with evaluations (DIR/eval.csv, `train.evaluation`), the win rate and its 95 %
band against training CPU minutes, over the info sets; without, the running payoff (its first
checkpoint left out: one deal's payoff dwarfs the mean that follows) over the info sets.
"""

from __future__ import annotations

from train.errors import RunError
from train.evaluation import read_eval_log
from train.run_directory import RunDirectory

SHOWN_EVALUATIONS = 20  # the text shows the latest rows (--json has them all)
# whose value the running payoff is, by stage (`train.runner.Stage.episode_payoff`): a best
# response reports its learner's, whichever side the learner sits on that deal
PAYOFF_OF = {"best-response": "learner's team", "distill": "held-out agreement with search"}
DEFAULT_PAYOFF_OF = "non-dealer team"


def payoff_label(stage: str) -> str:
    """Whose value a run of `stage` reports as its payoff."""
    return PAYOFF_OF.get(stage, DEFAULT_PAYOFF_OF)


def run_status(run_path: str) -> dict:
    """The run's stage, settings and latest logged figures (from run.json and log.csv)."""
    run = RunDirectory(run_path)
    recorded = run.read_settings()
    rows = run.read_log()
    last = rows[-1] if rows else {}
    recent = None
    if len(rows) >= 2 and rows[-1]["seconds"] > rows[-2]["seconds"]:
        recent = ((rows[-1]["iteration"] - rows[-2]["iteration"])
                  / (rows[-1]["seconds"] - rows[-2]["seconds"]))
    target = int(last["target"]) if last.get("target") else None
    evals = read_eval_log(run_path)
    return {
        "run": run_path,
        "stage": recorded["stage"],
        "settings": recorded["settings"],
        "checkpoint": run.checkpoint_path if run.has_checkpoint() else None,
        "iteration": int(last.get("iteration", 0)),
        "payoff": last.get("payoff"),
        "payoff_of": payoff_label(recorded["stage"]),
        "infosets": int(last.get("infosets", 0)),
        "seconds": last.get("seconds", 0.0),
        "cpu_seconds": last.get("cpu_seconds"),
        "cpu_budget": last.get("cpu_budget"),
        "rss_bytes": int(last.get("rss_bytes", 0)),
        "deals_per_second": (last["iteration"] / last["seconds"]
                             if last and last.get("seconds") else None),
        "recent_deals_per_second": recent,
        "target": target,
        "eta_seconds": ((target - last["iteration"]) / recent
                        if recent and target and target > last["iteration"] else None),
        "log_rows": len(rows),
        "evaluations": evals,
    }


def format_status(status: dict) -> str:
    """Human-readable lines for `run_status`."""
    lines = [f"run         {status['run']} ({status['stage']})",
             "settings    " + ", ".join(f"{k}={v}" for k, v in sorted(status["settings"].items()))]
    if not status["log_rows"]:
        lines.append("progress    no checkpoint yet")
        return "\n".join(lines)
    if status["stage"] == "distill":
        return "\n".join(lines + _distill_lines(status))
    rate = status["deals_per_second"]
    lines += [
        f"iterations  {status['iteration']:,}",
        f"payoff      {status['payoff']:.5f} (running mean, {payoff_label(status['stage'])})",
        f"info sets   {status['infosets']:,}",
        f"time        {status['seconds'] / 3600:.2f} h of training"
        + (f", {rate:.2f} deals/s" if rate else ""),
        f"memory      {status['rss_bytes'] / 2**30:.2f} GiB resident at the last checkpoint",
    ]
    if status["recent_deals_per_second"]:
        lines.append(f"recent      {status['recent_deals_per_second']:.2f} deals/s between the "
                     "last two checkpoints")
    if status["cpu_seconds"] is not None:
        budget = status["cpu_budget"]
        lines.append(f"training    {status['cpu_seconds'] / 60:.2f} CPU-min"
                     + (f" of a {budget / 60:.2f} CPU-min budget (--for)" if budget else ""))
    if status["target"]:
        eta = status["eta_seconds"]
        lines.append(f"target      {status['target']:,} iterations: "
                     + ("reached" if status["iteration"] >= status["target"] else
                        f"ETA {_duration(eta)} at the recent rate" if eta else "ETA unknown"))
    evals = status.get("evaluations") or []
    if evals:
        lines.append(f"evaluations {len(evals)} (eval.csv): deals, training CPU-min, win rate "
                     "(95% CI), games, opponent, evaluation CPU-s")
        if len(evals) > SHOWN_EVALUATIONS:
            lines.append(f"  ... {len(evals) - SHOWN_EVALUATIONS} earlier rows in eval.csv")
        for r in evals[-SHOWN_EVALUATIONS:]:
            lines.append(f"  {int(r['iteration']):>12,}  {r['train_cpu_seconds'] / 60:8.2f}  "
                         f"{100 * r['win_rate']:5.1f}% ({100 * r['ci_low']:.1f}-"
                         f"{100 * r['ci_high']:.1f})  {int(r['games']):>6,}  {r['opponent']}  "
                         f"{r['eval_cpu_seconds']:.1f}")
    return "\n".join(lines)


def _distill_lines(status: dict) -> list:
    """A distill run's figures (`train.distill`: a log row a round)."""
    base = float(status["settings"].get("base_cpu_seconds", 0.0))
    agreement = status["payoff"]
    lines = [f"rounds      {status['iteration']:,}",
             "agreement   " + ("-" if agreement != agreement else f"{100 * agreement:.1f}%")
             + " (the previous network's top move against search's, on the newest round's "
             "decisions, before the fit)",
             f"window      {status['infosets']:,} searched decisions",
             f"compute     {status['cpu_seconds'] / 60:.2f} CPU-min in the stage, "
             f"{(status['cpu_seconds'] + base) / 60:.2f} with the base run"]
    evals = status.get("evaluations") or []
    if evals:
        lines.append(f"evaluations {len(evals)} (eval.csv): round, stage CPU-min, the network "
                     "alone: win rate (95% CI), games, opponent")
        for r in evals[-SHOWN_EVALUATIONS:]:
            lines.append(f"  {int(r['iteration']):>6,}  {r['train_cpu_seconds'] / 60:8.2f}  "
                         f"{100 * r['win_rate']:5.1f}% ({100 * r['ci_low']:.1f}-"
                         f"{100 * r['ci_high']:.1f})  {int(r['games']):>6,}  {r['opponent']}")
    return lines


def _duration(seconds: float) -> str:
    """`3 h 05 min`, `12 min`, `40 s`."""
    seconds = int(round(seconds))
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
    if seconds >= 60:
        return f"{seconds // 60} min"
    return f"{seconds} s"


def plot_status(run_path: str, out: str) -> None:
    """Write a PNG of the run's progress (needs matplotlib): the win rate of its evaluations
    with the 95 % band against training CPU minutes, when it has any, else the running payoff;
    the info sets below."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RunError("--plot needs matplotlib: pip install matplotlib") from None
    run = RunDirectory(run_path)
    rows = run.read_log()
    evals = read_eval_log(run_path)
    if not rows and not evals:
        raise RunError(f"{run_path} has no logged checkpoint to plot yet")
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 6), height_ratios=(2, 1))
    if evals:
        minutes = [r["train_cpu_seconds"] / 60 for r in evals]
        top.fill_between(minutes, [100 * r["ci_low"] for r in evals],
                         [100 * r["ci_high"] for r in evals], alpha=0.25, label="95% interval")
        top.plot(minutes, [100 * r["win_rate"] for r in evals], marker="o", label="win rate")
        opponents = sorted({r["opponent"] for r in evals})
        pairs = sorted({int(r["games"]) // 2 for r in evals})
        top.set_ylabel(f"% of games won vs {', '.join(opponents)}")
        top.set_xlabel("training CPU minutes" + (" (the stage's)" if run.read_settings()[
            "stage"] == "distill" else ""))
        top.axhline(50, color="grey", linewidth=0.8, linestyle=":")
        top.set_title(f"{run_path}: duplicate games, "
                      f"{'/'.join(str(p) for p in pairs)} pairs an evaluation", fontsize=10)
        top.legend(loc="lower right")
    else:
        shown = rows[1:] if len(rows) > 1 else rows  # the first running mean is one deal's
        top.plot([r["iteration"] for r in shown], [r["payoff"] for r in shown], marker=".")
        top.set_ylabel(f"running payoff ({payoff_label(run.read_settings()['stage'])})")
        top.set_xlabel("iterations (deals)")
        top.set_title(f"{run_path}: no evaluations (train with --eval-every)", fontsize=10)
    # the info sets at every checkpoint and evaluation, in time order
    timed = bool(rows) and all("cpu_seconds" in r for r in rows)
    if timed or not rows:
        points = sorted([(r["cpu_seconds"] / 60, r["infosets"]) for r in rows]
                        + [(r["train_cpu_seconds"] / 60, r["infosets"]) for r in evals
                           if r["infosets"] is not None])
    else:
        points = [(r["iteration"], r["infosets"]) for r in rows]
    xs = [x for x, _ in points]
    bottom.plot(xs, [y for _, y in points], marker=".", color="tab:orange")
    bottom.set_xlabel("training CPU minutes" if timed or not rows else "iterations (deals)")
    bottom.set_ylabel("decisions in the window" if run.read_settings()["stage"] == "distill"
                      else "info sets")
    if evals and (timed or not rows):  # one time axis for both panels, from the start
        right = max([r["train_cpu_seconds"] / 60 for r in evals] + xs) * 1.03
        for axis in (top, bottom):
            axis.set_xlim(0, right)
    fig.tight_layout()
    from cfr.atomic_file import atomic_path

    with atomic_path(out, suffix=".png") as tmp:
        fig.savefig(tmp, format="png")
    plt.close(fig)
