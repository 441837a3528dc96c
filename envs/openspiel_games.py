"""Our games as OpenSpiel Python games (pyspiel's Python-games API), one for every adapted
registered game, registered on import as `python_<game>`:

    from envs import openspiel_games
    game = pyspiel.load_game("python_setback")   # or openspiel_games.load("setback")

A game is one hand, as OpenSpiel's own trick-taking games are: players 0..3 are the absolute
seats W N E S, partners 0-2 and 1-3. Chance deals first: the dealer (outcomes 0..3, uniform),
then the cards one at a time off the deck (each undealt card equally likely, to the seats the
game's `chance_seat` says, as its engine deals). Then the game's decisions, in the engine's
order, with the engine's moves as actions, until the game's `is_over` (`envs.adapters`;
each game's declaration `games/<game>/toolkit.py`). The returns are each player's team's hand
score minus the other team's (zero-sum), within the game's declared payoff bounds.

Information state (perfect recall): the dealer, the player's own dealt cards (and the cards
every seat sees, the game's `shown_cards`) and the decisions so far, each as the player saw it
(a move only its maker sees, the game's `private_move_index`, is hidden from the others). The
turn order is a function of those, so the movers need no writing down.
Observation (imperfect recall): the adapter's observation vector of what the seat knows now.

`State.resample_from_infostate(player, sampler)` returns a state the player cannot tell from
this one, the other seats' hidden cards redrawn uniformly over every layout consistent with
the hand sizes, the cards known and the voids the state shows (`GameAdapter.resample`, the one
world sampler of `search.world_sampler`): what OpenSpiel's ISMCTS needs. `state_from_view` builds a state from a seat's view and its
history (the hidden cards drawn the same way), for bots that play at our tables.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from envs.adapters import SEATS, adapter, adapted_games

GAME_PREFIX = "python_"
HIDDEN = -1  # a decision the observer did not see (a game's private move, to the others)


def short_name(game: str) -> str:
    """The OpenSpiel name of our game `game` (`python_setback`)."""
    return GAME_PREFIX + game


def _game_type(name: str) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"setback-cfr {name} (one hand)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=4,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={})


def _game_info(name: str) -> pyspiel.GameInfo:
    g = adapter(name)
    return pyspiel.GameInfo(
        num_distinct_actions=g.num_actions,
        max_chance_outcomes=g.n_cards,
        num_players=4,
        min_utility=g.min_hand_payoff,
        max_utility=g.max_hand_payoff,
        utility_sum=0.0,
        max_game_length=1 + g.cards_dealt + g.max_hand_length)


class CardGame(pyspiel.Game):
    """One hand of an adapted game, as a pyspiel game (see the module docstring)."""

    name = ""

    def __init__(self, params=None):
        super().__init__(_game_type(self.name), _game_info(self.name), params or dict())
        self.adapter = adapter(self.name)

    def new_initial_state(self):
        """The state before the deal (a chance node: the dealer)."""
        return CardState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer of information states (perfect recall) or observations."""
        return CardObserver(self.adapter,
                            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                            params)


