"""The one double-dummy solver driven by a game's declaration (`search/trick_values.py`, each
game's `games/<game>/trick_play.py`): for every registered game that declares its card play,
every legal card's value equals a plain brute-force minimax over the game's own rules and
scoring on small endings (random bids, Nil and lone hands included, game scores whose bags are
about to roll over); Spades' oracle rolls the heuristic out then solves."""

from __future__ import annotations

import importlib
import importlib.util
import random

import numpy as np
import pytest

from games import registry
from games.rng import new_rng
from search.trick_values import TrickPlaySolver

GAMES = [name for name in registry.GAMES
         if importlib.util.find_spec(registry.get(name).package + ".trick_play") is not None]


def _modules(name):
    entry = registry.get(name)
    return (entry.rules(), importlib.import_module(entry.package + ".state"),
            importlib.import_module(entry.package + ".trick_play"))


def _legal(rules, state) -> list[int]:
    buf = np.empty(rules["MAX_MOVES"], dtype=np.int64)
    return [int(m) for m in buf[:rules["legal_moves"](state, buf)]]


def _brute(rules, S, state) -> int:
    """Team 0's value less team 1's under perfect play: every legal move tried, no pruning."""
    if state[S.PHASE] == S.PHASE_OVER:
        return int(rules["score_difference"](state))
    values = []
    for move in _legal(rules, state):
        child = state.copy()
        rules["apply_move"](child, move)
        values.append(_brute(rules, S, child))
    return max(values) if state[S.TO_ACT] % 2 == 0 else min(values)


def _ending(name, seed: int, tricks_left: int):
    """A hand of game `name` moved at random (bids, calls, a lone maker) until `tricks_left`
    tricks remain, then 0..3 cards more; None when nobody took the contract."""
    rules, S, trick_play = _modules(name)
    rng = random.Random(seed)
    state = S.new_state()
    if name == "spades":  # game scores whose bags roll over within the hand
        S.random_hand(new_rng(seed), state, rng.choice([0, 7, 38, -23, 119]),
                      rng.choice([0, 9, -5, 248]))
    else:
        rules["random_deal"](new_rng(seed), state)
    while state[S.PHASE] != S.PHASE_PLAY:
        if state[S.PHASE] == S.PHASE_OVER:
            return None
        legal = _legal(rules, state)
        small = [m for m in legal if m - legal[0] < 6]  # Spades: bids of 0..5 (Nil likely)
        rules["apply_move"](state, rng.choice(small))
    while trick_play.N_TRICKS - int(state[S.TRICK_NUMBER]) > tricks_left:
        rules["apply_move"](state, rng.choice(_legal(rules, state)))
    for _ in range(seed % 4):
        if state[S.PHASE] == S.PHASE_PLAY:
            rules["apply_move"](state, rng.choice(_legal(rules, state)))
    return state if state[S.PHASE] == S.PHASE_PLAY else None


def _equal_brute_force(solver, name, state, seed):
    """Assert every legal card's value (`solver.card_values`) equals brute force; return them."""
    rules, S, trick_play = _modules(name)
    sign = 1 if state[S.TO_ACT] % 2 == 0 else -1
    cards, values = solver.card_values(state, trick_play)
    for card, value in zip(cards, values):
        child = state.copy()
        rules["apply_move"](child, int(card))
        assert value == sign * _brute(rules, S, child), (seed, int(card))
    return cards, values


@pytest.fixture(scope="module")
def solver():
    return TrickPlaySolver(tt_bits=10)  # a small table: collisions and replacements happen


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", range(24))
def test_card_values_equal_brute_force(solver, name, seed):
    rules, S, trick_play = _modules(name)
    # a hand that ended in the bidding (Euchre: all passed twice) is dealt again, the same
    # ending's length and moves into the trick (1000 keeps seed % 4)
    state = next(s for s in (_ending(name, seed + 1000 * k, 1 + seed % 3) for k in range(20))
                 if s is not None)
    sign = 1 if state[S.TO_ACT] % 2 == 0 else -1
    cards, values = _equal_brute_force(solver, name, state, seed)
    assert list(cards) == _legal(rules, state)
    assert solver.value(state, trick_play) == sign * max(values)  # the position's own


@pytest.mark.parametrize("name", [g for g in GAMES
                                  if not hasattr(_modules(g)[2], "CAPTURE_SOLVER")])
def test_both_ways_of_solving_are_used(solver, name):
    """Endings solved by counting tricks and by searching the value both occur (Spades:
    Nil bids and bags; Euchre's points always follow the makers' tricks). A game whose value
    counts the cards captured (Setback) has its own search: never the trick count."""
    _, _, trick_play = _modules(name)
    ways = set()
    for seed in range(40):
        state = _ending(name, seed, 2)
        if state is not None:
            ways.add(solver.solvable_by_tricks(state, trick_play))
    assert True in ways and (name == "euchre" or False in ways)


def test_the_value_search_hands_trick_starts_to_the_trick_count(solver):
    """Spades' value search (Nil bids, bags) asks the one solver for the tricks wherever the
    value follows from them (a Nil broken, the bags out of reach), and its values stay exact
    (`test_card_values_equal_brute_force`)."""
    from search.capture_values import CTX_ASKED

    trick_play = _modules("spades")[2]
    asked = int(solver.search.ctx[CTX_ASKED])
    for seed in range(40):
        state = _ending("spades", seed, 3)
        if state is None or solver.solvable_by_tricks(state, trick_play):
            continue
        _equal_brute_force(solver, "spades", state, seed)
    assert int(solver.search.ctx[CTX_ASKED]) > asked


