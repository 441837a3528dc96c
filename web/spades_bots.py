"""The bots of a Spades web table: a Spades player spec's decisions, each with what the bot saw
and chose (the page's "Why" panel), as `web.bots.Bots` does for Setback.

The spec is whatever `play.spades_tournament.make_spades_player` builds (`random`,
`heuristic`, `ismcts[:SIMS],pyspiel`, and the database and search players as that function
learns them): this module takes the spec string as it is. One `SpadesBots` serves every game
of a server; each thread gets its own player. Every decision first reseeds the player from the
game's seed and the decision's place in the game, so a bot's move depends on the game only.

The explanation is the player's own when it has one (`explain(view)`: a database player's key
and probabilities, a search player's searched values and belief), else the rules' (`rules`, or
`forced` for a single legal move).
"""

from __future__ import annotations

from games.spades.api import format_move
from play.spades_tournament import make_spades_player
from web.bots import Bots, belief_by_seat


class SpadesBots(Bots):
    """Decisions of the Spades player named by `spec`, one instance per thread (`Bots`).
    Making the first player checks the spec at once: a bad one raises `SpadesSpecError`."""

    make = staticmethod(make_spades_player)

    def decide(self, view, seed: int) -> tuple[int, dict]:
        """(engine move, explanation) for the seat to act in `view` (a Spades `SeatView`).

        The explanation: `{"player", "reason", "kind", "key", "found", "lookups",
        "actions": [{"action", "move", "prob"}], "chosen", "move"}` with moves as text, as
        `web.bots.Bots.decide` gives; a player with `explain` fills in its key, actions and
        probabilities, or (a search player) `worlds`, `searched` (every legal move's value,
        best first) and `belief`."""
        player = self._player()
        if hasattr(player, "seed"):
            player.seed(seed)
        traced = player.explain(view) if hasattr(player, "explain") else None
        move = int(player.choose(view) if traced is None else traced["move"])
        explanation = {"player": player.name, "reason": "rules", "kind": None, "key": None,
                       "found": None, "lookups": [], "actions": [], "chosen": None}
        if traced is not None:
            explanation.update({k: v for k, v in traced.items()
                                if k not in ("move", "moves", "belief", "actions")})
            explanation["actions"] = [dict(a, move=_text(a.get("move")),
                                           prob=a.get("prob"))
                                      for a in traced.get("actions", ())]
            searched = traced.get("searched", traced.get("moves"))
            if searched:
                explanation["searched"] = [{"move": _text(s["move"]), "value": s["value"]}
                                           for s in searched]
            if traced.get("belief"):
                explanation["belief"] = belief_by_seat(view, traced["belief"], format_move,
                                                       "nobody")
        elif view.legal_moves().size == 1:
            explanation["reason"] = "forced"
        explanation["move"] = format_move(move)
        return move, explanation


def _text(move):
    """A traced move as text (an engine integer, or text already)."""
    return move if move is None or isinstance(move, str) else format_move(int(move))
