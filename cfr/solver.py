"""The CFR solver: iterations of passes, merges and the variant's post-pass step.

One iteration t (alternating updates, exactly as OpenSpiel's `CFRSolver` /
`CFRPlusSolver` / `discounted_cfr.py`):
    for p in (0, 1):
        pass for p against the table as it stands (current strategy = regret matching on it)
        merge the pass's increments into the table
        the variant's step for p's regrets (RM+ clamp, or DCFR discount)
With simultaneous updates, one pass updates both players and the step applies to all.
Chance is fully enumerated, or sampled once per iteration from the word `rng.word(seed, t)`
(both passes of an alternating iteration see the same deal).

External-sampling MCCFR (`es-mccfr`, `cfr.external_sampling`) has the same iteration shape as
OpenSpiel's `ExternalSamplingSolver.iteration`: a pass for player 0, then one for player 1,
each merged before the next; pass number j = 2t - 1 + p (1, 2, 3, ...) draws from
`rng.word(seed, j)`, so the passes are numbered as a trainer that runs one pass per word with
alternating traversers would number them. Its options (linear weighting, pruning) are
`SamplingOptions`; it has no post-pass step.

The strategy used by a pass is recomputed from the regret sums whenever the pass needs it,
which equals OpenSpiel's "recompute the current policy after each player's pass".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from cfr import rng
from cfr.game import Game
from cfr.increment_log import IncrementLog, merge
from cfr.table import InfoSetTable
from cfr.traversal import Scratch, traverse
from cfr.variants import ALGORITHMS as FULL_WIDTH_ALGORITHMS
from cfr.variants import Variant, clamp_regrets, discount_regrets, make_variant

if TYPE_CHECKING:
    from cfr.external_sampling import SamplingOptions

ES_MCCFR = "es-mccfr"
ALGORITHMS = FULL_WIDTH_ALGORITHMS + (ES_MCCFR,)


class Solver:
    """Runs a CFR variant on a game, holding the table, the iteration count and the settings."""

    def __init__(self, game: Game, algorithm: str = "cfr", *, simultaneous: bool = False,
                 sampled_chance: bool = False, seed: int = 0, dtype=np.float64,
                 max_bytes: int | None = None, use_tree: bool = False,
                 alpha: float | None = None, beta: float | None = None,
                 gamma: float | None = None, table: InfoSetTable | None = None,
                 iteration: int = 0, sampling: SamplingOptions | None = None):
        self.game = game
        self.external_sampling = algorithm == ES_MCCFR
        if self.external_sampling:
            # imported on demand: its kernels cost seconds to compile on a cold cache
            from cfr.external_sampling import EsScratch, SamplingOptions
            if simultaneous:
                raise ValueError("es-mccfr updates one player per pass (no simultaneous updates)")
            if any(v is not None for v in (alpha, beta, gamma)):
                raise ValueError("alpha, beta and gamma only apply to dcfr")
            self.variant: Variant = Variant(ES_MCCFR)
            self.sampling = sampling or SamplingOptions()
            sampled_chance, use_tree = True, False  # it samples chance by definition
            self._es_scratch = EsScratch(game)
        else:
            if sampling is not None:
                raise ValueError("sampling options only apply to es-mccfr")
            self.variant = make_variant(algorithm, alpha, beta, gamma)
            self.sampling = None
        self.simultaneous = bool(simultaneous)
        self.sampled_chance = bool(sampled_chance)
        self.seed = int(seed)
        self.table = table if table is not None else InfoSetTable(
            key_words=game.key_words, dtype=dtype, max_bytes=max_bytes)
        self.iteration = int(iteration)
        self.log = IncrementLog(game.key_words)
        self._es_map = None
        if self.external_sampling and self.sampling.sum_visits:
            from cfr.episode_pass import EpisodeLog, EpisodeMap

            self.log, self._es_map = EpisodeLog(game.key_words), EpisodeMap(game.key_words)
        self._scratch = Scratch(game)
        self.use_tree = bool(use_tree) and not self.sampled_chance
        self._tree_pass = None
        if self.use_tree:
            from cfr.tree import build_tree
            from cfr.tree_pass import TreePass

            self._tree_pass = TreePass(build_tree(game))

    @property
    def algorithm(self) -> str:
        """The variant's name: cfr, cfr+, lcfr, dcfr or es-mccfr."""
        return self.variant.name

    def settings(self) -> dict:
        """Every setting that determines the run's results (checkpoint header)."""
        return {
            "algorithm": self.variant.name,
            **self.variant.hyper_parameters(),
            "simultaneous": self.simultaneous,
            "sampled_chance": self.sampled_chance,
            "seed": self.seed,
            "dtype": self.table.dtype.name,
            **(self.sampling.settings() if self.external_sampling else {}),
        }

    def _pass(self, player: int, weight: float, word: int) -> float:
        if self._tree_pass is not None:
            v = self._tree_pass.run(self.table, self.log, player, weight, in_place=True)
        else:
            v = traverse(self.game, self.table, self.log, player, weight,
                         self.sampled_chance, (word,), self._scratch)
        merge(self.table, self.log)
        return v

    def _after_pass(self, player: int, t: int) -> None:
        tab = self.table
        if self.variant.regret_matching_plus:
            clamp_regrets(tab.meta, tab.offsets, tab.regrets, player)
        if self.variant.discount:
            discount_regrets(tab.meta, tab.offsets, tab.regrets, player, t,
                             self.variant.alpha, self.variant.beta)

    def _es_iteration(self, t: int) -> None:
        from cfr.external_sampling import external_sampling_pass

        weight = self.sampling.weight(t)
        seed = np.uint64(self.seed)
        for p in (0, 1):
            word = int(rng.word(seed, np.uint64(2 * t - 1 + p)))
            external_sampling_pass(self.game, self.table, self.log, p, (word,), weight,
                                   self.sampling, self._es_scratch,
                                   episode_map=self._es_map)
            merge(self.table, self.log)

    def iterate(self, n: int = 1) -> None:
        """Run `n` iterations."""
        for _ in range(n):
            t = self.iteration + 1
            if self.external_sampling:
                self._es_iteration(t)
                self.iteration = t
                continue
            weight = self.variant.strategy_weight(t)
            word = int(rng.word(np.uint64(self.seed), np.uint64(t))) if self.sampled_chance else 0
            if self.simultaneous:
                self._pass(-1, weight, word)
                self._after_pass(-1, t)
            else:
                for p in (0, 1):
                    self._pass(p, weight, word)
                    self._after_pass(p, t)
            self.iteration = t

    # ---- checkpoints ---------------------------------------------------------------------
    def save(self, path: str) -> None:
        """Write a checkpoint (atomically) holding the table and everything needed to resume."""
        from cfr import checkpoint

        checkpoint.save(path, self.game.name, self.algorithm, self.settings(), self.iteration,
                        self.table)

    @classmethod
    def resume(cls, game: Game, path: str, *, use_tree: bool = False,
               max_bytes: int | None = None) -> "Solver":
        """A solver continuing the checkpoint at `path` (raises `CfrFileError` if unreadable)."""
        from cfr import checkpoint
        from cfr.errors import CfrFileError

        ckpt = checkpoint.load(path)
        if ckpt.game != game.name:
            raise CfrFileError(f"{path}: checkpoint is for game {ckpt.game!r}, not {game.name!r}")
        s = ckpt.settings
        ckpt.table.max_bytes = max_bytes
        if ckpt.algorithm == ES_MCCFR:
            from cfr.external_sampling import SamplingOptions

            sampling = SamplingOptions.from_settings(s)
            return cls(game, ES_MCCFR, seed=s["seed"], dtype=s["dtype"], table=ckpt.table,
                       iteration=ckpt.iteration, sampling=sampling)
        return cls(game, ckpt.algorithm, simultaneous=s["simultaneous"],
                   sampled_chance=s["sampled_chance"], seed=s["seed"], dtype=s["dtype"],
                   use_tree=use_tree, alpha=s["alpha"], beta=s["beta"], gamma=s["gamma"],
                   table=ckpt.table, iteration=ckpt.iteration)
