"""What the training tests share: tiny `train baseline` runs of one seed, and the check that
two runs hold the same table."""

import os

from cfr import checkpoint
from cli_runner import run_cli

SEED = 2  # deals 1 and 2 of this seed have small abstract trees (fast tests)


def baseline_argv(run, iterations, *extra) -> list[str]:
    """The command line of `train baseline` of cfr (the algorithm whose young deals these
    tests are sized for) on SEED's deals, without a progress bar, `extra` added."""
    return [str(a) for a in ("train", "baseline", "--run", run, "--iterations", iterations,
                             "--seed", SEED, "--algorithm", "cfr", "--no-progress", *extra)]


def baseline(capsys, run, iterations, *extra):
    """(exit status, stdout, stderr) of `baseline_argv`'s command, run in-process."""
    return run_cli(capsys, baseline_argv(run, iterations, *extra))


def same_run(a, b) -> bool:
    """Whether the run directories `a` and `b` checkpointed the same iteration, table and
    payoff sum."""
    ca = checkpoint.load(os.path.join(a, "checkpoint.ckpt"))
    cb = checkpoint.load(os.path.join(b, "checkpoint.ckpt"))
    return (ca.iteration == cb.iteration and ca.table.same_contents(cb.table)
            and ca.extra["payoff_sum"] == cb.extra["payoff_sum"])
