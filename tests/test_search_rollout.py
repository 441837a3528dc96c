"""Rollout search on a blueprint (issue 36: search/rollout.py, search/rollout_search.py,
games/setback/search/worlds.py, games/setback/play/search_player.py,
games/setback/db/policy_arrays.py).

The blueprint here is a table of random probability vectors for every key met in random deals:
no strength is claimed for it, which makes the sign check sharper (search on the true deal must
beat it by a wide margin)."""

import time

import numpy as np
import pytest

from db.loader import load_strategies
from games.setback.db.player import DatabasePlayer
from games.setback.db.policy_arrays import load_policy_arrays
from games.setback.db.synthetic import write_table
from games.rng import new_rng
from games.setback import state as S
from games.setback.api import Deal, format_move
from games.setback.cards import suit_mask
from games.setback.rules import apply_move, legal_moves
from games.setback.scoring import exhaustion_test, is_exhausted, score_difference
from games.setback.view import SeatView
from play.player_spec import PlayerSpecError, make_player
from play.tournament import run_tournament
from search.rollout import play_out
from search.rollout_search import RolloutSearch, choose
from games.setback.search.worlds import consistent_worlds
from games.setback.train.baseline import layout_game

from search_specs import BAD_OPTIONS, one_line_refusal  # noqa: E402
from test_composite_players import EmptyStore  # noqa: E402  (a store without keys)


def random_positions(n_deals: int, seed: int):
    """(full state, dealer) of every decision of `n_deals` deals played with random moves."""
    rng = np.random.default_rng(seed)
    out = []
    for d in range(n_deals):
        deal = Deal.random(seed * 1000 + d)
        while not deal.is_over:
            out.append((deal.state.copy(), deal.dealer))
            legal = deal.legal_moves()
            deal.play(legal[int(rng.integers(len(legal)))])
    return out


@pytest.fixture(scope="module")
def blueprint(tmp_path_factory):
    """A database (and its strategy file) of random vectors for every key of 150 random deals
    (those the replay test starts from among them)."""
    asker = DatabasePlayer(EmptyStore())
    rng = np.random.default_rng(3)
    table = {}
    for state, dealer in random_positions(110, 11) + random_positions(40, 5):
        trace = asker.explain(SeatView.of(state, dealer))
        if trace["key"] is not None and trace["key"] not in table:
            table[trace["key"]] = rng.dirichlet(np.ones(len(trace["actions"])))
    tmp = tmp_path_factory.mktemp("rollout")
    path = str(tmp / "r.strategy")
    write_table(path, "baseline", table)
    db = str(tmp / "r.db")
    load_strategies([path], db, progress=False)
    return {"db": db, "file": path, "tmp": tmp}


def test_policy_arrays_hold_exactly_the_databases_vectors(blueprint):
    from games.setback.abstraction.codec import key_text
    from db.database import StrategyDatabase
    from games.policy_table import find_key

    arrays = load_policy_arrays("db:" + blueprint["db"])
    assert np.all(arrays.keys[1:] > arrays.keys[:-1])
    with StrategyDatabase(blueprint["db"]) as db:
        assert arrays.n_keys == db.n_keys
        for i in range(arrays.n_keys):
            probs, best = db.lookup(key_text(int(arrays.keys[i])))
            assert np.array_equal(probs, arrays.probs[arrays.offsets[i]:arrays.offsets[i + 1]])
            assert best == arrays.best[i]
            assert find_key(arrays.keys, arrays.keys[i]) == i
    assert find_key(arrays.keys, np.uint64(1)) == -1
    from_file = load_policy_arrays("strategy:" + blueprint["file"])
    assert np.array_equal(from_file.keys, arrays.keys)
    assert np.array_equal(from_file.probs, arrays.probs)


def test_a_greedy_rollout_equals_the_database_players_replay(blueprint):
    """From play positions (the auction over: the database player's auction fallback differs),
    the rollout's payoff is the score of the deal replayed move by move by the database player
    at every seat, playing its stored best actions."""
    arrays = load_policy_arrays("db:" + blueprint["db"])
    game = layout_game(arrays.layout)
    current_player, decision, apply, utility = game.addresses[:4]
    player = DatabasePlayer(blueprint["db"])
    a, b = np.zeros(S.STATE_SIZE, np.int64), np.zeros(S.STATE_SIZE, np.int64)
    actions, key_out = np.zeros(64, np.int64), np.zeros(2, np.uint64)
    checked = 0
    for state, dealer in random_positions(40, 5)[::7]:
        if state[S.PHASE] != S.PHASE_PLAY or is_exhausted(state):
            continue
        value = play_out(current_player, decision, apply, utility, state, arrays.keys,
                         arrays.offsets, arrays.probs, True, new_rng(0), a, b, actions, key_out)
        replay = state.copy()
        while not is_exhausted(replay):
            apply_move(replay, player.choose(SeatView.of(replay, dealer)))
        assert value == score_difference(replay)
        checked += 1
    assert checked >= 20


