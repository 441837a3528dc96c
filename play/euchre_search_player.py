"""Euchre's `search[OPTIONS]:POLICY`: rollout search on a Euchre blueprint (a strategy database).

At each decision with two or more legal moves (the calls of both rounds, the alone decision,
the dealer's discard and every card), the player draws `worlds` layouts of the hidden cards
uniformly among those consistent with its view and every public fact
(`search/euchre_worlds.py`: hand sizes, the cards seen, the upcard and its fate, the dealer's
discard known to the dealer only, the voids shown), plays every legal move in every world and
the rest of the hand with all four seats following the blueprint (`search/rollout.py` with the
abstract Euchre game of `train/euchre_game.py`: common random numbers per world), and plays the
move with the best mean of the hand's points for its team less the other team's. A rollout ends
once the hand's points are settled (the abstract game's terminal). Where a rollout meets a key
the blueprint lacks it takes the first abstract action (pass in the calls, alone in the alone
decision, the lowest token in the play), where the database player would ask the heuristic;
the dealer's discard inside a rollout is the abstraction's rule, as the blueprint plays it. A
decision whose points are already settled (three tricks to the defenders, or three to the makers
and one to the defenders) has nothing to search: the blueprint's move is played.

Options are the Setback search player's (`play/search_player.py`), `bids` meaning every decision
before the play (calls, alone, discard):

| option | meaning | default |
|--|--|--|
| `worlds=W` | layouts drawn per decision | 100 |
| `rollout=sample\\|greedy` | rollouts sample the blueprint's probabilities, or play its argmax | sample |
| `bids=search\\|blueprint` | search the calls, alone and discard too, or make them as the blueprint does | search |
| `margin=Z` | play the blueprint's move unless the best beats it by Z standard errors (0: off) | 0 |
| `think=MS` | a time budget per decision in milliseconds (anytime) | none |
| `threads=T` | threads sharing a decision's worlds | the CPUs usable |
| `voids=on\\|off` | worlds respect the voids shown | on |
| `belief=uniform\\|bids` | worlds uniform among the consistent layouts, or resampled from a pool by the blueprint's probability of the calls seen (both rounds, alone) | uniform |
| `temper=T` | `belief=bids`: the weights raised to the power T (0 < T <= 1; lower trusts the calls less) | 1 |
| `pool=K` | `belief=bids`: worlds drawn before resampling, K times `worlds` | 4 |

POLICY is `db:PATH[,sample]`: a database of a Euchre export, whose database player
(`db.euchre_player`) also makes the blueprint's own moves (the `margin` rule's fallback,
`bids=blueprint`, settled hands). The same seed gives the same moves for any number of threads
(without `think`). Examples: `search:db:euchre.db`, `search[worlds=200,threads=1]:db:euchre.db`.
"""

from __future__ import annotations

import time

import numpy as np

from games.euchre import state as S
from games.rng import new_rng, next_u64
from play.search_options import (CHOICES, DEFAULTS, FLOOR, parse_options, resample,
                                 shared_arrays)

SPEC_FORM = "search[OPTIONS]:db:PATH (OPTIONS: worlds=W,rollout=sample|greedy," \
            "bids=search|blueprint,margin=Z,think=MS,threads=T,voids=on|off," \
            "belief=uniform|bids,temper=T,pool=K)"
OPTIONS = tuple(name for name in DEFAULTS if name != "objective")  # the hand's points only
AUCTION = (S.PHASE_ORDER, S.PHASE_NAME, S.PHASE_DISCARD, S.PHASE_ALONE)


