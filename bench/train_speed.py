"""Baseline training speed, side by side in one run: this tree against another commit's, and
one worker against two.

    python bench/train_speed.py --compare DIR [--first-deals 60] [--seed 2]
                                [--batch 256] [--empty-deals 128]
                                [--snapshot RUN_DIR] [--snapshot-deals 4096]
                                [--ray [ADDRESS]] [--ray-deals N] [--algorithm A]

1. The first `--first-deals` deals of `--seed` from an empty table, one worker, batch 1, in
   this tree and in `--compare` (another checkout, e.g. the previous commit built with
   `git worktree add /tmp/prev HEAD~1`): wall and CPU seconds, peak resident memory, and
   their ratio. Issue 10's target: this tree >= 4x faster, peak <= 1 GiB.
2. One and two workers at `--batch` from an empty table (`--empty-deals` deals; the young
   trees differ most in size, so this is where the split must balance the load), and from a
   copy of `--snapshot` (a baseline run past 20,000 deals, continued `--snapshot-deals` deals
   at `--batch`): deals/s and the ratio (target >= 1.8x), and whether both tables agree.
3. Bytes per info set of the table at the end of each run (target <= 64).
4. With `--ray`: 1 and 2 local threads against 1 and 2 Ray workers (`train.ray_backend`) at
   `--batch`, `--ray-deals` deals of `--seed` from an empty table (default 4,096 es-mccfr
   deals, or 32 of a full-traversal `--algorithm`; issue 15's target: Ray with
   2 workers >= 90 % of 2 threads), the bytes sent per batch and per deal, the driver's merge
   time per batch, and a scaling model for 16, 64 and 256 cores built from those costs.
   Without ADDRESS the bench starts a local Ray with 2 CPUs that the child runs join.
   `--ray` runs part 4 alone.

Parts 2-4 train `--algorithm` (default: the baseline's, es-mccfr; a snapshot keeps its own).
Every run is a child process (its own peak memory; numba compiled and loaded by a warm-up
deal of another seed before the clock starts). Speeds are per second of training (the runs'
own clock: batches and merges, not the final checkpoint write, which a real run pays once
per --checkpoint-every). Wall-clock ratios need an otherwise idle
machine; the CPU seconds are printed beside them (on a busy machine the CPU ratio of the
one-worker runs is the steadier figure).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

# Runs inside the child, against whichever tree is on its PYTHONPATH; uses only the Trainer
# interface both the old and the new tree have.
CHILD = r"""
import json, os, resource, shutil, sys, tempfile, time
from games.setback.train.baseline import baseline_stage
from train.run_directory import RunDirectory
from train.runner import Trainer

a = json.loads(sys.argv[1])
tmp = tempfile.mkdtemp()
algorithm = a.get("algorithm")
stage = (lambda seed, batch: baseline_stage(seed, batch, algorithm=algorithm)) if algorithm \
    else baseline_stage  # an old tree's baseline_stage may not take an algorithm
warm = Trainer(RunDirectory(tmp + "/warm"), stage(a["seed"] + 101, 1), workers=1,
               checkpoint_every=1e9, show_progress=False)
warm.run(1)
run = RunDirectory(tmp + "/run")
seed = a["seed"]
if a.get("snapshot"):
    shutil.copytree(a["snapshot"], run.path)
    recorded = run.read_settings()
    seed = recorded["settings"]["seed"]
    run.write_settings("baseline", {**recorded["settings"], "batch": a["batch"]})
    if "algorithm" in recorded["settings"]:  # a snapshot continues with its own algorithm
        algorithm = recorded["settings"]["algorithm"]
        stage = lambda seed, batch: baseline_stage(seed, batch, algorithm=algorithm)
executor = None
if a.get("ray"):  # join the bench's Ray; the actors load the compiled pass before the clock
    import functools, ray
    from train.ray_backend import RayBatches
    ray.init(address=a["address"], log_to_driver=False)
    executor = RayBatches(functools.partial(stage, seed, a["batch"]), workers=a["ray"])
trainer = Trainer(run, stage(seed, a["batch"]), workers=a["workers"],
                  checkpoint_every=1e9, show_progress=False, executor=executor)
if executor is not None:
    executor.warm(trainer)
first = trainer.progress.iteration
trained_before = trainer.progress.seconds
usage = resource.getrusage(resource.RUSAGE_SELF)
cpu0 = usage.ru_utime + usage.ru_stime
wall0 = time.perf_counter()
summary = trainer.run(first + a["deals"])
wall = time.perf_counter() - wall0
usage = resource.getrusage(resource.RUSAGE_SELF)
shutil.rmtree(tmp)
print(json.dumps({"wall": wall, "train": summary["seconds"] - trained_before,
                  "cpu": usage.ru_utime + usage.ru_stime - cpu0,
                  "peak_rss": usage.ru_maxrss * 1024, "infosets": summary["infosets"],
                  "payoff": summary["payoff"], "table_bytes": summary["memory_bytes"],
                  "work_bytes": summary.get("work_bytes"),
                  "merge": summary.get("merge_seconds"),
                  "from": first,
                  "ray": {k: v for k, v in summary.items() if k.startswith("ray_")}}))
