"""`search[OPTIONS]:POLICY`: rollout search on a blueprint (a strategy database or files).

At each decision with two or more legal moves, the player draws `worlds` layouts of the hidden
cards among those consistent with its view and every public fact (`search/setback_worlds.py`),
plays every legal move in every world and the rest of the deal with all four seats following
the blueprint (`search/rollout.py`), and plays the move with the best mean deal-score difference
for its team. The bids are searched too (the rest of the auction and the play rolled out), unless
`bids=blueprint`. Where a rollout meets a key the blueprint lacks it takes the first abstract
action. One-ply search on a blueprint that the rollouts follow is at least as good as the
blueprint in expectation (SPARTA, Lerer et al. 2020); sampling the blueprint's probabilities in
the rollouts (the default) measured stronger than its argmax.

Options, inside the brackets, comma-separated (all optional; `search:POLICY` takes the defaults):

| option | meaning | default |
|--|--|--|
| `worlds=W` | layouts drawn per decision | 100 |
| `rollout=sample\\|greedy` | rollouts sample the blueprint's probabilities, or play its argmax | sample |
| `bids=search\\|blueprint` | search the bids too, or bid as the blueprint does | search |
| `margin=Z` | play the blueprint's move unless the best beats it by Z standard errors (0: off) | 0 |
| `think=MS` | a time budget per decision in milliseconds (anytime; the worlds done by then) | none |
| `threads=T` | threads sharing a decision's worlds | the CPUs usable |
| `voids=on\\|off` | worlds respect the voids shown | on |
| `belief=uniform\\|bids` | worlds uniform among the consistent layouts, or resampled from a pool by the blueprint's probability of the bids seen | uniform |
| `temper=T` | `belief=bids`: the weights raised to the power T (0 < T <= 1; lower trusts the bids less) | 1 |
| `pool=K` | `belief=bids`: worlds drawn before resampling, K times `worlds` | 4 |
| `objective=score\\|win` | a rollout is worth the deal's score difference, or the probability of winning the game from the score it leaves (`search/win_probability.py`) | score |

POLICY is `db:PATH` or `strategy:PATH[,PATH...]` of any Setback key layout; its player also
makes the blueprint's own moves (the `margin` rule's fallback, `bids=blueprint`). The same seed
gives the same moves for any number of threads (without `think`). Examples:
`search:db:strategy.db`, `search[worlds=200,margin=1]:db:L120.db`,
`search[think=20]:db:strategy.db,bid=nn:model.nn`.
"""

from __future__ import annotations

import time

import numpy as np

from games.rng import new_rng, next_u64
from games.setback import state as S

SPEC_FORM = "search[OPTIONS]:POLICY (OPTIONS: worlds=W,rollout=sample|greedy," \
            "bids=search|blueprint,margin=Z,think=MS,threads=T,voids=on|off," \
            "belief=uniform|bids,temper=T,pool=K,objective=score|win; POLICY: db:PATH or " \
            "strategy:PATH[,PATH...])"


