"""Kuhn and Leduc poker are OpenSpiel's `kuhn_poker` and `leduc_poker`, history by history."""

from __future__ import annotations

import pytest

from cfr.game import CHANCE, TERMINAL
from cfr.tree import build_tree
from games.kuhn import GAME as KUHN
from games.leduc import GAME as LEDUC

CASES = [("kuhn_poker", KUHN, 58, 12), ("leduc_poker", LEDUC, 9457, 936)]


@pytest.mark.parametrize("name,game,histories,infosets", CASES)
def test_tree_sizes(name, game, histories, infosets):
    tree = build_tree(game)
    assert tree.num_nodes == histories
    assert tree.num_infosets == infosets


@pytest.mark.parametrize("name,game,histories,infosets", CASES)
def test_same_tree_utilities_and_info_sets_as_openspiel(name, game, histories, infosets):
    pyspiel = pytest.importorskip("pyspiel")
    tree = build_tree(game)
    key_to_string: dict[int, str] = {}
    string_to_key: dict[str, int] = {}

    def walk(state, node):
        p = tree.player[node]
        if state.is_terminal():
            assert p == TERMINAL
            assert state.returns()[0] == tree.utility[node]
            assert state.returns()[1] == -tree.utility[node]
            return
        e0, ne = tree.edge_start[node], tree.edge_count[node]
        if state.is_chance_node():
            assert p == CHANCE
            outcomes = state.chance_outcomes()
            assert [a for a, _ in outcomes] == list(tree.edge_action[e0:e0 + ne])
            assert [q for _, q in outcomes] == list(tree.edge_prob[e0:e0 + ne])
        else:
            assert p == state.current_player()
            assert state.legal_actions() == list(tree.edge_action[e0:e0 + ne])
            key = int(tree.infoset_key[tree.infoset[node], 0])
            info = state.information_state_string()
            assert key_to_string.setdefault(key, info) == info
            assert string_to_key.setdefault(info, key) == key
        for j, a in enumerate(tree.edge_action[e0:e0 + ne]):
            walk(state.child(int(a)), tree.edge_child[e0 + j])

    walk(pyspiel.load_game(name).new_initial_state(), tree.root)
    assert len(key_to_string) == infosets