"""


def child(tree: str, **settings) -> dict:
    """Train in a child process whose code comes from `tree`; its figures."""
    env = {**os.environ, "PYTHONPATH": os.path.abspath(tree)}
    out = subprocess.run([sys.executable, "-c", CHILD, json.dumps(settings)], cwd=tree,
                         env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"child run in {tree} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def line(name: str, r: dict, deals: int) -> str:
    return (f"  {name:<26} {r['train']:7.1f} s training ({r['wall']:6.1f} s wall) "
            f"{r['cpu']:7.1f} s CPU {deals / r['train']:8.2f} deals/s  "
            f"peak {r['peak_rss'] / 2**30:5.2f} GiB  "
            f"{r['infosets']:>10,} info sets  {r['table_bytes'] / max(r['infosets'], 1):5.1f} "
            f"B/info set")


def workers_pair(tree: str, deals: int, batch: int, seed: int, snapshot: str | None,
                 title: str, algorithm: str) -> None:
    one = child(tree, seed=seed, deals=deals, batch=batch, workers=1, snapshot=snapshot,
                algorithm=algorithm)
    two = child(tree, seed=seed, deals=deals, batch=batch, workers=2, snapshot=snapshot,
                algorithm=algorithm)
    same = (one["infosets"], one["payoff"]) == (two["infosets"], two["payoff"])
    print(f"{title} (batch {batch}, {deals} deals from iteration {one['from']:,})")
    print(line("1 worker", one, deals))
    print(line("2 workers", two, deals))
    merge = "" if two.get("merge") is None else \
        f"; serial merge {two['merge'] / (deals / batch) * 1e3:.1f} ms per batch"
    print(f"  2 workers / 1 worker: x{one['train'] / two['train']:.2f} in training time "
          f"(target >= 1.8); identical tables: {same}{merge}")


def ray_comparison(tree: str, deals: int, batch: int, seed: int, address: str | None,
                   algorithm: str) -> None:
    """Part 4: local threads against Ray workers, bytes, merge time and the scaling model."""
    import ray

    if address is None:
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    else:
        ray.init(address=address, log_to_driver=False)
    gcs = ray.get_runtime_context().gcs_address
    runs = {}
    for name, extra in (("1 thread", {"workers": 1}), ("2 threads", {"workers": 2}),
                        ("1 Ray worker", {"workers": 1, "ray": 1, "address": gcs}),
                        ("2 Ray workers", {"workers": 1, "ray": 2, "address": gcs})):
        runs[name] = child(tree, seed=seed, deals=deals, batch=batch, algorithm=algorithm,
                           **extra)
    ray.shutdown()
    print(f"local threads against Ray workers ({algorithm}, batch {batch}, {deals} deals of "
          f"seed {seed} from an empty table)")
    for name, r in runs.items():
        print(line(name, r, deals))
    same = len({(r["infosets"], r["payoff"]) for r in runs.values()}) == 1
    ratio = runs["2 threads"]["wall"] / runs["2 Ray workers"]["wall"]
    print(f"  2 Ray workers / 2 threads: {100 * ratio:.0f} % of the deals/s (target >= 90 %); "
          f"identical tables: {same}")
    r2 = runs["2 Ray workers"]
    f = r2["ray"]
    batches = max(1, -(-deals // batch))
    returned, sent = f["ray_returned_bytes"], f["ray_update_bytes"]
    merge = r2["merge"] / batches
    print(f"  bytes per batch: {returned / batches / 2**20:.2f} MiB back to the driver, "
          f"{sent / max(batches - 1, 1) / 2**20:.2f} MiB of updates out (all actors); per "
          f"deal {returned / deals / 2**10:.0f} KiB back; the table sent once: "
          f"{f['ray_table_bytes'] / 2**20:.2f} MiB")
    print(f"  driver merge per batch: {1e3 * merge:.1f} ms ({1e3 * r2['merge'] / deals:.2f} ms "
          f"per deal)")
    # The model: a deal costs t seconds of one worker. The driver merges each task's log as it
    # arrives (`cfr.ordered_merge`), so its merge m and its receiving b bytes at `bw` bytes/s
    # run beside the traversal: a pipeline stage of m + b / bw per deal. The workers' share:
    # t / W per deal, the batch's tail idling about half a deal per worker (batch 8W), then,
    # before the next batch, each replica applying the batch's changes (a per deal, measured)
    # after the bundle reaches each node (16 cores a node, one copy per node through the
    # object store, b bytes per deal as an upper bound). The slower stage sets the rate.
    t = runs["1 thread"]["wall"] / deals
    m = r2["merge"] / deals
    a = f["ray_apply_seconds"] / f["ray_workers"] / deals
    print(f"  replica apply of the batch's changes: {1e3 * a:.2f} ms per deal and replica")
    b = returned / deals
    bw = 1.25e9  # 10 Gb/s Ethernet at the driver
    print(f"  scaling model (t = {1e3 * t:.1f} ms per deal and worker, merge m = "
          f"{1e3 * m:.2f} ms and apply a = {1e3 * a:.2f} ms per deal, b = {b / 2**10:.0f} KiB "
          "per deal, 10 Gb/s at the driver, 16 cores a node, batch 8W):")

    def stages(w: int) -> tuple[float, float]:
        """(the workers' seconds per deal, the driver's) with w workers."""
        nodes = max(1, w // 16)
        return t / w * (1 + 1 / 16) + a + b * nodes / bw, m + b / bw

    for w in (16, 64, 256):
        workers, driver = stages(w)
        rate = 1 / max(workers, driver)
        bound = "the driver's merge and receipt" if driver >= workers else "the workers"
        print(f"    {w:>4} cores: {rate:8.1f} deals/s, x{rate * t:.1f} one worker (bound: "
              f"{bound})")
    knee = next((w for w in range(1, 1 << 12) if stages(w)[0] <= stages(w)[1]), None)
    if knee is None:
        print(f"  the replicas' apply and the bundles' transfer, not the driver, bound it: "
              f"at most {1 / (a + b / bw):.0f} deals/s however many workers")
    else:
        print(f"  the driver's merge becomes the bound near W = {knee} workers, at "
              f"{1 / stages(knee)[1]:.0f} deals/s: beyond it adding workers gains nothing")


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compare", metavar="DIR",
                        help="another checkout to time the first deals against (part 1)")
    parser.add_argument("--first-deals", type=int, default=60, help="part 1 deals (60)")
    parser.add_argument("--seed", type=int, default=2, help="seed of the fresh runs (2)")
    parser.add_argument("--batch", type=int, default=256,
                        help="batch of the worker comparison (256, the documented one for 2 workers)")
    parser.add_argument("--empty-deals", type=int, default=128,
                        help="deals of the from-empty worker comparison (128; 0 skips it)")
    parser.add_argument("--snapshot", metavar="RUN_DIR",
                        help="a baseline run to continue for the later-training comparison")
    parser.add_argument("--snapshot-deals", type=int, default=4096,
                        help="deals to continue the snapshot (4096)")
    parser.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                        help="part 4: local threads against Ray workers (a local Ray with 2 "
                        "CPUs, or the cluster at ADDRESS)")
    parser.add_argument("--ray-deals", type=int, default=None,
                        help="deals of each part-4 run (default 4096 for es-mccfr, whose deals "
                        "cost milliseconds; 32 for the full-traversal algorithms)")
    parser.add_argument("--algorithm", default=None,
                        help="the baseline algorithm of parts 2-4 (default: the baseline's "
                        "default, es-mccfr)")
    args = parser.parse_args()
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path.insert(0, here)
    from games.setback.train.baseline import DEFAULTS
    from train.algorithms import ALGORITHMS

    algorithm = args.algorithm or DEFAULTS["algorithm"]
    if algorithm not in ALGORITHMS:
        parser.error(f"--algorithm must be one of {', '.join(ALGORITHMS)}")
    if args.ray_deals is None:
        args.ray_deals = 4096 if algorithm == "es-mccfr" else 32
    if args.compare:
        n = args.first_deals
        new = child(here, seed=args.seed, deals=n, batch=1, workers=1)
        old = child(args.compare, seed=args.seed, deals=n, batch=1, workers=1)
        print(f"first {n} deals of seed {args.seed} from an empty table, 1 worker, batch 1")
        print(line("this tree", new, n))
        print(line(f"--compare {os.path.basename(args.compare.rstrip('/'))}", old, n))
        print(f"  speed-up x{old['train'] / new['train']:.2f} training time, "
              f"x{old['cpu'] / new['cpu']:.2f}"
              f" CPU (target >= 4); peak memory {new['peak_rss'] / 2**30:.2f} GiB vs "
              f"{old['peak_rss'] / 2**30:.2f} GiB (target <= 1)")
    if args.ray is not None:
        ray_comparison(here, args.ray_deals, args.batch, args.seed, args.ray or None,
                       algorithm)
        return
    if args.empty_deals:
        workers_pair(here, args.empty_deals, args.batch, args.seed, None,
                     f"from an empty table, seed {args.seed}", algorithm)
    if args.snapshot:
        with tempfile.TemporaryDirectory() as tmp:  # one copy, so both continue the same
            import shutil

            source = os.path.join(tmp, "snapshot")
            shutil.copytree(args.snapshot, source)
            workers_pair(here, args.snapshot_deals, args.batch, args.seed, source,
                         f"continuing {args.snapshot}", algorithm)


if __name__ == "__main__":
    main()
