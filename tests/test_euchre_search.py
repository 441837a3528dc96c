"""Rollout search for Euchre (issue 36: games/euchre/search/worlds.py,
games/euchre/play/search_player.py, db/policy_arrays.py's Euchre branch, on the game-generic
search/rollout.py and search/rollout_search.py).

The blueprint is a table of random probability vectors for every key met in random hands and in
the greedy replays the replay test makes: no strength is claimed for it, which makes the sign
check sharper (search on the true deal must beat it by a wide margin)."""

import itertools
import math

import numpy as np
import pytest

from games.euchre.abstraction import codec as euchre_codec
from games.euchre.abstraction.abstract_game import is_settled
from games.euchre.abstraction.codec import key_text
from games.euchre.abstraction.keys import MOVES_BUFFER, abstract_decision
from games.euchre.abstraction.version import ABSTRACTION_NAME, ABSTRACTION_VERSION
from db.plugin_player import PluginDatabasePlayer
from db.loader import load_strategies
from db.codec_policy_arrays import load_codec_policy_arrays
from db.synthetic import write_table
from games.euchre import state as S
from games.euchre.cards import effective_suit_mask
from games.euchre.rules import apply_move, legal_moves
from games.euchre.view import SeatView
from games.rng import new_rng
from games.euchre.play.tournament import EuchreSpecError, make_euchre_player
from play.tournament import run_tournament
from games.euchre.search.worlds import cards_played_by, consistent_worlds
from search.rollout import play_out
from search.rollout_search import RolloutSearch, choose
from games.euchre.train.game import GAME

from search_specs import BAD_OPTIONS, one_line_refusal  # noqa: E402

HEADER = {"game": "euchre", "abstraction": ABSTRACTION_NAME,
          "abstraction_version": ABSTRACTION_VERSION}


def random_positions(n_hands: int, seed: int):
    """(full state, history) of every decision of `n_hands` hands (dealer 0) played with random
    moves."""
    rng = np.random.default_rng(seed)
    buffer = np.zeros(8, np.int64)
    out = []
    for h in range(n_hands):
        state = S.new_state()
        S.random_hand(new_rng(seed * 1000 + h), state, 1)
        history = []
        while state[S.PHASE] != S.PHASE_OVER:
            out.append((state.copy(), tuple(history)))
            move = int(buffer[rng.integers(legal_moves(state, buffer))])
            apply_move(state, move)
            history.append(move)
    return out


class GreedyRandomTable:
    """A table of random vectors made on demand for every key asked, and the stored-best player
    of it: what the database player does on the database the table becomes."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.table = {}
        self.moves = np.zeros(MOVES_BUFFER, np.int64)

    def vector(self, state):
        """(n, moves, vector or None) of the decision in `state`."""
        n, _, key = abstract_decision(state, self.moves)
        if n < 2:
            return n, self.moves[:n].copy(), None
        text = key_text(int(key))
        if text not in self.table:
            self.table[text] = self.rng.dirichlet(np.ones(n)).astype(np.float32)
        return n, self.moves[:n].copy(), self.table[text]

    def replay(self, state):
        """Play `state` to its settled end with every seat's stored best action."""
        state = state.copy()
        while not is_settled(state):
            n, moves, vector = self.vector(state)
            apply_move(state, int(moves[0 if vector is None else int(np.argmax(vector))]))
        return state


REPLAY_POSITIONS = random_positions(40, 5)[::5]


@pytest.fixture(scope="module")
def blueprint(tmp_path_factory):
    """A database of random vectors for every key of 120 random hands and of the greedy
    replays from the replay test's positions."""
    maker = GreedyRandomTable(3)
    for state, _ in random_positions(120, 11) + REPLAY_POSITIONS:
        if not is_settled(state):
            maker.vector(state)
    for state, _ in REPLAY_POSITIONS:
        maker.replay(state)
    tmp = tmp_path_factory.mktemp("euchre-search")
    path = str(tmp / "e.strategy")
    write_table(path, "baseline", maker.table, **HEADER)
    db = str(tmp / "e.db")
    load_strategies([path], db, progress=False)
    return {"db": db, "tmp": tmp, "n_keys": len(maker.table)}


