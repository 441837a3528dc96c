"""`search[OPTIONS]:POLICY`: rollout search on a blueprint (a strategy database or files).

At each decision with two or more legal moves, the player draws `worlds` layouts of the hidden
cards among those consistent with its view and every public fact (`games/setback/search/worlds.py`),
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
| `belief=uniform\\|bids\\|policy` | worlds uniform among the consistent layouts, or resampled from a pool by the blueprint's probability of the bids seen (`bids`) or of every bid and card the other seats made (`policy`) | uniform |
| `temper=T` | `bids`, `policy`: the weights raised to the power T (0 < T <= 1; lower trusts them less) | bids 1, policy 0.25 |
| `pool=K` | `bids`, `policy`: worlds drawn before resampling, K times `worlds` | bids 4, policy 20 |
| `floor=F` | `bids`, `policy`: a move's probability below F counts as F (0 < F < 1) | 0.001 |
| `evidence=others\\|opponents` | `policy`: every other seat's moves weigh the worlds, or the opponents' only | others |
| `objective=score\\|win` | a rollout is worth the deal's score difference, or the probability of winning the game from the score it leaves (`search/win_probability.py`) | score |

POLICY is `db:PATH` or `strategy:PATH[,PATH...]` of any Setback key layout; its player also
makes the blueprint's own moves (the `margin` rule's fallback, `bids=blueprint`). The same seed
gives the same moves for any number of threads (without `think`). Examples:
`search:db:strategy.db`, `search[worlds=200,margin=1]:db:L120.db`,
`search[think=20]:db:strategy.db,bid=nn:model.nn`.
"""

from __future__ import annotations

from games.setback import public, rules
from games.setback import state as S
from games.setback.search import worlds as setback_worlds
from play.search_base import SearchPlayerBase

SPEC_FORM = "search[OPTIONS]:POLICY (OPTIONS: worlds=W,rollout=sample|greedy," \
            "bids=search|blueprint,margin=Z,think=MS,threads=T,voids=on|off," \
            "belief=uniform|bids|policy,temper=T,pool=K,floor=F,evidence=others|opponents," \
            "objective=score|win; POLICY: db:PATH, strategy:PATH[,PATH...] or net:FILE)"


NET_SEARCH = "games.setback.play.net_player:make_net_search_player"  # search[OPTIONS]:net:FILE


class SearchPlayer(SearchPlayerBase):
    """Plays Setback by rollout search on `blueprint` (a `DatabasePlayer`), whose
    tables `table` (`db.policy_arrays.PolicyArrays`) the rollouts follow (module docstring;
    the search itself is `play.search_base.SearchPlayerBase`'s)."""

    public, rules, fields, sampler = public, rules, S, setback_worlds
    model_game = "setback"

    def __init__(self, blueprint, table, worlds: int = 100, greedy: bool = False,
                 search_bids: bool = True, margin: float = 0.0, think_ms: float | None = None,
                 threads: int | None = None, voids: bool = True, seed: int = 0,
                 name: str | None = None, belief: str = "uniform",
                 temper: float | None = None, pool: int | None = None,
                 floor: float | None = None, evidence: str = "others",
                 objective: str = "score"):
        from games.setback.abstraction import abstract_game, layouts
        from cfr.binding import layout_game

        self.objective = objective
        self._outcome = None
        if objective == "win":
            from cfr.game import FunctionAddress
            from numba import types

            from games.setback.search.objective import OUTCOME_SIG, deal_outcome

            self._outcome = FunctionAddress(deal_outcome, types.FunctionType(OUTCOME_SIG))
        super().__init__(blueprint, table,
                         layout_game(abstract_game, layouts, table.layout), S.STATE_SIZE,
                         worlds=worlds, greedy=greedy, search_bids=search_bids, margin=margin,
                         think_ms=think_ms, threads=threads, voids=voids, seed=seed, name=name,
                         belief=belief, temper=temper, pool=pool, floor=floor,
                         evidence=evidence)

    def explain(self, view) -> dict:
        """`choose`'s move and why, in the database player's trace form (`db/player.py`: the
        blueprint's key, lookups and action probabilities) with the search's figures added:
        `reason` "search" (or "forced", or "blueprint" for a bid under `bids=blueprint`),
        `worlds` searched, `searched`: [{"move", "value"}...] every legal move's mean deal-score
        difference for the player's team over the worlds, best first, `belief` where the trump
        Jack and the trumps above it lie in those worlds (`belief_summary`), and `chosen` the
        index of the played move among the blueprint's actions (None when it is not one of
        them)."""
        trace = self.blueprint.explain(view) if hasattr(self.blueprint, "explain") else {
            "key": None, "kind": None, "found": None, "lookups": [], "actions": []}
        result = self.decide(view)
        trace.update(move=result["move"], reason=result["reason"], worlds=result["worlds"],
                     searched=result["moves"], belief=result.get("belief", []),
                     chosen=next((i for i, a in enumerate(trace.get("actions", []))
                                  if a["move"] == result["move"]), None))
        return trace

    def _cards_that_matter(self, view) -> tuple:
        """Once trump is known: its Jack and the trumps above it (Q, K, A)."""
        from games.setback.cards import ACE, JACK, make_card

        trump = int(view.state[S.TRUMP])
        return () if trump < 0 else tuple(make_card(rank, trump)
                                          for rank in range(JACK, ACE + 1))

    def _objective(self, view):
        """`objective=win`: a rollout is worth its team's probability of winning the game from
        the score the deal leaves (`games/setback/search/objective.py`)."""
        if self._outcome is None:
            return None
        from games.setback.search.objective import win_values

        us, them = view.score_us_them
        return self._outcome, win_values(view.seat % 2, us, them)

    @property
    def counts(self):
        """The blueprint's decision counts (the tournament reports a player's counts)."""
        return getattr(self.blueprint, "counts", {})


def make_search_player(text: str, seed: int = 0):
    """The search player of a spec string (module docstring); PlayerSpecError on a bad one."""
    from games.setback.db.policy_arrays import arrays_of_player
    from games.setback.play.grammar import PlayerSpecError, make_player
    from play.search_options import parse_options

    options, policy = parse_options(text, PlayerSpecError, SPEC_FORM, "search:db:strategy.db")
    if policy.lower().startswith("net:"):
        from games.registry import load_place

        # named, not imported: the net player (net_player.py) builds its search player on this
        # module, so an import here would be a loop
        return load_place(NET_SEARCH)(text, options, policy, seed)
    if not policy.lower().startswith(("db:", "strategy:")):
        raise PlayerSpecError(f"{text!r}: the policy must be db:PATH, strategy:PATH or "
                              f"net:FILE ({SPEC_FORM})")
    return SearchPlayer.from_options(text, seed, options, make_player(policy, seed),
                                     arrays_of_player, PlayerSpecError,
                                     objective=options["objective"])