class CardState(pyspiel.State):
    """A hand in progress: the chance deal, then the engine's state array (seats relative to
    the dealer) and the decisions made, with what each player saw of them."""

    def __init__(self, game):
        super().__init__(game)
        self._adapter = game.adapter
        self._dealer = -1
        self._cards: list[int] = []
        self._engine = None
        self._dealt = [0, 0, 0, 0]  # by absolute seat: the cards dealt to it
        # each decision as each absolute seat saw it: seen[p] is p's list
        self._seen: list[list[int]] = [[], [], [], []]

    # --- the standard API --------------------------------------------------------------
    def current_player(self):
        """The player to act, CHANCE during the deal, TERMINAL once the hand is settled."""
        if self._engine is None:
            return pyspiel.PlayerId.CHANCE
        if self._adapter.is_over(self._engine):
            return pyspiel.PlayerId.TERMINAL
        return (self._adapter.to_act(self._engine) + self._dealer) % 4

    def _legal_actions(self, player):
        """The engine's legal moves of the seat to act, ascending."""
        return self._adapter.legal_moves(self._engine)

    def chance_outcomes(self):
        """The dealer (4 seats), then each undealt card, all equally likely."""
        if self._dealer < 0:
            return [(seat, 0.25) for seat in range(4)]
        taken = set(self._cards)
        outcomes = [c for c in range(self._adapter.n_cards) if c not in taken]
        p = 1.0 / len(outcomes)
        return [(c, p) for c in outcomes]

    def _apply_action(self, action):
        """A chance outcome of the deal, or the acting seat's move."""
        g = self._adapter
        if self._engine is None:
            if self._dealer < 0:
                self._dealer = int(action)
                return
            seat = g.chance_seat(len(self._cards))
            if seat >= 0:
                self._dealt[(seat + self._dealer) % 4] |= 1 << int(action)
            self._cards.append(int(action))
            if len(self._cards) == g.cards_dealt:
                self._engine = g.deal_hands(self._cards)
            return
        if g.all_moves_public:
            g.apply(self._engine, int(action))
            for seen in self._seen:
                seen.append(int(action))
            return
        before = self._engine.copy()
        g.apply(self._engine, int(action))
        for player in range(4):
            self._seen[player].append(
                g.public_move(before, int(action), (player - self._dealer) % 4))

    def _action_to_string(self, player, action):
        """`Dealer W`, `Deal AS`, or the move as the replay format writes it."""
        if player == pyspiel.PlayerId.CHANCE:
            if self._dealer < 0:
                return f"Dealer {SEATS[action]}"
            return f"Deal {self._adapter.card_text(action)}"
        return self._adapter.move_text(action)

    def is_terminal(self):
        """Whether the hand is settled."""
        return self._engine is not None and self._adapter.is_over(self._engine)

    def returns(self):
        """Each player's team's hand score minus the other team's (0 before the end)."""
        if not self.is_terminal():
            return [0.0] * 4
        points = self._adapter.hand_points(self._engine)  # by team relative to the dealer
        out = []
        for player in range(4):
            team = (player - self._dealer) % 2
            out.append(float(points[team] - points[1 - team]))
        return out

    def __str__(self):
        """The dealer, each seat's cards now, and the decisions so far."""
        if self._dealer < 0:
            return "(no dealer yet)"
        g = self._adapter
        text = [f"dealer {SEATS[self._dealer]}"]
        for player in range(4):
            if self._engine is None:
                mask = self._dealt[player]
            else:
                mask = int(self._engine[g.rules.HAND + (player - self._dealer) % 4])
            cards = " ".join(g.card_text(c) for c in range(g.n_cards) if mask >> c & 1)
            text.append(f"{SEATS[player]}: {cards}")
        text.append("moves: " + " ".join(g.move_text(m) for m in self._seen[0]
                                         if m != HIDDEN) if self._engine is not None else "")
        return "\n".join(text)

    # --- for ISMCTS --------------------------------------------------------------------
    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one, the others' hidden cards redrawn
        (the draw's seed taken from `probability_sampler`, a callable giving floats in
        [0, 1))."""
        seed = int(probability_sampler() * 2**53)
        return self.resampled(player_id, seed)

    def resampled(self, player_id: int, seed: int):
        """`resample_from_infostate` with the draw seeded by `seed`."""
        if self._engine is None:
            raise pyspiel.SpielError("resample_from_infostate: the deal is not complete")
        g = self._adapter
        seat = (player_id - self._dealer) % 4
        world = g.resample(self._engine, seat, seed)
        if world is None:
            raise pyspiel.SpielError("resample_from_infostate: no layout fits the view")
        out = self.get_game().new_initial_state()
        out._copy_from(self, world)
        return out

    def _copy_from(self, other: "CardState", engine) -> None:
        self._dealer = other._dealer
        self._cards = list(other._cards)
        self._engine = engine
        self._dealt = list(other._dealt)
        self._seen = [list(s) for s in other._seen]
        for player in range(4):  # the others' dealt cards as this world has them
            rel = (player - self._dealer) % 4
            if (other._engine[self._adapter.rules.DEALT + rel]
                    != engine[self._adapter.rules.DEALT + rel]):
                self._dealt[player] = int(engine[self._adapter.rules.DEALT + rel])

    def engine_state(self) -> np.ndarray:
        """A copy of the engine's state array (None during the deal)."""
        return None if self._engine is None else self._engine.copy()

    @property
    def dealer(self) -> int:
        """The dealer's absolute seat (-1 before chance names it)."""
        return self._dealer