def test_policy_arrays_hold_exactly_the_databases_vectors(blueprint):
    from db.database import StrategyDatabase
    from games.policy_table import find_key

    arrays = load_codec_policy_arrays("db:" + blueprint["db"], "euchre", euchre_codec)
    assert arrays.game == "euchre" and arrays.layout == ABSTRACTION_NAME
    assert np.all(arrays.keys[1:] > arrays.keys[:-1])
    assert arrays.n_keys == blueprint["n_keys"]
    with StrategyDatabase(blueprint["db"]) as db:
        for i in range(arrays.n_keys):
            probs, best = db.lookup(key_text(int(arrays.keys[i])))
            assert np.array_equal(probs, arrays.probs[arrays.offsets[i]:arrays.offsets[i + 1]])
            assert best == arrays.best[i]
            assert find_key(arrays.keys, arrays.keys[i]) == i


def test_a_greedy_rollout_equals_the_database_players_replay(blueprint):
    """From positions of every phase (the calls, the alone decision, the discard, the play),
    the rollout's payoff is the points of the hand replayed move by move by the database player
    at every seat, playing its stored best actions (every key it meets is stored)."""
    arrays = load_codec_policy_arrays("db:" + blueprint["db"], "euchre", euchre_codec)
    current_player, decision, apply, utility = GAME.addresses[:4]
    player = PluginDatabasePlayer(blueprint["db"], game="euchre")
    a, b = np.zeros(S.STATE_SIZE, np.int64), np.zeros(S.STATE_SIZE, np.int64)
    actions, key_out = np.zeros(64, np.int64), np.zeros(2, np.uint64)
    phases = set()
    checked = 0
    for state, history in REPLAY_POSITIONS:
        if is_settled(state):
            continue
        value = play_out(current_player, decision, apply, utility, state, arrays.keys,
                         arrays.offsets, arrays.probs, True, new_rng(0), a, b, actions, key_out)
        replay, moves = state.copy(), list(history)
        while not is_settled(replay):
            move = player.choose(SeatView.of(replay, 0, (0, 0), moves))
            apply_move(replay, move)
            moves.append(move)
        assert value == GAME.utility(replay)
        phases.add(int(state[S.PHASE]))
        checked += 1
    assert player.counts["fallback"] == 0
    assert checked >= 40 and phases >= {S.PHASE_ORDER, S.PHASE_NAME, S.PHASE_PLAY}, phases
    player.close()


def _check_world(world, state, history, seat):
    """Every way `world` must agree with `seat`'s view of `state` and the public facts."""
    assert world[S.HAND + seat] == state[S.HAND + seat]
    for field in range(S.STATE_SIZE):  # everything public is the true hand's
        if field not in range(S.HAND, S.DEALT + 4) and field != S.DISCARD:
            assert world[field] == state[field], field
    if seat == 0:
        assert world[S.DISCARD] == state[S.DISCARD]
    assert (world[S.DISCARD] >= 0) == (state[S.DISCARD] >= 0)
    upcard = np.int64(1) << state[S.UPCARD]
    ordered_up = state[S.MAKER] >= 0 and state[S.N_PASSES] < 4
    for other in range(4):
        held = world[S.HAND + other]
        assert bin(held).count("1") == bin(state[S.HAND + other]).count("1")
        for j in range(other + 1, 4):
            assert held & world[S.HAND + j] == 0
        assert held & state[S.PLAYED] == 0
        # the upcard: in the dealer's hand from its order-up to its play, nowhere otherwise
        assert bool(held & upcard) == bool(state[S.HAND + other] & upcard)
        dealt = world[S.DEALT + other]
        assert bin(dealt).count("1") == 5 and dealt & state[S.PLAYED] == \
            state[S.DEALT + other] & state[S.PLAYED]  # who played which card
        if other != seat:
            assert held & state[S.HAND + seat] == 0
            for suit in range(4):
                if state[S.SHOWN_VOIDS] >> (4 * other + suit) & 1:
                    assert held & effective_suit_mask(suit, state[S.TRUMP]) == 0
    if world[S.DISCARD] >= 0:
        gone = np.int64(1) << world[S.DISCARD]
        assert not any(world[S.HAND + s] & gone for s in range(4))
        assert not gone & (state[S.PLAYED] | upcard)
        assert ordered_up and world[S.DEALT] & gone
    dealt_all = world[S.DEALT] | world[S.DEALT + 1] | world[S.DEALT + 2] | world[S.DEALT + 3]
    assert bin(dealt_all).count("1") == 20 and not dealt_all & upcard
    buffer, mine = np.zeros(8, np.int64), np.zeros(8, np.int64)
    assert legal_moves(world, buffer) == legal_moves(state, mine)
    assert np.array_equal(buffer, mine)


