"""Strength while training a Setback run (`train baseline|bootstrap --eval-every`): the shared
`train.evaluation.Evaluation` (its grid, rows and log) with Setback's players, named by the
registry's `evaluation`. The live table is played by `DatabasePlayer` (`db/player.py`) through a
`TableStore` read with the run's key layout, exactly as `export` then `db load` would store it;
a bootstrap run with its baseline, as `db load BASE BOOT` combines them (`CombinedStore`); the
games are `games.setback.play.tournament.play_game` pairs to 11, duplicate, against the player
SPEC.
"""

from __future__ import annotations

import os

import numpy as np

from games.setback.abstraction import layouts
from train.errors import RunError
from train.evaluation import EXPORT_THRESHOLD, Evaluation, TableStore, make_opponent


def layout_store(table, label: str, has_bootstrap: bool = False,
                 threshold: float = EXPORT_THRESHOLD, layout=None) -> TableStore:
    """A `TableStore` over a Setback table whose key texts are read with `layout` (a
    `layouts.Layout`; default the default layout): the store `DatabasePlayer` reads."""
    layout = layout or layouts.layout(layouts.DEFAULT)
    return TableStore(table, label, has_bootstrap, threshold, layout=layout,
                      text_key=layouts.load(layout.name).text_key,
                      metadata={"game": "setback", "abstraction": layout.abstraction,
                                "abstraction_version": layout.version})


class CombinedStore:
    """Several stores read as one (a baseline and a bootstrap, as `db load` merges their
    files: their keys never collide, bootstrap keys contain `/`)."""

    def __init__(self, stores: list, label: str):
        self.stores = stores
        self.path = label
        self.has_bootstrap = any(s.has_bootstrap for s in stores)
        self.layout = stores[0].layout
        for store in stores[1:]:  # a bootstrap takes its baseline's layout: never two here
            try:
                layouts.same(self.layout, store.layout, label)
            except layouts.LayoutError as exc:
                raise RunError(f"evaluation: {exc}") from None
        self.metadata = {"game": "setback", "abstraction": self.layout.abstraction,
                         "abstraction_version": self.layout.version}

    def lookup(self, key: str):
        """The first store's (probs, best) for `key`, or None if none holds it."""
        for store in self.stores:
            hit = store.lookup(key)
            if hit is not None:
                return hit
        return None

    def close(self) -> None:
        """Close the stores."""
        for store in self.stores:
            store.close()


def baseline_store(settings: dict):
    """The store of a bootstrap run's baseline (`settings["baseline"]`: a run directory or a
    strategy file), checked to be the state the bootstrap was trained on."""
    path = settings.get("baseline")
    if not path:
        raise RunError("this bootstrap run records no baseline to evaluate it with")
    if os.path.isdir(path):
        from cfr import checkpoint
        from train.run_directory import RunDirectory

        run = RunDirectory(path)
        if not run.has_checkpoint():
            raise RunError(f"evaluation: the baseline {path} has no checkpoint")
        try:
            layout = layouts.of_header(run.read_settings()["settings"])
        except layouts.LayoutError as exc:
            raise RunError(f"evaluation: the baseline {path}: {exc}") from None
        ckpt = checkpoint.load(run.checkpoint_path)
        expected = settings.get("baseline_iterations")
        if expected is not None and ckpt.iteration != expected:
            raise RunError(f"evaluation: the baseline {path} is at iteration "
                           f"{ckpt.iteration:,}, not the {expected:,} this bootstrap was "
                           "trained on")
        return layout_store(ckpt.table, path, layout=layout)
    from db.errors import DatabaseError
    from games.setback.db.strategy_store import StrategyStore

    try:
        return StrategyStore([path])
    except DatabaseError as exc:
        raise RunError(f"evaluation: {exc}") from None


class SetbackEvaluation(Evaluation):
    """The evaluations of a Setback baseline or bootstrap run (module docstring)."""

    def _prepare(self) -> None:
        """Check what can fail before training (the layout, the opponent's spec) and load a
        bootstrap's baseline."""
        try:
            self.layout = layouts.of_header(self.stage.settings)  # the run's key layout
        except layouts.LayoutError as exc:
            raise RunError(f"evaluation: {exc}") from None
        self.opponent(0)  # a bad spec fails now, not after an hour of training
        self._base = (baseline_store(self.stage.settings) if self.stage.name == "bootstrap"
                      else None)

    def opponent(self, seed: int):
        """The opponent player (`--eval-against`), seeded."""
        return make_opponent(self.options.against, seed)

    def player(self, table):
        """The evaluated player over the live `table` (with the baseline, for a bootstrap),
        and the live table's store (to close once played: it caches probabilities)."""
        from games.setback.db.player import DatabasePlayer

        label = f"live:{os.path.basename(os.path.normpath(self.run_path))}"
        live = layout_store(table, label, has_bootstrap=self.stage.name == "bootstrap",
                            layout=self.layout)
        store = live if self._base is None else CombinedStore([live, self._base], label)
        return DatabasePlayer(store, name=label), live

    def play_pair(self, players, game: int) -> list:
        """Both games of duplicate pair `game` (the evaluated player on East-West, then
        swapped): their tournament rows."""
        from games.setback.play.tournament import play_game

        return [play_game(players, self.seed, game, False),
                play_game(players, self.seed, game, True)]

    def win_rate(self, rows: list) -> tuple[float, float, float]:
        """The evaluated player's win rate over the pairs' rows and its 95 % interval."""
        from games.setback.play.tournament import win_rate_interval

        return win_rate_interval(np.array(rows), True)
