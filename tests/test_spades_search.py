"""Spades' rollout search (`games/spades/play/search_player.py`): the heuristic player on a seat's
view making the move the rule makes on the full state, every drawn world agreeing with the
view and every public fact (the history replays legally in it), the draw uniform over the
consistent layouts of a small ending, the search the same for any thread count, its Why data, the bid-table slot
(`belief=bids`) reweighting the worlds, legal play, and bad specs refused in one line."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from games.rng import new_rng
from games.spades import state as S
from games.spades.match import play_game
from games.spades.public import cards_held
from games.spades.rules import BID_MOVE, apply_move, is_legal, legal_cards, legal_moves
from games.spades.view import SeatView
from games.spades.play.heuristic import SpadesHeuristicPlayer
from games.spades.play.search_player import SpadesSearchPlayer
from games.spades.play.tournament import SpadesSpecError, make_spades_player
from games.spades.search.policy import heuristic_move
from games.spades.search.worlds import consistent_worlds, replay_public

PUBLIC = [i for i in range(S.STATE_SIZE) if not (S.HAND <= i < S.HAND + 4 or
                                                  S.DEALT <= i < S.DEALT + 4)]


def _position(seed: int, moves: int):
    """Hand `seed` (dealer `seed % 4`) played `moves` moves by the heuristic with one random
    move in five (so voids, Nil and spade leads happen): (true state, dealer, history)."""
    rng = random.Random(seed)
    state = S.new_state()
    S.random_hand(new_rng(seed), state, rng.choice([0, 57, -18]), rng.choice([0, 99]))
    history: list[int] = []
    buf = np.zeros(14, dtype=np.int64)
    while len(history) < moves and state[S.PHASE] != S.PHASE_OVER:
        n = legal_moves(state, buf)
        move = int(heuristic_move(state)) if rng.random() < 0.8 else int(buf[rng.randrange(n)])
        apply_move(state, move)
        history.append(move)
    return state, seed % 4, history


def _replays(world: np.ndarray, history: list[int]) -> bool:
    """Whether the history is legal move for move from the world's dealt hands and ends in
    the world itself."""
    state = S.new_state()
    S.reset_hand(state, world[S.DEALT:S.DEALT + 4].copy(), world[S.SCORE], world[S.SCORE + 1])
    for move in history:
        if not is_legal(state, move):
            return False
        apply_move(state, move)
    return bool(np.array_equal(state, world))


def test_the_heuristic_reads_only_what_the_seats_view_shows():
    player = SpadesHeuristicPlayer()
    for seed in range(40):
        state, dealer, history = _position(seed, 0)
        while state[S.PHASE] != S.PHASE_OVER:
            move = player.choose(SeatView.of(state, dealer, (0, 0), history))
            assert heuristic_move(state) == move
            apply_move(state, move)
            history.append(move)


@pytest.mark.parametrize("seed", range(30))
def test_every_world_agrees_with_the_view(seed):
    state, dealer, history = _position(seed, 4 + (seed * 7) % 50)
    if state[S.PHASE] == S.PHASE_OVER:
        return
    view = SeatView.of(state, dealer, (0, 0), history)
    played_by, extra = replay_public(view.history)
    worlds = np.zeros((40, S.STATE_SIZE), dtype=np.int64)
    assert consistent_worlds(view.state, view.seat, played_by, extra, new_rng(seed), True,
                             worlds) == 40
    seat = view.seat
    for world in worlds:
        assert np.array_equal(world[PUBLIC], view.state[PUBLIC])
        assert world[S.HAND + seat] == state[S.HAND + seat]
        assert world[S.DEALT + seat] == state[S.DEALT + seat]
        union = world[S.PLAYED]
        for other in range(4):
            assert bin(int(world[S.HAND + other])).count("1") == cards_held(state, other)
            assert union & world[S.HAND + other] == 0
            union |= world[S.HAND + other]
        assert union == (1 << 52) - 1
        assert _replays(world, history)  # every public fact: the moves are legal in it


def _all_consistent(state, seat, history):
    """Every layout of the unseen cards among the other three seats (of their sizes) in which
    the history replays legally: brute force, nothing of the sampler's."""
    others = [(seat + k) % 4 for k in (1, 2, 3)]
    unseen = [c for c in range(52) if not (int(state[S.HAND + seat]) | int(state[S.PLAYED]))
              >> c & 1]
    sizes = [cards_held(state, o) for o in others]
    out = []
    for first in itertools.combinations(unseen, sizes[0]):
        rest = [c for c in unseen if c not in first]
        for second in itertools.combinations(rest, sizes[1]):
            third = [c for c in rest if c not in second]
            world = state.copy()
            for other, cards in zip(others, (first, second, third)):
                mask = sum(1 << c for c in cards)
                world[S.HAND + other] = mask
                world[S.DEALT + other] = mask | int(state[S.DEALT + other]) & ~int(
                    state[S.HAND + other])
            if _replays(world, history):
                out.append(tuple(int(world[S.HAND + o]) for o in others))
    return out