def test_every_world_agrees_with_the_view_and_every_public_fact():
    """A property test over every decision of random hands (lone hands, stuck dealers, both
    rounds, voids shown): the view as each acting seat gets it, worlds drawn from it."""
    facts = set()
    for n, (state, history) in enumerate(random_positions(60, 9)):
        view = SeatView.of(state, 0, (0, 0), history)
        worlds = np.zeros((4, S.STATE_SIZE), np.int64)
        assert consistent_worlds(view.state, view.seat, cards_played_by(view), new_rng(n),
                                 True, worlds) == 4
        for world in worlds:
            _check_world(world, state, history, view.seat)
        facts.add(("alone", int(state[S.ALONE]) == 1))
        facts.add(("voids", int(state[S.SHOWN_VOIDS]) != 0))
        facts.add(("hidden discard", view.seat != 0 and int(state[S.DISCARD]) >= 0))
    assert facts >= {("alone", True), ("voids", True), ("hidden discard", True)}


def test_worlds_are_uniform_over_the_consistent_layouts():
    """Late in a hand with voids shown and a hidden discard, the worlds' frequencies match the
    layouts counted by brute force (a chi-square test at the 0.1 % level)."""
    for state, history in random_positions(200, 21):
        view = SeatView.of(state, 0, (0, 0), history)
        if (view.seat != 0 and state[S.DISCARD] >= 0 and state[S.TRICK_NUMBER] == 4
                and state[S.SHOWN_VOIDS] != 0 and state[S.ALONE] == 0):
            break
    else:
        pytest.fail("no position of the kind")
    seat, trump = view.seat, int(state[S.TRUMP])
    others = [(seat + k) % 4 for k in (1, 2, 3)]
    worlds = np.zeros((20000, S.STATE_SIZE), np.int64)
    consistent_worlds(view.state, seat, cards_played_by(view), new_rng(1), True, worlds)
    seen = {}
    for w in worlds:
        layout = tuple(int(w[S.HAND + s]) for s in others) + (int(w[S.DISCARD]),)
        seen[layout] = seen.get(layout, 0) + 1
    # brute force: every split of the unseen cards, the upcard's place and voids respected
    upcard = 1 << int(state[S.UPCARD])
    unseen = [c for c in range(24) if not (int(state[S.HAND + seat]) | int(state[S.PLAYED])
                                           | upcard) >> c & 1]
    sizes = [bin(int(state[S.HAND + s]) & ~upcard).count("1") for s in others]
    layouts = []
    for first in itertools.combinations(unseen, sizes[0]):
        rest1 = [c for c in unseen if c not in first]
        for second in itertools.combinations(rest1, sizes[1]):
            rest2 = [c for c in rest1 if c not in second]
            for third in itertools.combinations(rest2, sizes[2]):
                rest3 = [c for c in rest2 if c not in third]
                hands = []
                for s, cards in zip(others, (first, second, third)):
                    mask = sum(1 << c for c in cards) | (int(state[S.HAND + s]) & upcard)
                    void = sum(int(effective_suit_mask(u, trump)) for u in range(4)
                               if int(state[S.SHOWN_VOIDS]) >> (4 * s + u) & 1)
                    hands.append(mask if not mask & void else None)
                if None not in hands:
                    layouts += [tuple(hands) + (d,) for d in rest3]
    assert set(seen) <= set(layouts) and len(layouts) >= 4
    expected = worlds.shape[0] / len(layouts)
    chi2 = sum((seen.get(x, 0) - expected) ** 2 / expected for x in layouts)
    dof = len(layouts) - 1
    assert chi2 < dof + 3.1 * math.sqrt(2 * dof) + 10, (chi2, dof)


def _true_deal_search(search, state, worlds=16):
    """The move with the best rollout value when the worlds are all the true deal."""
    buffer = np.zeros(8, np.int64)
    moves = buffer[:legal_moves(state, buffer)].copy()
    if moves.size == 1 or is_settled(state):
        return int(moves[0])
    sign = 1 if state[S.TO_ACT] % 2 == 0 else -1
    values = search.values(np.repeat(state[None, :], worlds, axis=0), moves, sign, 7)
    return int(moves[choose(values)])


def _blueprint_move(arrays, state, rng):
    """The blueprint's move as the rollouts play it: drawn from the stored vector, the first
    abstract action for a key the table lacks (the database player would ask the heuristic)."""
    from games.policy_table import find_key

    moves = np.zeros(MOVES_BUFFER, np.int64)
    n, _, key = abstract_decision(state, moves)
    index = find_key(arrays.keys, np.uint64(key)) if n >= 2 else -1
    if index < 0:
        return int(moves[0])
    probs = arrays.probs[arrays.offsets[index]:arrays.offsets[index + 1]].astype(np.float64)
    return int(moves[rng.choice(n, p=probs / probs.sum())])


