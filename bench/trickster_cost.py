"""What a Trickster Cards bot decision costs inside a match (issue 54: under 1 ms on average,
so the host is no bottleneck): the bot plays duplicate games against the heuristic and the
time of each round trip to the host (filling the inputs, the JSON line out and back, the bot's
own thinking, the check) is summed in the player.

    TRICKSTER_BOTS=~/TricksterBots python bench/trickster_cost.py --pairs 100 --seed 54

Prints, for each game (setback: `trickster:pitch`; spades: `trickster:spades`), the round
trips, a decision's mean time (the player's `choose`: inputs, round trip, check; a Setback
pitcher's first card is two round trips) and a round trip's, and the match's wall time; `--json FILE` keeps the figures. The start
of the process (Mono's start-up and JIT, once per process) is not counted.
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def measure(game: str, pairs: int, seed: int) -> dict:
    """Play `pairs` duplicate pairs of `game` between the Trickster bot and the heuristic."""
    from play.tournament import run_tournament, tournament_game

    plugin = tournament_game(game)
    spec = "trickster:pitch" if game == "setback" else "trickster:spades"
    bot, heuristic = plugin.make_player(spec, 0), plugin.make_player("heuristic", 0)
    timer = time.perf_counter
    process = bot.process  # `BotProcess.ask` sums the round trips' time
    choose, times = bot.choose, []

    def timed(view):  # the whole decision: inputs, round trip, check
        begun = timer()
        move = choose(view)
        times.append(timer() - begun)
        return move

    bot.choose = timed
    started = timer()
    run_tournament([bot, heuristic], pairs, seed=seed, duplicate=True, progress=False,
                   game=game, hands=game == "spades")
    wall = timer() - started
    bot.close()
    return {"game": game, "player": spec, "pairs": pairs, "seed": seed,
            "decisions": process.decisions, "seconds": process.seconds,
            "ms_per_round_trip": 1000 * process.seconds / max(process.decisions, 1),
            # the first decision also starts the process: left out
            "ms_per_decision": 1000 * sum(times[1:]) / max(len(times) - 1, 1),
            "wall_seconds": wall}


def main(argv=None) -> int:
    """Run the matches and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=["setback", "spades"],
                        choices=["setback", "spades"])
    parser.add_argument("--pairs", type=int, default=100, help="duplicate pairs (default 100)")
    parser.add_argument("--seed", type=int, default=54)
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    figures = []
    for game in args.games:
        row = measure(game, args.pairs, args.seed)
        figures.append(row)
        print(f"{row['player']:17s} {row['decisions']:7,d} round trips  "
              f"{row['ms_per_decision']:.3f} ms a decision, {row['ms_per_round_trip']:.3f} ms "
              f"a round trip ({row['seconds']:.1f} s of "
              f"{row['wall_seconds']:.1f} s wall, {row['pairs']} pairs, seed {row['seed']})")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(figures, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
