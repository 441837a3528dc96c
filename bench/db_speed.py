"""The strategy database: bulk-load speed, blob vs row-per-action size, and the database
player's decision latency.

1. A synthetic baseline export of --keys keys (realistic key shapes, `games/setback/db/synthetic.py`) plus a
   bootstrap export of --bootstrap-keys keys, both including every key that --deals seeded
   random deals reach, is written to --workdir (kept between runs) and loaded with
   `db.loader.load_strategies`: keys/s of the whole load (reading the strategy files,
   converting, inserting, renaming), by the wall clock and per CPU second (the loader uses
   one core; the CPU figure holds on a busy machine). Target: >= 500,000 keys/s on one core.
2. The first --compare-keys keys are stored both ways, one float32 blob per key (our schema)
   and one row per action, and the two file sizes are printed.
3. `DatabasePlayer` plays the --deals deals (score-aware bids, since bootstrap keys are
   loaded); every `choose` is timed, including the abstraction's key building and the
   lookup. The reached keys' best actions equal the reference fallback's choices, so the
   deals replay the collection pass and every lookup hits. Target: p99 < 1 ms.

    python bench/db_speed.py [--keys 5000000] [--bootstrap-keys 500000] [--deals 2000]
                             [--compare-keys 1000000] [--workdir /tmp/setback-db-bench]
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import time

import numpy as np


def deal_score(seed: int) -> tuple[int, int]:
    """The game score (EW, NS) of bench deal `seed`: each uniform in -3..10, as bootstrap."""
    rng = np.random.default_rng(10_000 + seed)
    return int(rng.integers(-3, 11)), int(rng.integers(-3, 11))


def reached_keys(deals: int) -> tuple[dict, dict]:
    """Keys met by the reference-fallback policy in `deals` random deals: {key: probs} for the
    baseline and the bootstrap, each vector's best being the move that policy plays."""
    from games.setback.abstraction.bootstrap_key import bootstrap_actions, bootstrap_key
    from games.setback.abstraction.codec import key_text
    from games.setback.abstraction.decision import abstract_decision
    from games.setback.api import Deal, format_move
    from games.setback.rules import BID_MOVE
    from games.setback.state import PHASE, PHASE_AUCTION
    from games.setback.view import SeatView

    baseline, bootstrap = {}, {}
    moves, bids = np.zeros(8, np.int64), np.zeros(8, np.int64)
    for seed in range(deals):
        deal = Deal.random(seed)
        score = deal_score(seed)
        while not deal.is_over:
            view = SeatView.of(deal.state, deal.dealer, score)
            n, _, _, key = abstract_decision(view.state, moves)
            move = int(moves[0])
            if int(view.state[PHASE]) == PHASE_AUCTION:
                legal = view.legal_moves().tolist()
                move = BID_MOVE + 3 if BID_MOVE + 3 in legal else BID_MOVE
                if move not in moves[:n].tolist():
                    move = int(moves[0])  # the baseline auction key's forced single action
                nb, _ = bootstrap_actions(view.state, bids)
                if nb >= 2 and len(legal) >= 2:
                    us, them = view.score_us_them
                    text = key_text(int(bootstrap_key(view.state, us, them)))
                    bootstrap[text] = _one_hot(nb, bids[:nb].tolist().index(move))
            if n >= 2 and view.legal_moves().size >= 2:
                baseline[key_text(int(key))] = _one_hot(n, moves[:n].tolist().index(move))
            deal.play(format_move(move))
    return baseline, bootstrap


def _one_hot(n: int, best: int) -> np.ndarray:
    probs = np.full(n, 0.5 / n, np.float32)
    probs[best] += 0.5
    return probs


def write_export(path: str, stage: str, n_keys: int, reached: dict, seed: int) -> None:
    """A synthetic export of `n_keys` keys including the `reached` ones."""
    from cfr.strategy_file import StrategyChunk, write_strategy
    from games.setback.db.synthetic import random_probs, synthetic_table

    keys, n_actions = synthetic_table(stage, max(n_keys - len(reached), 0), seed)
    probs = random_probs(np.random.default_rng(seed + 1), n_actions)
    offsets = np.zeros(len(keys) + 1, dtype=np.int64)
    np.cumsum(n_actions, out=offsets[1:])
    table = {k: probs[offsets[i]:offsets[i + 1]] for i, k in enumerate(keys)}
    table.update(reached)
    keys = sorted(table)
    chunks = []
    for i in range(0, len(keys), 100_000):
        part = keys[i:i + 100_000]
        vectors = [table[k] for k in part]
        chunks.append(StrategyChunk(part, np.array([v.size for v in vectors], np.uint8),
                                    np.concatenate(vectors)))
    header = {"game": "setback", "abstraction": "reference", "abstraction_version": 1,
              "stage": stage, "iterations": 0, "seed": seed, "threshold": 0.0}
    write_strategy(path, header, chunks)


