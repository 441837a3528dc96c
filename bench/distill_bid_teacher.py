"""A distilled network refitted with its auction taught by the base table (issue 53: does the
network's bidding cost it the head-to-head?).

    python bench/distill_bid_teacher.py --run runs/distill --net runs/distill/nets/round-00126.net \
        --rounds 111-127 --games 2000 --out bid-taught.net

The network's card play stays taught by search: the run's window of search records (`--rounds`,
still on disk), soft targets at the run's `soft` temperature, as the stage fits them. Its
auction rows are replaced by the base table's probabilities at the auction decisions of the
table's own self-play (the stage's imitation recorder, on a seed stream of its own). The fit
starts from `--net` with the run's settings (epochs, batch, learning rate, value weight). It
prints how often the network's first choice agrees with search's bids and with the table's,
before and after, and writes the refitted network (a `net:` file) to `--out`; measure it beside
`--net` with `bench/search_strength.py` on the same pairs.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

TABLE_STREAM = 0xB1D5  # the table's self-play games: a seed stream no stage or evaluation uses
CHUNK = 50


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", required=True, help="the `train distill` run directory")
    parser.add_argument("--net", required=True, help="the network to refit (a round's file)")
    parser.add_argument("--rounds", required=True,
                        help="the window of search records to fit, FIRST-LAST (rounds whose "
                             "data is still in RUN/data)")
    parser.add_argument("--games", type=int, default=2000,
                        help="games of the base table's self-play for the auction rows "
                             "(default 2000, a multiple of 50)")
    parser.add_argument("--out", required=True, help="where to write the refitted network")
    args = parser.parse_args(argv)

    from games.setback import state as S
    from games.setback.search.net import FEATURE_LAYOUT, GAME, INPUTS, OUTPUTS
    from games.setback.train.distill import DISTILL
    from train import distill as D
    from search.policy_net import load_net, net_bytes

    settings = json.load(open(os.path.join(args.run, "run.json")))["settings"]
    first, last = (int(x) for x in args.rounds.split("-"))
    cpu = time.process_time()
    window = D._load_chunks([D.round_dir(args.run, k) for k in range(first, last + 1)], DISTILL)
    if float(settings.get("soft", 0.0)) > 0:
        window = D.soft_targets(window, float(settings["soft"]))
    auction = window["states"][:, S.PHASE] == S.PHASE_AUCTION
    chunks = [D.play_chunk(("setback", "imitate",
                            f"strategy:{os.path.join(args.run, D.BASE_FILE)}",
                            TABLE_STREAM, c, c * CHUNK, CHUNK))[1]
              for c in range(args.games // CHUNK)]
    table = {k: np.concatenate([a[k] for a in chunks]) for k in chunks[0]}
    table_auction = table["states"][:, S.PHASE] == S.PHASE_AUCTION
    print(f"search records: {auction.size:,} decisions, {auction.sum():,} in the auction; "
          f"the table's self-play: {table_auction.sum():,} auction decisions")

    search_bids = D.training_rows({k: v[auction] for k, v in window.items()}, DISTILL)
    table_bids = D.training_rows({k: v[table_auction] for k, v in table.items()}, DISTILL)
    net = load_net(args.net, GAME, FEATURE_LAYOUT, INPUTS, OUTPUTS)

    def agreement(when: str) -> None:
        print(f"{when}: agrees with search's bids {net.evaluate(*search_bids)['agreement']:.3f}, "
              f"with the table's {net.evaluate(*table_bids)['agreement']:.3f}")

    agreement("before")
    rows = D.training_rows({k: np.concatenate([window[k][~auction], table[k][table_auction]])
                            for k in window}, DISTILL)
    net.fit(*rows, int(settings["epochs"]), int(settings["batch"]),
            float(settings["learning_rate"]), TABLE_STREAM, float(settings["value_weight"]))
    agreement("after")
    net.meta = dict(net.meta, bid_teacher="table", refit_from=os.path.abspath(args.net),
                    refit_rounds=args.rounds)
    D._save_atomic(args.out, net_bytes(net))
    print(f"wrote {args.out} ({time.process_time() - cpu:.0f} CPU s)")


if __name__ == "__main__":
    main()