def test_a_value_search_stopped_at_its_node_limit_leaves_nothing_wrong():
    """Stopped part way (None), the search restores its hands; what it stored is exact."""
    _, _, trick_play = _modules("spades")
    stopped = 0
    for seed in range(40):
        state = _ending("spades", seed, 3)
        solver = TrickPlaySolver(tt_bits=10)
        if state is None or solver.solvable_by_tricks(state, trick_play):
            continue
        if solver.card_values(state, trick_play, node_limit=5) is not None:
            continue  # solved within 5 nodes
        cards, values = solver.card_values(state, trick_play)
        fresh = TrickPlaySolver(tt_bits=10).card_values(state, trick_play)
        assert list(cards) == list(fresh[0]) and list(values) == list(fresh[1])
        stopped += 1
    assert stopped >= 3


def _nil_standing(state, S) -> bool:
    return any(int(state[S.BID + seat]) == 0 and int(state[S.TAKEN + seat]) == 0
               for seat in range(4))


@pytest.mark.parametrize("seed", range(10))
def test_a_standing_nil_bid_is_searched_exactly(solver, seed):
    """Spades endings of three tricks with a Nil bidder yet to take a trick: the value search
    keys its table on what can still change the score (the Nil bidder's first trick, the
    side's tricks) and bounds each trick's start by the sides' trick count; every card's value
    equals brute force, and the trick counts were asked."""
    from search.capture_values import CTX_ASKED

    _, S, trick_play = _modules("spades")
    state = next(s for s in (_ending("spades", 5000 + seed + 1000 * k, 3) for k in range(400))
                 if s is not None and _nil_standing(s, S)
                 and not solver.solvable_by_tricks(s, trick_play))
    asked = int(solver.search.ctx[CTX_ASKED])
    _equal_brute_force(solver, "spades", state, seed)
    assert int(solver.search.ctx[CTX_ASKED]) > asked


@pytest.mark.parametrize("seed", range(8))
def test_spades_oracle_rolls_the_heuristic_out_then_solves(seed):
    from games.spades.rules import apply_card
    from games.spades.play.tournament import make_spades_player
    from games.spades.search.policy import play_heuristic

    rules, S, _ = _modules("spades")
    state = _ending("spades", 100 + seed, 5)
    sign = 1 if state[S.TO_ACT] % 2 == 0 else -1
    cards, values = make_spades_player("oracle").card_values(state, horizon=2)
    for card, value in zip(cards, values):
        child = state.copy()
        apply_card(child, int(card))
        play_heuristic(child, 2)
        assert value == sign * _brute(rules, S, child)


def test_spades_oracle_refuses_the_bidding():
    from games.spades import state as S
    from games.spades.play.tournament import make_spades_player

    state = S.new_state()
    S.random_hand(new_rng(1), state, 0, 0)
    with pytest.raises(ValueError, match="card play"):
        make_spades_player("oracle").card_values(state)


@pytest.mark.parametrize("seed", range(6))
def test_a_nil_bid_s_fate_bounds_the_value_search(seed):
    """Spades endings of three tricks with a Nil bidder yet to take a trick: the value search
    asks whether a seat's side can keep it clean (`search/seat_clean.py`) where the answer
    could decide a trick's start, and every card's value still equals brute force."""
    _, S, trick_play = _modules("spades")
    solver = TrickPlaySolver(tt_bits=10)
    asked = 0
    for k in range(400):
        state = _ending("spades", 7000 + seed + 1000 * k, 3)
        if (state is None or not _nil_standing(state, S)
                or solver.solvable_by_tricks(state, trick_play)):
            continue
        before = int(solver.clean.stats[0])
        _equal_brute_force(solver, "spades", state, seed)
        asked += int(solver.clean.stats[0]) > before
        if asked:
            break
    assert asked


def test_seat_bounds_are_the_least_and_most_of_each_side_s_splits():
    """`seat_bounds` against plain loops over a random table of three tricks left: for each
    seat n and split so far, the bound n's side forces keeping n clean and the one the other
    side forces otherwise (side 0 forces lower bounds, side 1 upper)."""
    from search.trick_values import TABLE_SIZE, seat_bounds, split_rows

    rng = np.random.default_rng(3)
    left = 3
    table = np.zeros(TABLE_SIZE, np.int64)
    for row in split_rows(left):
        table[row[4]] = rng.integers(-300, 300)
    out = np.zeros((4, 2, TABLE_SIZE), np.int64)
    seat_bounds(table, left, out)
    for total in range(left):
        for first in split_rows(total):
            c = int(first[4])
            rest = list(split_rows(left - total))
            for n in range(4):
                clean = [table[c + r[4]] for r in rest if r[n] == 0]
                dirty = [table[c + r[4]] for r in rest if r[n] > 0]
                if n % 2 == 0:
                    assert out[n, 0, c] == min(clean) and out[n, 1, c] == max(dirty)
                else:
                    assert out[n, 0, c] == max(clean) and out[n, 1, c] == min(dirty)