def test_search_on_the_true_deal_beats_the_blueprint_widely(blueprint):
    """A sign check: team 0 searching every decision (calls, alone, discard, cards) with the
    true deal as every world against team 1 playing the blueprint as the rollouts play it,
    then the teams swapped, over the same hands."""
    arrays = load_codec_policy_arrays("db:" + blueprint["db"], "euchre", euchre_codec)
    search = RolloutSearch(GAME, arrays, threads=1)
    rng = np.random.default_rng(1)
    margins = []
    for h in range(40):
        for searcher in (0, 1):
            state = S.new_state()
            S.random_hand(new_rng(500 + h), state, 1)
            while state[S.PHASE] != S.PHASE_OVER:
                if state[S.TO_ACT] % 2 == searcher:
                    move = _true_deal_search(search, state)
                else:
                    move = _blueprint_move(arrays, state, rng)
                apply_move(state, move)
            diff = GAME.utility(state)
            margins.append(diff if searcher == 0 else -diff)
    search.close()
    assert np.mean(margins) > 1.0, np.mean(margins)


def test_a_decision_is_the_same_by_seed_for_one_and_two_threads(blueprint):
    spec = "search[worlds=24,threads={}]:db:" + blueprint["db"]
    one = make_euchre_player(spec.format(1), seed=4)
    two = make_euchre_player(spec.format(2), seed=4)
    other = make_euchre_player(spec.format(2), seed=5)
    differs = searched = 0
    for state, history in random_positions(6, 3):
        view = SeatView.of(state, 0, (0, 0), history)
        first, second, third = one.explain(view), two.explain(view), other.explain(view)
        assert first == second
        searched += first["reason"] == "search"
        differs += first["moves"] != third["moves"]
    assert searched > 10 and differs > 0  # the seed matters
    for player in (one, two, other):
        player.close()


def test_search_players_play_euchre_tournaments_and_search_every_kind(blueprint):
    spec = f"search[worlds=8,threads=1]:db:{blueprint['db']}"
    player = make_euchre_player(spec)
    assert player.name == spec
    kinds = set()
    decide = player.decide

    def recording(view):
        result = decide(view)
        if result["reason"] == "search":
            kinds.add(int(view.state[S.PHASE]))
        return result

    player.decide = recording
    rows = run_tournament((player, make_euchre_player("heuristic")), 12, seed=3,
                          duplicate=True, hands=True, progress=False, game="euchre")
    assert rows.shape == (24, 4)
    assert kinds >= {S.PHASE_ORDER, S.PHASE_PLAY}, kinds
    player.close()


def test_the_discard_and_the_alone_decision_are_searched(blueprint):
    """The dealer's discard (forced in the abstraction) and the alone decision are searched
    over every legal move."""
    player = make_euchre_player(f"search[worlds=8,threads=1]:db:{blueprint['db']}")
    seen = set()
    for state, history in random_positions(60, 13):
        phase = int(state[S.PHASE])
        if phase in (S.PHASE_DISCARD, S.PHASE_ALONE) and phase not in seen:
            result = player.decide(SeatView.of(state, 0, (0, 0), history))
            assert result["reason"] == "search"
            assert len(result["moves"]) == (5 if phase == S.PHASE_DISCARD else 2)
            seen.add(phase)
    assert seen == {S.PHASE_DISCARD, S.PHASE_ALONE}
    player.close()


@pytest.mark.parametrize("spec, says", BAD_OPTIONS + [
    ("search:heuristic", "the policy must be db:PATH"),
    ("search:db:/nonexistent/x.db", "x.db"),
])
def test_bad_specs_are_refused_in_one_line(spec, says):
    assert says in one_line_refusal(EuchreSpecError, make_euchre_player, spec)


def test_a_policy_of_another_game_is_refused_in_one_line(blueprint):
    path = str(blueprint["tmp"] / "setback.strategy")
    from games.setback.db.synthetic import auction_keys, write_table

    keys, counts = auction_keys(np.random.default_rng(0), 3)
    write_table(path, "baseline", {k: np.ones(n) / n for k, n in zip(keys, counts)})
    db = str(blueprint["tmp"] / "setback.db")
    load_strategies([path], db, progress=False)
    assert "not 'euchre'" in one_line_refusal(EuchreSpecError, make_euchre_player,
                                              f"search:db:{db}")


