"""`SpadesDatabasePlayer`: plays Spades from a strategy database built from a Spades export.

One decision (`abstraction/spades/keys.py` for the keys and actions), as Euchre's player
(`db/euchre_player.py`) decides:
1. A seat with one legal move plays it; so does a seat whose legal moves form one abstract
   action: its representative card, or past the learned tricks the card rule's card (what
   training played there).
2. Otherwise the key is built by the kernel `abstract_decision` (the one the trainer walks),
   which also gives the abstract actions as moves in the key's action order; its text
   (`abstraction/spades/codec.py`) is looked up.
3. Found: the stored best action (default), or one sampled from the stored vector with the
   player's seeded generator; it maps to the move at the same index. Missing: the heuristic's
   move (the plug-in entry `heuristic`: `play.spades_heuristic`, reached through
   `games/registry.py`, since `play/` sits above `db/`), counted by kind in `report()`.
"""

from __future__ import annotations

import os
from collections import Counter

import numpy as np

from abstraction.spades.codec import KIND_NAMES, key_text
from abstraction.spades.keys import MOVES_BUFFER, abstract_decision
from db.database import StrategyDatabase
from db.decision_counts import DecisionCounts
from db.errors import DatabaseError
from games import registry
from games.spades.state import PHASE, PHASE_OVER


class SpadesDatabasePlayer(DecisionCounts):
    """A Spades player (`games.spades.view.Player`) backed by a strategy database.

    `database`: a path or an open `StrategyDatabase` of game `spades`; `sample`: sample the
    stored probabilities (seeded by `seed`) instead of playing the best action."""

    def __init__(self, database, sample: bool = False, seed: int = 0, name: str | None = None):
        self.db = database if hasattr(database, "lookup") else StrategyDatabase(database)
        game = self.db.metadata.get("game")
        if game != "spades":
            self.db.close()
            raise DatabaseError(f"{self.db.path}: a strategy database for game {game!r}, "
                                "not 'spades'")
        self.sample = bool(sample)
        self.rng = np.random.default_rng(seed)
        self.name = name or f"db:{os.path.basename(self.db.path)}"
        self.fallback = registry.get("spades").load("heuristic")()
        self.counts: Counter = Counter()
        self._moves = np.zeros(MOVES_BUFFER, dtype=np.int64)

    def choose(self, view) -> int:
        """The move for the seat to act in `view` (a `games.spades.view.SeatView`)."""
        state = view.state
        _, forced = self.count_decision(view, int(state[PHASE]) == PHASE_OVER, "hand")
        if forced is not None:
            return forced
        moves = self._moves
        n, kind, key = abstract_decision(state, moves)
        if n < 2:
            self.counts["forced"] += 1
            return int(moves[0])
        text = key_text(int(key))
        self.counts["lookups"] += 1
        hit = self.db.lookup(text)
        if hit is None:
            self.counts[f"missing_{KIND_NAMES[int(kind)]}"] += 1
            self.counts["fallback"] += 1
            return int(self.fallback.choose(view))
        probs, best = hit
        if probs.size != n:
            raise DatabaseError(f"{self.db.path}: key {text!r} has {probs.size} actions in the "
                                f"database but {n} in this abstraction")
        self.counts["found"] += 1
        return int(moves[self.pick(probs, best)])
