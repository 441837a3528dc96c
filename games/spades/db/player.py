"""`SpadesDatabasePlayer`: plays Spades from a strategy database built from a Spades export
(`db.plugin_player.PluginDatabasePlayer`'s decision with Spades' keys,
`games/spades/abstraction/keys.py`): a forced move or, past the learned tricks, the heuristic's card
(what training played there) without a lookup; the heuristic's move for a key the database
lacks."""

from __future__ import annotations

from games.spades.abstraction.codec import KIND_NAMES, key_text
from games.spades.abstraction.keys import MOVES_BUFFER, abstract_decision
from db.plugin_player import PluginDatabasePlayer
from games.spades.state import PHASE, PHASE_OVER


class SpadesDatabasePlayer(PluginDatabasePlayer):
    """A Spades player (`games.spades.view.Player`) backed by a strategy database of game
    `spades` (`PluginDatabasePlayer`)."""

    game = "spades"
    kind_names = KIND_NAMES
    moves_buffer = MOVES_BUFFER
    phase, phase_over = PHASE, PHASE_OVER
    abstract_decision = staticmethod(abstract_decision)
    key_text = staticmethod(key_text)
