"""A trained strategy as a model of the players: the probability of a move in a full state.

It reads a decision as `DatabasePlayer` plays it: a bid first looks up the bootstrap
key (when the store holds bootstrap keys), then the baseline key; a card looks up the baseline
key of the store's key layout (`games/setback/abstraction/layouts.py`, the one its metadata records,
as the database player reads it), whose abstract actions are played as their representative
cards. The move's probability is that of the action it represents: 0 for a move
that represents no action (a card the policy never plays as such), 1 for a forced move. A key
missing from the store counts as uniform over the legal abstract actions. Lookups are memoized.
"""

from __future__ import annotations

import numpy as np

from games.setback.abstraction import layouts
from games.setback.abstraction.bootstrap_key import bootstrap_actions, bootstrap_key
from games.setback.abstraction.codec import key_text
from games.setback import state as S
from games.setback.rules import MAX_MOVES, legal_moves


class PolicyModel:
    """`model(state, move, us, them) -> probability` backed by a strategy store (the reading
    face of `db.database.StrategyDatabase`: `lookup(key) -> (probs, best) | None`)."""

    def __init__(self, store, use_bootstrap: bool | None = None):
        self.store = store
        self.use_bootstrap = store.has_bootstrap if use_bootstrap is None else use_bootstrap
        # The baseline keys are the store's layout's (a store that records none is the
        # reference's); bootstrap keys are the same in every layout.
        layout = getattr(store, "layout", None) or layouts.of_header(
            getattr(store, "metadata", None) or {})
        module = layouts.load(layout.name)
        self._abstract_decision = module.abstract_decision
        self._layout_key_text = module.key_text
        self._moves = np.zeros(MAX_MOVES, dtype=np.int64)
        self._memo: dict[str, np.ndarray | None] = {}
        self.lookups = 0
        self.missing = 0

    def _probs(self, key: str):
        if key not in self._memo:
            self.lookups += 1
            hit = self.store.lookup(key)
            self.missing += hit is None
            self._memo[key] = None if hit is None else np.asarray(hit[0], dtype=np.float64)
        return self._memo[key]

    @staticmethod
    def _of(probs, moves, n, move) -> float:
        for i in range(n):
            if moves[i] == move:
                total = float(probs.sum())
                return float(probs[i]) / total if total > 0 else 1.0 / n
        return 0.0

    def __call__(self, state: np.ndarray, move: int, us: int = 0, them: int = 0) -> float:
        """The probability that the seat to act in `state` plays `move`."""
        moves = self._moves
        if legal_moves(state, moves) == 1:
            return 1.0
        if int(state[S.PHASE]) == S.PHASE_AUCTION and self.use_bootstrap:
            n, _ = bootstrap_actions(state, moves)
            if n >= 2:
                probs = self._probs(key_text(int(bootstrap_key(state, us, them))))
                if probs is not None and probs.size == n:
                    return self._of(probs, moves, n, move)
        n, _, _, key = self._abstract_decision(state, moves)
        if n < 2:
            return 1.0 if moves[0] == move else 0.0
        probs = self._probs(self._layout_key_text(int(key)))
        if probs is None or probs.size != n:
            probs = np.ones(n)  # missing: uniform over the legal abstract actions
        return self._of(probs, moves, n, move)
