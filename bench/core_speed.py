"""Training speed of the CFR core, side by side in one run: this tree against another checkout
(issue 40: one traversal core for every pass, throughput within 2 % of the previous commit's).

    git worktree add /tmp/prev HEAD~1
    python bench/core_speed.py --compare /tmp/prev [--repeats 5] [--scale 1]

For each entrant (Setback and Euchre, `cfr` and `es-mccfr`), each tree trains the same first
deals of one seed from an empty table, one worker, in a child process of its own, after a
warm-up deal of another seed has compiled and loaded numba's code; the clock is the process's
CPU time around `Trainer.run`. The two trees take turns (A B B A A B ...), `--repeats` times
each, so that a slow minute of a shared machine falls on both; the figure is the ratio of the
medians, this tree's deals per CPU-second over the other's (> 1: this tree is faster).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

# Runs inside the child, against whichever tree is on its PYTHONPATH.
CHILD = r"""
import json, resource, shutil, sys, tempfile
from train.run_directory import RunDirectory
from train.runner import Trainer

a = json.loads(sys.argv[1])
if a["game"] == "euchre":
    from games.euchre.train.game import euchre_baseline_stage as make
else:
    from games.setback.train.baseline import baseline_stage as make
tmp = tempfile.mkdtemp()
warm = Trainer(RunDirectory(tmp + "/warm"), make(a["seed"] + 101, 1, algorithm=a["algorithm"]),
               workers=1, checkpoint_every=1e9, show_progress=False)
warm.run(1)
trainer = Trainer(RunDirectory(tmp + "/run"), make(a["seed"], 1, algorithm=a["algorithm"]),
                  workers=1, checkpoint_every=1e9, show_progress=False)
usage = resource.getrusage(resource.RUSAGE_SELF)
cpu0 = usage.ru_utime + usage.ru_stime
summary = trainer.run(a["deals"])
usage = resource.getrusage(resource.RUSAGE_SELF)
shutil.rmtree(tmp)
print(json.dumps({"cpu": usage.ru_utime + usage.ru_stime - cpu0, "payoff": summary["payoff"],
                  "infosets": summary["infosets"]}))
"""

# (game, algorithm, deals at --scale 1): a few CPU-seconds each
ENTRANTS = (("setback", "es-mccfr", 3000), ("setback", "cfr", 16),
            ("euchre", "es-mccfr", 6000), ("euchre", "cfr", 40))


def child(tree: str, **settings) -> dict:
    """One timed run in a child process on `tree`'s sources; its JSON line."""
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    out = subprocess.run([sys.executable, "-c", CHILD, json.dumps(settings)], env=env,
                         cwd=os.path.abspath(tree), capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{tree}: the child failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    """Time every entrant in both trees, in turns, and print the medians and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compare", required=True, help="the other checkout (a worktree)")
    parser.add_argument("--repeats", type=int, default=5, help="runs per tree and entrant (5)")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiply every entrant's deals (1: a few CPU-seconds a run)")
    parser.add_argument("--seed", type=int, default=3, help="seed of the timed deals (3)")
    parser.add_argument("--only", default=None, metavar="GAME:ALGORITHM",
                        help="time one entrant alone, e.g. euchre:es-mccfr (default: all four)")
    args = parser.parse_args()
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    trees = {"this": here, "other": args.compare}
    print(f"this tree {here} against {args.compare}; {args.repeats} runs each, in turns")
    print(f"{'entrant':<20} {'deals':>6} {'this deals/CPU-s':>17} {'other':>10} {'ratio':>7}"
          f"  {'same result':>11}")
    for game, algorithm, deals in ENTRANTS:
        if args.only is not None and args.only != f"{game}:{algorithm}":
            continue
        deals = max(1, int(deals * args.scale))
        speeds = {"this": [], "other": []}
        results = {}
        for r in range(args.repeats):
            order = ("this", "other") if r % 2 == 0 else ("other", "this")
            for name in order:
                row = child(trees[name], game=game, algorithm=algorithm, deals=deals,
                            seed=args.seed)
                speeds[name].append(deals / row["cpu"])
                results[name] = (row["payoff"], row["infosets"])
        this, other = statistics.median(speeds["this"]), statistics.median(speeds["other"])
        same = "yes" if results["this"] == results["other"] else "NO"
        print(f"{game + ' ' + algorithm:<20} {deals:>6} {this:>17.1f} {other:>10.1f} "
              f"{this / other:>7.3f}  {same:>11}", flush=True)


if __name__ == "__main__":
    main()
