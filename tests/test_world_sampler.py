"""The one world sampler (`search/world_sampler.py`), over every registered game on its own
declaration (`games/<game>/public.py`): every sampled world agrees with the seat's view and with
every public fact, and the toolkits' draw (`GameAdapter.resample`) is uniform over the layouts
the rules allow, counted by brute force.

"Agrees with every public fact" is checked without the sampler's own bookkeeping: the world,
hidden again from the seat, is the seat's view; each seat holds as many cards as it should; and
the hand replayed from the world's deal makes every move of the history legally (so no world
gives a seat a card of a suit it showed it lacked, by not following or by Spades' spade lead)
and ends in the world's hands. A test that would pass with the sampler's constraints wrong.
"""

from __future__ import annotations

import importlib
import itertools
import math
from collections import Counter

import numpy as np
import pytest

from games import registry
from games.bits import popcount
from games.rng import new_rng
from search.world_sampler import always_possible

GAMES = tuple(registry.GAMES)


class Game:
    """What the tests read of a registered game: its rules, view, state fields and public
    facts (`games.<game>.public`)."""

    def __init__(self, name):
        entry = registry.get(name)
        self.name = name
        self.rules = entry.rules()
        self.state = importlib.import_module(entry.package + ".state")
        self.engine = importlib.import_module(entry.package + ".rules")
        self.view = importlib.import_module(entry.package + ".view").SeatView
        self.public = importlib.import_module(entry.package + ".public")
        self.possible = getattr(self.public, "possible", always_possible)
        # the one sampler on the game's hooks (`games/<game>/search/worlds.py`; a function taking
        # functions is not called from Python: numba's cache cannot keep such a signature)
        self.draw = importlib.import_module(f"games.{name}.search.worlds").public_worlds

    def worlds(self, view, seed, n, use_voids=True):
        """`n` worlds of `view` drawn by the one sampler (rows of full states), with the
        played cards and voids its history shows."""
        played_by, extra = self.public.replay_public(view.state, view.history)
        out = np.zeros((n, self.rules["STATE_SIZE"]), np.int64)
        drawn, _ = self.draw(view.state, view.seat, played_by, extra, new_rng(seed), use_voids,
                             out)
        return out[:drawn], played_by

    def views(self, seeds, every=1):
        """The views (`SeatView`) of every `every`-th decision of random hands."""
        r = self.rules
        buffer = np.empty(r["MAX_MOVES"], np.int64)
        for seed in seeds:
            rng = np.random.default_rng(seed)
            state = r["new_state"]()
            r["random_deal"](new_rng(seed), state)
            history: list[int] = []
            k = 0
            while state[r["PHASE"]] != r["PHASE_OVER"]:
                n = r["legal_moves"](state, buffer)
                if n == 0:
                    break
                if k % every == 0:
                    yield self.view.of(state, 0, (0, 0), history), state.copy()
                k += 1
                move = int(buffer[rng.integers(n)])
                r["apply_move"](state, move)
                history.append(move)

    def replays_legally(self, world, played_by, history) -> bool:
        """Whether the hand dealt as `world` has it makes every move of `history` legally and
        ends in `world`'s hands (a hidden move, Euchre's discard for the others, is the
        world's own)."""
        S = self.state
        state = self.rules["new_state"]()
        self.public.start_of_hand(world, played_by, state)
        for move in history:
            move = int(world[S.DISCARD]) if move < 0 else int(move)
            if not self.rules["is_legal"](state, move):
                return False
            self.rules["apply_move"](state, move)
        return all(state[S.HAND + s] == world[S.HAND + s] for s in range(4))


@pytest.fixture(scope="module", params=GAMES)
def game(request):
    """Each registered game."""
    return Game(request.param)


def test_every_registered_game_declares_what_the_sampler_reads(game):
    for hook in ("cards_held", "suit_masks", "constraints", "complete", "replay_public",
                 "start_of_hand", "SIZE"):
        assert hasattr(game.public, hook), f"{game.name} declares no {hook}"


def test_every_world_agrees_with_the_view_and_every_public_fact(game):
    S = game.state
    checked = 0
    for index, (view, truth) in enumerate(game.views(range(8), every=3)):
        worlds, played_by = game.worlds(view, index, 6)
        assert worlds.shape[0] == 6  # the true deal is consistent: there is a layout
        for world in worlds:
            # hidden from the seat again, the world is its view
            again = game.view.of(world, 0, (0, 0), view.history)
            assert np.array_equal(again.state, view.state) and again.seat == view.seat
            assert world[S.HAND + view.seat] == truth[S.HAND + view.seat]
            hands = [int(world[S.HAND + s]) for s in range(4)]
            assert sum(popcount(h) for h in hands) == popcount(np.bitwise_or.reduce(hands))
            for s in range(4):  # the hand sizes
                assert popcount(hands[s]) == game.public.cards_held(view.state, s)
                assert not hands[s] & int(view.state[S.PLAYED])
            # every move seen was legal with these hands, and the hands are what is left
            assert game.replays_legally(world, played_by, view.history)
            assert game.possible(view.state, world)
            checked += 1
    assert checked > 100


def test_worlds_without_voids_still_agree_with_the_hand_sizes(game):
    S = game.state
    for index, (view, _) in enumerate(game.views(range(3), every=5)):
        worlds, _ = game.worlds(view, index, 4, use_voids=False)
        for world in worlds:
            for s in range(4):
                assert popcount(int(world[S.HAND + s])) == game.public.cards_held(view.state, s)


