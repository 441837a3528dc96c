"""What the toolkit adapters (PettingZoo, OpenSpiel) need of a game, one class a registered game.

A `GameAdapter` wraps a game's numba rules engine (over its flat int64 state, seats relative
to the dealer) with the few things both toolkits need and the engine does not say: the size of
the action space, how a hand is dealt from a seed (and card by card, for OpenSpiel's chance
nodes), when a hand is over and what it scores, the game's target, and the observation vector:
a fixed-size float32 vector of what one seat knows (its own cards, the cards played, the
bidding or the naming of trump, the trump, the scores), with every seat written relative to
the observer (0 = the observer, 1 = its left, 2 = its partner, 3 = its right), so one policy
serves every seat.

Players and agents are absolute seats 0..3 = W N E S in both toolkits; the engine's seats are
relative to the dealer (`relative = (absolute - dealer) % 4`).
"""

from __future__ import annotations

import functools
import importlib

import numpy as np

from envs.encoding import EUCHRE_SIZE, SCORE_CLIP, SETBACK_SIZE  # noqa: F401 (re-exported)
from envs.encoding import euchre_observation, setback_observation
from games.rng import new_rng, stream_seed

SEATS = "WNES"


def relative_seat(absolute: int, dealer: int) -> int:
    """Seat relative to the dealer (0 = dealer) of absolute seat `absolute`."""
    return (absolute - dealer) % 4


def absolute_seat(relative: int, dealer: int) -> int:
    """Absolute seat (0..3 = W N E S) of the seat `relative` to the dealer."""
    return (relative + dealer) % 4


def hand_seed(seed: int, index: int) -> int:
    """The seed of hand `index` of the episode (or game) seeded `seed`, as tournaments derive
    it (`stream_seed`), so hand k is the same whatever was played before it."""
    return int(stream_seed(np.uint64(seed % 2**64), np.uint64(index)))


class GameAdapter:
    """The common interface; see `SetbackAdapter` and `EuchreAdapter`."""

    name = ""
    num_actions = 0  # engine moves are 0..num_actions-1
    n_cards = 0  # the deck (chance outcomes of the deal)
    cards_dealt = 0  # chance nodes of a deal (cards, the upcard included)
    target = 0  # the game is won at this score
    first_dealer = 3  # South deals the first hand of a game
    max_hand_length = 0  # decisions in a hand at most
    min_hand_payoff = 0.0  # a hand's score difference, team minus the other, at least ...
    max_hand_payoff = 0.0  # ... and at most
    obs_size = 0
    all_moves_public = False  # every decision seen by every seat (no `public_move` needed)
    worlds = ""  # "module:function": the game's world draw (`resample`)

    def __deepcopy__(self, memo):
        # one shared, stateless instance a game: OpenSpiel clones a state by deep copy, and
        # copying the engine's numba dispatchers would pickle them (milliseconds a clone)
        return self

    def deal(self, seed: int) -> np.ndarray:
        """The engine state of a hand shuffled and dealt from `seed`."""
        state = self.rules.new_state()
        self.rules.random_deal(new_rng(seed), state)
        return state

    def set_score(self, state, score, dealer: int) -> None:
        """Tell the hand `state` the game score before it (`score` by absolute team: EW, NS;
        `dealer` absolute), for a game whose hand scoring reads it (Spades: its bags); by
        default nothing."""

    def legal_moves(self, state) -> list[int]:
        """The legal moves (engine integers, ascending) of the seat to act."""
        buffer = np.empty(self.rules.MAX_MOVES, dtype=np.int64)
        n = self.rules.legal_moves(state, buffer)
        return buffer[:n].tolist()

    def apply(self, state, move: int) -> None:
        """Play `move` for the seat to act."""
        self.rules.apply_move(state, int(move))

    def to_act(self, state) -> int:
        """The seat to act, relative to the dealer."""
        return int(state[self.rules.TO_ACT])

    def game_winner(self, score_ew: int, score_ns: int) -> int:
        """The absolute team that has won the game (0 EW, 1 NS), or -1 to play on."""
        return int(self.rules.game_winner(int(score_ew), int(score_ns)))

    def hand_points(self, state) -> tuple[int, int]:
        """Each team's score for the hand (by team relative to the dealer): the engine's
        `hand_score` (Setback's deal score, setbacks applied; Euchre's points). `self.rules`
        is the game's `Engine`."""
        a, b = self.rules.hand_score(state)
        return int(a), int(b)

    @functools.cached_property
    def public(self):
        """The game's declaration of what a seat knows of the hidden cards
        (`games/<game>/public.py`, beside its rules)."""
        from games import registry

        return importlib.import_module(registry.get(self.name).package + ".public")

    def cards_held(self, state, seat: int) -> int:
        """How many cards relative seat `seat` holds (public): the game's declaration
        (`games.<game>.public.cards_held`, `self.public`)."""
        return int(self.public.cards_held(np.asarray(state, dtype=np.int64), int(seat)))

    def resample(self, state, seat: int, seed: int, extra_voids: int = 0) -> np.ndarray | None:
        """A full state consistent with what relative seat `seat` knows of `state` (`state` may
        be its view, the others' cards erased): the other seats' hidden cards drawn from `seed`
        by the one world sampler (`search.world_sampler`: uniform over every layout consistent
        with the hand sizes, the cards known and the voids the state shows, plus
        `extra_voids`, 4 bits a seat from the dealer, e.g. Spades' spade leads:
        `games.spades.public.replay_public`); None when no layout is consistent. Who played
        which card is not in the state, so the others' `DEALT` is what they hold now. The
        draw is the game's `worlds` ("module:function", the signature of the search's
        `public_worlds`), imported on first use."""
        module, _, name = self.worlds.partition(":")
        draw = getattr(importlib.import_module(module), name)
        state = np.asarray(state, dtype=np.int64)
        out = np.empty((1, state.size), dtype=np.int64)
        drawn, _ = draw(state, int(seat), np.zeros(4, np.int64), int(extra_voids),
                        new_rng(int(seed)), True, out)
        return out[0] if drawn else None

    def hidden(self, state, seat: int) -> np.ndarray:
        """`state` as relative seat `seat` sees it: the other seats' cards erased (and what
        else the game's `conceal` hides)."""
        out = state.copy()
        for other in range(4):
            if other != seat:
                out[self.rules.HAND + other] = 0
                out[self.rules.DEALT + other] = 0
        self.conceal(out, seat)
        return out

    def conceal(self, state, seat: int) -> None:
        """Hide from relative seat `seat`, in its copy `state`, what the game keeps from it
        beyond the other seats' cards (nothing by default)."""

    def observation(self, state, seat: int, score_us_them=(0, 0)) -> np.ndarray:
        """What relative seat `seat` knows of `state`, as a float32 vector of `obs_size`
        (the game's encoder of `envs.encoding`); `score_us_them` is the game score."""
        out = np.empty(self.obs_size, dtype=np.float32)
        self.encode(state, seat, int(score_us_them[0]), int(score_us_them[1]), out)
        return out

    def move_text(self, move: int) -> str:
        """A move as the replay format writes it (`AS`, `P`, `H`, `alone`, ...)."""
        return self._move_text[move]

    def card_text(self, card: int) -> str:
        """A card as text (`AS`)."""
        return self._move_text[card]


