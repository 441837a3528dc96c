"""`DatabasePlayer`: plays Setback from a strategy database.

One decision (abstraction.md for the keys and actions):
1. A seat with one legal move plays it; so does a seat whose legal moves form one abstract
   action (its representative card or bid). Forced moves build no key and skip the lookup.
2. Bids: when the database holds bootstrap keys (and `use_bootstrap` is not turned off), the
   bootstrap key is built from the seat's hand, the auction so far and the game score seen
   from its team, and looked up first; its actions are all the legal bids. If that key is
   absent (or bootstrap keys are not in use), the baseline auction key is used.
3. Otherwise the baseline key (auction, establish-trump or playout) is built by the
   abstraction's kernel `abstract_decision`, which also gives the abstract actions as concrete
   moves in canonical order, turned into the spec's string by the abstraction's codec, and
   looked up.
4. Found: the action is the stored best (default) or is sampled from the stored vector with the
   player's seeded generator; it maps to the concrete move at the same index.
   Missing: the reference's rule, bid Three if legal, else Pass; in the playout the first
   abstract action. Every missing key is counted (`report()`), by kind.
"""

from __future__ import annotations

import os
from collections import Counter

import numpy as np

from abstraction.setback.bootstrap_key import bootstrap_actions, bootstrap_key
from abstraction.setback.codec import key_text
from abstraction.setback.decision import SIT_BID, SIT_ESTABLISH, abstract_decision
from db.database import StrategyDatabase
from db.errors import DatabaseError
from games.setback.rules import BID_MOVE
from games.setback.state import PHASE, PHASE_AUCTION, PHASE_OVER

THREE = BID_MOVE + 3
PASS = BID_MOVE + 0
KIND_OF_SITUATION = {SIT_BID: "auction", SIT_ESTABLISH: "establish"}  # others: playout


class DatabasePlayer:
    """A Setback player (`games.setback.view.Player`) backed by a strategy database.

    `database`: a path, an open `StrategyDatabase`, or any store with the same reading face
    (`lookup(key) -> (probs, best) | None`, `metadata`, `has_bootstrap`, `path`, `close()`),
    such as the in-memory strategy file of `play.strategy_player`. `sample`: choose by sampling the stored
    probabilities with a generator seeded by `seed`, instead of the best action.
    `use_bootstrap`: look up bootstrap keys for bids (default: iff the database holds some).
    """

    def __init__(self, database, sample: bool = False, seed: int = 0,
                 use_bootstrap: bool | None = None, name: str | None = None):
        self.db = database if hasattr(database, "lookup") else StrategyDatabase(database)
        if self.db.metadata.get("game") != "setback":
            raise DatabaseError(f"{self.db.path}: a strategy database for game "
                                f"{self.db.metadata.get('game')!r}, not 'setback'")
        self.sample = bool(sample)
        self.rng = np.random.default_rng(seed)
        self.use_bootstrap = self.db.has_bootstrap if use_bootstrap is None else use_bootstrap
        self.name = name or f"db:{os.path.basename(self.db.path)}"
        self.counts: Counter = Counter()
        self._moves = np.zeros(8, dtype=np.int64)

    # --- the Player interface --------------------------------------------------------
    def choose(self, view) -> int:
        """The move for the seat to act in `view` (a `games.setback.view.SeatView`)."""
        state = view.state
        phase = int(state[PHASE])
        if phase == PHASE_OVER:
            raise ValueError("the deal is over: there is no move to choose")
        self.counts["decisions"] += 1
        legal = view.legal_moves()
        if legal.size == 1:
            self.counts["forced"] += 1
            return int(legal[0])
        moves = self._moves
        if phase == PHASE_AUCTION and self.use_bootstrap:
            us, them = view.score_us_them
            n, _ = bootstrap_actions(state, moves)
            if n >= 2:
                move = self._play_key(key_text(int(bootstrap_key(state, us, them))),
                                      "bootstrap", moves, n)
                if move is not None:
                    return move
        n, situation, _, key = abstract_decision(state, moves)
        if n < 2:
            self.counts["forced"] += 1
            return int(moves[0])
        kind = KIND_OF_SITUATION.get(int(situation), "playout")
        move = self._play_key(key_text(int(key)), kind, moves, n)
        if move is not None:
            return move
        self.counts["fallback"] += 1
        if phase == PHASE_AUCTION:
            return THREE if THREE in legal else PASS
        return int(moves[0])

    def _play_key(self, key: str, kind: str, moves: np.ndarray, n: int) -> int | None:
        """Look `key` up and return the chosen move, or None (counted) if it is missing."""
        self.counts["lookups"] += 1
        hit = self.db.lookup(key)
        if hit is None:
            self.counts[f"missing_{kind}"] += 1
            return None
        probs, best = hit
        if probs.size != n:
            raise DatabaseError(f"{self.db.path}: key {key!r} has {probs.size} actions in the "
                                f"database but {n} in this abstraction (another abstraction "
                                "version?)")
        self.counts["found"] += 1
        index = self._sample(probs) if self.sample else best
        return int(moves[index])

    def _sample(self, probs: np.ndarray) -> int:
        """An action index drawn from `probs` (renormalized) with the seeded generator."""
        cumulative = np.cumsum(probs, dtype=np.float64)
        index = int(np.searchsorted(cumulative, self.rng.random() * cumulative[-1],
                                    side="right"))
        return min(index, probs.size - 1)

    # --- reporting -------------------------------------------------------------------
    @property
    def missing(self) -> int:
        """Keys looked up and not found (bootstrap misses included; a bootstrap miss then
        tries the baseline auction key)."""
        return sum(v for k, v in self.counts.items() if k.startswith("missing_"))

    def report(self) -> dict:
        """Decision counts: decisions, forced, lookups, found, missing (total and by kind),
        fallback (moves chosen by the reference's rule)."""
        out = {name: int(self.counts[name]) for name in
               ("decisions", "forced", "lookups", "found", "fallback")}
        out["missing"] = self.missing
        out["missing_by_kind"] = {k[len("missing_"):]: int(v) for k, v in
                                  sorted(self.counts.items()) if k.startswith("missing_")}
        return out

    def close(self) -> None:
        """Close the database."""
        self.db.close()
