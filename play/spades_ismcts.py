"""OpenSpiel's ISMCTS bot as a Spades player, searching pyspiel's own C++ `spades`
(`ismcts[:SIMS],pyspiel`).

pyspiel's `spades` (2.0.2) implements neither `InformationStateString` nor
`ResampleFromInfostate`, the two things `ISMCTSBot` asks of a state, so this player brings both
(which is why `play.ismcts_player`, whose bot relies on them, does not play Spades):

* the tree key (`SpadesISMCTS.get_state_key`) is (player, the player's 13 cards as dealt, the
  hand's moves after the deal): in Spades every bid and card is public, so that is exactly
  what the player knows;
* the world draw (`ViewWorlds.draw`) deals the cards the seat has not seen to the other three
  seats: each seat gets as many as it still holds, never a card of a suit it has shown void in
  (it did not follow that suit, or it led a spade before spades were broken, which shows a hand
  of spades only). The draw gives the most constrained cards first, each to a seat chosen at
  random among those that can take it (weighted by the room each has left), and starts over on
  a dead end: every world it gives is consistent with the view, but the worlds are not exactly
  uniform (a uniform draw by rejection is too rare late in a hand of 13 cards).

The view becomes a pyspiel state by dealing the drawn hands the way pyspiel deals (card k of
its chance nodes to its player k mod 4, its player p being our seat p + 1 from the dealer:
`tests/test_spades_vs_openspiel.py`), setting the game score before the hand (it reads the
bags from it), and replaying the hand's moves, which are the same numbers in both engines.
Settings: SIMS simulations a decision (default 100), one random rollout to the end of the hand
per simulation, the final move the most visited, no limit on world samples, and a UCT constant
of 100 (a hand's returns span some -300..+300 points here, against -8..8 for Setback's, where
the other games use 4). The bot plays for the hand's points: it does not see the game to 500.
A decision with one legal move is made without a search. Deterministic from the seed.
"""

from __future__ import annotations

import functools

import numpy as np

from games.spades import state as S
from games.spades.cards import N_RANKS, SPADES, power
from games.spades.rules import BID_MOVE

DEFAULT_SIMULATIONS = 100
MAX_SIMULATIONS = 1_000_000
UCT_C = 100.0
ROLLOUTS = 1
MAX_TRIES = 1000  # dead ends before a draw gives up (never met: the constraints are loose)


