"""Synthetic Setback strategy files shaped like a trainer's export, for tests and benchmarks.

Keys follow the layouts of abstraction.md (hand codes of one or two suit fields, playout keys
with plausible trick fields and canonical action lists); they are not claimed to be reachable,
only realistic in shape, length and kind mix. Probabilities are random and sum to one per key.
Everything is seeded.
"""

from __future__ import annotations

import numpy as np

from cfr.strategy_file import StrategyChunk, write_strategy
from db import synthetic

RANKS = "23456789TJQKA"
LEAD_TOKENS = ["Tx"] + ["T" + r for r in RANKS] + ["S.", "W."]
FOLLOW_TOKENS = (["T" + r for r in RANKS] + ["Wx", "Lx"] + ["w" + g for g in "01234T"]
                 + ["l" + g for g in "01234T"] + ["N.", "G.", "D."])
PLAY_RANKS = "x2345TJQKA"
BOOTSTRAP_SCORES = ["x.", "1.", "1!", "2.", "2!", "3.", "3!", "4.", "4!"]
BIDS_ABOVE = {0: 4, 2: 3, 3: 2, 4: 2}  # action count (Pass + higher bids; dealer steal at 4)

# a synthetic file's header: Setback's `reference` abstraction, version 1
HEADER = {"game": "setback", "abstraction": "reference", "abstraction_version": 1}


def _field(rng, size: int) -> str:
    """One 6-character suit field of `size` cards."""
    ranks = sorted(rng.choice(13, size=size, replace=False), reverse=True)
    chars = [RANKS[r] if (r >= 8 or i == size - 1) else "x" for i, r in enumerate(ranks)]
    return "".join(chars).ljust(6, ".")


def hand_codes(rng, n: int) -> list[str]:
    """`n` random 12-character hand codes (a top suit, and a second suit half the time)."""
    out = []
    for _ in range(n):
        top = int(rng.integers(1, 7))
        second = int(rng.integers(1, 7 - top)) if top < 6 and rng.random() < 0.5 else 0
        out.append(_field(rng, top) + (_field(rng, second) if second else "......"))
    return out


def auction_keys(rng, n: int) -> tuple[list[str], list[int]]:
    """Baseline auction keys and their action counts."""
    keys, counts = [], []
    for code in hand_codes(rng, n):
        high = "023D"[int(rng.integers(0, 4))]
        count = {"0": 4, "2": 3, "3": 2, "D": 2}[high]
        if high in "02" and rng.random() < 0.5:
            count -= 1  # the Jack filter dropped Four
        keys.append((high + code).rstrip("."))
        counts.append(count)
    return keys, counts


def establish_keys(rng, n: int) -> tuple[list[str], list[int]]:
    """Establish-trump keys (two actions each)."""
    keys = [("E" + "234"[int(rng.integers(0, 3))] + code).rstrip(".")
            for code in hand_codes(rng, n)]
    return keys, [2] * n


def bootstrap_keys(rng, n: int) -> tuple[list[str], list[int]]:
    """Bootstrap (score-aware) auction keys and their action counts."""
    keys, counts = [], []
    for code in hand_codes(rng, n):
        n_bids = int(rng.integers(0, 4))
        high = 0 if n_bids == 0 else int(rng.choice([0, 2, 3, 4]))
        bidder = -1 if high == 0 else int(rng.integers(1, n_bids + 1))
        score = BOOTSTRAP_SCORES[int(rng.integers(0, len(BOOTSTRAP_SCORES)))]
        keys.append(f"{score}/{high}/{bidder}/{n_bids}/{code}")
        counts.append(BIDS_ABOVE[high])
    return keys, counts