def test_the_time_budget_is_honoured(blueprint):
    import time

    player = make_euchre_player(f"search[worlds=50000,think=20,threads=1]:db:{blueprint['db']}")
    state, history = next((s, h) for s, h in random_positions(3, 8)
                          if s[S.PHASE] == S.PHASE_PLAY and s[S.TRICK_NUMBER] == 0)
    view = SeatView.of(state, 0, (0, 0), history)
    player.explain(view)  # compiled and warm
    start = time.perf_counter()
    result = player.explain(view)
    elapsed = time.perf_counter() - start
    assert 0 < result["worlds"] < 50000
    # drawing the 50,000 worlds up front is part of the decision (all of them take seconds)
    assert elapsed < 1.0, elapsed
    player.close()


def test_the_calls_likelihood_is_the_databases_probabilities_of_the_calls_made(blueprint):
    """`belief=bids`: a world's weight is the product of the blueprint's probabilities of every
    call and alone decision made (floored), read here from the database key by key."""
    from db.database import StrategyDatabase
    from play.search_options import FLOOR
    from games.euchre import public, rules
    from play.likelihood import ALL_SEATS, world_log_weights
    from search.likelihood import BIDS

    arrays = load_codec_policy_arrays("db:" + blueprint["db"], "euchre", euchre_codec)
    checked = 0
    with StrategyDatabase(blueprint["db"]) as db:
        for state, history in random_positions(30, 17):
            if state[S.PHASE] != S.PHASE_PLAY or state[S.N_IN_TRICK] != 0 \
                    or state[S.TRICK_NUMBER] != 1:
                continue
            expected = 0.0
            replay = S.new_state()
            S.reset_hand(replay, state[S.DEALT:S.DEALT + 4].copy(), state[S.UPCARD], 1)
            for move in history:
                if replay[S.PHASE] == S.PHASE_PLAY:
                    break
                moves = np.zeros(MOVES_BUFFER, np.int64)
                n, _, key = abstract_decision(replay, moves)
                hit = db.lookup(key_text(int(key))) if n >= 2 else None
                if hit is not None:
                    index = list(moves[:n]).index(move)
                    expected += math.log(max(float(hit[0][index]), FLOOR))
                apply_move(replay, move)
            out = np.zeros(1)
            world_log_weights(public, rules.apply_move, S.TO_ACT, GAME.addresses, BIDS,
                              state[None, :].copy(), np.zeros(4, np.int64),
                              np.array(history, np.int64), ALL_SEATS, arrays, FLOOR, out)
            assert out[0] == pytest.approx(expected, abs=1e-9)
            checked += expected != 0.0
    assert checked >= 5


def test_weighted_worlds_still_agree_with_the_view(blueprint):
    player = make_euchre_player(f"search[worlds=8,belief=bids,threads=1]:db:{blueprint['db']}")
    for state, history in random_positions(8, 19):
        view = SeatView.of(state, 0, (0, 0), history)
        if view.legal_moves().size < 2 or is_settled(state):
            continue
        for world in player._worlds(view, new_rng(3)):
            _check_world(world, state, history, view.seat)
    assert player.stats["weighted"] > 10 and player.stats["ess"] > 0
    player.close()


def test_the_web_bots_show_a_search_players_values_under_its_blueprints_key(blueprint):
    """The Why panel's data for a Euchre search bot (web/bots.py, bots_for): its move, `search`
    as the reason, every legal move's searched value as text, best first, and the blueprint's
    key with the database's probabilities; the move is the player's own `decide` move."""
    from games.euchre.api import format_move
    from web.game_tables import web_game

    EuchreBots = web_game("euchre").load("bots")  # the game's bots class

    spec = f"search[worlds=8,threads=1]:db:{blueprint['db']}"
    bots = EuchreBots(spec)
    reference = make_euchre_player(spec)
    shown = 0
    for state, history in random_positions(12, 23):
        view = SeatView.of(state, 0, (0, 0), history)
        legal = view.legal_moves()
        if legal.size < 2 or is_settled(state):
            continue
        move, why = bots.decide(view, 17)
        reference.seed(17)
        assert move == reference.decide(view)["move"]
        assert why["move"] == format_move(move) and why["player"] == spec
        assert why["reason"] in ("search", "blueprint")
        if why["reason"] == "search":
            values = [s["value"] for s in why["searched"]]
            assert sorted(s["move"] for s in why["searched"]) == sorted(
                format_move(int(m)) for m in legal)
            assert values == sorted(values, reverse=True) and why["worlds"] == 8
            shown += 1
        if why["found"]:
            assert why["key"] and all(a["prob"] is not None for a in why["actions"])
    assert shown >= 5
    reference.close()
