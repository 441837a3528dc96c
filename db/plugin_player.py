"""The database player of a plug-in game (Euchre's, Spades'): one decision written once, on the
game's abstraction (its kernel `abstract_decision` and `MOVES_BUFFER`, `games/NAME/abstraction/
keys.py`), key codec (the registry's `key_codec`) and state fields (`PHASE`, `PHASE_OVER`); a
game writes no database player of its own.

One decision:
1. A seat with one legal move plays it; so does a seat whose legal moves form one abstract
   action (its representative move, or a move the abstraction's rule makes: Euchre's
   discard, Spades' card play past the learned tricks).
2. Otherwise the key is built by the game's kernel `abstract_decision(state, moves)` (the one
   the trainer walks), which also gives the abstract actions as moves in the key's action
   order; its text (`key_text`) is looked up.
3. Found: the stored best action (default), or one sampled from the stored vector with the
   player's seeded generator; it maps to the move at the same index. Missing: the heuristic's
   move (the game's plug-in entry `heuristic`, reached through `games/registry.py`, since
   `play/` sits above `db/`; a random legal move for a game without one), counted by kind in
   `report()`.
"""

from __future__ import annotations

import os
from collections import Counter

import numpy as np

from db.database import StrategyDatabase
from db.decision_counts import DecisionCounts
from db.errors import DatabaseError
from games import registry
from games.scaffold.match import RandomPlayer


class PluginDatabasePlayer(DecisionCounts):
    """Game `game`'s player backed by a strategy database of that game (module docstring).
    `database`: a path or an open `StrategyDatabase` of the game; `sample`: sample the stored
    probabilities (seeded by `seed`) instead of playing the best action."""

    def __init__(self, database, sample: bool = False, seed: int = 0, name: str | None = None,
                 *, game: str):
        self.game = game
        self.db = database if hasattr(database, "lookup") else StrategyDatabase(database)
        found = self.db.metadata.get("game")
        if found != game:
            self.db.close()
            raise DatabaseError(f"{self.db.path}: a strategy database for game {found!r}, "
                                f"not {game!r}")
        entry = registry.get(game)
        codec, keys = entry.load("key_codec"), registry.declaration(game, "abstraction.keys")
        self.kind_names, self.key_text = codec.kind_names, codec.key_text
        self.abstract_decision = keys.abstract_decision
        self.phase, self.phase_over = entry.load("PHASE"), entry.load("PHASE_OVER")
        self.sample = bool(sample)
        self.rng = np.random.default_rng(seed)
        self.name = name or f"db:{os.path.basename(self.db.path)}"
        # the heuristic sits above the database in the data flow: the game's plug-in names it;
        # a game without one (the tutorial's) falls back to a random legal move
        self.fallback = entry.load("heuristic")() if entry.provides("heuristic") \
            else RandomPlayer(seed)
        self.counts: Counter = Counter()
        self._moves = np.zeros(keys.MOVES_BUFFER, dtype=np.int64)

    def seed(self, seed: int) -> None:
        """Restart the sampling generator, and a random fallback's, from `seed` (the tournament
        does before every game)."""
        super().seed(seed)
        if isinstance(self.fallback, RandomPlayer):
            self.fallback.seed(seed)

    def choose(self, view) -> int:
        """The move for the seat to act in `view` (the game's `SeatView`)."""
        state = view.state
        _, forced = self.count_decision(view, int(state[self.phase]) == self.phase_over, "hand")
        if forced is not None:
            return forced
        moves = self._moves
        n, kind, key = self.abstract_decision(state, moves)
        if n < 2:
            self.counts["forced"] += 1
            return int(moves[0])
        text = self.key_text(int(key))
        self.counts["lookups"] += 1
        hit = self.db.lookup(text)
        if hit is None:
            self.counts[f"missing_{self.kind_names[int(kind)]}"] += 1
            self.counts["fallback"] += 1
            return int(self.fallback.choose(view))
        probs, best = hit
        if probs.size != n:
            raise DatabaseError(f"{self.db.path}: key {text!r} has {probs.size} actions in the "
                                f"database but {n} in this abstraction")
        self.counts["found"] += 1
        return int(moves[self.pick(probs, best)])