def playout_keys(rng, n: int) -> tuple[list[str], list[int]]:
    """Playout keys (24-character layout, trimmed) and their action counts, vectorized."""
    head = np.empty((n, 12), dtype="<U1")
    head[:, 0] = rng.choice(list("H."), n)
    head[:, 1] = rng.choice(list(".x2345"), n)
    head[:, 2] = rng.choice(list("J."), n, p=[0.2, 0.8])
    head[:, 3] = rng.choice(list("+-"), n)
    head[:, 4] = rng.choice(list("02468ACE"), n, p=[0.65] + [0.05] * 7)
    plays = rng.integers(0, 4, n)
    for i in range(3):
        rank = rng.choice(list(PLAY_RANKS), n, p=[0.5] + [0.5 / 9] * 9)
        suit = rng.choice(list("tx"), n)
        made = plays > i
        head[:, 5 + 2 * i] = np.where(made, rank, ".")
        head[:, 6 + 2 * i] = np.where(made, suit, ".")
    head[:, 11] = np.where(plays > 0, (rng.integers(0, 3, n) % np.maximum(plays, 1)).astype(str),
                           ".")
    n_actions = rng.integers(2, 7, n).tolist()
    lead_pick = np.argsort(rng.random((n, len(LEAD_TOKENS))), axis=1)[:, :6].tolist()
    follow_pick = np.argsort(rng.random((n, len(FOLLOW_TOKENS))), axis=1)[:, :6].tolist()
    prefixes = ["".join(row) for row in head.tolist()]
    keys = []
    for i, prefix in enumerate(prefixes):
        tokens, pick = (LEAD_TOKENS, lead_pick) if plays[i] == 0 else (FOLLOW_TOKENS, follow_pick)
        picked = sorted(pick[i][: n_actions[i]])
        keys.append((prefix + "".join(tokens[t] for t in picked)).rstrip("."))
    return keys, n_actions


KIND_SHARE = {"auction": 0.03, "establish": 0.01, "playout": 0.96}


def synthetic_table(stage: str, n_keys: int, seed: int = 0) -> tuple[list[str], np.ndarray]:
    """`n_keys` distinct sorted keys of a `stage` export and their action counts (uint8)."""
    rng = np.random.default_rng(seed)
    table: dict[str, int] = {}
    while len(table) < n_keys:
        need = n_keys - len(table)
        batch = int(need * 1.1) + 16
        if stage == "bootstrap":
            parts = [bootstrap_keys(rng, batch)]
        else:
            parts = [auction_keys(rng, int(batch * KIND_SHARE["auction"]) + 1),
                     establish_keys(rng, int(batch * KIND_SHARE["establish"]) + 1),
                     playout_keys(rng, int(batch * KIND_SHARE["playout"]) + 1)]
        for keys, counts in parts:
            table.update(zip(keys, counts))
    keys = sorted(table)
    if len(keys) > n_keys:  # drop a seeded random surplus, keep the rest sorted
        drop = set(rng.choice(len(keys), len(keys) - n_keys, replace=False).tolist())
        keys = [k for i, k in enumerate(keys) if i not in drop]
    return keys, np.array([table[k] for k in keys], dtype=np.uint8)


def random_probs(rng, n_actions: np.ndarray) -> np.ndarray:
    """Random float32 probability vectors laid end to end, each summing to one."""
    raw = rng.random(int(n_actions.sum())) ** 3 + 1e-6
    starts = np.zeros(n_actions.size, dtype=np.int64)
    np.cumsum(n_actions[:-1], out=starts[1:])
    sums = np.add.reduceat(raw, starts) if n_actions.size else raw
    return (raw / np.repeat(sums, n_actions)).astype(np.float32)


def write_synthetic_strategy(path: str, stage: str, n_keys: int, seed: int = 0,
                             chunk_keys: int = 100_000, iterations: int = 1000) -> int:
    """Write a synthetic `stage` strategy file of `n_keys` keys; return the key count."""
    keys, n_actions = synthetic_table(stage, n_keys, seed)
    probs = random_probs(np.random.default_rng(seed + 1), n_actions)
    offsets = np.zeros(len(keys) + 1, dtype=np.int64)
    np.cumsum(n_actions, out=offsets[1:])
    chunks = [StrategyChunk(keys[i:i + chunk_keys], n_actions[i:i + chunk_keys],
                            probs[offsets[i]:offsets[min(i + chunk_keys, len(keys))]])
              for i in range(0, len(keys), chunk_keys)]
    header = {**HEADER, "stage": stage, "iterations": iterations, "seed": seed, "threshold": 0.0}
    return write_strategy(path, header, chunks)


def write_table(path: str, stage: str, table: dict, chunk_keys: int = 100_000,
                **header) -> int:
    """`db.synthetic.write_table` with Setback's header by default (its `reference` abstraction,
    version 1); `header` overrides any field."""
    return synthetic.write_table(path, stage, table, chunk_keys, **{**HEADER, **header})
