"""The bots of a web game: a player spec's decisions, each with what the bot saw and chose.

One `Bots` object serves every game of a server. Players hold scratch buffers, generators
and (for `db:`) an SQLite connection that belongs to the thread that opened it, so each
thread gets its own player instance, made on first use. Every decision first reseeds the
player from the game's seed and the decision's place in the game, so a bot's move depends on
the game and nothing else: not on the other games, on hints asked, or on a server restart.
"""

from __future__ import annotations

import threading

from games.setback.api import format_move
from play.player_spec import make_player


def belief_by_seat(view, belief, format_card, nobody: str) -> list:
    """A search decision's `belief` (`play.search_base.SearchPlayerBase.belief_summary`: each
    card's shares [left, partner, right, nobody] of the acting seat) as the page shows it:
    `[{"card": text, "percent": {"W": .., "N": .., "E": .., nobody: ..}}...]`, the seats by
    their letters (the acting seat's own left out), per cent of the worlds searched."""
    out = []
    for entry in belief:
        percent = {"WNES"[(view.dealer + view.seat + k) % 4]: round(100.0 * share, 1)
                   for k, share in zip((1, 2, 3), entry["holders"])}
        percent[nobody] = round(100.0 * entry["holders"][3], 1)
        out.append({"card": format_card(entry["card"]), "percent": percent})
    return out


def describe_view(view) -> dict:
    """The abstraction's key and abstract actions for `view` (no probabilities)."""
    from abstraction.setback.describe import describe_decision

    return describe_decision(view.state)


class Bots:
    """Decisions of the player named by `spec` (`play.player_spec`), one instance per thread.

    Making the first player here validates the spec at once: a bad spec raises
    `PlayerSpecError` before the server starts.
    """

    def __init__(self, spec: str):
        self.spec = spec
        self._local = threading.local()
        self.name = self._player().name

    def ready(self) -> None:
        """Make this thread's player now (a server's bot workers, before the first request)."""
        self._player()

    @staticmethod
    def make(spec: str):
        """The player of `spec` (a game's bots name their own player factory here)."""
        return make_player(spec)

    def _player(self):
        player = getattr(self._local, "player", None)
        if player is None:
            player = self._local.player = self._refuse_oracle(self.make(self.spec))
        return player

    @staticmethod
    def _refuse_oracle(player):
        """`player`, unless it is an all-seeing oracle (Setback's `play/oracle.py`, Euchre's
        `play/euchre_oracle.py`): refused here, after any game's `make`, with
        `PlayerSpecError` (one line)."""
        from play.oracle import refuses_oracle
        from play.player_spec import PlayerSpecError

        refusal = refuses_oracle(player, "serve or decide (it would see the person's hand)")
        if refusal is not None:
            if hasattr(player, "close"):
                player.close()
            raise PlayerSpecError(refusal)
        return player

    def decide(self, view, seed: int) -> tuple[int, dict]:
        """(engine move, explanation) for the seat to act in `view` (a `SeatView`).

        The explanation: `{"player", "reason", "kind", "key", "found", "lookups",
        "actions": [{"action", "move", "prob"}], "chosen", "move"}` with moves as text;
        `reason` is `found`, `fallback` or `forced` for a strategy player and `rules` for
        the heuristic and random players (their `key` and `actions` are the abstraction's
        view of the same decision, without probabilities).
        """
        player = self._player()
        if hasattr(player, "seed"):
            player.seed(seed)
        if hasattr(player, "explain"):
            explanation = player.explain(view)  # a fresh trace: ours to turn into text
            move = int(explanation["move"])
            for action in explanation["actions"]:
                action["move"] = format_move(action["move"])
            for searched in explanation.get("searched", ()):  # a search player's values
                searched["move"] = format_move(searched["move"])
            if "belief" in explanation:  # where the trump Jack and those above it lie
                explanation["belief"] = belief_by_seat(view, explanation["belief"],
                                                       format_move, "undealt")
        else:
            move = int(player.choose(view))
            explanation = {"reason": "rules", "kind": None, "found": None, "lookups": [],
                           "chosen": None}
            if view.legal_moves().size == 1:
                explanation.update(reason="forced", key=None, actions=[])
            else:
                described = describe_view(view)
                explanation["key"] = described["key"]
                explanation["actions"] = [dict(a, prob=None) for a in described["actions"]]
                played = format_move(move)
                explanation["chosen"] = next((i for i, a in enumerate(explanation["actions"])
                                              if a["move"] == played), None)
        explanation["player"] = player.name
        explanation["move"] = format_move(move)
        return move, explanation
