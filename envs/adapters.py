"""What the toolkit adapters (PettingZoo, OpenSpiel) need of a game: one `GameAdapter` for
every game, driven by what the game declares in `games/<game>/toolkit.py`.

A `GameAdapter` wraps a game's numba rules engine (over its flat int64 state, seats relative
to the dealer) with the few things both toolkits need and the engine does not say, each the
game's declaration: the size of the action space (`NUM_ACTIONS`), how a hand is dealt from a
seed (and card by card, for OpenSpiel's chance nodes: `deal_hands` and `chance_seat`, by default
`HAND_SIZE` cards a seat in blocks from the dealer and the game's `start_hand`), when a hand
is over (`is_over`) and what it scores (`ENGINE_EXTRA`'s `hand_score`), the payoff bounds, the
game's target, what a seat does not see (`conceal`, `public_move`) and the observation vector
(`observation`, `OBS_SIZE`): a fixed-size float32 vector of what one seat knows (its own cards,
the cards played, the bidding or the naming of trump, the trump, the scores), with every seat
written relative to the observer (0 = the observer, 1 = its left, 2 = its partner, 3 = its
right), so one policy serves every seat. Optional hooks have defaults here (every move public,
nothing concealed, no game score in a hand); `moves_made` (a hand's decisions as its public
fields count them, which the ISMCTS player checks a view's history against) has none.

Players and agents are absolute seats 0..3 = W N E S in both toolkits; the engine's seats are
relative to the dealer (`relative = (absolute - dealer) % 4`).
"""

from __future__ import annotations

import functools
import importlib

import numpy as np

from games.registry import load_place
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


class NativeStateError(RuntimeError):
    """A state of pyspiel's own game built from a seat's view (a game's
    `games/NAME/envs/pyspiel.py`) disagrees with the view."""


def check_native(state, expected_player: int, ours: list) -> None:
    """`NativeStateError` unless the pyspiel `state` built from a view has the view's player to
    act (`expected_player`, pyspiel's number) and legal actions (`ours`, sorted, pyspiel's
    numbers): it cannot happen while the engines agree."""
    if state.current_player() != expected_player:
        raise NativeStateError(f"pyspiel's player to act is {state.current_player()}, the "
                               f"view's is {expected_player}")
    if sorted(state.legal_actions()) != ours:
        raise NativeStateError(f"pyspiel's legal actions {sorted(state.legal_actions())} are "
                               f"not the view's {ours}")


