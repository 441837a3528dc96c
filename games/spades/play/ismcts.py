"""Spades' declaration for OpenSpiel's ISMCTS bot (`play.ismcts_player.NativeGame`): it searches
pyspiel's own C++ `spades` (`ismcts[:SIMS],pyspiel`), Spades' only ISMCTS.

pyspiel's `spades` (2.0.2) implements neither `InformationStateString` nor
`ResampleFromInfostate`, the two things `ISMCTSBot` asks of a state, so this player brings both
(OpenSpiel's own bot relies on them), so this declaration brings both:

* the tree key (`SpadesISMCTS.get_state_key`) is (player, the player's 13 cards as dealt, the
  hand's moves after the deal): in Spades every bid and card is public, so that is exactly
  what the player knows;
* the world draw (`ISMCTSPlayer.world`, for every simulation too) is the one world sampler's, as for every search
  of every game (`search/world_sampler.py` on `games/spades/public.py`, through
  `games.spades.envs.pyspiel.native_state`): the cards the seat has not seen dealt to the other
  three seats, exactly uniform over every layout consistent with the view, each seat as many as it
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

from games.spades.envs.pyspiel import native_state
from play.ismcts_player import NativeGame

UCT_C = 100.0  # a hand's returns span some -300..+300 points (module docstring)


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


NATIVE = NativeGame("spades", UCT_C, spades_bot_class, native_state, only=True,
                    check_history=False)
