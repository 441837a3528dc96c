"""Baseline training speed: deals per second on one core and with two workers, and memory per
info set, measured side by side in one run.

Both runs train the same baseline (same seed, batch 2, so their tables are identical) from
scratch over the first N deals; compile time is excluded (a one-deal warm-up run first).
Targets (issue 5): >= 50 deals/s per core over the first 10,000 deals; <= 64 bytes per info set.

    python bench/train_speed.py [--deals N] [--seed S]
    python bench/train_speed.py --from-run DIR --deals N   # continue a trained baseline

With --from-run, both runs continue a copy of an existing baseline run for N more deals
(batch 2) instead of starting from scratch: the speed later in training, when zero-reach
pruning has cut the trees.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time


def train(deals: int, seed: int, workers: int, directory: str,
          from_run: str | None = None) -> tuple[float, dict]:
    """Seconds and summary of `deals` baseline deals with `workers` threads (batch 2): a fresh
    run, or a copy of `from_run` continued."""
    from train.baseline import baseline_stage
    from train.run_directory import RunDirectory
    from train.runner import Trainer

    run = RunDirectory(directory)
    if from_run is not None:
        shutil.copytree(from_run, directory)
        recorded = run.read_settings()
        seed = recorded["settings"]["seed"]
        run.write_settings("baseline", {**recorded["settings"], "batch": 2})
    trainer = Trainer(run, baseline_stage(seed, 2), workers=workers,
                      checkpoint_every=1e9, show_progress=True)
    first = trainer.progress.iteration
    start = time.perf_counter()
    summary = trainer.run(first + deals)
    return time.perf_counter() - start, summary


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10_000, help="deals per run (default 10000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--from-run", metavar="DIR", help="continue a copy of this baseline run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source = None
        if args.from_run:  # one snapshot, so both runs continue the very same checkpoint
            source = f"{tmp}/source"
            shutil.copytree(args.from_run, source)
        train(1, args.seed + 1, 1, f"{tmp}/warm")  # compile / load the kernels
        one_s, one = train(args.deals, args.seed, 1, f"{tmp}/one", source)
        two_s, two = train(args.deals, args.seed, 2, f"{tmp}/two", source)
    same = one["infosets"] == two["infosets"] and one["payoff"] == two["payoff"]
    where = f"continuing {args.from_run}" if args.from_run else f"seed {args.seed}, from scratch"
    print(f"deals                 {args.deals:,} ({where}, batch 2)")
    print(f"1 worker              {args.deals / one_s:8.2f} deals/s")
    print(f"2 workers             {args.deals / two_s:8.2f} deals/s  "
          f"(x{one_s / two_s:.2f}; identical result: {same})")
    print(f"info sets             {one['infosets']:,}")
    print(f"table bytes/info set  {one['memory_bytes'] / one['infosets']:.1f} "
          f"(includes the open-addressing slack at this size)")
    print(f"running payoff        {one['payoff']:.5f} (non-dealer team)")
    print(f"targets               >= 50 deals/s per core: "
          f"{'met' if args.deals / one_s >= 50 else 'NOT met'}; <= 64 bytes/info set: "
          f"{'met' if one['memory_bytes'] / one['infosets'] <= 64 else 'NOT met'}")


if __name__ == "__main__":
    main()
