"""The single-dummy bidder (`sds`, games/setback/play/sds.py): its strength, its calibration, and
the deal-outcome counts behind its win-probability table.

Three jobs (one per run):

- default: duplicate games `sds:W` (card play by the heuristic) against `heuristic`, card
  play held equal (`play.tournament.run_tournament`): A's win rate with its 95 % interval,
  auctions won and made, and the sds decision-time percentiles.
      python bench/sds_strength.py --pairs 100 --worlds 20 --seed 1 [--expected]
- `--calibrate N`: N random deals; the seat left of the dealer is made the bidder at each bid
  level (everyone else passes); the evaluator predicts its team's deal points (per bid, its
  best trump, W worlds), then the deal is played out for real (that trump pitched as
  `games/setback/play/sds.py` would, every card by the heuristic). It prints mean predicted vs
  realised points and made rates per bid level, the perfect-information bias, and the point-loss
  correction (`games/setback/search/single_dummy.py`) fitted on the first half and checked on the
  second.
      python bench/sds_strength.py --calibrate 300 --worlds 20 --seed 3
- `--timing N`: the decision times of `sds:W` on N random deals: all four seats bid by it
  (the later seats' bids finished by the heuristic in each world) and its bidder pitches.
      python bench/sds_strength.py --timing 50 --worlds 20
- `--outcomes N`: N heuristic self-play deals; the counts of (dealer's team's deal score, other
  team's) that `search/win_probability.py` keeps as `DEAL_OUTCOMES`.
      python bench/sds_strength.py --outcomes 20000 --seed 0
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rng import new_rng, stream_seed  # noqa: E402
from games.setback import state as S  # noqa: E402
from games.setback.rules import apply_bid, apply_move  # noqa: E402
from games.setback.scoring import deal_score, is_exhausted  # noqa: E402
from games.setback.view import SeatView  # noqa: E402


def deal_outcomes(deals: int, seed: int, progress: bool = True) -> Counter:
    """Counts of (dealer's team's deal score, other team's) over `deals` heuristic self-play
    deals (deal k from the stream `stream_seed(seed, k)`; the dealer is relative seat 0)."""
    from tqdm import tqdm

    from games.setback.play.heuristic import HeuristicPlayer

    player = HeuristicPlayer()
    counts: Counter = Counter()
    for k in tqdm(range(deals), unit="deal", disable=not progress):
        state = S.new_state()
        S.random_deal(new_rng(int(stream_seed(np.uint64(seed), k))), state)
        dealer = (3 + k) % 4  # any rotation: the outcome is relative to the dealer
        while not is_exhausted(state):
            apply_move(state, int(player.choose(SeatView.of(state, dealer))))
        a, b = deal_score(state)
        counts[(int(a), int(b))] += 1
    return counts


def play_out(state: np.ndarray, dealer: int, player) -> tuple[int, int]:
    """Play `state` to its end with `player` at every seat; the deal score by relative team."""
    while not is_exhausted(state):
        apply_move(state, int(player.choose(SeatView.of(state, dealer))))
    a, b = deal_score(state)
    return int(a), int(b)


def calibrate(deals: int, worlds: int, seed: int, progress: bool = True) -> dict:
    """Predicted (single-dummy, W worlds, no continuation) vs realised (heuristic card play)
    deal points of the bidder's team at each bid level on `deals` random deals; see the module
    docstring. Returns per-level arrays and the fitted correction."""
    from tqdm import tqdm

    from games.setback.play.heuristic import HeuristicPlayer
    from games.setback.play.evaluated_bidder import pitch_card
    from games.setback.search.single_dummy import SingleDummy, choose_bid, deal_scores

    heuristic = HeuristicPlayer()
    evaluator = SingleDummy(seed)
    rows = []  # (level, the solved bidder-team points per world, real deal score)
    for k in tqdm(range(deals), unit="deal", disable=not progress):
        start = S.new_state()
        S.random_deal(new_rng(int(stream_seed(np.uint64(seed), k))), start)
        dealer = 3
        view = SeatView.of(start, dealer)  # seat 1, the first to bid
        evaluation = evaluator.evaluate_auction(view, worlds)
        values = evaluation.expected_scores()
        for i, level in enumerate(evaluation.bids):
            if level == 0:
                continue
            _, trump = choose_bid(values[i:i + 1], [level])
            state = start.copy()
            apply_bid(state, int(level))
            for _ in range(3):
                apply_bid(state, 0)
            apply_move(state, pitch_card(SeatView.of(state, dealer), trump, heuristic))
            real = play_out(state, dealer, heuristic)[1]  # seat 1 is on team 1
            rows.append((int(level), evaluation.holder_points[i, trump].copy(), real))
    return summarize_calibration(rows)


def corrected_score(held: np.ndarray, level: int, q: float) -> float:
    """The bidder team's mean deal score over solved points `held` (-1 set) when a made
    contract loses one point to the defenders with probability q, unless the points are the
    same in every world (the correction of `games/setback/search/single_dummy.py`)."""
    if held.min() == held.max():
        q = 0.0  # a lock is not corrected
    score = np.where(held >= 0, held, -level).astype(np.float64)
    lost = np.where(held - 1 >= level, held - 1, -level)
    shifted = np.where(held > 0, lost, score)
    return float(((1 - q) * score + q * shifted).mean())


def corrected_made(held: np.ndarray, level: int, q: float) -> float:
    """The made rate of solved points `held` under the same correction."""
    if held.min() == held.max():
        q = 0.0  # a lock is not corrected
    made = (held >= 0).astype(np.float64)
    still = ((held - 1) >= level).astype(np.float64)
    return float(((1 - q) * made + q * np.where(held >= 0, still, 0.0)).mean())


def summarize_calibration(rows: list) -> dict:
    """Per bid level: mean predicted vs realised made rate and deal score; the point-loss
    probability q fitted on the first half of the deals (the predicted mean deal score matched
    to the realised one, q on a 0.01 grid in [0, 1]); the bias, the mean per-deal
    squared error of the deal score and the Brier score of the made probability, on the
    second half, with q = 0 and with the fitted q."""
    out = {}
    half = len(rows) // 2
    grid = np.linspace(0.0, 1.0, 101)
    for level in (2, 3, 4):
        fit = [r for r in rows[:half] if r[0] == level]
        test = [r for r in rows[half:] if r[0] == level]
        every = fit + test

        def bias(part, q):
            """Mean predicted minus realised deal score over `part` with correction q."""
            return float(np.mean([corrected_score(h, level, q) - real for _, h, real in part]))

        def mean_square(part, q):
            """Mean squared per-deal error of the predicted deal score over `part` with
            correction q (a mean prediction is judged by squared error)."""
            return float(np.mean([(corrected_score(h, level, q) - real) ** 2
                                  for _, h, real in part]))

        def brier(part, q):
            """Brier score of the predicted made probability over `part` with correction q."""
            return float(np.mean([(corrected_made(h, level, q) - (real >= 0)) ** 2
                                  for _, h, real in part]))

        q = float(grid[int(np.argmin([abs(bias(fit, g)) for g in grid]))])
        out[level] = {
            "n": len(every),
            "predicted_made": float(np.mean([corrected_made(h, level, 0) for _, h, _ in every])),
            "real_made": float(np.mean([real >= 0 for _, _, real in every])),
            "predicted_score": float(np.mean([corrected_score(h, level, 0)
                                              for _, h, _ in every])),
            "real_score": float(np.mean([real for _, _, real in every])),
            "q": q,
            "test_bias_raw": bias(test, 0.0),
            "test_bias_corrected": bias(test, q),
            "test_mse_raw": mean_square(test, 0.0),
            "test_mse_corrected": mean_square(test, q),
            "test_brier_raw": brier(test, 0.0),
            "test_brier_corrected": brier(test, q),
            "test_made_corrected": float(np.mean([corrected_made(h, level, q)
                                                  for _, h, _ in test])),
            "test_real_made": float(np.mean([real >= 0 for _, _, real in test])),
        }
    return out


def timing(deals: int, worlds: int, seed: int, progress: bool = True) -> np.ndarray:
    """Seconds per sds decision (auction with two or more legal bids, and the pitch) over
    `deals` random deals, every seat bidding by one `sds:W` player."""
    from tqdm import tqdm

    from games.setback.play.sds import SdsPlayer

    player = SdsPlayer(worlds, seed=seed)
    for k in tqdm(range(deals), unit="deal", disable=not progress):
        state = S.new_state()
        S.random_deal(new_rng(int(stream_seed(np.uint64(seed), k))), state)
        while int(state[S.PHASE]) == S.PHASE_AUCTION or (
                int(state[S.PHASE]) == S.PHASE_PLAY and int(state[S.TRUMP]) < 0):
            apply_move(state, int(player.choose(SeatView.of(state, 3))))
    return np.array(player.decision_times)


def print_times(label: str, seconds: np.ndarray) -> None:
    """One line of decision-time percentiles."""
    ms = np.asarray(seconds) * 1000
    if ms.size:
        p50, p90, p99 = np.percentile(ms, [50, 90, 99])
        print(f"{label}: {ms.size:,} decisions, p50 {p50:.0f} ms, p90 {p90:.0f} ms, "
              f"p99 {p99:.0f} ms, max {ms.max():.0f} ms")


def strength(pairs: int, worlds: int, seed: int, workers: int,
             score_aware: bool = True) -> None:
    """Duplicate games sds:W (card play by the heuristic) vs heuristic; prints the figures.
    `score_aware=False`: the sds player bids by expected deal score."""
    from games.setback.play.heuristic import HeuristicPlayer
    from games.setback.play.sds import make_sds_player
    from games.setback.play.tournament import format_summary, summarize
    from play.tournament import run_tournament

    sds = make_sds_player(f"sds:{worlds}", seed)
    sds.score_aware = score_aware
    if not score_aware:
        sds.name += " (expected score)"
    players = (sds, HeuristicPlayer())
    start = time.perf_counter()
    rows = run_tournament(players, pairs, seed=seed, duplicate=True, workers=workers)
    seconds = time.perf_counter() - start
    print(format_summary(summarize(rows, (sds.name, "heuristic"), True, seed, seconds)))
    print_times("  sds decisions (auction and pitch" + (")" if workers <= 1
                else "; main process only)"), np.array(sds.decision_times))


def main() -> None:
    """Parse the options and run one job."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=100, help="duplicate pairs (strength)")
    parser.add_argument("--worlds", type=int, default=20, help="sds worlds per decision")
    parser.add_argument("--seed", type=int, default=1, help="seed of every random stream")
    parser.add_argument("--workers", type=int, default=1, help="tournament worker processes")
    parser.add_argument("--calibrate", type=int, metavar="N", help="calibration on N deals")
    parser.add_argument("--expected", action="store_true",
                        help="strength: sds bids by expected deal score, not win probability")
    parser.add_argument("--timing", type=int, metavar="N",
                        help="decision times of sds:W on N random deals")
    parser.add_argument("--outcomes", type=int, metavar="N",
                        help="count the deal outcomes of N heuristic self-play deals")
    args = parser.parse_args()
    if args.outcomes:
        counts = deal_outcomes(args.outcomes, args.seed)
        print("DEAL_OUTCOMES = {")
        for key in sorted(counts):
            print(f"    {key}: {counts[key]},")
        print("}")
    elif args.timing:
        print_times(f"sds:{args.worlds}", timing(args.timing, args.worlds, args.seed))
    elif args.calibrate:
        figures = calibrate(args.calibrate, args.worlds, args.seed)
        for level, f in figures.items():
            print(f"bid {level}: {f['n']} deals; made predicted {f['predicted_made']:.3f} "
                  f"real {f['real_made']:.3f}; bidder deal score predicted "
                  f"{f['predicted_score']:+.3f} real {f['real_score']:+.3f}")
            print(f"  fitted q {f['q']:.2f} (first half); second half: bias "
                  f"{f['test_bias_raw']:+.3f} -> {f['test_bias_corrected']:+.3f}, mean "
                  f"squared error {f['test_mse_raw']:.3f} -> {f['test_mse_corrected']:.3f}, "
                  f"made Brier {f['test_brier_raw']:.4f} -> {f['test_brier_corrected']:.4f}, made "
                  f"predicted {f['test_made_corrected']:.3f} (corrected) real "
                  f"{f['test_real_made']:.3f}")
        print("CORRECTION = {" + ", ".join(f"{lv}: {f['q']:.2f}" for lv, f in figures.items())
              + "}")
    else:
        strength(args.pairs, args.worlds, args.seed, args.workers, not args.expected)


if __name__ == "__main__":
    main()
