"""Every registered game's policy likelihood (`policy_log_weights` of
`search/<game>_worlds.py`): a world's `belief=policy` weight equals a slow Python replay of the
hand the world was dealt that reads the blueprint the way the rule says (the probability of the abstract action that plays the
move, a floor under it; a move no action plays: the floor; a missing key: uniform over its
actions; a forced decision: nothing; the moves of seats not modelled, Euchre's discard and the
moves after the abstract game's hand is settled: nothing)."""

from __future__ import annotations

import importlib
import math

import numpy as np
import pytest
from test_world_sampler import GAMES, Game

from search.rollout import TERMINAL

FLOOR = 0.02


def random_table(game, abstract, seed):
    """A blueprint of random probabilities on the keys the abstract game writes along random
    hands (half of them left out, so missing keys are met too), as a dict and as the arrays
    the kernels read."""
    _, decision = abstract.functions()[:2]
    rng = np.random.default_rng(seed)
    actions, key = np.zeros(64, np.int64), np.zeros(2, np.uint64)
    table = {}
    for view, truth in game.views(range(6)):
        n = decision(truth, actions, key)
        if n >= 2 and int(key[0]) not in table and rng.random() < 0.5:
            table[int(key[0])] = rng.dirichlet(np.ones(n)).astype(np.float32)
    keys = np.array(sorted(table), dtype=np.uint64)
    offsets = np.concatenate([[0], np.cumsum([table[int(k)].size for k in keys])]).astype(np.int64)
    probs = np.concatenate([table[int(k)] for k in keys]).astype(np.float32)
    return table, keys, offsets, probs


def slow_log_weight(game, abstract, table, world, played_by, history, modelled):
    """The world's weight by the rule (module docstring), replayed in Python."""
    current_player, decision = abstract.functions()[:2]
    S = game.state
    discarding = getattr(S, "PHASE_DISCARD", None)  # Euchre's: the abstraction's rule, no key
    state = game.rules["new_state"]()
    game.public.start_of_hand(world, played_by, state)
    actions, key = np.zeros(64, np.int64), np.zeros(2, np.uint64)
    total = 0.0
    for move in history:
        if current_player(state) == TERMINAL:
            break
        move, scored = int(move), True
        if discarding is not None and state[S.PHASE] == discarding:
            move, scored = (int(world[S.DISCARD]) if move < 0 else move), False
        if scored and modelled >> int(state[S.TO_ACT]) & 1:
            n = decision(state, actions, key)
            moves = [int(a) for a in actions[:max(n, 1)]]
            if move not in moves:
                total += math.log(FLOOR)
            elif n >= 2:
                vector = table.get(int(key[0]))
                if vector is None or vector.size != n:
                    total -= math.log(n)
                else:
                    total += math.log(max(float(vector[moves.index(move)]), FLOOR))
        game.rules["apply_move"](state, int(move))
    return total


@pytest.mark.parametrize("name", GAMES)
def test_policy_weights_equal_a_slow_replay(name):
    game = Game(name)
    abstract = importlib.import_module(f"train.{name}_game").GAME
    worlds_module = importlib.import_module(f"search.{name}_worlds")
    current_player, decision = abstract.addresses[:2]  # what the search players pass
    table, keys, offsets, probs = random_table(game, abstract, 1)
    checked = floors = 0
    for index, (view, _) in enumerate(game.views(range(6, 10), every=4)):
        worlds, played_by = game.worlds(view, index, 4)
        history = np.array(view.history, np.int64)
        modelled = sum(1 << s for s in range(4) if s != view.seat)
        out = np.zeros(worlds.shape[0])
        if name == "setback":  # its worlds' DEALT credits won cards: who played what is given
            worlds_module.policy_log_weights(decision, worlds, 0, worlds.shape[0], played_by,
                                             history, history.size, modelled, keys, offsets,
                                             probs, FLOOR, out)
        else:  # their worlds' DEALT holds the cards played
            worlds_module.policy_log_weights(current_player, decision, worlds, 0,
                                             worlds.shape[0], history, history.size, modelled,
                                             keys, offsets, probs, FLOOR, out)
        for w, world in enumerate(worlds):
            expected = slow_log_weight(game, abstract, table, world, played_by, history,
                                       modelled)
            assert out[w] == pytest.approx(expected, rel=1e-9, abs=1e-9)
            checked += expected != 0.0
            floors += expected <= math.log(FLOOR) + 1e-9
    assert checked >= 40 and floors > 0