def row_per_action_size(src: str, path: str) -> int:
    """Bytes of a database holding `src`'s keys as one (key, action, prob) row per action."""
    from cfr.strategy_file import StrategyReader

    if os.path.exists(path):
        os.unlink(path)
    conn = sqlite3.connect(path)
    for pragma in ("page_size=16384", "journal_mode=OFF", "synchronous=OFF"):
        conn.execute(f"PRAGMA {pragma}")
    conn.execute("CREATE TABLE strategy_action (key TEXT NOT NULL, action INTEGER NOT NULL, "
                 "prob REAL NOT NULL, PRIMARY KEY (key, action)) WITHOUT ROWID")
    for chunk in StrategyReader(src).chunks():
        rows = ((key, a, float(p)) for key, probs in chunk.items() for a, p in enumerate(probs))
        conn.executemany("INSERT INTO strategy_action VALUES (?, ?, ?)", rows)
    conn.commit()
    conn.close()
    return os.path.getsize(path)


def subset_export(src: str, path: str, n_keys: int) -> None:
    """The first `n_keys` keys of the export `src` as an export of their own."""
    from cfr.strategy_file import StrategyReader, write_strategy

    reader = StrategyReader(src)
    chunks, total = [], 0
    for chunk in reader.chunks():
        if total >= n_keys:
            continue
        take = min(len(chunk.keys), n_keys - total)
        end = int(chunk.offsets[take])
        chunks.append(type(chunk)(chunk.keys[:take], chunk.n_actions[:take],
                                  chunk.probs[:end]))
        total += take
    header = {k: reader.header[k] for k in ("game", "abstraction", "abstraction_version",
                                             "stage", "iterations", "seed", "threshold")}
    write_strategy(path, header, chunks)


def latencies(db_path: str, deals: int) -> tuple[np.ndarray, np.ndarray, dict]:
    """Microseconds of every `choose` and of those that looked a key up; the player report."""
    from games.setback.db.player import DatabasePlayer
    from games.setback.api import Deal, format_move
    from games.setback.view import SeatView

    player = DatabasePlayer(db_path)
    warm = Deal.random(10**9)
    player.choose(SeatView.of(warm.state, warm.dealer))  # load the kernels from numba's cache
    player.counts.clear()
    every, looked = [], []
    for seed in range(deals):
        deal = Deal.random(seed)
        score = deal_score(seed)
        while not deal.is_over:
            view = SeatView.of(deal.state, deal.dealer, score)
            before = player.counts["lookups"]
            start = time.perf_counter_ns()
            move = player.choose(view)
            elapsed = (time.perf_counter_ns() - start) / 1000
            every.append(elapsed)
            if player.counts["lookups"] > before:
                looked.append(elapsed)
            deal.play(format_move(move))
    return np.array(every), np.array(looked), player.report()


def main() -> None:
    """Run the three measurements and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=5_000_000)
    parser.add_argument("--bootstrap-keys", type=int, default=500_000)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--compare-keys", type=int, default=1_000_000)
    parser.add_argument("--workdir", default="/tmp/setback-db-bench")
    args = parser.parse_args()

    from db.loader import load_strategies

    os.makedirs(args.workdir, exist_ok=True)
    tag = f"{args.keys}-{args.bootstrap_keys}-{args.deals}"
    base = os.path.join(args.workdir, f"baseline-{tag}.strategy")
    boot = os.path.join(args.workdir, f"bootstrap-{tag}.strategy")
    if not (os.path.exists(base) and os.path.exists(boot)):
        start = time.perf_counter()
        reached_base, reached_boot = reached_keys(args.deals)
        write_export(base, "baseline", args.keys, reached_base, seed=1)
        write_export(boot, "bootstrap", args.bootstrap_keys, reached_boot, seed=2)
        print(f"exports written in {time.perf_counter() - start:.1f} s ({len(reached_base):,} "
              f"baseline and {len(reached_boot):,} bootstrap keys reached by {args.deals} deals)")

    db_path = os.path.join(args.workdir, "strategy.db")
    cpu = time.process_time()
    report = load_strategies([base, boot], db_path, progress=False)
    cpu = time.process_time() - cpu
    print(f"load          {report.n_keys:,} keys in {report.seconds:.2f} s = "
          f"{report.keys_per_second:,.0f} keys/s ({report.n_keys / cpu:,.0f} per CPU second), "
          f"{report.size_bytes / 1e6:.1f} MB "
          f"({report.size_bytes / report.n_keys:.1f} B/key); "
          + ", ".join(f"{k} {v:,}" for k, v in report.kind_counts.items()))

    if args.compare_keys > 0:
        sub = os.path.join(args.workdir, f"subset-{args.compare_keys}.strategy")
        subset_export(base, sub, args.compare_keys)
        blob = load_strategies([sub], os.path.join(args.workdir, "blob.db"), progress=False)
        rows = row_per_action_size(sub, os.path.join(args.workdir, "rows.db"))
        print(f"size          {blob.n_keys:,} keys: float32 blob per key "
              f"{blob.size_bytes / 1e6:.1f} MB ({blob.size_bytes / blob.n_keys:.1f} B/key), "
              f"row per action {rows / 1e6:.1f} MB ({rows / blob.n_keys:.1f} B/key), "
              f"ratio {rows / blob.size_bytes:.2f}")

    every, looked, counts = latencies(db_path, args.deals)
    for name, values in (("all decisions", every), ("with lookup", looked)):
        p50, p90, p99, p999 = np.percentile(values, [50, 90, 99, 99.9])
        print(f"latency       {name}: {values.size:,} decisions, p50 {p50:.1f} us, p90 "
              f"{p90:.1f} us, p99 {p99:.1f} us, p99.9 {p999:.1f} us, max {values.max():.1f} us")
    print(f"player        {counts}")


if __name__ == "__main__":
    main()
