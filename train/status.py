"""`train status`: a run's settings and figures, and a PNG of its progress."""

from __future__ import annotations

from train.errors import RunError
from train.run_directory import RunDirectory


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
    return {
        "run": run_path,
        "stage": recorded["stage"],
        "settings": recorded["settings"],
        "checkpoint": run.checkpoint_path if run.has_checkpoint() else None,
        "iteration": int(last.get("iteration", 0)),
        "payoff": last.get("payoff"),
        "infosets": int(last.get("infosets", 0)),
        "seconds": last.get("seconds", 0.0),
        "rss_bytes": int(last.get("rss_bytes", 0)),
        "deals_per_second": (last["iteration"] / last["seconds"]
                             if last and last.get("seconds") else None),
        "recent_deals_per_second": recent,
        "target": target,
        "eta_seconds": ((target - last["iteration"]) / recent
                        if recent and target and target > last["iteration"] else None),
        "log_rows": len(rows),
    }


def format_status(status: dict) -> str:
    """Human-readable lines for `run_status`."""
    lines = [f"run         {status['run']} ({status['stage']})",
             "settings    " + ", ".join(f"{k}={v}" for k, v in sorted(status["settings"].items()))]
    if not status["log_rows"]:
        lines.append("progress    no checkpoint yet")
        return "\n".join(lines)
    rate = status["deals_per_second"]
    lines += [
        f"iterations  {status['iteration']:,}",
        f"payoff      {status['payoff']:.5f} (running mean, non-dealer team)",
        f"info sets   {status['infosets']:,}",
        f"time        {status['seconds'] / 3600:.2f} h of training"
        + (f", {rate:.2f} deals/s" if rate else ""),
        f"memory      {status['rss_bytes'] / 2**30:.2f} GiB resident at the last checkpoint",
    ]
    if status["recent_deals_per_second"]:
        lines.append(f"recent      {status['recent_deals_per_second']:.2f} deals/s between the "
                     "last two checkpoints")
    if status["target"]:
        eta = status["eta_seconds"]
        lines.append(f"target      {status['target']:,} iterations: "
                     + ("reached" if status["iteration"] >= status["target"] else
                        f"ETA {_duration(eta)} at the recent rate" if eta else "ETA unknown"))
    return "\n".join(lines)


def _duration(seconds: float) -> str:
    """`3 h 05 min`, `12 min`, `40 s`."""
    seconds = int(round(seconds))
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
    if seconds >= 60:
        return f"{seconds // 60} min"
    return f"{seconds} s"


def plot_status(run_path: str, out: str) -> None:
    """Write a PNG of payoff and info sets against iterations (needs matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RunError("--plot needs matplotlib: pip install matplotlib") from None
    rows = RunDirectory(run_path).read_log()
    if not rows:
        raise RunError(f"{run_path} has no logged checkpoint to plot yet")
    its = [r["iteration"] for r in rows]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    top.plot(its, [r["payoff"] for r in rows], marker=".")
    top.set_ylabel("running payoff (non-dealer)")
    bottom.plot(its, [r["infosets"] for r in rows], marker=".", color="tab:orange")
    bottom.set_ylabel("info sets")
    bottom.set_xlabel("iterations (deals)")
    fig.suptitle(run_path)
    fig.tight_layout()
    from cfr.atomic_file import atomic_path

    with atomic_path(out, suffix=".png") as tmp:
        fig.savefig(tmp, format="png")
    plt.close(fig)
