"""Spades' search on a table base (what `search[OPTIONS]:db:PATH` builds): the rollouts follow a
policy table through Spades' abstract game, `belief=policy` weighs the worlds by it, the moves
are legal and the same for 1 and 2 threads; a missing database is refused in one line. The
table is synthetic (random probabilities on the keys the abstract game writes along heuristic
hands), so no training runs here."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from games.rng import new_rng
from games.spades import state as S
from games.spades.rules import apply_move, is_legal
from games.spades.view import SeatView
from games.spades.play.heuristic import SpadesHeuristicPlayer
from games.spades.play.search_player import SpadesSearchPlayer
from games.spades.play.tournament import SpadesSpecError, make_spades_player
from games.spades.search.policy import heuristic_move

pytest.importorskip("games.spades.abstraction.abstract_game")


def _positions(hands: int):
    """(state, view) of every decision of `hands` heuristic hands."""
    out = []
    for seed in range(hands):
        state = S.new_state()
        S.random_hand(new_rng(300 + seed), state, 0, 0)
        history: list[int] = []
        while state[S.PHASE] != S.PHASE_OVER:
            out.append((state.copy(), SeatView.of(state, 0, (0, 0), list(history))))
            move = int(heuristic_move(state))
            apply_move(state, move)
            history.append(move)
    return out


@pytest.fixture(scope="module")
def table():
    """Random probabilities on the abstract game's keys along 30 heuristic hands."""
    from games.spades.abstraction.abstract_game import decision

    rng = np.random.default_rng(0)
    actions, key = np.zeros(64, np.int64), np.zeros(2, np.uint64)
    sizes = {}
    for state, _ in _positions(30):
        n = decision(state, actions, key)
        if n >= 2:
            sizes[int(key[0])] = n
    keys = np.array(sorted(sizes), dtype=np.uint64)
    offsets = np.concatenate([[0], np.cumsum([sizes[int(k)] for k in keys])]).astype(np.int64)
    probs = np.concatenate([rng.dirichlet(np.ones(sizes[int(k)])) for k in keys])
    return SimpleNamespace(keys=keys, offsets=offsets, probs=probs.astype(np.float32),
                           game="spades")


def test_search_on_a_table_is_legal_and_the_same_for_any_threads(table):
    from games.spades.train.game import GAME

    players = [SpadesSearchPlayer(SpadesHeuristicPlayer(), table, GAME, worlds=12, threads=t,
                                  belief="policy", pool=4, seed=2) for t in (1, 2)]
    searched = 0
    for state, view in _positions(1)[::5]:
        for player in players:
            player.seed(7)
        a, b = (player.decide(view) for player in players)
        assert a == b and is_legal(state, a["move"])
        searched += a["reason"] == "search"
    assert searched > 0 and players[0].stats["weighted"] > 0  # belief=policy reweighted
    players[1].close()


def test_a_missing_database_is_refused_in_one_line(tmp_path):
    with pytest.raises(SpadesSpecError) as info:
        make_spades_player(f"search:db:{tmp_path / 'missing.db'}")
    assert "\n" not in str(info.value)
