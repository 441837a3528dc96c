"""Random complete Euchre hands per second: our numba engine beside OpenSpiel's `euchre`, in
one run (so the ratios mean something on a shared machine).

Every side deals a fresh shuffled hand and plays it to the end with uniformly random legal
moves (stick the dealer on):

* ours, numba: `random_play.play_random_hands` (one compiled loop);
* OpenSpiel, C++: `pyspiel.RandomRolloutEvaluator(n)` rolling a dealt hand out n times from
  its first decision, driven by one simulation of `pyspiel.MCTSBot` (the evaluator's own
  method is not exposed to Python; one simulation is one evaluation, i.e. n rollouts, plus a
  root expansion that is noise at n = 100,000): pyspiel's fastest random playout. Each
  rollout clones the dealt state, so it does not shuffle or deal, which ours does;
* ours, Python API: `api.Hand` with text moves (what a script sees);
* OpenSpiel from Python: `state.legal_actions()` / `apply_action` per move.

    python bench/euchre_rules_speed.py [--hands N] [--openspiel-hands M] [--python-hands K]
"""

from __future__ import annotations

import argparse
import random
import time


def numba_rate(hands: int, seed: int) -> tuple[float, float]:
    """Hands per second (and moves per hand) through the numba loop, compiled before timing."""
    from games.euchre.random_play import play_random_hands

    play_random_hands(seed, 10, 1)  # compile / load from cache outside the timing
    start = time.perf_counter()
    moves = play_random_hands(seed, hands, 1)
    return hands / (time.perf_counter() - start), moves / hands


def openspiel_cpp_rate(hands: int, seed: int) -> float:
    """Hands per second of pyspiel's C++ random rollouts of a dealt hand (module docstring)."""
    import pyspiel

    game = pyspiel.load_game("euchre")
    state = game.new_initial_state()
    chooser = random.Random(seed)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[chooser.randrange(len(outcomes))][0])
    evaluator = pyspiel.RandomRolloutEvaluator(hands, seed)
    bot = pyspiel.MCTSBot(game, evaluator, 2.0, 1, 10**9, False, seed, False)
    start = time.perf_counter()
    bot.step(state)  # one simulation: one evaluation of `hands` rollouts
    return hands / (time.perf_counter() - start)


def api_rate(hands: int, seed: int) -> float:
    """Hands per second through our Python `Hand` API (text moves, legality checked)."""
    from games.euchre.api import Hand

    chooser = random.Random(seed)
    Hand.random(0).legal_moves()  # warm up
    start = time.perf_counter()
    for i in range(hands):
        hand = Hand.random(seed * 1_000_003 + i)
        while not hand.is_over:
            hand.play(chooser.choice(hand.legal_moves()))
    return hands / (time.perf_counter() - start)


def openspiel_python_rate(hands: int, seed: int) -> float:
    """Hands per second driving pyspiel's euchre move by move from Python."""
    import pyspiel

    game = pyspiel.load_game("euchre")
    chooser = random.Random(seed)
    start = time.perf_counter()
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[chooser.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[chooser.randrange(len(actions))])
    return hands / (time.perf_counter() - start)


def main() -> None:
    """Measure every rate in one run and print them with the ratios to pyspiel's C++."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands through numba")
    parser.add_argument("--openspiel-hands", type=int, default=100_000,
                        help="hands through pyspiel's C++ random rollouts")
    parser.add_argument("--python-hands", type=int, default=5_000,
                        help="hands through each Python-driven loop")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name, value in vars(args).items():
        if name != "seed" and value <= 0:
            parser.error(f"--{name.replace('_', '-')} must be a positive number")
    ours, moves = numba_rate(args.hands, args.seed)
    cpp = openspiel_cpp_rate(args.openspiel_hands, args.seed)
    api = api_rate(args.python_hands, args.seed)
    py = openspiel_python_rate(args.python_hands, args.seed)
    print(f"ours, numba core          {ours:>12,.0f} hands/s  ({args.hands:,} hands, "
          f"{moves:.1f} decisions/hand)")
    print(f"OpenSpiel, C++ rollouts   {cpp:>12,.0f} hands/s  ({args.openspiel_hands:,} hands)")
    print(f"ours, Python API          {api:>12,.0f} hands/s  ({args.python_hands:,} hands)")
    print(f"OpenSpiel, from Python    {py:>12,.0f} hands/s  ({args.python_hands:,} hands)")
    print(f"numba core / OpenSpiel C++: {ours / cpp:,.1f}x")


if __name__ == "__main__":
    main()