@pytest.mark.parametrize("seed", [3, 8, 11])
def test_the_draw_is_uniform_over_the_consistent_layouts(seed):
    state, dealer, history = _position(seed, 4 + 4 * 10 + 1)  # ten tricks, a card led
    view = SeatView.of(state, dealer, (0, 0), history)
    layouts = _all_consistent(state, view.seat, history)
    played_by, extra = replay_public(view.history)
    worlds = np.zeros((60 * len(layouts), S.STATE_SIZE), dtype=np.int64)
    consistent_worlds(view.state, view.seat, played_by, extra, new_rng(seed), True, worlds)
    others = [(view.seat + k) % 4 for k in (1, 2, 3)]
    counts = {layout: 0 for layout in layouts}
    for world in worlds:
        counts[tuple(int(world[S.HAND + o]) for o in others)] += 1  # KeyError: inconsistent
    observed = np.array(list(counts.values()), dtype=float)
    chi2 = float(((observed - 60.0) ** 2 / 60.0).sum())
    # every consistent layout drawn, and the counts within a loose chi-square bound
    assert observed.min() > 0 and chi2 < 3 * len(layouts) + 30


def _searcher(threads: int, **options) -> SpadesSearchPlayer:
    return SpadesSearchPlayer(SpadesHeuristicPlayer(), worlds=24, threads=threads, seed=5,
                              **options)


def test_search_is_the_same_for_any_thread_count_and_explains_itself():
    one, two = _searcher(1), _searcher(2)
    for seed, moves in ((1, 0), (2, 2), (4, 9), (6, 30)):
        state, dealer, history = _position(seed, moves)
        view = SeatView.of(state, dealer, (0, 0), history)
        a, b = one.decide(view), two.decide(view)
        assert a == b
        assert is_legal(state, a["move"])
        if a["reason"] == "search":
            legal = {int(m) for m in view.legal_moves()}
            assert {m["move"] for m in a["moves"]} == legal and a["worlds"] == 24
            assert a["moves"][0]["move"] == a["move"]
            for entry in a["belief"]:  # the spade honours' holders, shares summing to 1
                assert sum(entry["holders"]) == pytest.approx(1.0)
    two.close()


def test_the_bid_table_slot_reweights_the_worlds():
    state, dealer, history = _position(15, 4)  # the bids made, the first lead to play
    view = SeatView.of(state, dealer, (0, 0), history)
    left = (view.seat + 1) % 4
    ace = 3 * 13 + 12
    if int(state[S.HAND + view.seat]) >> ace & 1:
        pytest.skip("the seat holds the ace of spades")

    def left_holds_the_ace(view_, states, out):
        out[:] = np.where(states[:, S.HAND + left] >> ace & 1, 0.0, -50.0)

    player = _searcher(1, belief="bids", log_weight=left_holds_the_ace)
    why = player.decide(view)
    share = {e["card"]: e["holders"] for e in why["belief"]}[ace]
    assert share[0] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="bid-inference"):
        _searcher(1, belief="bids")  # no slot filled: refused at construction


def test_search_and_oracle_play_legal_moves_only():
    # play_game raises on an illegal move; one hand each, against the heuristic
    search = make_spades_player("search[worlds=8,threads=1]:heuristic", 3)
    oracle = make_spades_player("oracle", 3)
    heuristic = make_spades_player("heuristic")
    for player in (search, oracle):
        record = play_game({"W": player, "E": player, "N": heuristic, "S": heuristic}, 9,
                           max_hands=1)
        assert len(record.hands[0]["moves"]) == 56


@pytest.mark.parametrize("spec, message", [
    ("search[worlds=0]:heuristic", "worlds= must be > 0"),
    ("search[bogus=1]:heuristic", "unknown search option"),
    ("search[worlds=5:heuristic", "has no ']'"),
    ("search:random", "the base must be heuristic or db:PATH"),
    ("search[belief=policy]:heuristic", "the base must be db:PATH"),
    ("search[belief=bids]:heuristic", "bid-inference tables"),
    ("search[belief=model:x.belief]:heuristic", "not available in Spades"),
    ("oracle,bid=oracle", "cannot be an oracle"),
    ("oracle:", "needs a Spades player"),
])
def test_bad_specs_are_refused_in_one_line(spec, message):
    with pytest.raises(SpadesSpecError, match=message.replace("[", r"\[")) as info:
        make_spades_player(spec)
    assert "\n" not in str(info.value)


def test_bids_are_searched_too():
    state, dealer, history = _position(20, 1)
    view = SeatView.of(state, dealer, (0, 0), history)
    why = _searcher(1).decide(view)
    assert why["reason"] == "search" and why["move"] >= BID_MOVE
    assert len(why["moves"]) == int(legal_moves(state, np.zeros(14, dtype=np.int64)))
    assert legal_cards(state) != 0  # the seat holds cards