def state_from_view(game, view_state, seat: int, dealer: int, history, seed: int):
    """A `CardState` of `game` that relative seat `seat` (dealer `dealer`, absolute) cannot
    tell from its view: `view_state` (the engine state with the other seats' cards erased),
    `history` (the hand's moves so far, as the seat saw them); the hidden cards drawn from
    `seed` as `resample_from_infostate` draws them. A view whose cards fit no layout is a
    `pyspiel.SpielError`."""
    g = game.adapter
    view_state = np.asarray(view_state, dtype=np.int64)
    world = g.resample(view_state, seat, seed)
    if world is None:
        raise pyspiel.SpielError("state_from_view: no layout fits the view")
    state = game.new_initial_state()
    state._dealer = int(dealer)
    state._engine = world
    state._cards = []  # the deal's order is not known, and nothing reads it after the deal
    for player in range(4):
        rel = (player - dealer) % 4
        state._dealt[player] = int(world[g.rules.DEALT + rel])
    moves = [int(m) for m in history]
    discard_at = g.private_move_index(moves, HIDDEN)
    for player in range(4):
        rel = (player - dealer) % 4
        seen = list(moves)
        if discard_at >= 0 and rel != seat:
            # the discard: the dealer saw its own (this world's), the others saw nothing
            seen[discard_at] = g.private_move(world) if rel == 0 else HIDDEN
        state._seen[player] = seen
    return state


class CardObserver:
    """Observer, conforming to the PyObserver interface (see open_spiel's observation.py):
    the information state (perfect recall) or the observation (see the module docstring)."""

    def __init__(self, game_adapter, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.adapter = game_adapter
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        g = game_adapter
        if self.perfect_recall:
            # own dealt cards, the dealer (relative), then one row a decision: the move,
            # or the last column for a move not seen
            pieces = [("dealt", g.n_cards, (g.n_cards,)), ("dealer", 4, (4,)),
                      ("moves", g.max_hand_length * (g.num_actions + 1),
                       (g.max_hand_length, g.num_actions + 1))]
        else:
            pieces = [("observation", g.obs_size, (g.obs_size,))]
        size = sum(s for _, s, _ in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {}
        index = 0
        for name, s, shape in pieces:
            self.dict[name] = self.tensor[index:index + s].reshape(shape)
            index += s

    def set_from(self, state, player):
        """Fill `tensor` with `state` from `player`'s point of view."""
        self.tensor.fill(0)
        g = self.adapter
        if state._dealer < 0:
            return
        rel = (player - state._dealer) % 4
        if self.perfect_recall:
            mask = state._dealt[player]
            for c in range(g.n_cards):
                self.dict["dealt"][c] = mask >> c & 1
            self.dict["dealer"][(state._dealer - player) % 4] = 1
            for i, m in enumerate(state._seen[player]):
                self.dict["moves"][i, m if m != HIDDEN else g.num_actions] = 1
        elif state._engine is None:
            mask = state._dealt[player]
            for c in range(g.n_cards):  # the hand block comes first in every layout
                self.tensor[c] = mask >> c & 1
        else:
            self.tensor[:] = g.observation(state._engine, rel)

    def string_from(self, state, player):
        """The information state or observation of `player` in `state`, as text."""
        g = self.adapter
        if state._dealer < 0:
            return f"p{player}"
        rel = (player - state._dealer) % 4
        if self.perfect_recall:
            dealt = " ".join(g.card_text(c) for c in range(g.n_cards)
                             if state._dealt[player] >> c & 1)
            extra = g.shown_cards(state._engine) if state._engine is not None else ""
            moves = " ".join("?" if m == HIDDEN else g.move_text(m)
                             for m in state._seen[player])
            dealing = f" dealing {len(state._cards)}" if state._engine is None else ""
            return (f"p{player} dealer {SEATS[state._dealer]}{dealing} "
                    f"hand {dealt}{extra} moves {moves}").rstrip()
        if state._engine is None:
            dealt = " ".join(g.card_text(c) for c in range(g.n_cards)
                             if state._dealt[player] >> c & 1)
            return f"p{player} dealing: {dealt}"
        vector = g.observation(state._engine, rel)
        hand = " ".join(g.card_text(c) for c in range(g.n_cards) if vector[c])
        on = "".join("1" if v else "0" for v in vector[g.n_cards:] > 0)
        return f"p{player} hand {hand} public {int(on, 2):x}"


def _register() -> dict:
    """Register a pyspiel game class for every adapted game; the classes by game name."""
    classes = {}
    registered = set(pyspiel.registered_names())
    for name in adapted_games():
        cls = type(f"{name.capitalize()}OpenSpielGame", (CardGame,), {"name": name})
        if short_name(name) not in registered:
            pyspiel.register_game(_game_type(name), cls)
        classes[name] = cls
    return classes


GAME_CLASSES = _register()


def load(name: str):
    """The pyspiel game of our game `name` (`pyspiel.load_game("python_" + name)`)."""
    adapter(name)  # an unknown name is the registry's one-line error
    return pyspiel.load_game(short_name(name))
