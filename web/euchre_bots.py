"""The bots of a Euchre web table: a Euchre player spec's decisions, each with what the bot saw
and chose (the page's "Why" panel), as `web.bots.Bots` does for Setback.

The spec is `play.euchre_tournament`'s (`random`, `heuristic`, `db:PATH[,sample]`,
`ismcts[:SIMS]`, `search[OPTIONS]:POLICY`). One `EuchreBots` serves every game of a server;
each thread gets its own player (a database player's SQLite connection belongs to the thread
that opened it). Every decision first reseeds the player from the game's seed and the
decision's place in the game, so a bot's move depends on the game only, not on other games,
hints or a restart.

The explanation names the decision as the Euchre abstraction keys it (`abstraction.euchre`:
the key's text and its abstract actions, each with the move it plays); a database bot adds the
stored probabilities and whether the key was found.
"""

from __future__ import annotations

import numpy as np

from abstraction.euchre.codec import KIND_NAMES, action_names, key_text
from abstraction.euchre.keys import MOVES_BUFFER, abstract_decision
from games.euchre.api import format_move
from play.euchre_tournament import make_euchre_player
from web.bots import Bots, belief_by_seat


class EuchreBots(Bots):
    """Decisions of the Euchre player named by `spec`, one instance per thread (`web.bots.Bots`
    holds them). Making the first player here checks the spec at once: a bad one raises
    `EuchreSpecError` (one line) before the server starts."""

    make = staticmethod(make_euchre_player)

    def decide(self, view, seed: int) -> tuple[int, dict]:
        """(engine move, explanation) for the seat to act in `view` (a Euchre `SeatView`).

        The explanation: `{"player", "reason", "kind", "key", "found", "lookups",
        "actions": [{"action", "move", "prob"}], "chosen", "move"}` with moves as text, as
        `web.bots.Bots.decide` gives for Setback: `reason` is `forced` (one legal move, or one
        abstract action: the dealer's discard is the abstraction's rule), `found` or
        `fallback` (a database bot: the key stored or not, the heuristic playing then),
        `rules` for the heuristic and random players (probabilities None), and a search
        player's own (`search`, `blueprint`, `settled`) with `worlds` and `searched`: every
        legal move's searched value, best first, under its blueprint's key and probabilities
        (the page's Why panel shows both, as for Setback)."""
        player = self._player()
        if hasattr(player, "seed"):
            player.seed(seed)
        searched = player.explain(view) if hasattr(player, "explain") else None
        move = int(player.choose(view)) if searched is None else int(searched["move"])
        explanation = {"player": player.name, "reason": "rules", "kind": None, "key": None,
                       "found": None, "lookups": [], "actions": [], "chosen": None,
                       "move": format_move(move)}
        if searched is not None:  # a search player: its values, and its blueprint's key below
            explanation.update(reason=searched["reason"], worlds=searched["worlds"],
                               searched=[{"move": format_move(s["move"]), "value": s["value"]}
                                         for s in searched["moves"]],
                               belief=belief_by_seat(view, searched.get("belief", []),
                                                     format_move, "kitty"))
        moves = np.zeros(MOVES_BUFFER, dtype=np.int64)
        n, kind, key = abstract_decision(view.state, moves)
        if view.legal_moves().size == 1 or n < 2:
            if not explanation.get("searched"):  # a search player searches the discard too
                explanation["reason"] = "forced"
            return move, explanation
        text = key_text(int(key))
        probs = None
        db = getattr(player, "db", None) or getattr(getattr(player, "blueprint", None), "db",
                                                     None)
        if db is not None:  # the database's own lookup, repeated to show its numbers
            hit = db.lookup(text)
            explanation["found"] = hit is not None
            if searched is None:
                explanation["reason"] = "found" if hit is not None else "fallback"
            explanation["lookups"] = [{"kind": KIND_NAMES[int(kind)], "key": text,
                                       "found": hit is not None}]
            if hit is not None and hit[0].size == n:
                probs = [float(p) for p in hit[0]]
        names = action_names(text, n)
        explanation["kind"] = KIND_NAMES[int(kind)]
        explanation["key"] = text
        explanation["actions"] = [{"action": names[i], "move": format_move(int(moves[i])),
                                   "prob": None if probs is None else probs[i]}
                                  for i in range(n)]
        explanation["chosen"] = next((i for i in range(n) if int(moves[i]) == move), None)
        return move, explanation
