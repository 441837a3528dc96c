"""The census: how many distinct info sets the abstract Setback game shows over N deals.

The game is the one a baseline run of the key layout trains
(`games.setback.train.baseline.layout_game`: `games.setback.train.game.GAME` for the reference's
keys).

It runs the pass the trainer runs (`cfr.episode_pass.run_episode` on
`games.setback.train.game.GAME`, simultaneous updates, chance sampled: one deal per pass) and merges
each pass's increments into an info-set table (`cfr.increment_log.merge`), exactly as the
trainer does, with one difference: every pass reads an empty frozen table, i.e. the uniform strategy of iteration 1.
A trained table would let regret matching give some actions probability 0, and the pass skips
a history where both teams' reach is 0, so later deals would not be walked in full. With the
uniform strategy every abstract action at every decision is walked (forced moves played, each
deal stopped once exhausted). Deal t (t = 1..N) is the deal the solver draws for iteration t
of the same seed (`cfr.rng.word(seed, t)`). Afterwards the table's keys are counted by kind
(the kind tag of `games/setback/abstraction/key_layout.py`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from games.setback.abstraction.key_layout import KIND_NAMES, KIND_SHIFT

BASELINE_KINDS = ("auction", "establish", "playout")


@dataclass
class CensusResult:
    """Distinct info sets by kind after `deals` deals, and how long the walk took."""

    deals: int
    seed: int
    seconds: float
    decisions: int  # decisions with a key visited
    by_kind: dict[str, int] = field(default_factory=dict)

    @property
    def info_sets(self) -> int:
        """Distinct info sets of every kind."""
        return sum(self.by_kind.values())

    @property
    def deals_per_second(self) -> float:
        """Deals walked per second of wall time."""
        return self.deals / self.seconds if self.seconds > 0 else float("inf")

    def as_dict(self) -> dict:
        """The result as plain JSON-ready values."""
        return {
            "deals": self.deals,
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
            "deals_per_second": round(self.deals_per_second, 3),
            "decisions_visited": self.decisions,
            "info_sets": self.info_sets,
            "by_kind": dict(self.by_kind),
        }


def count_by_kind(keys: np.ndarray) -> dict[str, int]:
    """Number of keys of each baseline kind in a uint64 key array."""
    kinds = (np.asarray(keys, dtype=np.uint64) >> np.uint64(KIND_SHIFT)).astype(np.int64)
    counts = np.bincount(kinds, minlength=len(KIND_NAMES))
    return {name: int(counts[KIND_NAMES.index(name)]) for name in BASELINE_KINDS}


def run_census(deals: int, seed: int, progress=None, on_deal=None,
               abstraction: str = "reference") -> CensusResult:
    """Walk `deals` deals drawn from `seed` through the trainer's pass; count info sets.

    `abstraction`: the key layout (a name of `games/setback/abstraction/layouts.py`); every layout
    keeps the kind tag where the reference has it, so the counts by kind compare.

    `progress`: a callable taking the number of deals just finished (a tqdm `update`), or
    None. `on_deal(t, result_so_far)`: called after each deal with the running result.
    """
    from cfr import rng
    from cfr.episode_pass import VISITS, EpisodeLog, EpisodeMap, run_episode
    from cfr.increment_log import merge
    from cfr.table import InfoSetTable
    from cfr.traversal import Scratch
    from games.setback.train.baseline import layout_game

    GAME = layout_game(abstraction)
    uniform = InfoSetTable(key_words=1, dtype=np.float32)  # stays empty: uniform strategy
    table = InfoSetTable(key_words=1, dtype=np.float32)
    log, episode_map, scratch = EpisodeLog(1), EpisodeMap(1), Scratch(GAME)
    root = GAME.initial_state()
    start = time.perf_counter()
    for t in range(1, deals + 1):
        deal_word = int(rng.word(np.uint64(seed), np.uint64(t)))
        log.clear()
        run_episode(GAME, uniform, log, episode_map, scratch, root, True, deal_word)
        merge(table, log)
        if progress is not None:
            progress(1)
        if on_deal is not None:
            on_deal(t, _result(table, t, seed, time.perf_counter() - start,
                               int(episode_map.control[VISITS])))
    decisions = int(episode_map.control[VISITS])
    return _result(table, deals, seed, time.perf_counter() - start, decisions)


def _result(table, deals, seed, seconds, decisions) -> CensusResult:
    keys = table.keys[table.meta != 0, 0]
    return CensusResult(deals=deals, seed=seed, seconds=seconds, decisions=decisions,
                        by_kind=count_by_kind(keys))
