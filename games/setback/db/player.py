"""`DatabasePlayer`: plays Setback from a strategy database.

One decision (abstraction.md for the keys and actions):
1. A seat with one legal move plays it; so does a seat whose legal moves form one abstract
   action (its representative card or bid). Forced moves build no key and skip the lookup.
2. Bids: when the database holds bootstrap keys (and `use_bootstrap` is not turned off), the
   bootstrap key is built from the seat's hand, the auction so far and the game score seen
   from its team, and looked up first; its actions are all the legal bids. If that key is
   absent (or bootstrap keys are not in use), the baseline auction key is used.
3. Otherwise the baseline key (auction, establish-trump or playout) is built by the
   kernel `abstract_decision` of the database's key layout (`games/setback/abstraction/layouts.py`,
   recorded in its metadata), which also gives the abstract actions as concrete moves in
   canonical order, turned into the key's string by that layout's codec, and looked up.
4. Found: the action is the stored best (default) or is sampled from the stored vector with the
   player's seeded generator; it maps to the concrete move at the same index.
   Missing: the reference's rule, bid Three if legal, else Pass; in the playout the first
   abstract action. Every missing key is counted (`report()`), by kind.
"""

from __future__ import annotations

import os
from collections import Counter

import numpy as np

from games.setback.abstraction import layouts
from games.setback.abstraction.bootstrap_key import bootstrap_actions, bootstrap_key
from games.setback.abstraction.decision import SIT_BID, SIT_ESTABLISH
from games.setback.abstraction.describe import decision_tokens
from db.database import StrategyDatabase
from db.decision_counts import DecisionCounts
from db.errors import DatabaseError
from games.setback.rules import BID_MOVE
from games.setback.state import PHASE, PHASE_AUCTION, PHASE_OVER

THREE = BID_MOVE + 3
PASS = BID_MOVE + 0
KIND_OF_SITUATION = {SIT_BID: "auction", SIT_ESTABLISH: "establish"}  # others: playout


