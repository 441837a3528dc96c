"""Our CFR and CFR+ against OpenSpiel 2.0.2 on Kuhn and Leduc poker.

Reference numbers: /work/shared/reference/openspiel-cfr.md (pyspiel.exploitability of the
average policy of pyspiel.CFRSolver / CFRPlusSolver, alternating updates).
"""

from __future__ import annotations

import pytest

from cfr.exploitability import Evaluator
from cfr.solver import Solver
from cfr.tree import build_tree
from games.kuhn import GAME as KUHN
from games.leduc import GAME as LEDUC

GAMES = {"kuhn_poker": KUHN, "leduc_poker": LEDUC}

REFERENCE = {
    ("kuhn_poker", "cfr"): {10: 0.06869879381715754, 100: 0.008225977315915206,
                            1000: 0.0009376166469929614},
    ("kuhn_poker", "cfr+"): {10: 0.032687090668344826, 100: 0.0011944041011116846,
                             1000: 8.736532252084928e-05},
    ("leduc_poker", "cfr"): {10: 0.888578983168769, 100: 0.09571635300459762,
                             1000: 0.011817810259786288},
    ("leduc_poker", "cfr+"): {10: 0.6104389015904066, 100: 0.013415994970897835,
                              1000: 0.0002571516161564563},
}
DISCOUNTED_LEDUC_1000 = {"lcfr": 4.83e-3, "dcfr": 1.44e-4}

_EVALUATORS: dict[str, Evaluator] = {}


def evaluator(name: str) -> Evaluator:
    """One Evaluator (tree + info-set members) per game, built once per session."""
    if name not in _EVALUATORS:
        _EVALUATORS[name] = Evaluator(build_tree(GAMES[name]))
    return _EVALUATORS[name]


@pytest.mark.parametrize("game_name,algorithm", sorted(REFERENCE))
def test_exploitability_matches_openspiel_reference(game_name, algorithm):
    solver = Solver(GAMES[game_name], algorithm, use_tree=True)
    ev = evaluator(game_name)
    for target, expected in sorted(REFERENCE[(game_name, algorithm)].items()):
        solver.iterate(target - solver.iteration)
        got, _ = ev(solver.table)
        if target <= 100:
            assert got == pytest.approx(expected, rel=1e-6), (target, got)
        else:
            assert got == pytest.approx(expected, rel=0.10), (target, got)


@pytest.mark.parametrize("algorithm", sorted(DISCOUNTED_LEDUC_1000))
def test_discounted_variants_on_leduc(algorithm):
    solver = Solver(LEDUC, algorithm, use_tree=True)
    solver.iterate(1000)
    got, _ = evaluator("leduc_poker")(solver.table)
    assert got == pytest.approx(DISCOUNTED_LEDUC_1000[algorithm], rel=0.05)


def test_kuhn_value_and_exploitability_after_1000_vanilla_iterations():
    solver = Solver(KUHN, "cfr")  # the plain interface walk
    solver.iterate(1000)
    expl, value = evaluator("kuhn_poker")(solver.table)
    assert value == pytest.approx(-1 / 18, abs=1e-3)
    assert expl <= 1e-3


def test_leduc_value_near_equilibrium_value():
    solver = Solver(LEDUC, "cfr+", use_tree=True)
    solver.iterate(300)
    expl, value = evaluator("leduc_poker")(solver.table)
    assert expl < 0.01
    assert value == pytest.approx(-0.0856, abs=0.01)


@pytest.mark.parametrize("game_name", sorted(GAMES))
@pytest.mark.parametrize("algorithm", ["cfr", "cfr+"])
def test_live_against_pyspiel(game_name, algorithm):
    """Same exploitability as pyspiel's C++ solver, measured by pyspiel itself, at 1..30."""
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game(game_name)
    theirs = pyspiel.CFRSolver(game) if algorithm == "cfr" else pyspiel.CFRPlusSolver(game)
    ours = Solver(GAMES[game_name], algorithm, use_tree=True)
    ev = evaluator(game_name)
    for target in (1, 2, 5, 30):
        while ours.iteration < target:
            theirs.evaluate_and_update_policy()
            ours.iterate(1)
        expected = pyspiel.exploitability(game, theirs.average_policy())
        got, _ = ev(ours.table)
        assert got == pytest.approx(expected, rel=1e-9, abs=1e-15), target


def test_live_average_policy_against_pyspiel_kuhn():
    """Average policy per info set equal to pyspiel's to 10 decimal places after 50 iterations."""
    pyspiel = pytest.importorskip("pyspiel")
    import numpy as np

    from cfr.best_response import average_policy

    game = pyspiel.load_game("kuhn_poker")
    theirs = pyspiel.CFRSolver(game)
    ours = Solver(KUHN, "cfr")
    for _ in range(50):
        theirs.evaluate_and_update_policy()
    ours.iterate(50)
    tree = evaluator("kuhn_poker").tree
    sigma = average_policy(tree, ours.table)
    avg = theirs.average_policy()
    # Walk both trees in the same action order; compare at every decision.
    checked = 0

    def walk(state, node):
        nonlocal checked
        if state.is_terminal():
            return
        e0, ne = tree.edge_start[node], tree.edge_count[node]
        if not state.is_chance_node():
            probs = dict(avg.action_probabilities(state))
            i = tree.infoset[node]
            mine = [sigma[i, j] for j in range(ne)]
            theirs_p = [probs[a] for a in state.legal_actions()]
            np.testing.assert_allclose(mine, theirs_p, rtol=0, atol=1e-10)
            checked += 1
        for j, a in enumerate(state.legal_actions()):
            walk(state.child(a), tree.edge_child[e0 + j])

    walk(game.new_initial_state(), tree.root)
    assert checked == 24