class ViewWorlds:
    """What a seat knows of a hand, from its view, and the worlds consistent with it (the
    module docstring): each seat's cards played, its voids, and how many it still holds."""

    def __init__(self, view):
        state, seat, history = view.state, int(view.seat), [int(m) for m in view.history]
        self.seat = seat
        self.score = (int(state[S.SCORE]), int(state[S.SCORE + 1]))  # by team from the dealer
        self.history = history
        self.own = [c for c in range(52) if int(state[S.HAND + seat]) >> c & 1]
        played = [[] for _ in range(4)]
        voids = [set() for _ in range(4)]
        cards = [m for m in history if m < BID_MOVE]  # the bids say nothing of the cards
        leader, broken = 1, False  # the seat left of the dealer leads the first trick
        for start in range(0, len(cards), 4):
            trick = cards[start:start + 4]
            led = trick[0] // N_RANKS
            if led == SPADES and not broken:  # a spade led unbroken: a hand of spades only
                voids[leader].update(s for s in range(4) if s != SPADES)
            for k, card in enumerate(trick):
                who = (leader + k) % 4
                played[who].append(card)
                if card // N_RANKS != led:
                    voids[who].add(led)
                broken = broken or card // N_RANKS == SPADES
            if len(trick) == 4:
                best = max(range(4), key=lambda k: power(trick[k], led))
                leader = (leader + best) % 4
        self.played = played
        self.voids = voids
        seen = set(self.own) | {c for p in played for c in p}
        self.unseen = [c for c in range(52) if c not in seen]
        self.room = [S.HAND_SIZE - len(played[s]) if s != seat else 0 for s in range(4)]
        if sum(self.room) != len(self.unseen):  # cannot happen for a view of a real hand
            raise ValueError("the view's cards do not add up to a deal")

    def draw(self, rng: np.random.RandomState) -> list[list[int]]:
        """A deal consistent with the view: each seat's 13 cards as dealt (by relative seat)."""
        eligible = {c: [s for s in range(4) if self.room[s] and c // N_RANKS not in self.voids[s]]
                    for c in self.unseen}
        for _ in range(MAX_TRIES):
            order = list(self.unseen)
            rng.shuffle(order)
            order.sort(key=lambda c: len(eligible[c]))  # the most constrained first
            room = list(self.room)
            held = [[] for _ in range(4)]
            for card in order:
                seats = [s for s in eligible[card] if room[s]]
                if not seats:
                    break
                weights = np.array([room[s] for s in seats], dtype=np.float64)
                seat = seats[int(rng.choice(len(seats), p=weights / weights.sum()))]
                held[seat].append(card)
                room[seat] -= 1
            else:
                held[self.seat] = list(self.own)
                return [held[s] + self.played[s] for s in range(4)]
        raise RuntimeError("no deal consistent with the view was found")

    def pyspiel_state(self, game, hands: list[list[int]]):
        """pyspiel's `spades` state of the hand with these hands (by relative seat)."""
        state = game.new_initial_state()
        state.set_current_scores([self.score[1], self.score[0]])  # [N-S, E-W] = [team 1, 0]
        by_player = [sorted(hands[(p + 1) % 4]) for p in range(4)]  # pyspiel player p = seat p+1
        for k in range(52):
            state.apply_action(by_player[k % 4][k // 4])
        for move in self.history:
            state.apply_action(move)
        return state


@functools.cache  # one class, not one a reseed
def spades_bot_class():
    """OpenSpiel's `ISMCTSBot` keyed by what a Spades player knows (module docstring)."""
    from open_spiel.python.algorithms import ismcts

    class SpadesISMCTS(ismcts.ISMCTSBot):
        """ISMCTSBot whose tree key is (player, its dealt cards, the moves after the deal)."""

        def get_state_key(self, state):
            """The tree key of `state` (pyspiel's spades has no information state string)."""
            history = state.history()
            player = state.current_player()
            return player, tuple(sorted(history[player:52:4])), tuple(history[52:])

    return SpadesISMCTS


class SpadesISMCTSPlayer:
    """OpenSpiel's ISMCTS bot playing Spades through pyspiel's `spades` (module docstring)."""

    def __init__(self, simulations: int = DEFAULT_SIMULATIONS, seed: int = 0,
                 name: str | None = None):
        import pyspiel

        self.simulations = int(simulations)
        self.name = name or f"ismcts:{self.simulations},pyspiel"
        self.game = pyspiel.load_game("spades")
        self._worlds = None
        self.seed(seed)

    def seed(self, seed: int) -> None:
        """Restart the player's random stream (the bot's choices, rollouts and world draws)."""
        from open_spiel.python.algorithms import ismcts, mcts

        self._random = np.random.RandomState(int(seed) % 2**32)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=ROLLOUTS, random_state=self._random)
        self.bot = spades_bot_class()(
            game=self.game, evaluator=evaluator, uct_c=UCT_C,
            max_simulations=self.simulations, random_state=self._random,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        self.bot.set_resampler(self._resample)

    def _resample(self, state, player):
        """The bot's world draw: a deal consistent with the current view."""
        return self._worlds.pyspiel_state(self.game, self._worlds.draw(self._random))

    def choose(self, view) -> int:
        """The bot's move for the seat of `view` (engine integer = pyspiel action)."""
        legal = [int(m) for m in view.legal_moves()]
        if len(legal) == 1:
            return legal[0]
        self._worlds = ViewWorlds(view)
        root = self._worlds.pyspiel_state(self.game, self._worlds.draw(self._random))
        move = int(self.bot.step(root))
        if move not in legal:  # cannot happen: pyspiel's legal moves are ours
            raise RuntimeError(f"{self.name} chose {move}, not among {legal}")
        return move


def make_spades_ismcts_player(spec: str, seed: int, error: type):
    """The player of `ismcts[:SIMS],pyspiel`; a bad spec is one `error` line."""
    text = str(spec).strip()
    head, comma, option = text.partition(",")
    if option.strip().lower() != "pyspiel":
        raise error(f"{text!r}: Spades' ISMCTS searches OpenSpiel's own C++ spades: write "
                    "ismcts[:SIMS],pyspiel")
    kind, sep, argument = head.strip().partition(":")
    if kind.lower() != "ismcts":
        raise error(f"{text!r}: not an ismcts spec (ismcts[:SIMS],pyspiel)")
    simulations = DEFAULT_SIMULATIONS
    if sep:
        if not argument.isdigit() or not 1 <= int(argument) <= MAX_SIMULATIONS:
            raise error(f"{text!r}: SIMS must be a whole number of simulations from 1 to "
                        f"{MAX_SIMULATIONS}, as in ismcts:100,pyspiel")
        simulations = int(argument)
    try:
        return SpadesISMCTSPlayer(simulations, seed)
    except ImportError as exc:
        raise error(f"{text!r}: OpenSpiel is not installed ({exc.name}); "
                    "pip install -e '.[test]' brings it") from None