class DatabasePlayer(DecisionCounts):
    """A Setback player (`games.setback.view.Player`) backed by a strategy database.

    `database`: a path, an open `StrategyDatabase`, or any store with the same reading face
    (`lookup(key) -> (probs, best) | None`, `metadata`, `has_bootstrap`, `path`, `close()`),
    such as the in-memory strategy files of `strategy_store.py`. `sample`: choose by sampling
    the stored probabilities with a generator seeded by `seed`, instead of the best action.
    `use_bootstrap`: look up bootstrap keys for bids (default: iff the database holds some).
    Keys are built with the database's key layout (its `layout`, else the one its metadata
    records); `abstraction`: the layout the caller means to ask with (a name of
    `layouts.py`), refused in one line when the database holds another's keys.
    """

    def __init__(self, database, sample: bool = False, seed: int = 0,
                 use_bootstrap: bool | None = None, name: str | None = None,
                 abstraction: str | None = None):
        self.db = database if hasattr(database, "lookup") else StrategyDatabase(database)
        if self.db.metadata.get("game") != "setback":
            raise DatabaseError(f"{self.db.path}: a strategy database for game "
                                f"{self.db.metadata.get('game')!r}, not 'setback'")
        try:
            self.layout = getattr(self.db, "layout", None) or layouts.of_header(self.db.metadata)
            if abstraction is not None:
                layouts.same(layouts.layout(abstraction), self.layout, self.db.path)
        except layouts.LayoutError as exc:
            raise DatabaseError(str(exc)) from None
        module = layouts.load(self.layout.name)
        self._abstract_decision = module.abstract_decision
        self._key_text = module.key_text
        self.sample = bool(sample)
        self.rng = np.random.default_rng(seed)
        self.use_bootstrap = self.db.has_bootstrap if use_bootstrap is None else use_bootstrap
        self.name = name or f"db:{os.path.basename(self.db.path)}"
        self.counts: Counter = Counter()
        self._moves = np.zeros(8, dtype=np.int64)

    # --- the Player interface --------------------------------------------------------
    def choose(self, view) -> int:
        """The move for the seat to act in `view` (a `games.setback.view.SeatView`)."""
        return self._decide(view, None)

    def explain(self, view) -> dict:
        """The move `choose` makes for `view`, and why (for people; nothing here is hot).

        Returns `{"move": engine move, "reason": "forced" | "found" | "fallback", "kind":
        "bootstrap" | "auction" | "establish" | "playout" | None, "key": the key the move
        came from (or the last one missing; None when forced), "found": bool or None,
        "lookups": [{"kind", "key", "found"}...] in the order asked, "actions": [{"action",
        "move", "prob"}...] of that key in canonical order (moves as engine integers, `prob`
        None when the key is missing), "chosen": index into actions or None}`. It counts and
        samples exactly as `choose` does.
        """
        trace = {"reason": "forced", "kind": None, "key": None, "found": None,
                 "lookups": [], "actions": [], "chosen": None}
        trace["move"] = self._decide(view, trace)
        return trace

    def _decide(self, view, trace: dict | None) -> int:
        """`choose`'s body; with `trace` a dict, it also records the decision (`explain`)."""
        state = view.state
        phase = int(state[PHASE])
        legal, forced = self.count_decision(view, phase == PHASE_OVER, "deal")
        if forced is not None:
            return forced
        moves = self._moves
        if phase == PHASE_AUCTION and self.use_bootstrap:
            us, them = view.score_us_them
            n, bids = bootstrap_actions(state, moves)
            if n >= 2:
                if trace is not None:
                    _trace_actions(trace, SIT_BID, int(bids), moves, n)
                move = self._play_key(self._key_text(int(bootstrap_key(state, us, them))),
                                      "bootstrap", moves, n, trace)
                if move is not None:
                    return move
        n, situation, tokens, key = self._abstract_decision(state, moves)
        if n < 2:
            self.counts["forced"] += 1
            if trace is not None:
                _trace_actions(trace, int(situation), int(tokens), moves, n)
                trace.update(reason="forced", kind=None, key=None, found=None, chosen=0)
            return int(moves[0])
        kind = KIND_OF_SITUATION.get(int(situation), "playout")
        if trace is not None:
            _trace_actions(trace, int(situation), int(tokens), moves, n)
        move = self._play_key(self._key_text(int(key)), kind, moves, n, trace)
        if move is not None:
            return move
        self.counts["fallback"] += 1
        if trace is not None:
            trace["reason"] = "fallback"
        if phase == PHASE_AUCTION:
            move = THREE if THREE in legal else PASS
        else:
            move = int(moves[0])
        if trace is not None:
            trace["chosen"] = next((i for i, a in enumerate(trace["actions"])
                                    if a["move"] == move), None)
        return move

    def _play_key(self, key: str, kind: str, moves: np.ndarray, n: int,
                  trace: dict | None = None) -> int | None:
        """Look `key` up and return the chosen move, or None (counted) if it is missing."""
        self.counts["lookups"] += 1
        hit = self.db.lookup(key)
        if trace is not None:
            trace["lookups"].append({"kind": kind, "key": key, "found": hit is not None})
            trace.update(kind=kind, key=key, found=hit is not None)
        if hit is None:
            self.counts[f"missing_{kind}"] += 1
            return None
        probs, best = hit
        if probs.size != n:
            raise DatabaseError(f"{self.db.path}: key {key!r} has {probs.size} actions in the "
                                f"database but {n} in this abstraction (another abstraction "
                                "version?)")
        self.counts["found"] += 1
        index = self.pick(probs, best)
        if trace is not None:
            for action, p in zip(trace["actions"], probs):
                action["prob"] = float(p)
            trace.update(reason="found", chosen=int(index))
        return int(moves[index])


def _trace_actions(trace: dict, situation: int, tokens: int, moves: np.ndarray, n: int) -> None:
    """Put the decision's abstract actions (names, moves, no probabilities yet) in `trace`."""
    names = decision_tokens(situation, tokens)
    trace["actions"] = [{"action": names[i], "move": int(moves[i]), "prob": None}
                        for i in range(int(n))]
