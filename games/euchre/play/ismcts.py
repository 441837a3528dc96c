"""Euchre's declaration for `ismcts[:SIMS],pyspiel` (`play.ismcts_player.NativeGame`): the bot
searches OpenSpiel's own C++ `euchre` instead of our `python_euchre`.

The view becomes a pyspiel state through `games.euchre.envs.pyspiel.native_state`, and every
simulation redraws the hidden cards with pyspiel's own `resample_from_infostate` (its
`UniformProbabilitySampler`, seeded from the player's stream). Our engine still referees the
game; it agrees with pyspiel's decision by decision. One correction: OpenSpiel 2.0.2's `euchre`
writes a second-round call as "Pick up!" in the information state string, whatever suit was
named, so after such a call positions under different trumps share a string. The bot keys its
search tree by that string, so it would merge them (and fail with a KeyError when their legal
moves differ, as it did within 50 games to 10); here its key adds the hand's calls, which are
public (`PublicCallsISMCTS`).
"""

from __future__ import annotations

import functools

from games.euchre.envs.pyspiel import from_openspiel_action, native_state
from play.ismcts_player import UCT_C, NativeGame

EUCHRE_CHANCE_ACTIONS = 22  # pyspiel's euchre: the dealer, 20 cards, the upcard


@functools.cache  # one class, not one a reseed
def public_calls_bot():
    """OpenSpiel's `ISMCTSBot` whose tree key is (player, information state string, the
    hand's calls so far) for pyspiel's own `euchre` (module docstring: its string hides the
    suit named in the second round). The calls (pass, a suit, alone, partner: actions 24 and
    up after the deal) are public, so the key still holds only what the player knows."""
    from open_spiel.python.algorithms import ismcts

    class PublicCallsISMCTS(ismcts.ISMCTSBot):
        """ISMCTSBot keyed by the information state string and the public calls."""

        def get_state_key(self, state):
            """The tree key of `state` (the class docstring)."""
            calls = tuple(a for a in state.history()[EUCHRE_CHANCE_ACTIONS:] if a >= 24)
            return super().get_state_key(state) + (calls,)

    return PublicCallsISMCTS


def resample(player, state, pyspiel_player, seed):
    """pyspiel's own world draw (`resample_from_infostate`), seeded by `seed`."""
    import pyspiel

    return state.resample_from_infostate(
        pyspiel_player, pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0))


NATIVE = NativeGame("euchre", UCT_C, public_calls_bot, native_state, resample,
                    from_openspiel_action)
