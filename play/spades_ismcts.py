"""OpenSpiel's ISMCTS bot as a Spades player, searching pyspiel's own C++ `spades`
(`ismcts[:SIMS],pyspiel`).

pyspiel's `spades` (2.0.2) implements neither `InformationStateString` nor
`ResampleFromInfostate`, the two things `ISMCTSBot` asks of a state, so this player brings both
(which is why `play.ismcts_player`, whose bot relies on them, does not play Spades):

* the tree key (`SpadesISMCTS.get_state_key`) is (player, the player's 13 cards as dealt, the
  hand's moves after the deal): in Spades every bid and card is public, so that is exactly
  what the player knows;
* the world draw (`SpadesISMCTSPlayer.world`) is the one world sampler's, as for every search
  of every game (`search/world_sampler.py` on `games/spades/public.py`, through
  `envs.pyspiel_spades.native_state`): the cards the seat has not seen dealt to the other three
  seats, exactly uniform over every layout consistent with the view, each seat as many as it
  still holds and never a card of a suit it has shown void in (it did not follow that suit, or
  it led a spade, which the rules allow only from a hand of spades alone, at any point of the
  hand: this game never breaks spades). The view becomes a pyspiel state by dealing the drawn
  hands the way pyspiel deals (card k of its chance nodes to its player k mod 4, its player p
  being our seat p + 1 from the dealer: `tests/test_spades_vs_openspiel.py`), setting the game
  score before the hand (it reads the bags from it), and replaying the hand's moves, which are
  the same numbers in both engines.

Settings: SIMS simulations a decision (default 100), one random rollout to the end of the hand
per simulation, the final move the most visited, no limit on world samples, and a UCT constant
of 100 (a hand's returns span some -300..+300 points here, against -8..8 for Setback's, where
the other games use 4). The bot plays for the hand's points: it does not see the game to 500.
A decision with one legal move is made without a search. Deterministic from the seed.
"""

from __future__ import annotations

import functools

import numpy as np

DEFAULT_SIMULATIONS = 100
MAX_SIMULATIONS = 1_000_000
UCT_C = 100.0
ROLLOUTS = 1


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
        self._view = None  # the view of the decision under way, whose worlds the bot draws
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
        """The bot's world draw: a deal consistent with the view of the decision under way."""
        return self.world(self._view)

    def world(self, view):
        """pyspiel's state of `view`'s hand with the hidden cards drawn by the one world sampler
        (module docstring), seeded from the player's stream."""
        from envs.pyspiel_spades import native_state

        seed = int(self._random.randint(2**31))
        return native_state(self.game, view.state, view.seat, view.dealer, view.history, seed)

    def choose(self, view) -> int:
        """The bot's move for the seat of `view` (engine integer = pyspiel action)."""
        legal = [int(m) for m in view.legal_moves()]
        if len(legal) == 1:
            return legal[0]
        self._view = view
        root = self.world(view)
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
