"""`StrategyFilePlayer`: plays from exported strategy files read into memory.

The choice logic is Setback's database player's (`games/setback/db/player.py`), unchanged, over
the in-memory store of `games/setback/db/strategy_store.py` (the files' keys, with the database's
reading face); the player builds the keys of the files' layout.
"""

from __future__ import annotations

import os

from games.setback.db.player import DatabasePlayer
from games.setback.db.strategy_store import StrategyStore


def StrategyFilePlayer(paths, sample: bool = False, seed: int = 0,
                       name: str | None = None, abstraction: str | None = None) -> DatabasePlayer:
    """A `DatabasePlayer` reading the strategy files `paths` (a path or a list) from memory,
    with the keys of their layout (`abstraction`: the layout the caller expects, refused in one
    line when the files are of another)."""
    paths = [paths] if isinstance(paths, str) else list(paths)
    store = StrategyStore(paths)
    label = name or "strategy:" + ",".join(os.path.basename(p) for p in paths)
    return DatabasePlayer(store, sample=sample, seed=seed, name=label, abstraction=abstraction)
