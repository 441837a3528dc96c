"""How the network is fitted, compared on the same data and the same pairs (issue 53 item 3):
hidden sizes and targets (search's move one-hot, or a softmax of search's values).

    python bench/distill_fit.py --run runs/D10g --hidden 64x64 128x128 256x256 \
        --targets onehot soft:0.3 --pairs 1000 --seed 4901 --workers 2

Data: a `train distill` run's replay window as it lies on disk (`RUN/data/round-*`), its last
round held out, and `--imitate` games of the run's base table (`RUN/base.strategy`) recorded
as the stage's imitation phase records them (on their own seed stream). Every configuration
starts from new weights with the same seed, is fitted to the imitation games, then to the
window's rounds but the last, `--epochs` passes each, exactly as the stage fits: so the
configurations differ only in what they name. Prints, per configuration, the fit's CPU
seconds, its agreement with search's move on the held-out round (a round it never saw), and the
network alone against `--against` on `--pairs` duplicate pairs (the same deals for every
configuration) with the paired difference from the first configuration.

Imitation records go through the forked `--workers`; fits run in this process.
"""

from __future__ import annotations

import argparse
import glob
import json
import multiprocessing
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.search_strength import pair_scores, paired_difference  # noqa: E402
from play.tournament import pair_interval, run_tournament  # noqa: E402
from games.setback.train.distill import DISTILL  # noqa: E402
from train.distill import (RECORD_FIELDS, parse_hidden, play_chunk,  # noqa: E402
                           soft_targets)
from train.distill import training_rows as game_rows  # noqa: E402


def training_rows(data: dict) -> tuple:
    """Setback's network rows of the records `data` (`train.distill.training_rows`)."""
    return game_rows(data, DISTILL)


def load_round(directory: str) -> dict:
    """One round's records (every chunk of `directory`, in chunk order)."""
    parts = []
    for path in sorted(glob.glob(os.path.join(directory, "chunk-*.npz"))):
        with np.load(path) as f:
            parts.append({name: f[name] for name in RECORD_FIELDS})
    if not parts:
        raise SystemExit(f"{directory}: no chunks of games")
    return {name: np.concatenate([p[name] for p in parts]) for name in RECORD_FIELDS}


def concat(parts: list) -> dict:
    """Records of several rounds, in order."""
    return {name: np.concatenate([p[name] for p in parts]) for name in RECORD_FIELDS}


def imitation_records(strategy: str, games: int, workers: int, seed: int) -> dict:
    """`games` self-play games of the table `strategy`, recorded as the imitation phase
    records them, in chunks of 50 on `workers` forked processes."""
    tasks = [("setback", "imitate", f"strategy:{strategy}", seed, c, first,
              min(50, games - first))
             for c, first in enumerate(range(0, games, 50))]
    if workers == 1:
        done = [play_chunk(t) for t in tasks]
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            done = pool.map(play_chunk, tasks)
    return concat([arrays for _, arrays, _ in sorted(done, key=lambda d: d[0])])


def targeted(data: dict, target: str) -> dict:
    """The records with the targets `target` names: `onehot` as recorded, `soft:T` a softmax
    of search's values at temperature T (`train.distill.soft_targets`)."""
    if target == "onehot":
        return data
    if target.startswith("soft:"):
        return soft_targets(data, float(target[5:]))
    raise SystemExit(f"unknown target {target!r}: onehot or soft:T")


def main(argv=None) -> int:
    """Fit every configuration and print the figures."""
    from games.setback.play.net_player import NetPlayer
    from play.player_spec import make_player
    from games.setback.search.net import FEATURE_LAYOUT, GAME, INPUTS, OUTPUTS
    from search.policy_net import PolicyNet

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", required=True, help="a train distill run directory")
    parser.add_argument("--hidden", nargs="+", default=["128x128"],
                        help="hidden sizes, each AxB (default 128x128)")
    parser.add_argument("--targets", nargs="+", default=["onehot"],
                        help="onehot and/or soft:T (T in deal points; default onehot)")
    parser.add_argument("--imitate", type=int, default=2000,
                        help="games of the base table to imitate first (default 2000)")
    parser.add_argument("--epochs", type=int, default=2, help="passes over each data set")
    parser.add_argument("--batch", type=int, default=256, help="minibatch rows (default 256)")
    parser.add_argument("--pairs", type=int, default=1000, help="duplicate pairs (default 1000)")
    parser.add_argument("--seed", type=int, default=4901,
                        help="the deals' seed (default 4901; training never uses it)")
    parser.add_argument("--against", default="heuristic", help="the opponent (default heuristic)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)

    rounds = sorted(glob.glob(os.path.join(args.run, "data", "round-*")))
    if len(rounds) < 2:
        parser.error(f"{args.run}: needs at least two rounds of data on disk")
    window = concat([load_round(d) for d in rounds[:-1]])
    held = training_rows(load_round(rounds[-1]))
    cpu = time.process_time()
    imitation = imitation_records(os.path.join(args.run, "base.strategy"), args.imitate,
                                  args.workers, 0x494D4954 ^ 0xBE7C)
    print(f"data: {imitation['states'].shape[0]:,} imitation decisions; "
          f"{window['states'].shape[0]:,} searched decisions in {len(rounds) - 1} rounds, "
          f"{held[0].shape[0]:,} held out ({os.path.basename(rounds[-1])})", flush=True)
    imitation_rows = training_rows(imitation)
    results = []
    for hidden in args.hidden:
        for target in args.targets:
            name = f"{hidden} {target}"
            rows = training_rows(targeted(window, target))
            net = PolicyNet.create(INPUTS, parse_hidden(hidden), OUTPUTS, 1, GAME,
                                   FEATURE_LAYOUT)
            cpu = time.process_time()
            net.fit(*imitation_rows, args.epochs, args.batch, 1e-3, 2)
            net.fit(*rows, args.epochs, args.batch, 1e-3, 3)
            fit_cpu = time.process_time() - cpu
            agreement = net.evaluate(*held)["agreement"]
            players = (NetPlayer(net, name=name), make_player(args.against, args.seed))
            scores = pair_scores(run_tournament(players, args.pairs, args.seed,
                                                duplicate=True, workers=args.workers))
            rate, low, high = pair_interval(scores)
            entry = {"config": name, "fit_cpu_seconds": fit_cpu, "held_out_agreement": agreement,
                     "win_rate": rate, "ci_low": low, "ci_high": high, "pairs": int(scores.size)}
            line = (f"{name}: fit {fit_cpu:.0f} CPU-s, held-out agreement {100 * agreement:.1f}%, "
                    f"{100 * rate:.1f}% ({100 * low:.1f}..{100 * high:.1f}) against "
                    f"{args.against}")
            if results:
                d, dlow, dhigh = paired_difference(np.array(results[0]["scores"]), scores)
                entry.update(diff=d, diff_low=dlow, diff_high=dhigh)
                line += (f"; minus {results[0]['config']}: {100 * d:+.1f} "
                         f"({100 * dlow:+.1f}..{100 * dhigh:+.1f})")
            print(line, flush=True)
            entry["scores"] = scores.tolist()
            results.append(entry)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"run": args.run, "against": args.against, "seed": args.seed,
                       "pairs": args.pairs, "results": results}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
