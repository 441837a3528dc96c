"""The game registry behind `--game`: it imports no game at import time, every game it lists
provides every entry point, and a game-independent loop plays any registered game."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from games import registry
from games.rng import new_rng


def test_importing_the_registry_imports_no_game():
    code = ("import sys, games.registry as r; print(r.names()); "
            "print(sorted(m for m in sys.modules if m.startswith(('games.setback', "
            "'games.euchre'))))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["('setback', 'euchre', 'spades')", "[]"]


@pytest.mark.parametrize("name", registry.names())
def test_every_game_provides_every_entry_point(name):
    entry = registry.get(name)
    assert set(entry.entry_points) == set(registry.ENTRY_POINTS)
    for point in registry.ENTRY_POINTS:
        assert entry.load(point) is not None
    assert entry.load("replay").__module__ == f"{entry.package}.replay"
    assert issubclass(entry.load("error"), ValueError)


@pytest.mark.parametrize("name", registry.names())
def test_a_game_independent_loop_plays_every_game(name):
    rules = registry.get(name).rules()
    state = rules["new_state"]()
    assert len(state) == rules["STATE_SIZE"]
    moves = np.empty(rules["MAX_MOVES"], np.int64)
    rng = new_rng(5)
    chooser = np.random.default_rng(5)
    differences = []
    for _ in range(50):
        rules["random_deal"](rng, state)
        steps = 0
        while state[rules["PHASE"]] != rules["PHASE_OVER"]:
            n = rules["legal_moves"](state, moves)
            assert n > 0
            move = moves[chooser.integers(n)]
            assert rules["is_legal"](state, move)
            rules["apply_move"](state, move)
            steps += 1
        assert steps > 0
        differences.append(int(rules["score_difference"](state)))
    assert any(differences)


def test_an_unknown_game_is_one_clear_error():
    with pytest.raises(registry.UnknownGameError, match="unknown game 'bridge': expected one "
                                                        "of setback, euchre"):
        registry.get("bridge")
    with pytest.raises(registry.UnknownGameError, match="no entry point 'bidder'"):
        registry.get("euchre").load("bidder")
