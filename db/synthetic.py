"""Strategy files of a given table, for tests and benchmarks of any game (a game's synthetic
keys are its own: Setback's `games/setback/db/synthetic.py`)."""

from __future__ import annotations

import numpy as np

from cfr.strategy_file import StrategyChunk, write_strategy


def write_table(path: str, stage: str, table: dict, chunk_keys: int = 100_000,
                **header) -> int:
    """Write a strategy file from `{key: probabilities}` (keys sorted, as `export` does);
    `header` names the game, its abstraction and version (`game`, `abstraction`,
    `abstraction_version`) and may override `iterations` (100), `seed` (0) and `threshold`
    (0.0)."""
    missing = {"game", "abstraction", "abstraction_version"} - set(header)
    if missing:
        raise TypeError(f"write_table needs the header's {', '.join(sorted(missing))}")
    keys = sorted(table)
    head = {"game": header["game"], "abstraction": header["abstraction"],
            "abstraction_version": header["abstraction_version"], "stage": stage,
            "iterations": 100, "seed": 0, "threshold": 0.0, **header}
    chunks = []
    for i in range(0, len(keys), chunk_keys):
        part = keys[i:i + chunk_keys]
        vectors = [np.asarray(table[k], dtype=np.float32) for k in part]
        chunks.append(StrategyChunk(part, np.array([v.size for v in vectors], dtype=np.uint8),
                                    np.concatenate(vectors) if vectors else
                                    np.zeros(0, np.float32)))
    return write_strategy(path, head, chunks)
