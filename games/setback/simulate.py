"""`setback-cfr simulate` (the default game): complete random games to 11 through the numba
rules engine (`games.setback.random_play`), and their figures. The registry's `simulate` entry
point, as Euchre's `games/euchre/simulate.py`; Setback's games may never end (random bidders
overbid), so its `simulate` takes `max_deals`, the deals after which a game is abandoned."""

from __future__ import annotations

import numpy as np

from games.setback import random_play as R
from games.setback.scoring import POINT_NAMES

CHUNK = 500  # games per numba call between progress-bar updates


def simulate(seed: int, units: int, hands: bool = False, stick: bool = True, on_chunk=None,
             max_deals: int = 1000) -> np.ndarray:
    """The statistics of `units` random games to 11 of run `seed` (Setback has no single-hand
    mode and no stuck dealer: `hands` and `stick` are the interface's, unused), a game still
    undecided after `max_deals` deals abandoned; played in chunks of CHUNK, `on_chunk(count)`
    after each (a progress bar)."""
    stats = np.zeros(R.STAT_SIZE, dtype=np.int64)
    seed = np.uint64(seed)  # one signature for every seed (a Python int >= 2**63 is not int64)
    for first in range(0, units, CHUNK):
        count = min(CHUNK, units - first)
        R.simulate_games(seed, first, count, max_deals, stats)
        if on_chunk is not None:
            on_chunk(count)
    return stats


def summarize(stats, seconds: float, hands: bool = False) -> dict:
    """The simulate figures from the statistics array of `random_play.simulate_games`."""
    games, deals = int(stats[R.STAT_GAMES]), int(stats[R.STAT_DEALS])
    bid_deals = deals - int(stats[R.STAT_ALL_PASS])
    finished = games - int(stats[R.STAT_ABANDONED])
    return {
        "games": games,
        "deals": deals,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 1) if seconds > 0 else None,
        "deals_per_second": round(deals / seconds, 1) if seconds > 0 else None,
        "deals_per_game": round(deals / games, 2),
        "deals_per_decided_game": (
            round(int(stats[R.STAT_DECIDED_DEALS]) / finished, 2) if finished else None
        ),
        "all_pass_share": round(int(stats[R.STAT_ALL_PASS]) / deals, 5),
        "point_scored_share": {
            name: round(int(stats[R.STAT_POINTS + i]) / bid_deals, 5) if bid_deals else None
            for i, name in enumerate(POINT_NAMES)
        },
        "setback_share": round(int(stats[R.STAT_SETBACKS]) / bid_deals, 5) if bid_deals else None,
        "abandoned_games": int(stats[R.STAT_ABANDONED]),
        "ew_win_share": round(int(stats[R.STAT_EW_WINS]) / finished, 5) if finished else None,
    }


def format_report(report: dict, seed: int) -> str:
    """Human-readable lines for a `summarize` report."""
    points = report["point_scored_share"]
    lines = [
        f"games            {report['games']:,} (seed {seed}), {report['deals']:,} deals "
        f"in {report['seconds']:.2f} s",
        f"speed            {report['games_per_second']:,} games/s, "
        f"{report['deals_per_second']:,} deals/s",
        f"deals per game   {report['deals_per_game']} "
        f"({report['deals_per_decided_game']} in decided games)",
        f"all-pass deals   {100 * report['all_pass_share']:.2f}%",
        "points scored    " + ", ".join(
            f"{name} {100 * share:.1f}%" for name, share in points.items() if share is not None
        ) + " of deals with a bid",
        f"bidder set back  {100 * (report['setback_share'] or 0):.1f}% of deals with a bid",
        f"abandoned games  {report['abandoned_games']:,} (undecided at the deal limit)",
    ]
    if report["ew_win_share"] is not None:
        lines.append(f"EW wins          {100 * report['ew_win_share']:.1f}% of decided games")
    return "\n".join(lines)