class EuchreSearchPlayer:
    """Plays Euchre by rollout search on `blueprint` (a `db.euchre_player.EuchreDatabasePlayer`)
    whose table `table` (`db.policy_arrays.PolicyArrays` of game euchre) the rollouts follow
    (module docstring)."""

    def __init__(self, blueprint, table, worlds: int = 100, greedy: bool = False,
                 search_bids: bool = True, margin: float = 0.0, think_ms: float | None = None,
                 threads: int | None = None, voids: bool = True, seed: int = 0,
                 name: str | None = None, belief: str = "uniform", temper: float = 1.0,
                 pool: int = 4):
        from search.rollout_search import RolloutSearch
        from train.euchre_game import GAME

        if worlds < 1:
            raise ValueError("a search player needs at least one world")
        if getattr(table, "game", None) != "euchre":
            raise ValueError(f"the rollouts' table is for {getattr(table, 'game', None)!r}, "
                             "not 'euchre'")
        self.blueprint = blueprint
        self.table = table
        self.worlds = int(worlds)
        self.search_bids = bool(search_bids)
        self.margin = float(margin)
        self.think_ms = think_ms
        self.voids = bool(voids)
        if belief not in CHOICES["belief"] or not 0.0 < temper <= 1.0 or pool < 1:
            raise ValueError("belief is uniform or bids, 0 < temper <= 1, pool >= 1")
        self.belief, self.temper, self.pool = belief, float(temper), int(pool)
        self.search = RolloutSearch(GAME, table, greedy, threads)
        self.name = name or f"search:{blueprint.name}"
        self.rng = new_rng(seed)
        self.stats = {"searched": 0, "worlds": 0, "deviations": 0, "weighted": 0, "ess": 0.0}
        drawn = self.worlds * (self.pool if belief == "bids" else 1)
        self._states = np.zeros((drawn, S.STATE_SIZE), dtype=np.int64)

    def seed(self, seed: int) -> None:
        """Restart the player's generator (and the blueprint's) from `seed`."""
        self.rng = new_rng(seed)
        if hasattr(self.blueprint, "seed"):
            self.blueprint.seed(seed)

    def choose(self, view) -> int:
        """The move for the seat to act in `view` (a `games.euchre.view.SeatView`)."""
        return self.decide(view)["move"]

    def explain(self, view) -> dict:
        """`decide`'s figures (the move, why, the worlds, every legal move's searched value)."""
        return self.decide(view)

    def decide(self, view) -> dict:
        """The decision and the search's figures: `{"move", "reason": "forced" | "blueprint"
        | "settled" | "search", "worlds", "moves": [{"move", "value"}...] best first (each
        legal move's mean point difference for the player's team), "blueprint_move"}`."""
        from abstraction.euchre.abstract_game import is_settled
        from search.rollout_search import choose

        legal = view.legal_moves()
        if legal.size == 1:
            return {"move": int(legal[0]), "reason": "forced", "worlds": 0, "moves": [],
                    "blueprint_move": int(legal[0])}
        state = view.state
        decision_seed = int(next_u64(self.rng)) >> 1  # 63 bits; drawn even where unused
        auction = int(state[S.PHASE]) in AUCTION
        if (auction and not self.search_bids) or is_settled(state):
            move = int(self.blueprint.choose(view))
            return {"move": move, "reason": "blueprint" if auction else "settled",
                    "worlds": 0, "moves": [], "blueprint_move": move}
        deadline = None
        if self.think_ms is not None:
            deadline = time.perf_counter() + self.think_ms / 1000.0
        worlds = self._worlds(view, new_rng(decision_seed))
        sign = 1 if view.seat % 2 == 0 else -1  # team 0 (the dealer's) is the utility's side
        values = self.search.values(worlds, legal, sign, decision_seed, deadline)
        blueprint_move = None
        if self.margin > 0.0:
            blueprint_move = int(self.blueprint.choose(view))
        index = choose(values, None if blueprint_move is None else
                       int(np.flatnonzero(legal == blueprint_move)[0]), self.margin)
        move = int(legal[index])
        self.stats["searched"] += 1
        self.stats["worlds"] += values.shape[0]
        if blueprint_move is not None and move != blueprint_move:
            self.stats["deviations"] += 1
        mean = values.mean(axis=0)
        order = np.argsort(-mean, kind="stable")
        return {"move": move, "reason": "search", "worlds": int(values.shape[0]),
                "moves": [{"move": int(legal[i]), "value": float(mean[i])} for i in order],
                "blueprint_move": blueprint_move}

    def _worlds(self, view, rng) -> np.ndarray:
        """The decision's worlds (int64[worlds, STATE_SIZE]): uniform among the consistent
        layouts, or with `belief=bids` a pool of `pool` times as many resampled
        (systematically) in proportion to the blueprint's probability of the calls seen,
        raised to `temper`."""
        from search.euchre_worlds import calls_log_weights, cards_played_by, consistent_worlds

        history = np.asarray(view.history, dtype=np.int64)
        weighted = self.belief == "bids" and history.size > 0
        states = self._states if weighted else self._states[:self.worlds]
        drawn = consistent_worlds(view.state, view.seat, cards_played_by(view), rng,
                                  self.voids, states)
        if drawn == 0:
            raise ValueError("no layout of the hidden cards is consistent with this view")
        if not weighted:
            return states
        log_w = np.zeros(drawn, dtype=np.float64)
        calls_log_weights(self.search.functions[1], states, history, history.size,
                          self.table.keys, self.table.offsets, self.table.probs, FLOOR, log_w)
        picks, ess = resample(log_w, self.temper, self.worlds, rng)
        self.stats["weighted"] += 1
        self.stats["ess"] += ess
        return states[picks]

    def close(self) -> None:
        """Stop the search's threads and close the blueprint."""
        self.search.close()
        if hasattr(self.blueprint, "close"):
            self.blueprint.close()


def euchre_arrays(blueprint):
    """The policy arrays of a Euchre database player's store (`db.policy_arrays`)."""
    from db.euchre_policy_arrays import euchre_arrays_of_store

    return euchre_arrays_of_store(blueprint.db)


def make_euchre_search_player(text: str, seed: int, make_player, error=ValueError):
    """The Euchre search player of a spec string (module docstring); `make_player(POLICY,
    seed)` makes the blueprint (the Euchre player grammar's); `error` (one line) on a bad spec
    or a policy that is not a Euchre database."""
    from db.errors import DatabaseError
    options, policy = parse_options(text, error, SPEC_FORM, "search:db:euchre.db", OPTIONS)
    if not policy.lower().startswith("db:"):
        raise error(f"{text!r}: the policy must be db:PATH, a database of a Euchre export "
                    f"({SPEC_FORM})")
    blueprint = make_player(policy, seed)
    try:
        table = shared_arrays(blueprint, euchre_arrays)
    except DatabaseError as exc:
        blueprint.close()
        raise error(str(exc)) from None
    return EuchreSearchPlayer(blueprint, table, worlds=options["worlds"],
                              greedy=options["rollout"] == "greedy",
                              search_bids=options["bids"] == "search", margin=options["margin"],
                              think_ms=options["think"], threads=options["threads"],
                              voids=options["voids"] == "on", seed=seed, name=text.strip(),
                              belief=options["belief"], temper=options["temper"],
                              pool=options["pool"])
