"""`EuchreDatabasePlayer`: plays Euchre from a strategy database built from a Euchre export
(`db.plugin_player.PluginDatabasePlayer`'s decision with Euchre's keys,
`games/euchre/abstraction/keys.py`): a forced move or the dealer's discard (the abstraction's rule)
without a lookup; the heuristic's move (`games.euchre.play.heuristic`) for a key the database
lacks."""

from __future__ import annotations

from games.euchre.abstraction.codec import KIND_NAMES, key_text
from games.euchre.abstraction.keys import MOVES_BUFFER, abstract_decision
from db.plugin_player import PluginDatabasePlayer
from games.euchre.state import PHASE, PHASE_OVER


class EuchreDatabasePlayer(PluginDatabasePlayer):
    """A Euchre player (`games.euchre.view.Player`) backed by a strategy database of game
    `euchre` (`PluginDatabasePlayer`)."""

    game = "euchre"
    kind_names = KIND_NAMES
    moves_buffer = MOVES_BUFFER
    phase, phase_over = PHASE, PHASE_OVER
    abstract_decision = staticmethod(abstract_decision)
    key_text = staticmethod(key_text)
