"""The baseline's best action at every key, as the sorted arrays `policy_playout` reads.

From a baseline run (its checkpoint: the best action is the argmax of the strategy sums, the
first on ties) or from an exported baseline strategy file (argmax of the probabilities).
The policy carries the key layout it was trained with (`games/setback/abstraction/layouts.py`): its
keys are that layout's, so the playouts built on it must ask that layout's keys.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
from numba import njit

from cfr.table import ACTIONS_MASK
from train.errors import RunError


@dataclass(frozen=True)
class BaselinePolicy:
    """Sorted baseline keys with the index of each key's best action, and where they came from."""

    keys: np.ndarray  # uint64, ascending
    best: np.ndarray  # uint8
    source: str
    iterations: int
    abstraction: str = "reference"  # the layout's name (`layouts.py`)


@njit(cache=True)
def _best_actions(meta, offsets, strategy, slots, best):
    for i in range(slots.shape[0]):
        slot = slots[i]
        n = np.int64(meta[slot] & ACTIONS_MASK)
        o = np.int64(offsets[slot])
        top = 0
        for a in range(1, n):
            if strategy[o + a] > strategy[o + top]:
                top = a
        best[i] = top


def policy_from_run(path: str) -> BaselinePolicy:
    """The best actions of a baseline run's latest checkpoint."""
    from games.setback.abstraction import layouts
    from cfr import checkpoint
    from train.run_directory import RunDirectory

    run = RunDirectory(path)
    recorded = run.read_settings()
    try:
        layout = layouts.of_header(recorded["settings"])
    except layouts.LayoutError as exc:
        raise RunError(f"{path}: {exc}") from None
    if recorded["stage"] != "baseline":
        raise RunError(f"{path} is a {recorded['stage']} run, not a baseline")
    if not run.has_checkpoint():
        raise RunError(f"{path} has no checkpoint yet: train the baseline first")
    ckpt = checkpoint.load(run.checkpoint_path)
    table = ckpt.table
    slots = np.flatnonzero(table.meta)
    keys = table.keys[slots, 0]
    order = np.argsort(keys, kind="stable")
    slots, keys = slots[order], keys[order]
    best = np.zeros(slots.size, dtype=np.uint8)
    _best_actions(table.meta, table.offsets, table.strategy, slots, best)
    return BaselinePolicy(np.ascontiguousarray(keys), best, os.path.abspath(path), ckpt.iteration,
                          layout.name)


def policy_from_strategy(path: str) -> BaselinePolicy:
    """The best actions of an exported baseline strategy file (baseline keys only), parsed
    with the codec of the layout its header records."""
    from games.setback.abstraction import layouts
    from games.setback.abstraction.codec import KeyFormatError
    from cfr.strategy_file import StrategyReader

    reader = StrategyReader(path)
    if reader.header.get("stage") != "baseline":
        reader.close()
        raise RunError(f"{path} is a {reader.header.get('stage')} strategy, not a baseline")
    try:
        layout = layouts.of_header(reader.header)
    except layouts.LayoutError as exc:
        reader.close()
        raise RunError(f"{path}: {exc}") from None
    text_key = layouts.load(layout.name).text_key
    keys, best = [], []
    for chunk in reader.chunks():
        for text, probs in chunk.items():
            try:
                keys.append(text_key(text))
            except KeyFormatError as exc:
                raise RunError(f"{path}: bad key {text!r} ({exc})") from None
            best.append(int(np.argmax(probs)))
    keys_arr = np.array(keys, dtype=np.uint64)
    order = np.argsort(keys_arr, kind="stable")
    return BaselinePolicy(keys_arr[order], np.array(best, dtype=np.uint8)[order],
                          os.path.abspath(path), int(reader.header["iterations"]), layout.name)


def load_policy(path: str) -> BaselinePolicy:
    """A baseline policy from a run directory or a strategy file."""
    if os.path.isdir(path):
        return policy_from_run(path)
    if not os.path.exists(path):
        raise RunError(f"--baseline {path}: no such run directory or strategy file")
    return policy_from_strategy(path)
