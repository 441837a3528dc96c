"""The game side of the CFR interface (`cfr/game.py`) that no game owns: the six functions'
names, and chance over a deck dealt a card per chance node.

A game's module defines `initial_state` and the six numba functions under the interface's
names; `functions_of` hands them to `cfr.game.Game` as keywords, so no game lists them again.
A card game's chance node deals one card, uniform over the cards not yet dealt (a mask);
`undealt_outcomes` and `sample_undealt` inline into the game's compiled functions (numba
`inline="always"`; the game's `apply` passed as an argument becomes a direct call). Nothing
here imports `cfr/`: the names are plain strings.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import popcount

FUNCTIONS = ("initial_state", "current_player", "decision", "apply", "utility",
             "chance_outcomes", "chance_sample")


def functions_of(namespace) -> dict:
    """`initial_state` and the six functions of a game's module (its namespace: `globals()`
    inside it, `vars(module)` outside), by name: the keywords `cfr.game.Game` takes."""
    return {name: namespace[name] for name in FUNCTIONS}


@njit(cache=True, inline="always")
def undealt_outcomes(dealt, n_cards, outcomes_out, probs_out):
    """The cards of a deck of `n_cards` not in `dealt`, ascending, each with probability
    1 / their number; returns their count."""
    p = 1.0 / (n_cards - popcount(dealt))
    n = 0
    for card in range(n_cards):
        if not (dealt >> card & 1):
            outcomes_out[n] = card
            probs_out[n] = p
            n += 1
    return n


@njit(cache=True, inline="always")
def sample_undealt(apply, dealt, n_cards, state, u, child_out):
    """Deal (`apply`) the card of index ((u >> 32) * cards_left) >> 32 among the cards of
    the deck not in `dealt`; returns the card (-1 if none is left)."""
    left = n_cards - popcount(dealt)
    index = np.int64(((u >> np.uint64(32)) * np.uint64(left)) >> np.uint64(32))
    for card in range(n_cards):
        if not (dealt >> card & 1):
            if index == 0:
                apply(state, card, child_out)
                return card
            index -= 1
    return -1