class GameAdapter:
    """A game in the toolkits, from its declaration `toolkit` (`games/<game>/toolkit.py`; the
    module docstring): its constants as attributes (`num_actions`, `n_cards`, ...), its hooks
    as methods."""

    first_dealer = 3  # South deals the first hand of a game, unless the game says otherwise
    all_moves_public = False  # every decision seen by every seat (no `public_move` needed)

    def __init__(self, name: str, toolkit):
        self.name = name
        self.num_actions = toolkit.NUM_ACTIONS  # engine moves are 0..num_actions-1
        self.n_cards = toolkit.N_CARDS  # the deck (chance outcomes of the deal)
        self.cards_dealt = toolkit.CARDS_DEALT  # chance nodes of a deal (the upcard included)
        self.target = toolkit.TARGET  # the game is won at this score
        self.first_dealer = getattr(toolkit, "FIRST_DEALER", self.first_dealer)
        self.max_hand_length = toolkit.MAX_HAND_LENGTH  # decisions in a hand at most
        self.min_hand_payoff = toolkit.MIN_HAND_PAYOFF  # a hand's score difference, team
        self.max_hand_payoff = toolkit.MAX_HAND_PAYOFF  # minus the other, at least, at most
        self.obs_size = toolkit.OBS_SIZE
        self.all_moves_public = getattr(toolkit, "ALL_MOVES_PUBLIC", self.all_moves_public)
        self.worlds = toolkit.WORLDS  # "module:function": the game's world draw (`resample`)
        self.rules = Engine(*toolkit.ENGINE, **toolkit.ENGINE_EXTRA)
        self.encode = toolkit.observation
        self._move_text = toolkit.MOVE_TEXT
        self.toolkit = toolkit
        for hook in ("deal_hands", "chance_seat", "is_over", "set_score", "conceal",
                     "public_move", "shown_cards", "private_move_index", "private_move",
                     "moves_made"):
            if hasattr(toolkit, hook):  # the game's own, else the default below
                setattr(self, hook, getattr(toolkit, hook))

    def __deepcopy__(self, memo):
        # one shared, stateless instance a game: OpenSpiel clones a state by deep copy, and
        # copying the engine's numba dispatchers would pickle them (milliseconds a clone)
        return self

    def deal(self, seed: int) -> np.ndarray:
        """The engine state of a hand shuffled and dealt from `seed`."""
        state = self.rules.new_state()
        self.rules.random_deal(new_rng(seed), state)
        return state

    def chance_seat(self, i: int) -> int:
        """The seat (relative to the dealer) receiving the hand's `i`-th card: by default
        `HAND_SIZE` cards a seat in blocks from the dealer (`games.scaffold.deck.deal_blocks`),
        -1 for a card past them (dealt to no seat: Euchre's upcard)."""
        size = self.toolkit.HAND_SIZE
        return i // size if i < 4 * size else -1

    def deal_hands(self, cards: list[int]) -> np.ndarray:
        """The state of a hand whose cards came off the deck in the order `cards`: by default
        the seats' hands by `chance_seat`, opened by the game's `start_hand(hands, rest)`
        (`rest`: the cards dealt to no seat, in order)."""
        hands = np.zeros(4, dtype=np.int64)
        rest = []
        for i, card in enumerate(cards):
            seat = self.chance_seat(i)
            if seat < 0:
                rest.append(int(card))
            else:
                hands[seat] |= np.int64(1) << card
        return self.toolkit.start_hand(hands, rest)

    def is_over(self, state) -> bool:
        """Whether the hand is over: by default its phase is the engine's `PHASE_OVER`."""
        return int(state[self.rules.PHASE]) == self.rules.PHASE_OVER

    def set_score(self, state, score, dealer: int) -> None:
        """Tell the hand `state` the game score before it (`score` by absolute team: EW, NS;
        `dealer` absolute), for a game whose hand scoring reads it; by default nothing."""

    def public_move(self, state_before, move: int, observer: int) -> int:
        """`move` (made in `state_before`) as relative seat `observer` sees it: by default
        every move is public."""
        return int(move)

    def shown_cards(self, state) -> str:
        """Cards every seat sees beside its own, as text for an information state (none by
        default)."""
        return ""

    def moves_made(self, state) -> int:
        """How many decisions the hand in `state` has seen, as its public fields tell (a
        seat's view checked against its history); a game whose adapters check it declares
        it."""
        raise NotImplementedError(f"{self.name} does not count a hand's moves (moves_made)")

    def private_move_index(self, moves, hidden: int) -> int:
        """Where in a hand's `moves` the one move only its maker sees is (-1: none, the
        default)."""
        return -1

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
        `hand_score` (declared in the game's `ENGINE_EXTRA`). `self.rules` is the game's
        `Engine`."""
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
        `extra_voids`, 4 bits a seat from the dealer, e.g. suits a lead showed:
        `games.<game>.public.replay_public`); None when no layout is consistent. Who played
        which card is not in the state, so the others' `DEALT` is what they hold now. The
        draw is the game's `worlds` ("module:function", the signature of the search's
        `public_worlds`), imported on first use."""
        draw = load_place(self.worlds)
        state = np.asarray(state, dtype=np.int64)
        out = np.empty((1, state.size), dtype=np.int64)
        drawn, _ = draw(state, int(seat), np.zeros(4, np.int64), int(extra_voids),
                        new_rng(int(seed)), True, out)
        if not drawn:
            return None
        if hasattr(self.toolkit, "after_resample"):  # what the game's infostate reads of it
            self.toolkit.after_resample(out[0], int(seat))
        return out[0]

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
        (the game's declared `observation`); `score_us_them` is the game score."""
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


_ADAPTERS: dict[str, GameAdapter] = {}


def adapter(name: str) -> GameAdapter:
    """The adapter of registered game `name` (one instance a game); an unknown name, or a
    registered game that declares no toolkit adapter yet, is one clear error."""
    from games import registry

    registry.get(name)  # raises UnknownGameError for a name the registry does not know
    if name not in _ADAPTERS:
        toolkit = registry.declaration(name, "toolkit")
        if toolkit is None:
            raise registry.UnknownGameError(f"game {name!r} declares no toolkit adapter "
                                            "(games/<game>/toolkit.py) yet")
        _ADAPTERS[name] = GameAdapter(name, toolkit)
    return _ADAPTERS[name]


def adapted_games() -> tuple[str, ...]:
    """The registered games that declare a toolkit adapter."""
    from games import registry

    return tuple(registry.declarations("toolkit"))
