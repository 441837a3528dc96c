"""Reading a database's key strings back into integer keys, the slow part of loading a
blueprint for search (`db.policy_arrays`): the layout's bulk `text_keys` against `text_key`
key by key, side by side on the same strings.

    python bench/key_parse_speed.py --db B240w.db [--keys 1000000]

The first --keys key strings of the database (any Setback layout, read from its metadata) are
parsed both ways, in `db.policy_arrays`'s batches sharing one memo; prints keys per CPU
second each way and their ratio, and checks that both give the same keys. The ratio times
a whole table: a 54 M-key table at 22 us a key is 20 minutes.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from db.policy_arrays import store_rows


def main(argv=None) -> int:
    """Parse the keys both ways and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, metavar="FILE", help="a Setback strategy database")
    parser.add_argument("--keys", type=int, default=1_000_000,
                        help="how many of its keys to parse (default 1,000,000)")
    args = parser.parse_args(argv)
    if args.keys < 1:
        parser.error("--keys must be at least 1")
    if not os.path.isfile(args.db):
        parser.error(f"{args.db}: no such file")
    from games.setback.abstraction import layouts
    from db.database import StrategyDatabase

    store = StrategyDatabase(args.db)
    layout = layouts.load(layouts.of_header(store.metadata).name)
    batches, taken = [], 0
    for texts, _, _ in store_rows(store):  # the batches `db.policy_arrays` reads
        batches.append(texts[:args.keys - taken])
        taken += len(batches[-1])
        if taken == args.keys:
            break
    store.close()
    texts = [t for batch in batches for t in batch]
    print(f"{args.db}: layout {layout.LAYOUT.name}, {len(texts):,} keys")

    start, memo = time.process_time(), {}
    bulk = [k for batch in batches for k in layout.text_keys(batch, memo)]
    bulk_s = time.process_time() - start
    start = time.process_time()
    exact = [layout.text_key(t) for t in texts]
    exact_s = time.process_time() - start
    if bulk != exact:
        print("the two ways disagree", file=sys.stderr)
        return 1
    print(f"bulk text_keys: {len(texts) / bulk_s:,.0f} keys per CPU-s ({bulk_s:.2f} CPU-s)")
    print(f"key by key:     {len(texts) / exact_s:,.0f} keys per CPU-s ({exact_s:.2f} CPU-s)")
    print(f"bulk / key by key: {exact_s / bulk_s:.1f}x faster; the same keys")
    return 0


if __name__ == "__main__":
    sys.exit(main())
