"""Every game honours the CFR game interface (`cfr/game.py`), in the spirit of pgx's api_test.

Append a game's module (one exposing `GAME`) to GAME_MODULES to have it checked. Small games
are walked exhaustively; all games also get seeded random playouts, so a big game (Setback) is
checked along a few thousand random paths.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from cfr.game import CHANCE, TERMINAL, Game
from cfr.rng import word

GAME_MODULES = ["games.kuhn", "games.leduc"]
EXHAUSTIVE_NODE_LIMIT = 50_000
PLAYOUTS = 2_000


def load(module: str) -> Game:
    return importlib.import_module(module).GAME


class Checker:
    """Checks one state's interface answers and records key -> (player, actions)."""

    def __init__(self, game: Game):
        self.game = game
        self.actions = np.zeros(game.max_actions, dtype=np.int64)
        self.probs = np.zeros(game.max_actions, dtype=np.float64)
        self.keys: dict[tuple, tuple] = {}
        self.nodes = 0

    def children(self, state: np.ndarray, depth: int) -> list[tuple[int, float]]:
        """Check `state`; return its (action or outcome, probability) list ([] at a terminal)."""
        g = self.game
        self.nodes += 1
        assert state.dtype == np.int64 and state.shape == (g.state_size,)
        assert depth < g.max_depth, "deeper than max_depth"
        p = int(g.current_player(state))
        assert p in (0, 1, CHANCE, TERMINAL)
        if p == TERMINAL:
            u = float(g.utility(state))
            assert np.isfinite(u)  # player 1 gets -u: zero-sum by construction
            return []
        if p == CHANCE:
            n = int(g.chance_outcomes(state, self.actions, self.probs))
            assert 1 <= n <= g.max_actions
            outs = self.actions[:n].copy()
            probs = self.probs[:n].copy()
            assert len(set(outs.tolist())) == n, "duplicate chance outcomes"
            assert np.all(probs > 0)
            assert probs.sum() == pytest.approx(1.0, abs=1e-12)
            return list(zip(outs.tolist(), probs.tolist()))
        key = np.full(2, 0xDEADBEEF, dtype=np.uint64)
        n = int(g.decision(state, self.actions, key))
        assert 1 <= n <= g.max_actions, "legal actions must be non-empty at a decision"
        acts = self.actions[:n].copy()
        assert len(set(acts.tolist())) == n, "duplicate legal actions"
        if n >= 2:
            k = tuple(int(x) for x in key[: g.key_words])
            key2 = np.zeros(2, dtype=np.uint64)
            n2 = int(g.decision(state.copy(), self.actions, key2))
            assert n2 == n and tuple(int(x) for x in key2[: g.key_words]) == k, \
                "decision is not deterministic"
            seen = self.keys.setdefault(k, (p, tuple(acts.tolist())))
            assert seen == (p, tuple(acts.tolist())), \
                "one key with two players or two action lists"
        return [(int(a), 1.0) for a in acts]

    def child(self, state: np.ndarray, action: int) -> np.ndarray:
        """Apply `action` and check that the parent is left untouched."""
        before = state.copy()
        out = np.full(self.game.state_size, -7, dtype=np.int64)
        self.game.apply(state, action, out)
        assert np.array_equal(state, before), "apply modified its input state"
        again = np.empty_like(out)
        self.game.apply(state, action, again)
        assert np.array_equal(out, again), "apply is not deterministic"
        return out


def root(game: Game) -> np.ndarray:
    return np.ascontiguousarray(game.initial_state(), dtype=np.int64)


@pytest.fixture(params=GAME_MODULES)
def game(request) -> Game:
    return load(request.param)


def test_bundle_is_well_formed(game):
    assert isinstance(game, Game) and game.name
    assert game.key_words in (1, 2)
    assert game.state_size >= 1 and game.max_actions >= 2 and game.max_depth >= 2
    r = root(game)
    assert r.shape == (game.state_size,)
    assert np.array_equal(r, root(game)), "initial_state must be deterministic"


def play_out(checker: Checker, game: Game, step) -> int:
    """One playout from the root, every node checked (`checker.children`): `step(state,
    actions, probs)` gives the next state. Returns 1 once it reaches a terminal (a count)."""
    state, depth = root(game), 0
    while True:
        options = checker.children(state, depth)
        if not options:
            return 1
        actions, probs = zip(*options)
        state = step(state, actions, probs)
        depth += 1


def test_random_playouts(game):
    checker = Checker(game)
    rng = np.random.default_rng(12345)

    def step(state, actions, probs):
        i = rng.choice(len(actions), p=np.array(probs) / sum(probs))
        return checker.child(state, actions[i])

    terminals = sum(play_out(checker, game, step) for _ in range(PLAYOUTS))
    assert terminals == PLAYOUTS


def test_chance_sample_agrees_with_chance_outcomes(game):
    checker = Checker(game)
    rng = np.random.default_rng(7)
    counter = 0
    for _ in range(300):
        state, depth = root(game), 0
        while True:
            options = checker.children(state, depth)
            if not options:
                break
            if int(game.current_player(state)) == CHANCE:
                counter += 1
                u = word(np.uint64(99), np.uint64(counter))
                out = np.zeros(game.state_size, dtype=np.int64)
                outcome = int(game.chance_sample(state, u, out))
                assert outcome in [a for a, _ in options], "sampled outcome not an outcome"
                assert np.array_equal(out, checker.child(state, outcome))
                state = out
            else:
                actions = [a for a, _ in options]
                state = checker.child(state, actions[rng.integers(len(actions))])
            depth += 1


def test_exhaustive_walk_of_small_games(game):
    checker = Checker(game)

    def walk(state, depth):
        if checker.nodes > EXHAUSTIVE_NODE_LIMIT:
            pytest.skip("game too large to walk exhaustively; playouts cover it")
        for a, _ in checker.children(state, depth):
            walk(checker.child(state, a), depth + 1)

    # Also: the chance probabilities of all terminals sum to 1 along every decision path.
    def chance_mass(state, depth):
        options = checker.children(state, depth)
        if not options:
            return 1.0
        if int(game.current_player(state)) == CHANCE:
            return sum(p * chance_mass(checker.child(state, a), depth + 1) for a, p in options)
        a = options[0][0]
        return chance_mass(checker.child(state, a), depth + 1)

    walk(root(game), 0)
    assert checker.keys, "a game needs at least one info set"
    assert chance_mass(root(game), 0) == pytest.approx(1.0, abs=1e-12)
