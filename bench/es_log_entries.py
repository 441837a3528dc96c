"""How many log entries an es-mccfr deal writes per visit (runs made before `sum_visits`),
against how many distinct info sets it touches: what summing a deal's visits per info set
saves the merge and the Ray transfer (built: new runs sum per deal), and what summing over
a chunk of consecutive deals would save further.

A baseline run is trained from an empty table (es-mccfr, seed 2, batch 256, --deals deals);
then, for each chunk size, --samples chunks of consecutive later deals are traversed against
that table into one log, and the entries are counted against the distinct info sets (a known
info set by its offset, a new one by its key).

    python bench/es_log_entries.py [--deals 4096] [--samples 8] [--chunks 1,16,64]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def main() -> None:
    """Train the young table, count and print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=4096,
                        help="deals of the young table (default 4096)")
    parser.add_argument("--samples", type=int, default=8,
                        help="chunks counted per chunk size (default 8)")
    parser.add_argument("--chunks", default="1,16,64",
                        help="comma-separated chunk sizes in deals (default 1,16,64)")
    args = parser.parse_args()
    try:
        chunks = [int(c) for c in args.chunks.split(",")]
    except ValueError:
        parser.error(f"--chunks {args.chunks!r}: expected sizes in deals, as in 1,16,64")
    if min(chunks + [args.deals, args.samples]) < 1:
        parser.error("--deals, --samples and every chunk size must be at least 1")
    from cfr.increment_log import ENTRIES
    from games.setback.train.baseline import baseline_stage
    from train.run_directory import RunDirectory
    from train.runner import EpisodeWorker, Trainer

    with tempfile.TemporaryDirectory() as tmp:
        stage = baseline_stage(2, 256, algorithm="es-mccfr")
        trainer = Trainer(RunDirectory(os.path.join(tmp, "run")), stage, workers=1,
                          checkpoint_every=1e9, show_progress=False)
        trainer.run(args.deals)  # a few seconds: no progress bar
        table = trainer.progress.table
    from cfr.external_sampling import SamplingOptions

    # counted per visit: a summed deal's entries are its distinct info sets by construction
    worker = EpisodeWorker(baseline_stage(2, 256, algorithm="es-mccfr",
                                          sampling=SamplingOptions()))
    print(f"es-mccfr, a table of {args.deals:,} deals ({len(table):,} info sets), "
          f"{args.samples} chunks per size")
    first = args.deals + 1000
    for chunk in chunks:
        entries = distinct = 0
        for s in range(args.samples):
            worker.log.clear()
            for t in range(first + s * chunk, first + (s + 1) * chunk):
                worker.traverse(table, t)
            e = int(worker.log.counts[ENTRIES])
            offset, key = worker.log.offset[:e], worker.log.key[:e, 0]
            ids = np.where(offset >= 0, offset, -1 - (key % (1 << 62)).astype(np.int64))
            entries += e
            distinct += np.unique(ids).size
        deals = args.samples * chunk
        print(f"  chunk {chunk:4d}: {entries / deals:8.0f} entries a deal, {distinct / deals:8.0f} "
              f"distinct info sets a deal ({entries / max(distinct, 1):.1f}x)")


if __name__ == "__main__":
    main()