class SearchPlayer:
    """Plays Setback by rollout search on `blueprint` (a `db.player.DatabasePlayer`), whose
    tables `table` (`db.policy_arrays.PolicyArrays`) the rollouts follow (module docstring)."""

    def __init__(self, blueprint, table, worlds: int = 100, greedy: bool = False,
                 search_bids: bool = True, margin: float = 0.0, think_ms: float | None = None,
                 threads: int | None = None, voids: bool = True, seed: int = 0,
                 name: str | None = None, belief: str = "uniform", temper: float = 1.0,
                 pool: int = 4, objective: str = "score"):
        from search.rollout_search import RolloutSearch
        from train.baseline import layout_game

        if worlds < 1:
            raise ValueError("a search player needs at least one world")
        self.blueprint = blueprint
        self.worlds = int(worlds)
        self.search_bids = bool(search_bids)
        self.margin = float(margin)
        self.think_ms = think_ms
        self.voids = bool(voids)
        self.belief, self.temper, self.pool = belief, float(temper), int(pool)
        self.objective = objective
        self._outcome = None
        if objective == "win":
            from cfr.game import FunctionAddress
            from numba import types

            from search.setback_objective import OUTCOME_SIG, deal_outcome

            self._outcome = FunctionAddress(deal_outcome, types.FunctionType(OUTCOME_SIG))
        self.table = table
        self.search = RolloutSearch(layout_game(table.layout), table, greedy, threads)
        self.name = name or f"search:{blueprint.name}"
        self.rng = new_rng(seed)
        self.stats = {"searched": 0, "worlds": 0, "rejected": 0, "deviations": 0,
                      "weighted": 0, "ess": 0.0}
        drawn = self.worlds * (self.pool if belief == "bids" else 1)
        self._states = np.zeros((drawn, S.STATE_SIZE), dtype=np.int64)

    def seed(self, seed: int) -> None:
        """Restart the player's generator (and the blueprint's) from `seed`."""
        self.rng = new_rng(seed)
        if hasattr(self.blueprint, "seed"):
            self.blueprint.seed(seed)

    def choose(self, view) -> int:
        """The move for the seat to act in `view` (a `games.setback.view.SeatView`)."""
        return self.decide(view)["move"]

    def explain(self, view) -> dict:
        """`choose`'s move and why, in the database player's trace form (`db.player`: the
        blueprint's key, lookups and action probabilities) with the search's figures added:
        `reason` "search" (or "forced", or "blueprint" for a bid under `bids=blueprint`),
        `worlds` searched, `searched`: [{"move", "value"}...] every legal move's mean deal-score
        difference for the player's team over the worlds, best first, and `chosen` the index of
        the played move among the blueprint's actions (None when it is not one of them)."""
        trace = self.blueprint.explain(view) if hasattr(self.blueprint, "explain") else {
            "key": None, "kind": None, "found": None, "lookups": [], "actions": []}
        result = self.decide(view)
        trace.update(move=result["move"], reason=result["reason"], worlds=result["worlds"],
                     searched=result["moves"],
                     chosen=next((i for i, a in enumerate(trace.get("actions", []))
                                  if a["move"] == result["move"]), None))
        return trace

    def decide(self, view) -> dict:
        """The decision and the search's figures: `{"move", "reason": "forced" | "blueprint" |
        "search", "worlds", "moves": [{"move", "value"}...] best first, "blueprint_move"}`."""
        from search.rollout_search import choose

        legal = view.legal_moves()
        if legal.size == 1:
            return {"move": int(legal[0]), "reason": "forced", "worlds": 0, "moves": [],
                    "blueprint_move": int(legal[0])}
        state = view.state
        auction = int(state[S.PHASE]) == S.PHASE_AUCTION
        decision_seed = int(next_u64(self.rng)) >> 1  # 63 bits; drawn even where unused
        if auction and not self.search_bids:
            move = int(self.blueprint.choose(view))
            return {"move": move, "reason": "blueprint", "worlds": 0, "moves": [],
                    "blueprint_move": move}
        deadline = None
        if self.think_ms is not None:
            deadline = time.perf_counter() + self.think_ms / 1000.0
        rng = new_rng(decision_seed)
        worlds, rejected = self._worlds(view, rng)
        sign = 1 if view.seat % 2 == 0 else -1
        objective = None
        if self._outcome is not None:
            from search.setback_objective import win_values

            us, them = view.score_us_them
            objective = (self._outcome, win_values(view.seat % 2, us, them))
        values = self.search.values(worlds, legal, sign, decision_seed, deadline, objective)
        blueprint_move = None
        if self.margin > 0.0:
            blueprint_move = int(self.blueprint.choose(view))
        index = choose(values, None if blueprint_move is None else
                       int(np.flatnonzero(legal == blueprint_move)[0]), self.margin)
        move = int(legal[index])
        self.stats["searched"] += 1
        self.stats["worlds"] += values.shape[0]
        self.stats["rejected"] += int(rejected)
        if blueprint_move is not None and move != blueprint_move:
            self.stats["deviations"] += 1
        mean = values.mean(axis=0)
        order = np.argsort(-mean, kind="stable")
        return {"move": move, "reason": "search", "worlds": int(values.shape[0]),
                "moves": [{"move": int(legal[i]), "value": float(mean[i])} for i in order],
                "blueprint_move": blueprint_move}

    def _worlds(self, view, rng) -> tuple[np.ndarray, int]:
        """The decision's worlds (int64[worlds, STATE_SIZE]) and the layouts rejected on the
        way: uniform among the consistent layouts, or with `belief=bids` a pool of `pool` times
        as many resampled (systematically) in proportion to the blueprint's probability of the
        bids seen, raised to `temper`."""
        from play.search_options import FLOOR, resample
        from search.inference import cards_played_by
        from search.setback_worlds import bids_log_weights, consistent_worlds

        history = np.asarray(view.history, dtype=np.int64)
        weighted = self.belief == "bids" and history.size > 0
        states = self._states if weighted else self._states[:self.worlds]
        drawn, rejected = consistent_worlds(view.state, view.seat, rng, self.voids, states)
        if drawn < states.shape[0]:
            raise ValueError("no layout of the hidden cards is consistent with this view")
        if not weighted:
            return states, int(rejected)
        played = cards_played_by(history)
        log_w = np.zeros(drawn, dtype=np.float64)
        bids_log_weights(self.search.functions[1], states, played, history, history.size,
                         self.table.keys, self.table.offsets, self.table.probs, FLOOR, log_w)
        picks, ess = resample(log_w, self.temper, self.worlds, rng)
        self.stats["weighted"] += 1
        self.stats["ess"] += ess
        return states[picks], int(rejected)

    @property
    def counts(self):
        """The blueprint's decision counts (the tournament reports a player's counts)."""
        return getattr(self.blueprint, "counts", {})

    def close(self) -> None:
        """Stop the search's threads and close the blueprint."""
        self.search.close()
        if hasattr(self.blueprint, "close"):
            self.blueprint.close()


def make_search_player(text: str, seed: int = 0):
    """The search player of a spec string (module docstring); PlayerSpecError on a bad one."""
    from db.errors import DatabaseError
    from db.policy_arrays import arrays_of_player
    from play.player_spec import PlayerSpecError, make_player
    from play.search_options import parse_options, shared_arrays

    options, policy = parse_options(text, PlayerSpecError, SPEC_FORM, "search:db:strategy.db")
    if not policy.lower().startswith(("db:", "strategy:")):
        raise PlayerSpecError(f"{text!r}: the policy must be db:PATH or strategy:PATH "
                              f"({SPEC_FORM})")
    blueprint = make_player(policy, seed)
    try:
        table = shared_arrays(blueprint, arrays_of_player)
    except DatabaseError as exc:
        blueprint.close()
        raise PlayerSpecError(str(exc)) from None
    return SearchPlayer(blueprint, table, worlds=options["worlds"],
                        greedy=options["rollout"] == "greedy",
                        search_bids=options["bids"] == "search", margin=options["margin"],
                        think_ms=options["think"], threads=options["threads"],
                        voids=options["voids"] == "on", seed=seed, name=text.strip(),
                        belief=options["belief"], temper=options["temper"],
                        pool=options["pool"], objective=options["objective"])
