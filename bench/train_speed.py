"""Baseline training speed, side by side in one run: this tree against another commit's, and
one worker against two.

    python bench/train_speed.py --compare DIR [--first-deals 60] [--seed 2]
                                [--batch 256] [--empty-deals 128]
                                [--snapshot RUN_DIR] [--snapshot-deals 4096]

1. The first `--first-deals` deals of `--seed` from an empty table, one worker, batch 1, in
   this tree and in `--compare` (another checkout, e.g. the previous commit built with
   `git worktree add /tmp/prev HEAD~1`): wall and CPU seconds, peak resident memory, and
   their ratio. Issue 10's target: this tree >= 4x faster, peak <= 1 GiB.
2. One and two workers at `--batch` from an empty table (`--empty-deals` deals; the young
   trees differ most in size, so this is where the split must balance the load), and from a
   copy of `--snapshot` (a baseline run past 20,000 deals, continued `--snapshot-deals` deals
   at `--batch`): deals/s and the ratio (target >= 1.8x), and whether both tables agree.
3. Bytes per info set of the table at the end of each run (target <= 64).

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
from train.baseline import baseline_stage
from train.run_directory import RunDirectory
from train.runner import Trainer

a = json.loads(sys.argv[1])
tmp = tempfile.mkdtemp()
warm = Trainer(RunDirectory(tmp + "/warm"), baseline_stage(a["seed"] + 101, 1), workers=1,
               checkpoint_every=1e9, show_progress=False)
warm.run(1)
run = RunDirectory(tmp + "/run")
seed = a["seed"]
if a.get("snapshot"):
    shutil.copytree(a["snapshot"], run.path)
    recorded = run.read_settings()
    seed = recorded["settings"]["seed"]
    run.write_settings("baseline", {**recorded["settings"], "batch": a["batch"]})
trainer = Trainer(run, baseline_stage(seed, a["batch"]), workers=a["workers"],
                  checkpoint_every=1e9, show_progress=False)
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
                  "from": first}))
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
                 title: str) -> None:
    one = child(tree, seed=seed, deals=deals, batch=batch, workers=1, snapshot=snapshot)
    two = child(tree, seed=seed, deals=deals, batch=batch, workers=2, snapshot=snapshot)
    same = (one["infosets"], one["payoff"]) == (two["infosets"], two["payoff"])
    print(f"{title} (batch {batch}, {deals} deals from iteration {one['from']:,})")
    print(line("1 worker", one, deals))
    print(line("2 workers", two, deals))
    merge = "" if two.get("merge") is None else \
        f"; serial merge {two['merge'] / (deals / batch) * 1e3:.1f} ms per batch"
    print(f"  2 workers / 1 worker: x{one['train'] / two['train']:.2f} in training time "
          f"(target >= 1.8); identical tables: {same}{merge}")


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compare", metavar="DIR",
                        help="another checkout to time the first deals against (part 1)")
    parser.add_argument("--first-deals", type=int, default=60, help="part 1 deals (60)")
    parser.add_argument("--seed", type=int, default=2, help="seed of the fresh runs (2)")
    parser.add_argument("--batch", type=int, default=256,
                        help="batch of the worker comparison (256, the README's for 2 workers)")
    parser.add_argument("--empty-deals", type=int, default=128,
                        help="deals of the from-empty worker comparison (128; 0 skips it)")
    parser.add_argument("--snapshot", metavar="RUN_DIR",
                        help="a baseline run to continue for the later-training comparison")
    parser.add_argument("--snapshot-deals", type=int, default=4096,
                        help="deals to continue the snapshot (4096)")
    args = parser.parse_args()
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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
    if args.empty_deals:
        workers_pair(here, args.empty_deals, args.batch, args.seed, None,
                     f"from an empty table, seed {args.seed}")
    if args.snapshot:
        with tempfile.TemporaryDirectory() as tmp:  # one copy, so both continue the same
            import shutil

            source = os.path.join(tmp, "snapshot")
            shutil.copytree(args.snapshot, source)
            workers_pair(here, args.snapshot_deals, args.batch, args.seed, source,
                         f"continuing {args.snapshot}")


if __name__ == "__main__":
    main()