def test_every_world_agrees_with_the_view_and_every_public_fact():
    rejected_total = 0
    for state, dealer in random_positions(25, 9):
        if is_exhausted(state):
            continue
        view = SeatView.of(state, dealer)
        seat = view.seat
        worlds = np.zeros((8, S.STATE_SIZE), np.int64)
        drawn, rejected = consistent_worlds(view.state, seat, new_rng(len(state)), True, worlds)
        assert drawn == 8
        rejected_total += rejected
        for world in worlds:
            assert world[S.HAND + seat] == state[S.HAND + seat]
            seen = state[S.HAND + seat] | state[S.PLAYED]
            for other in range(4):
                held = world[S.HAND + other]
                assert bin(held).count("1") == bin(state[S.HAND + other]).count("1")
                if other != seat:
                    assert held & seen == 0
                    for suit in range(4):
                        if state[S.SHOWN_VOIDS] >> (4 * other + suit) & 1:
                            assert held & suit_mask(suit) == 0
                for j in range(other + 1, 4):
                    assert held & world[S.HAND + j] == 0
            assert not exhaustion_test(world), "the deal would already be settled"
            buffer, mine = np.zeros(64, np.int64), np.zeros(64, np.int64)
            assert legal_moves(world, buffer) == legal_moves(state, mine)
            for field in range(S.STATE_SIZE):  # everything public is the view's
                if field not in range(S.HAND, S.HAND + 4) and field not in range(S.DEALT,
                                                                              S.DEALT + 4):
                    assert world[field] == state[field]
    assert rejected_total > 0  # the settled-deal fact did remove layouts


def _true_deal_search(arrays, state, worlds=16):
    """The move with the best rollout value when the worlds are all the true deal."""
    search = RolloutSearch(layout_game(arrays.layout), arrays, threads=1)
    buffer = np.zeros(64, np.int64)
    moves = buffer[:legal_moves(state, buffer)].copy()
    if moves.size == 1:
        return int(moves[0])
    sign = 1 if state[S.TO_ACT] % 2 == 0 else -1
    values = search.values(np.repeat(state[None, :], worlds, axis=0), moves, sign, 7)
    return int(moves[choose(values)])


def test_a_view_whose_open_layouts_are_too_rare_to_draw_still_gets_its_worlds():
    """A legal position met in a match (seed 54 against Trickster's bot) where fewer than one
    layout in 10,000 keeps the deal open: every row is filled (the search decides instead of
    stopping the match with 'no layout ... is consistent')."""
    state = np.array([0, 0, 0, 262146, 0, 0, 0, 6561795, 0, 2, 0, 3, 1, 3, 4, 3, 3, 1, 4, 3, 0,
                      -1, -1, -1, -1, 0, 633407053308953, 633407053308953, 21, 259, -1, 0],
                     dtype=np.int64)
    worlds = np.zeros((8, S.STATE_SIZE), np.int64)
    drawn, rejected = consistent_worlds(state, 3, new_rng(1), True, worlds)
    assert drawn == 8 and rejected >= 10_000
    for world in worlds:
        assert world[S.HAND + 3] == state[S.HAND + 3]
        assert all(int(world[S.HAND + s]) & int(state[S.PLAYED]) == 0 for s in range(4))


def test_search_on_the_true_deal_beats_the_blueprint_widely(blueprint):
    """A sign check: team 0 searching with the true deal as every world against team 1 playing
    the blueprint's stored probabilities, then the seats swapped, over the same deals."""
    arrays = load_policy_arrays("db:" + blueprint["db"])
    player = DatabasePlayer(blueprint["db"], sample=True, seed=1)
    margins = []
    for d in range(30):
        for searcher in (0, 1):
            deal = Deal.random(500 + d)
            state = deal.state.copy()
            while not is_exhausted(state):
                if state[S.TO_ACT] % 2 == searcher:
                    move = _true_deal_search(arrays, state)
                else:
                    move = player.choose(SeatView.of(state, deal.dealer))
                apply_move(state, move)
            diff = score_difference(state)
            margins.append(diff if searcher == 0 else -diff)
    assert np.mean(margins) > 1.0, np.mean(margins)


