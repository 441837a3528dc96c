"""`setback-cfr simulate --game euchre`: random Euchre games to 10 (or single hands) and their
figures, in numba.

Game g of a run with seed s is `random_play.play_random_game(s, g)`, the engine's one loop of
random games (`random_play.simulate_games` counts every hand's auction and result). With
`hands`, unit i is one random hand dealt from `stream_seed(s, i)` (stick the dealer on, or off
with `stick=0`, where all four may pass twice and the hand is not played).

The statistics array (`random_play.STAT_*`, int64) is filled by `simulate` and read by
`summarize`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.euchre.random_play import (
    MAX_HAND_MOVES, RESULTS, STAT_ALL_PASS, STAT_ALONE, STAT_EW_WINS, STAT_GAMES, STAT_HANDS,
    STAT_MOVES, STAT_POINTS, STAT_RESULT, STAT_ROUND1, STAT_ROUND2, STAT_SIZE, STAT_STUCK,
    count_hand, play_random_hand, simulate_games)
from games.euchre.scoring import hand_score
from games.euchre.state import STATE_SIZE
from games.rng import stream_seed

CHUNK = 500  # games (or hands) per numba call between progress-bar updates


@njit(cache=True)
def simulate_hands(seed, first_hand, n_hands, stick, stats):
    """Hands first_hand .. first_hand + n_hands - 1 of the run `seed`, each from its own
    stream, into `stats` (points by team relative to the dealer: STAT_POINTS is the dealer's
    team's)."""
    state = np.empty(STATE_SIZE, np.int64)
    moves = np.empty(MAX_HAND_MOVES, np.int64)
    rng = np.empty(1, np.uint64)
    for i in range(first_hand, first_hand + n_hands):
        rng[0] = stream_seed(seed, i)
        n = play_random_hand(rng, state, stick, moves)
        count_hand(state, n, stats)
        score0, score1 = hand_score(state)
        stats[STAT_POINTS] += score0
        stats[STAT_POINTS + 1] += score1


def simulate(seed: int, units: int, hands: bool = False, stick: bool = True,
             on_chunk=None) -> np.ndarray:
    """The statistics of `units` random games to 10 (or hands, with `hands`) of run `seed`,
    played in chunks of CHUNK; `on_chunk(count)` after each (a progress bar)."""
    stats = np.zeros(STAT_SIZE, dtype=np.int64)
    seed = np.uint64(seed)  # one signature for every seed (2**63 and above are not int64)
    for first in range(0, units, CHUNK):
        count = min(CHUNK, units - first)
        if hands:
            simulate_hands(seed, first, count, 1 if stick else 0, stats)
        else:
            simulate_games(seed, first, count, stats)
        if on_chunk is not None:
            on_chunk(count)
    return stats


def summarize(stats, seconds: float, hands: bool = False) -> dict:
    """The figures (JSON-ready) of a statistics array."""
    n_hands, games = int(stats[STAT_HANDS]), int(stats[STAT_GAMES])
    played = n_hands - int(stats[STAT_ALL_PASS])

    def share(count, total):
        """count / total to 5 places, None for no total."""
        return round(int(count) / total, 5) if total else None

    report = {
        "game": "euchre",
        "unit": "hands" if hands else "games",
        "hands": n_hands,
        "seconds": round(seconds, 3),
        "hands_per_second": round(n_hands / seconds, 1) if seconds > 0 else None,
        "decisions_per_hand": round(int(stats[STAT_MOVES]) / n_hands, 2) if n_hands else None,
        "ordered_round_1_share": share(stats[STAT_ROUND1], n_hands),
        "named_round_2_share": share(stats[STAT_ROUND2], n_hands),
        "stuck_dealer_share": share(stats[STAT_STUCK], n_hands),
        "all_pass_share": share(stats[STAT_ALL_PASS], n_hands),
        "alone_share": share(stats[STAT_ALONE], played),
        "makers_result_share": {str(r): share(stats[STAT_RESULT + k], played)
                                for k, r in enumerate(RESULTS)},
        "points_per_hand": round(int(stats[STAT_POINTS] + stats[STAT_POINTS + 1]) / n_hands, 4)
        if n_hands else None,
    }
    if not hands:
        report.update({
            "games": games,
            "games_per_second": round(games / seconds, 1) if seconds > 0 else None,
            "hands_per_game": round(n_hands / games, 2) if games else None,
            "ew_win_share": share(stats[STAT_EW_WINS], games),
            "points_per_game": {"EW": round(int(stats[STAT_POINTS]) / games, 3),
                                "NS": round(int(stats[STAT_POINTS + 1]) / games, 3)}
            if games else None,
        })
    return report


def format_report(report: dict, seed: int) -> str:
    """Human-readable lines for a `summarize` report."""
    pct = lambda x: "-" if x is None else f"{100 * x:.1f}%"  # noqa: E731
    results = report["makers_result_share"]
    lines = []
    if report["unit"] == "games":
        lines += [
            f"games            {report['games']:,} to 10 (seed {seed}), {report['hands']:,} "
            f"hands in {report['seconds']:.2f} s",
            f"speed            {report['games_per_second']:,} games/s, "
            f"{report['hands_per_second']:,} hands/s",
            f"hands per game   {report['hands_per_game']}",
            f"EW wins          {pct(report['ew_win_share'])} of games",
        ]
    else:
        lines += [
            f"hands            {report['hands']:,} (seed {seed}) in {report['seconds']:.2f} s",
            f"speed            {report['hands_per_second']:,} hands/s",
        ]
    lines += [
        f"decisions        {report['decisions_per_hand']} a hand",
        f"trump            ordered up in round 1 {pct(report['ordered_round_1_share'])}, "
        f"named in round 2 {pct(report['named_round_2_share'])} (by the dealer after 7 "
        f"passes {pct(report['stuck_dealer_share'])}), all passed "
        f"{pct(report['all_pass_share'])}",
        f"alone            {pct(report['alone_share'])} of hands with a maker",
        "makers scored    " + ", ".join(f"{r} {pct(results[r])}" for r in ("-2", "1", "2", "4"))
        + " of hands with a maker (-2: euchred)",
        f"points           {report['points_per_hand']} a hand",
    ]
    return "\n".join(lines)
