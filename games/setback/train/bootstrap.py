"""The bootstrap stage: the score-aware auction on top of a baseline (abstraction.md, Payoffs).

Each episode (iteration) draws a deal and dealer-relative game scores from its random word;
`games.setback.abstraction.bootstrap_game.prepare_root` plays the deal out by the baseline policy
for each auction outcome, and CFR then traverses the four bids (bootstrap keys, simultaneous
updates). Runs on the same runner as the baseline: batches, workers, checkpoints, resume.
The playouts use the baseline's key layout (`games/setback/abstraction/layouts.py`), recorded as the
run's own: the bootstrap keys are the same under every layout, the baseline's policy is not.
"""

from __future__ import annotations

import numpy as np

from games.setback.abstraction import bootstrap_game as B
from games.setback.abstraction import layouts
from cfr.game import Game
from games.setback.train.baseline import setback_settings
from games.setback.train.baseline_policy import BaselinePolicy, load_policy
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
    call has its own arrays); counts the policy's missing keys. The reference layout's
    playouts run `prepare_root` as they always have; another layout's run
    `prepare_root_with` its game decision, passed as a first-class function."""

    def __init__(self, policy: BaselinePolicy):
        self.policy = policy
        self.misses = np.zeros(1, dtype=np.int64)
        self._decide = None
        if policy.abstraction != layouts.DEFAULT:
            from cfr.game import FUNCTION_TYPES, FunctionAddress

            self._decide = FunctionAddress(layouts.load(policy.abstraction).decision,
                                           FUNCTION_TYPES[1])

    def __call__(self, word: int) -> np.ndarray:
        root = _initial_state()
        misses = np.zeros(1, dtype=np.int64)
        if self._decide is None:
            B.prepare_root(np.uint64(word), self.policy.keys, self.policy.best, root, misses)
        else:
            B.prepare_root_with(self._decide, np.uint64(word), self.policy.keys,
                                self.policy.best, root, misses)
        self.misses += misses
        return root

    def __getstate__(self):
        # the function address is this process's: a Ray worker rebuilds it from the policy
        return {"policy": self.policy, "misses": self.misses}

    def __setstate__(self, state):
        self.__init__(state["policy"])
        self.misses = state["misses"]


def bootstrap_stage(baseline: str, seed: int, batch: int, algorithm: str = "cfr",
                    sampling=None) -> Stage:
    """The bootstrap `Stage` on the baseline at `baseline` (run directory or strategy file)."""
    return stage_from_policy(load_policy(baseline), seed, batch, algorithm, sampling)


def stage_from_policy(policy: BaselinePolicy, seed: int, batch: int, algorithm: str = "cfr",
                      sampling=None) -> Stage:
    """The bootstrap `Stage` on a loaded baseline policy (what a Ray worker rebuilds), under
    the policy's key layout."""
    settings = setback_settings(seed, batch, algorithm=algorithm, sampling=sampling,
                                abstraction=policy.abstraction,
                                baseline=policy.source,
                                baseline_iterations=policy.iterations,
                                baseline_keys=int(policy.keys.size))
    return Stage(STAGE, GAME, settings, root_for=EpisodeRoots(policy), payoff_sign=-1.0)