def late_views(game, seed):
    """The views of a random hand late enough that their consistent layouts can be listed
    (3 to 8 cards hidden), with the true state."""
    S = game.state
    for view, truth in game.views([seed]):
        hidden = popcount(int(game.public.constraints(
            view.state, view.seat, True, 0, np.zeros(3, np.int64), np.zeros(3, np.int64),
            np.zeros(3, np.int64))))
        if 3 <= hidden <= 8 and truth[S.PHASE] != game.rules["PHASE_OVER"]:
            yield view, truth


def layouts_by_brute_force(game, view, played_by):
    """Every layout of `view`'s hidden cards (each other seat as many as it holds, the rest to
    no one, Euchre's hidden discard being one of those) that the rules allow: its replay makes
    every move legally, and the game's `possible` takes it. Built without the sampler's voids."""
    S = game.state
    needs, holds = np.zeros(3, np.int64), np.zeros(3, np.int64)
    unseen = int(game.public.constraints(view.state, view.seat, False, 0, needs,
                                         np.zeros(3, np.int64), holds))
    cards = [c for c in range(64) if unseen >> c & 1]
    others = [(view.seat + 1 + i) % 4 for i in range(3)]
    world = np.zeros(game.rules["STATE_SIZE"], np.int64)
    found = set()
    for first in itertools.combinations(cards, int(needs[0])):
        left = [c for c in cards if c not in first]
        for second in itertools.combinations(left, int(needs[1])):
            rest = [c for c in left if c not in second]
            for third in itertools.combinations(rest, int(needs[2])):
                pile = [c for c in rest if c not in third]
                hands = np.zeros(4, np.int64)
                hands[view.seat] = view.state[S.HAND + view.seat]
                for i, dealt in enumerate((first, second, third)):
                    hands[others[i]] = sum(1 << c for c in dealt) | holds[i]
                # the world as the sampler's `complete` makes it from these hands
                game.public.complete(view.state, view.seat, hands, played_by, new_rng(0), world)
                for discard in (pile if _hidden_discard(game, view) else [None]):
                    if discard is not None:  # the dealer's: held, played, its discard
                        world[S.DISCARD] = discard
                        world[S.DEALT] = (hands[0] | played_by[0] | (1 << discard)) & ~(
                            1 << int(view.state[S.UPCARD]))
                    if game.replays_legally(world, played_by, view.history) and \
                            game.possible(view.state, world):
                        found.add(_layout_key(game, world))
    return found


def _hidden_discard(game, view) -> bool:
    """Whether the world holds a dealer's discard the seat does not know (Euchre's, for the
    others: written -1 in their history)."""
    return any(m < 0 for m in view.history)


def _layout_key(game, world):
    """A layout: the four hands and, where the game has one, the discard."""
    S = game.state
    key = tuple(int(world[S.HAND + s]) for s in range(4))
    return key + ((int(world[S.DISCARD]),) if hasattr(S, "DISCARD") else ())


def chi2_critical(df, z=3.09):
    """Wilson-Hilferty approximation of the chi-square quantile (z = 3.09: p = 0.001)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@pytest.mark.parametrize("name", [g for g in GAMES if g != "setback"])
def test_the_toolkits_draw_is_uniform_over_the_layouts_the_rules_allow(name):
    """(Setback's undealt cards make its layouts too many to list here: its uniformity is
    tests/test_search_sampler.py's, on a small case.) Euchre's toolkit draw was a rejection
    sampler of its own (numpy's stream) until the samplers were one: this is the check that
    the one sampler's draws have its distribution, uniform over the same layouts."""
    from envs.adapters import adapter

    game, g = Game(name), adapter(name)
    checked = 0
    for seed in range(40):
        for view, truth in late_views(game, seed):
            played_by, extra = game.public.replay_public(view.state, view.history)
            layouts = layouts_by_brute_force(game, view, played_by)
            if 10 <= len(layouts) <= 400:
                break
        else:
            continue
        assert _layout_key(game, truth) in layouts  # the true deal is one of them
        draws = 40 * len(layouts)
        counts = Counter()
        for k in range(draws):
            world = g.resample(view.state, view.seat, 1000 * seed + k, extra)
            counts[_layout_key(game, world)] += 1
        assert set(counts) == layouts  # nothing inconsistent, nothing missing
        expected = draws / len(layouts)
        chi2 = sum((counts[k] - expected) ** 2 / expected for k in layouts)
        assert chi2 < chi2_critical(len(layouts) - 1)
        checked += 1
        if checked == 3:
            break
    assert checked == 3


@pytest.mark.parametrize("name", GAMES)
def test_a_toolkit_worlds_dealt_cards_tell_its_hands(name):
    """Our OpenSpiel games read a seat's `DEALT` in a resampled world as the hand of its
    information state (ISMCTS keys its tree by it): two worlds whose `DEALT` agree for a seat
    must give it the same hand, or one key has two sets of legal moves (a Euchre dealer's
    hidden discard in its `DEALT` once did, failing the bot with a KeyError)."""
    from envs.adapters import adapter

    game, g = Game(name), adapter(name)
    S = game.state
    checked = 0
    for index, (view, _) in enumerate(game.views(range(6), every=4)):
        _, extra = game.public.replay_public(view.state, view.history)
        hand_of = {}
        for k in range(30):
            world = g.resample(view.state, view.seat, 100 * index + k, extra)
            for s in range(4):
                key = (s, int(world[S.DEALT + s]))
                assert hand_of.setdefault(key, int(world[S.HAND + s])) == world[S.HAND + s]
                checked += 1
    assert checked > 1000