class Engine:
    """A game's engine entry points under one name (`adapter.rules`): `extra` (name -> object)
    first, then each module in turn (state fields, rules, ...); a name is looked up once and
    kept, so the toolkits' Python loops pay a plain attribute read after the first."""

    def __init__(self, *modules, **extra):
        self._modules = modules
        self.__dict__.update(extra)

    def __getattr__(self, name):
        if name.startswith("__") or name == "_modules":  # copy and pickle probe these
            raise AttributeError(name)
        for module in self._modules:
            if hasattr(module, name):
                value = getattr(module, name)
                setattr(self, name, value)
                return value
        raise AttributeError(f"no engine entry point {name!r}")


class SetbackAdapter(GameAdapter):
    """Setback (Auction Pitch) to 11: moves 0..51 are cards, 52 + bid (P=52, 2..4 = 54..56)
    are bids; a deal ends once its score can no longer change (as tournaments score it)."""

    name = "setback"
    all_moves_public = True
    worlds = "search.sampler:toolkit_worlds"
    num_actions = 57
    n_cards = 52
    cards_dealt = 24
    target = 11
    max_hand_length = 4 + 24
    min_hand_payoff = -8.0  # a set bid of 4 (-4) against the other side's four points
    max_hand_payoff = 8.0
    # hand, dealt, played before this trick, this trick by the 3 others, won by us / them,
    # bids (4 seats x unknown/P/2/3/4), high bidder (4 + none), trump (4 + none), dealer,
    # leader, shown voids (4 x 4), phase (bid/lead/follow/over), trick number, score us/them
    obs_size = SETBACK_SIZE
    encode = staticmethod(setback_observation)

    def __init__(self):
        from games.setback import game, rules, scoring, state

        self.rules = Engine(state, rules, is_exhausted=scoring.is_exhausted,
                            game_winner=game.game_winner, deal_score=scoring.deal_score,
                            hand_score=scoring.deal_score)
        self._phase, self._over, self._exhausted = state.PHASE, state.PHASE_OVER, state.EXHAUSTED
        from games.setback.api import format_move

        self._move_text = tuple(format_move(m) if m != 53 else "?" for m in range(57))

    def deal_hands(self, cards: list[int]) -> np.ndarray:
        """The state of a deal whose 24 cards came off the deck in the order `cards`, dealt
        3+3 from the dealer's left as the engine deals (`state.deal_hands`)."""
        hands = np.zeros(4, dtype=np.int64)
        for i, card in enumerate(cards):
            hands[(i // 3 + 1) % 4] |= np.int64(1) << card
        state = self.rules.new_state()
        self.rules.reset_deal(state, hands)
        return state

    def chance_seat(self, i: int) -> int:
        """The seat (relative to the dealer) that receives the deal's `i`-th card; -1 for
        none (the upcard of Euchre)."""
        return (i // 3 + 1) % 4

    def is_over(self, state) -> bool:
        """Whether the deal's score is settled (it is over, or nothing can change it): the
        engine's `is_exhausted`, read in Python (a numba call costs more from Python)."""
        return bool(state[self._phase] == self._over or state[self._exhausted] != 0)

    def public_move(self, state_before, move: int, observer: int) -> int:
        """`move` (made in `state_before`) as relative seat `observer` sees it: every Setback
        move is public."""
        return int(move)


class EuchreAdapter(GameAdapter):
    """Euchre as OpenSpiel 2.0.2 plays it (stick the dealer), to 10: moves 0..23 are cards,
    24 pass, 25 + suit names trump, 29 alone, 30 with the partner."""

    name = "euchre"
    worlds = "search.euchre_worlds:public_worlds"
    num_actions = 31
    n_cards = 24
    cards_dealt = 21  # five a seat and the upcard
    target = 10
    max_hand_length = 8 + 1 + 1 + 20
    min_hand_payoff = -4.0
    max_hand_payoff = 4.0
    # hand, dealt, upcard, discard (the dealer's own), played before this trick, this trick by
    # the 3 others, dealer, maker (4 + none), trump (4 + none), alone (undecided/partner/
    # alone), the seat sitting out (4 + none), leader, phase (order/name/discard/alone/lead/
    # follow/over), passes, tricks won us/them, shown voids (4 x 4), trick number, score
    obs_size = EUCHRE_SIZE
    encode = staticmethod(euchre_observation)

    def __init__(self):
        from games.euchre import game, rules, scoring, state

        self.rules = Engine(state, rules, hand_score=scoring.hand_score,
                            game_winner=game.game_winner)
        from games.euchre.api import MOVE_TEXT

        self._move_text = MOVE_TEXT

    def deal_hands(self, cards: list[int]) -> np.ndarray:
        """The state of a hand whose 21 cards came off the deck in the order `cards`: five
        a seat from the dealer (deck cards 5s..5s+4 to relative seat s, as the engine deals)
        and the last one turned up; stick the dealer on."""
        hands = np.zeros(4, dtype=np.int64)
        for i, card in enumerate(cards[:20]):
            hands[i // 5] |= np.int64(1) << card
        state = self.rules.new_state()
        self.rules.reset_hand(state, hands, int(cards[20]), 1)
        return state

    def chance_seat(self, i: int) -> int:
        """The seat (relative to the dealer) receiving the hand's `i`-th card; -1 for the
        upcard."""
        return i // 5 if i < 20 else -1

    def is_over(self, state) -> bool:
        """Whether the five tricks are played."""
        return int(state[self.rules.PHASE]) == self.rules.PHASE_OVER

    def conceal(self, state, seat: int) -> None:
        """The dealer's discard, unless `seat` is the dealer."""
        if seat != 0:
            state[self.rules.DISCARD] = -1

    def resample(self, state, seat: int, seed: int, extra_voids: int = 0) -> np.ndarray | None:
        """`GameAdapter.resample`, each other seat's `DEALT` being the cards it holds now (the
        dealer's with the upcard it picked up, without its discard): our OpenSpiel game reads a
        seat's `DEALT` as the hand in its information state, which a discard it does not
        hold would make ambiguous (two worlds, one string, other legal moves)."""
        out = super().resample(state, seat, seed, extra_voids)
        if out is not None:
            for other in range(4):
                if other != seat:
                    out[self.rules.DEALT + other] = out[self.rules.HAND + other]
        return out

    def public_move(self, state_before, move: int, observer: int) -> int:
        """`move` (made in `state_before`) as relative seat `observer` sees it: the dealer's
        discard is the dealer's alone (-1 for the others); every other move is public."""
        if int(state_before[self.rules.PHASE]) == self.rules.PHASE_DISCARD and observer != 0:
            return -1
        return int(move)


_ADAPTERS: dict[str, GameAdapter] = {}
_CLASSES = {"setback": SetbackAdapter, "euchre": EuchreAdapter,
            "spades": "envs.spades_adapter:SpadesAdapter"}  # a dotted name: imported on use


def adapter(name: str) -> GameAdapter:
    """The adapter of registered game `name` (one instance a game); an unknown name, or a
    registered game with no adapter yet, is one clear error."""
    from games import registry

    registry.get(name)  # raises UnknownGameError for a name the registry does not know
    if name not in _CLASSES:
        raise registry.UnknownGameError(f"game {name!r} has no toolkit adapter in envs/ yet")
    if name not in _ADAPTERS:
        cls = _CLASSES[name]
        if isinstance(cls, str):  # a game's adapter in a module of its own (its plug-in's)
            import importlib

            module, _, attribute = cls.partition(":")
            cls = getattr(importlib.import_module(module), attribute)
        _ADAPTERS[name] = cls()
    return _ADAPTERS[name]


def adapted_games() -> tuple[str, ...]:
    """The registered games that have an adapter."""
    return tuple(name for name in _CLASSES)
