"""Where the CPU goes when Ray trains: the CPU seconds of every process during a baseline run on
local Ray workers, beside the same run on local threads (issue 15's bound).

    python bench/ray_cpu.py [--deals 4096] [--batch 256] [--workers 2] [--seed 2]

Both runs train `--deals` es-mccfr deals of `--seed` from an empty table at `--batch`, after a
warm-up that loads the compiled pass. The threads' run counts this process's CPU; the Ray
run counts every process on the machine (user + system time from /proc, before and after),
so the replicas, the driver and Ray's own processes (raylet, GCS) are each shown. Each line
is a ratio's two sides from one session; on a shared machine run it more than once.
"""

from __future__ import annotations

import argparse
import functools
import os
import resource
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.setback.train.baseline import baseline_stage  # noqa: E402
from train.run_directory import RunDirectory  # noqa: E402
from train.runner import Trainer  # noqa: E402


def process_cpu() -> dict:
    """pid -> (command line, CPU seconds) of every process readable in /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    out = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
                stat = handle.read()
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                name = handle.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        out[int(pid)] = (name or stat[stat.index("(") + 1:stat.rindex(")")],
                         (int(fields[11]) + int(fields[12])) / tick)
    return out


def label(pid: int, name: str) -> str:
    """A short name for a process of the run."""
    if pid == os.getpid():
        return "driver (this process)"
    if name.startswith("ray::"):
        return name.split()[0]
    for part in ("raylet", "gcs_server", "dashboard", "log_monitor", "runtime_env"):
        if part in name:
            return f"ray {part}"
    return name[:50]


def threads_run(args, tmp: str) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, merge seconds) of the run on local threads."""
    trainer = Trainer(RunDirectory(tmp + "/threads"), baseline_stage(args.seed, args.batch),
                      workers=args.workers, checkpoint_every=1e9, show_progress=False)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu0, wall0 = usage.ru_utime + usage.ru_stime, time.perf_counter()
    trainer.run(args.deals)
    wall = time.perf_counter() - wall0
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return wall, usage.ru_utime + usage.ru_stime - cpu0, trainer.merge_seconds


def ray_run(args, tmp: str) -> tuple[float, list, float, float]:
    """(wall seconds, [(CPU seconds, process)], driver merge seconds, replicas' apply seconds)
    of the run on Ray workers."""
    import ray

    from train.ray_backend import RayBatches

    ray.init(address="local", num_cpus=args.workers, include_dashboard=False,
             log_to_driver=False)
    try:
        executor = RayBatches(functools.partial(baseline_stage, args.seed, args.batch),
                              workers=args.workers)
        trainer = Trainer(RunDirectory(tmp + "/ray"), baseline_stage(args.seed, args.batch),
                          workers=1, checkpoint_every=1e9, show_progress=False,
                          executor=executor)
        executor.warm(trainer)
        before, wall0 = process_cpu(), time.perf_counter()
        trainer.run(args.deals)
        wall = time.perf_counter() - wall0
        after = process_cpu()
    finally:
        ray.shutdown()
    rows = []
    for pid, (name, cpu) in after.items():
        spent = cpu - before.get(pid, (name, 0.0))[1]
        if spent >= 0.01:
            rows.append((spent, f"{label(pid, name)} [{pid}]"))
    return wall, sorted(rows, reverse=True), trainer.merge_seconds, executor.apply_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=4096, help="deals of each run (4096)")
    parser.add_argument("--batch", type=int, default=256, help="the runs' batch (256)")
    parser.add_argument("--workers", type=int, default=2,
                        help="threads, and Ray workers (and the local Ray's CPUs) (2)")
    parser.add_argument("--seed", type=int, default=2, help="seed of the runs (2)")
    args = parser.parse_args()
    for name in ("deals", "batch", "workers"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if args.workers > args.batch:
        parser.error("--workers exceeds --batch: every worker needs a deal per batch")
    with tempfile.TemporaryDirectory() as tmp:
        warm = Trainer(RunDirectory(tmp + "/warm"), baseline_stage(args.seed + 101, 1),
                       workers=1, checkpoint_every=1e9, show_progress=False)
        warm.run(1)
        t_wall, t_cpu, t_merge = threads_run(args, tmp)
        r_wall, rows, r_merge, r_apply = ray_run(args, tmp)
    total = sum(spent for spent, _ in rows)
    print(f"es-mccfr, {args.deals} deals of seed {args.seed} from an empty table, batch "
          f"{args.batch}, {args.workers} workers")
    print(f"  {args.workers} threads: {args.deals / t_wall:7.1f} deals/s, {t_cpu:6.2f} s CPU "
          f"(merge {t_merge:.2f} s)")
    print(f"  {args.workers} Ray workers: {args.deals / r_wall:7.1f} deals/s, {total:6.2f} s "
          f"CPU over every process (driver merge {r_merge:.2f} s, replicas' apply "
          f"{r_apply:.2f} s):")
    for spent, name in rows:
        print(f"    {spent:6.2f} s  {name}")
    print(f"  Ray's CPU / the threads' CPU: {total / t_cpu:.2f}; at 90 % of the threads' speed "
          f"on {args.workers} cores, Ray could add at most {t_cpu / 0.9 - t_cpu:.2f} s")


if __name__ == "__main__":
    main()
