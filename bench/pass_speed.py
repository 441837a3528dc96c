"""The three Setback passes side by side: CPU seconds per deal from an empty table over the same
first N deals (the same words), one thread, in one run.

- frozen: the vanilla chance-sampled pass (`cfr.traversal`, simultaneous updates), merged
  after every deal: today's trainer at batch 1;
- threaded: the reference's in-walk updates (`cfr.threaded_pass`, simultaneous updates);
- es-mccfr: external sampling (`cfr.external_sampling`), one pass per deal with the traverser
  alternating, merged after every pass.
A deal is one pass for every entrant, so the rows compare deals, not equal amounts of
learning. Each kernel is compiled (or loaded) by a one-deal warm-up first, excluded.

    python bench/pass_speed.py [--deals N] [--seed S] [--skip-frozen]
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20, help="deals per entrant (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument("--skip-frozen", action="store_true",
                        help="leave out the (slow) frozen pass")
    args = parser.parse_args()

    from cfr import rng
    from cfr.external_sampling import EsScratch, external_sampling_pass
    from cfr.increment_log import IncrementLog, merge
    from cfr.table import InfoSetTable
    from cfr.threaded_pass import ThreadedScratch, threaded_traverse
    from cfr.traversal import Scratch, traverse
    from games.setback.train.game import GAME

    def new_table() -> InfoSetTable:
        return InfoSetTable(GAME.key_words, dtype=np.float32, capacity=1 << 16)

    def frozen(words):
        table, scratch = new_table(), Scratch(GAME)
        log = IncrementLog(GAME.key_words, entries=1 << 18, values=1 << 21)
        for w in words:
            traverse(GAME, table, log, -1, 1.0, True, (w,), scratch)
            merge(table, log)
        return table

    def threaded(words):
        table, scratch = new_table(), ThreadedScratch(GAME)
        for w in words:
            threaded_traverse(GAME, table, -1, 1.0, True, (w,), scratch)
        return table

    def es_mccfr(words):
        table, scratch = new_table(), EsScratch(GAME)
        log = IncrementLog(GAME.key_words, entries=1 << 12, values=1 << 15)
        for t, w in enumerate(words):
            external_sampling_pass(GAME, table, log, t % 2, (w,), 1.0, None, scratch)
            merge(table, log)
        return table

    seed = np.uint64(args.seed)
    words = [int(rng.word(seed, np.uint64(t))) for t in range(1, args.deals + 1)]
    warm = [int(rng.word(seed + np.uint64(1), np.uint64(1)))]
    entrants = [("es-mccfr", es_mccfr), ("threaded", threaded)]
    if not args.skip_frozen:
        entrants.append(("frozen", frozen))
    rows = []
    for name, run in entrants:
        run(warm)
        start = time.process_time()
        table = run(words)
        rows.append((name, time.process_time() - start, table.count))
    base = rows[-1][1]
    print(f"Setback baseline game, first {args.deals} deals of seed {args.seed}, one thread")
    print(f"{'pass':>10}  {'CPU s':>8}  {'ms/deal':>9}  {'info sets':>10}  {'time / ' + rows[-1][0]:>16}")
    for name, seconds, count in rows:
        print(f"{name:>10}  {seconds:8.2f}  {1e3 * seconds / args.deals:9.2f}  {count:>10,}  "
              f"{seconds / base:16.4f}")


if __name__ == "__main__":
    main()
