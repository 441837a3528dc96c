"""The one likelihood (`search/likelihood.py`) on every registered game's hooks: a world's
`belief=policy` weight equals a slow Python replay of the hand the world was dealt that reads
the blueprint the way the rule says (the probability of the abstract action that plays the
move, a floor under it; a move no action plays: the floor; a missing key: uniform over its
actions; a forced decision: nothing; the moves of seats not modelled, Euchre's discard and the
moves after the abstract game's hand is settled: nothing); its `belief=bids` weight the
blueprint's probability of every seat's auction moves (a missing key: nothing); and the kernel
is one compiled signature for every game, kept in numba's cache."""

from __future__ import annotations

import importlib
import math

import numpy as np
import pytest
from test_world_sampler import GAMES, Game

from play.likelihood import ALL_SEATS, likelihood_hooks, world_log_weights
from search.likelihood import BIDS, POLICY, log_weights
from search.rollout import TERMINAL

FLOOR = 0.02


class Arrays:
    """A blueprint's arrays as the likelihood reads them (`db.policy_arrays.PolicyArrays`)."""

    def __init__(self, keys, offsets, probs):
        self.keys, self.offsets, self.probs = keys, offsets, probs


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


def positions(game, seeds, every):
    """(view, truth, 4 worlds of the view, the cards each seat played, the history as int64)
    at every `every`-th decision of the random hands of `seeds`."""
    for index, (view, truth) in enumerate(game.views(seeds, every=every)):
        worlds, played_by = game.worlds(view, index, 4)
        yield view, truth, worlds, played_by, np.array(view.history, np.int64)


def kernel_weights(game, abstract, kind, worlds, played_by, history, modelled, arrays):
    """The one kernel's weights of `worlds` on the game's hooks (`play.likelihood`)."""
    out = np.zeros(worlds.shape[0])
    world_log_weights(game.public, game.engine.apply_move, game.state.TO_ACT,
                      abstract.addresses, kind, worlds, played_by, history, modelled, arrays,
                      FLOOR, out)
    return out


@pytest.mark.parametrize("name", GAMES)
def test_policy_weights_equal_a_slow_replay(name):
    game = Game(name)
    abstract = importlib.import_module(f"games.{name}.train.game").GAME
    table, keys, offsets, probs = random_table(game, abstract, 1)
    arrays = Arrays(keys, offsets, probs)
    checked = floors = settled = 0
    for view, truth, worlds, played_by, history in positions(game, range(6, 10), 4):
        modelled = sum(1 << s for s in range(4) if s != view.seat)
        out = kernel_weights(game, abstract, POLICY, worlds, played_by, history, modelled,
                             arrays)
        settled += abstract.functions()[0](truth) == TERMINAL
        for w, world in enumerate(worlds):
            expected = slow_log_weight(game, abstract, table, world, played_by, history,
                                       modelled)
            assert out[w] == pytest.approx(expected, rel=1e-9, abs=1e-9)
            checked += expected != 0.0
            floors += expected <= math.log(FLOOR) + 1e-9
    assert checked >= 40 and floors > 0
    # hands that go on past the abstract game's end (Setback plays a settled deal out) are met
    assert settled > 0 or name != "setback"


def slow_bids_log_weight(game, abstract, table, world, played_by, history, rng=None):
    """The world's `belief=bids` weight by the rule, replayed in Python: the log of the
    blueprint's probability (floored) of every seat's auction move whose key it holds (a move
    no abstract action plays says nothing: the bids belief reads the bids as they are); the
    auction's unweighed moves (Euchre's discard) replayed as the world has them. With `rng`,
    first adds random probabilities for half the keys met that `table` lacks (so that the
    worlds' own auction keys are found too)."""
    _, decision = abstract.functions()[:2]
    state = game.rules["new_state"]()
    game.public.start_of_hand(world, played_by, state)
    unweighed = getattr(game.public, "unweighed_move", None)
    actions, key = np.zeros(64, np.int64), np.zeros(2, np.uint64)
    total = 0.0
    for move in history:
        if not game.public.in_auction(state):
            break
        replayed = -1 if unweighed is None else int(unweighed(state, world, int(move)))
        if replayed >= 0:
            game.rules["apply_move"](state, replayed)
            continue
        n = decision(state, actions, key)
        if rng is not None and n >= 2 and int(key[0]) not in table and rng.random() < 0.5:
            table[int(key[0])] = rng.dirichlet(np.ones(n)).astype(np.float32)
        vector = table.get(int(key[0])) if n >= 2 else None
        moves = [int(a) for a in actions[:max(n, 1)]]
        if vector is not None and vector.size == n and int(move) in moves:
            total += math.log(max(float(vector[moves.index(int(move))]), FLOOR))
        game.rules["apply_move"](state, int(move))
    return total


@pytest.mark.parametrize("name", GAMES)
def test_bids_weights_equal_a_slow_replay(name):
    game = Game(name)
    abstract = importlib.import_module(f"games.{name}.train.game").GAME
    table, rng = {}, np.random.default_rng(2)
    cases = [case[2:] for case in positions(game, range(10, 14), 3)]
    for worlds, played_by, history in cases:
        for world in worlds:
            slow_bids_log_weight(game, abstract, table, world, played_by, history, rng)
    keys = np.array(sorted(table), dtype=np.uint64)
    offsets = np.concatenate([[0], np.cumsum([table[int(k)].size for k in keys])]).astype(np.int64)
    arrays = Arrays(keys, offsets, np.concatenate([table[int(k)] for k in keys]))
    checked = 0
    for worlds, played_by, history in cases:
        out = kernel_weights(game, abstract, BIDS, worlds, played_by, history, ALL_SEATS,
                             arrays)
        for w, world in enumerate(worlds):
            expected = slow_bids_log_weight(game, abstract, table, world, played_by, history)
            assert out[w] == pytest.approx(expected, rel=1e-9, abs=1e-9)
            checked += expected != 0.0
    assert checked >= 20


def test_one_cached_kernel_for_every_game():
    """Every game's hooks reach `log_weights` as function addresses of the same types, so the
    kernel compiles one signature for all and numba's cache keeps it (a dispatcher argument
    would make it uncacheable: a compile in every process)."""
    compiled = []  # the kernel's signatures after each game's call
    for name in GAMES:
        game = Game(name)
        abstract = importlib.import_module(f"games.{name}.train.game").GAME
        view, _ = next(iter(game.views([3], every=9)))
        worlds, played_by = game.worlds(view, 0, 2)
        history = np.array(view.history, np.int64)
        current_player, decision = abstract.addresses[:2]
        log_weights(*likelihood_hooks(game.public, game.engine.apply_move), current_player,
                    decision, POLICY, worlds, 0, 2, played_by, history, history.size, ALL_SEATS,
                    game.state.TO_ACT, np.zeros(0, np.uint64), np.zeros(1, np.int64),
                    np.zeros(0, np.float32), FLOOR, np.zeros(2))
        compiled.append(len(log_weights.signatures))
    assert len(set(compiled)) == 1  # the other games' calls compiled nothing new
    for signature in log_weights.signatures:
        # saved to (or loaded from) the on-disk cache: numba keeps no kernel with dynamic
        # globals
        assert log_weights._cache.load_overload(signature, log_weights.targetctx) is not None
