"""The bootstrap stage: the score-aware auction on top of a baseline (abstraction.md, Payoffs).

Each episode (iteration) draws a deal and dealer-relative game scores from its random word;
`abstraction.setback.bootstrap_game.prepare_root` plays the deal out by the baseline policy for
each auction outcome, and CFR then traverses the four bids (bootstrap keys, simultaneous
updates). Runs on the same runner as the baseline: batches, workers, checkpoints, resume.
"""

from __future__ import annotations

import numpy as np

from abstraction.setback import bootstrap_game as B
from cfr.game import Game
from train.baseline import setback_settings
from train.baseline_policy import BaselinePolicy, load_policy
from train.runner import Stage

STAGE = "bootstrap"
DEFAULTS = {"seed": 0, "batch": 1, "algorithm": "cfr"}


def _initial_state() -> np.ndarray:
    return np.zeros(B.BOOTSTRAP_STATE_SIZE, dtype=np.int64)


GAME = Game(
    name="setback-bootstrap",
    state_size=B.BOOTSTRAP_STATE_SIZE,
    max_actions=B.MAX_ACTIONS,
    max_depth=B.MAX_DEPTH,
    key_words=1,
    initial_state=_initial_state,
    current_player=B.current_player,
    decision=B.decision,
    apply=B.apply,
    utility=B.utility,
    chance_outcomes=B.chance_outcomes,
    chance_sample=B.chance_sample,
)


class EpisodeRoots:
    """Builds each episode's root from its word with the baseline policy (thread-safe: every
    call has its own arrays); counts the policy's missing keys."""

    def __init__(self, policy: BaselinePolicy):
        self.policy = policy
        self.misses = np.zeros(1, dtype=np.int64)

    def __call__(self, word: int) -> np.ndarray:
        root = _initial_state()
        misses = np.zeros(1, dtype=np.int64)
        B.prepare_root(np.uint64(word), self.policy.keys, self.policy.best, root, misses)
        self.misses += misses
        return root


def bootstrap_stage(baseline: str, seed: int, batch: int, algorithm: str = "cfr",
                    sampling=None) -> Stage:
    """The bootstrap `Stage` on the baseline at `baseline` (run directory or strategy file)."""
    return stage_from_policy(load_policy(baseline), seed, batch, algorithm, sampling)


def stage_from_policy(policy: BaselinePolicy, seed: int, batch: int, algorithm: str = "cfr",
                      sampling=None) -> Stage:
    """The bootstrap `Stage` on a loaded baseline policy (what a Ray worker rebuilds)."""
    settings = setback_settings(seed, batch, algorithm=algorithm, sampling=sampling,
                                baseline=policy.source,
                                baseline_iterations=policy.iterations,
                                baseline_keys=int(policy.keys.size))
    return Stage(STAGE, GAME, settings, root_for=EpisodeRoots(policy), payoff_sign=-1.0)
