"""`StrategyStore`: exported strategy files read into memory, with the database's reading face.

`lookup(key) -> (probs, best)`, `metadata`, `has_bootstrap`, `layout`, `path`, `close()`, as a
`db.database.StrategyDatabase` has them, so Setback's database player (`player.py`) and policy
arrays (`policy_arrays.py`) read strategy files exactly as they read a database. The best action
is the first most probable one, as `setback-cfr db load` stores it. Several files (a baseline and a
bootstrap export) merge into one store, as `db load` merges them into one database: files of two
key layouts (`games/setback/abstraction/layouts.py`) are refused.
"""

from __future__ import annotations

import os

import numpy as np

from db.errors import DatabaseError


class StrategyStore:
    """Keys of one or more strategy files in a dict: key -> (float32 probabilities, best)."""

    def __init__(self, paths: list[str]):
        from games.setback.abstraction import layouts
        from cfr.strategy_file import read_strategy

        if not paths:
            raise DatabaseError("no strategy files given")
        self.path = ",".join(paths)
        self.table: dict[str, tuple[np.ndarray, int]] = {}
        self.has_bootstrap = False
        self.layout = None  # the files' key layout (`layouts.Layout`)
        stages = []
        for path in paths:
            if not os.path.isfile(path):
                raise DatabaseError(f"{path}: no such strategy file")
            header, keys = read_strategy(path)
            if header.get("game") != "setback":
                raise DatabaseError(f"{path}: a strategy for game {header.get('game')!r}, "
                                    "not 'setback'")
            try:
                layout = layouts.of_header(header)
                if self.layout is not None:
                    layouts.same(self.layout, layout, f"{path} merged with {paths[0]}")
            except layouts.LayoutError as exc:
                raise DatabaseError(f"{path}: built for {exc}" if self.layout is None
                                    else str(exc)) from None
            self.layout = layout
            stages.append(header.get("stage"))
            self.has_bootstrap |= header.get("stage") == "bootstrap"
            for key, probs in keys.items():
                self.table[key] = (probs, int(np.argmax(probs)))  # argmax: first on ties
        self.metadata = {"game": "setback", "stages": stages, "n_keys": len(self.table),
                         "abstraction": self.layout.abstraction,
                         "abstraction_version": self.layout.version}
        self.n_keys = len(self.table)

    def lookup(self, key: str):
        """(probabilities, best action index) of `key`, or None if it is absent."""
        return self.table.get(key)

    def close(self) -> None:
        """Nothing to release (the table is a dict)."""
