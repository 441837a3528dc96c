"""`StrategyFilePlayer`: plays from exported strategy files read into memory.

The choice logic is `db.player.DatabasePlayer`'s, unchanged, over the in-memory store of
`db.strategy_store.StrategyStore` (the files' keys, with the database's reading face); the
player builds the keys of the files' layout.
"""

from __future__ import annotations

import os

from db.player import DatabasePlayer
from db.strategy_store import StrategyStore  # noqa: F401  (its home before db/ had it)


def StrategyFilePlayer(paths, sample: bool = False, seed: int = 0,
                       name: str | None = None, abstraction: str | None = None) -> DatabasePlayer:
    """A `DatabasePlayer` reading the strategy files `paths` (a path or a list) from memory,
    with the keys of their layout (`abstraction`: the layout the caller expects, refused in one
    line when the files are of another)."""
    paths = [paths] if isinstance(paths, str) else list(paths)
    store = StrategyStore(paths)
    label = name or "strategy:" + ",".join(os.path.basename(p) for p in paths)
    return DatabasePlayer(store, sample=sample, seed=seed, name=label, abstraction=abstraction)