def test_a_decision_is_the_same_by_seed_for_one_and_two_threads(blueprint):
    one = make_player(f"search[worlds=24,threads=1]:db:{blueprint['db']}", seed=4)
    two = make_player(f"search[worlds=24,threads=2]:db:{blueprint['db']}", seed=4)
    other = make_player(f"search[worlds=24,threads=2]:db:{blueprint['db']}", seed=5)
    differs = 0
    for state, dealer in random_positions(6, 3):
        view = SeatView.of(state, dealer)
        first, second, third = one.explain(view), two.explain(view), other.explain(view)
        assert first == second
        differs += first["searched"] != third["searched"]
    assert differs > 0  # the seed matters
    for player in (one, two, other):
        player.close()


def test_the_time_budget_is_honoured(blueprint):
    player = make_player(f"search[worlds=100000,think=20,threads=1]:db:{blueprint['db']}")
    deal = Deal.random(8)
    view = SeatView.of(deal.state.copy(), deal.dealer)
    player.explain(view)  # compiled and warm
    start = time.perf_counter()
    result = player.explain(view)
    elapsed = time.perf_counter() - start
    assert 0 < result["worlds"] < 100000
    # sampling the 100,000 worlds up front is part of the decision; the rollouts stop in time
    assert elapsed < 1.0, elapsed
    player.close()


def test_the_margin_rule_keeps_the_blueprints_move_unless_search_is_sure():
    values = np.array([[1.0, 2.0], [1.0, 0.0], [1.0, 2.0], [1.0, 0.5]])
    assert choose(values) == 1  # best mean 1.125 > 1.0
    assert choose(values, blueprint=0, margin=1.0) == 0  # +0.125, error 0.47: not beyond
    sure = np.array([[0.0, 2.0], [0.0, 2.1], [0.0, 1.9], [0.0, 2.0]])
    assert choose(sure, blueprint=0, margin=3.0) == 1


def test_search_players_play_tournaments(blueprint):
    spec = f"search[worlds=8]:db:{blueprint['db']}"
    rows = run_tournament((make_player(spec), make_player("heuristic")), 2, seed=3,
                          duplicate=True, max_deals=3)
    assert len(rows) == 4
    composite = make_player(f"{spec},bid=heuristic")
    assert composite.name.endswith(",bid=heuristic")
    composite.close()


@pytest.mark.parametrize("spec, says", BAD_OPTIONS + [
    ("search[objective=points]:db:x.db", "objective= takes score or win"),
    ("search:heuristic", "the policy must be db:PATH, strategy:PATH or net:FILE"),
    ("search:db:/nonexistent/x.db", "no such strategy database"),
])
def test_bad_specs_are_refused_in_one_line(spec, says):
    assert says in one_line_refusal(PlayerSpecError, make_player, spec)


def test_a_policy_of_another_game_is_refused_in_one_line(blueprint):
    path = str(blueprint["tmp"] / "euchre.strategy")
    write_table(path, "baseline", {"x": [0.5, 0.5]}, game="euchre")
    assert "not 'setback'" in one_line_refusal(PlayerSpecError, make_player,
                                               f"search:strategy:{path}")


def test_the_web_bots_search_and_the_why_panel_gets_each_moves_value(blueprint, tmp_path):
    """`serve --bots search...`: a game plays to the end, every bot decision with two or more
    legal moves is searched, and the hint's explanation carries the searched value of every
    legal move (as text), best first, beside the blueprint's key and probabilities."""
    pytest.importorskip("fastapi")
    from web_helpers import client, new_game, play_to_the_end

    spec = f"search[worlds=8,threads=1]:db:{blueprint['db']}"
    with client(tmp_path / "games.db", bots=spec) as c:
        assert c.get("/api/config").json()["bots"] == spec
        game = new_game(c, 3)["game"]
        hints = []

        def choose(view):
            hint = c.get(f"/api/games/{game}/hint").json()
            hints.append(hint)
            return view["legal"][0]

        view, events = play_to_the_end(c, game, choose, stop_after=12)
        searched = [h for h in hints if h["reason"] == "search"]
        assert searched, hints[:2]
        for x in searched:
            values = [s["value"] for s in x["searched"]]
            assert values == sorted(values, reverse=True) and x["worlds"] == 8
            assert x["move"] == x["searched"][0]["move"]
            assert all(isinstance(s["move"], str) for s in x["searched"])
        bot_moves = [e for e in events if e.get("explain")]
        assert any(e["explain"]["reason"] == "search" for e in bot_moves)


def test_the_bids_likelihood_is_the_blueprints_probability_of_the_bids(blueprint):
    """On the true deal, the weight of the bids is the product of the probabilities the
    database gives each bid made (its auction keys), found keys only."""
    from games.setback import public, rules
    from play.likelihood import ALL_SEATS, world_log_weights
    from search.likelihood import BIDS

    arrays = load_policy_arrays("db:" + blueprint["db"])
    functions = layout_game(arrays.layout).addresses
    player = DatabasePlayer(blueprint["db"])
    checked = 0
    for d in range(40):
        deal = Deal.random(300 + d)
        state = deal.state.copy()
        start = state.copy()
        history, expected = [], 0.0
        while state[S.PHASE] == S.PHASE_AUCTION:
            view = SeatView.of(state, deal.dealer)
            trace = player.explain(view)
            move = int(trace["move"])
            if trace["found"] and len(trace["actions"]) >= 2:
                prob = next(a["prob"] for a in trace["actions"] if a["move"] == move)
                expected += np.log(max(prob, 1e-3))
            history.append(move)
            apply_move(state, move)
        history = np.array(history, dtype=np.int64)
        got = np.zeros(1)
        world_log_weights(public, rules.apply_move, S.TO_ACT, functions, BIDS, start[None, :],
                          np.zeros(4, np.int64), history, ALL_SEATS, arrays, 1e-3, got)
        assert got[0] == pytest.approx(expected, abs=1e-9)
        checked += expected != 0.0
    assert checked >= 10


def test_worlds_weighted_by_the_bids_still_agree_with_the_view(blueprint):
    player = make_player(f"search[worlds=16,belief=bids,temper=0.5,threads=1]:db:"
                         f"{blueprint['db']}")
    rng = np.random.default_rng(2)
    deal = Deal.random(77)
    history = []
    while not deal.is_over:
        view = SeatView.of(deal.state.copy(), deal.dealer, history=history)
        if view.legal_moves().size >= 2 and history:
            worlds = player._worlds(view, new_rng(5))
            assert worlds.shape == (16, S.STATE_SIZE)
            for world in worlds:
                assert world[S.HAND + view.seat] == view.state[S.HAND + view.seat]
                assert world[S.PLAYED] == view.state[S.PLAYED]
        legal = view.legal_moves()
        move = int(legal[int(rng.integers(legal.size))])
        history.append(move)
        deal.play(format_move(move))
    assert player.stats["weighted"] > 0
    player.close()


def test_the_win_objective_values_a_rollout_by_the_games_win_probability(blueprint):
    """objective=win: a greedy rollout from the true deal is worth the acting team's
    probability of winning the game from the score its replayed deal leaves."""
    from cfr.game import FunctionAddress
    from numba import types

    from games.setback.search.objective import OUTCOME_SIG, deal_outcome, win_values

    arrays = load_policy_arrays("db:" + blueprint["db"])
    search = RolloutSearch(layout_game(arrays.layout), arrays, greedy=True, threads=1)
    outcome = FunctionAddress(deal_outcome, types.FunctionType(OUTCOME_SIG))
    player = DatabasePlayer(blueprint["db"])
    buffer = np.zeros(64, np.int64)
    checked = 0
    for (state, dealer), score in zip(random_positions(30, 5)[::9], ((9, 8), (0, 0), (10, 7))
                                      * 20):
        if state[S.PHASE] != S.PHASE_PLAY or is_exhausted(state):
            continue
        team = int(state[S.TO_ACT]) % 2
        table = win_values(team, *score)
        moves = buffer[:legal_moves(state, buffer)].copy()
        values = search.values(state[None, :].copy(), moves, 1, 3, objective=(outcome, table))
        for m, move in enumerate(moves):
            replay = state.copy()
            apply_move(replay, int(move))
            while not is_exhausted(replay):
                apply_move(replay, player.choose(SeatView.of(replay, dealer)))
            assert values[0, m] == table[deal_outcome(replay)]
            assert 0.0 <= values[0, m] <= 1.0
            checked += 1
    assert checked >= 20
