"""Spades' `search[OPTIONS]:BASE`: rollout search on a base player, the search itself
`play.search_base.SearchPlayerBase`'s (worlds drawn uniformly among those consistent with the
view, every legal move rolled out in each, the best mean played), as Euchre's and Setback's.

What is Spades': every bid and every card with two or more legal moves is searched; the worlds
are `games/spades/search/worlds.py`'s (the voids shown by a failure to follow or by a spade
lead); a rollout scores the team's hand score less the other team's (`scoring.team_score`:
contracts, Nil, bags and their penalty at the game score). BASE is `heuristic` (whose numba rule
`games/spades/search/policy.py` plays the rollouts: no table, every rollout deterministic) or
`db:PATH[,sample]` (a database of a Spades export, whose table the rollouts follow through the
abstract game); the base also makes its own moves where search has nothing to add
(`bids=blueprint`, the `margin` rule's fallback).

Options are those of `play/search_options.py`. Beliefs: `uniform`; `policy` (a `db:` base's
table weighs the worlds by its probability of every move the other seats made, as in the other
games); `bids:FILE` reads Spades' bid-inference tables (`bid-tables --game spades`,
`games/spades/search/bid_tables.py`), whose `log_weight(view, states, out)` (the player's
`log_weight` slot) gives each world its log-weight by the bids made, and the worlds are
resampled from a pool by it; `belief=bids` without a file is refused. Examples:
`search:heuristic`, `search[worlds=200,threads=1]:heuristic`.
"""

from __future__ import annotations

import functools

import numpy as np

from games.spades import public, rules
from games.spades import state as S
from games.spades.cards import SPADES, N_RANKS
from play.search_base import SearchPlayerBase
from play.search_options import DEFAULTS, constructor_options, parse_options
from games.spades.search import worlds as spades_worlds

SPEC_FORM = ("search[OPTIONS]:heuristic|db:PATH (OPTIONS: worlds=W,rollout=sample|greedy,"
             "bids=search|blueprint,margin=Z,think=MS,threads=T,voids=on|off,"
             "belief=uniform|policy|bids:FILE,temper=T,pool=K,floor=F,evidence=others|opponents)")
OPTIONS = tuple(name for name in DEFAULTS if name != "objective")  # the hand's score only


class HeuristicRollouts:
    """The rollout game of `games/spades/search/policy.py` (the heuristic plays every seat, a forced
    move each) as `search.rollout_search.RolloutSearch` takes a game, and its empty table."""

    state_size = S.STATE_SIZE
    max_actions = 14
    game = "spades"
    keys = np.zeros(0, dtype=np.uint64)
    offsets = np.zeros(1, dtype=np.int64)
    probs = np.zeros(0, dtype=np.float32)

    def __init__(self):
        from cfr.game import FUNCTION_TYPES, FunctionAddress
        from games.spades.search import policy as P

        functions = (P.rollout_current_player, P.rollout_decision, P.rollout_apply,
                     P.rollout_utility)
        self.addresses = tuple(FunctionAddress(f, t) for f, t in zip(functions, FUNCTION_TYPES))


@functools.cache  # one a process: its addresses resolve once
def heuristic_rollouts() -> HeuristicRollouts:
    """The process's `HeuristicRollouts`."""
    return HeuristicRollouts()


class SpadesSearchPlayer(SearchPlayerBase):
    """Plays Spades by rollout search on `blueprint` (the base player), the rollouts following
    `game` with `table` (the heuristic's rollouts and empty table by default; a `db:` base's
    abstract game and policy arrays otherwise). `log_weight(view, states, out)`: the
    `belief=bids` slot (module docstring)."""

    public, rules, fields, sampler = public, rules, S, spades_worlds
    table_game = "spades"

    def __init__(self, blueprint, table=None, game=None, log_weight=None, **options):
        if table is None:
            table = game = heuristic_rollouts()
        elif game is None:  # a `db:` base's table: its rollouts walk Spades' abstract game
            from games.spades.abstraction import abstract_game
            from cfr.binding import bind

            game = bind(abstract_game)
        belief = options.get("belief", "uniform")
        if belief == "bids" and log_weight is None:
            raise ValueError("belief=bids reads Spades' bid-inference tables: name their file, "
                             "belief=bids:FILE (made by `bid-tables --game spades`)")
        if belief == "policy" and table.keys.size == 0:
            raise ValueError("belief=policy weighs the worlds by a database's policy: the base "
                             "must be db:PATH")
        if belief not in ("uniform", "bids", "policy"):
            raise ValueError(f"belief={belief} is not available in Spades (uniform, policy, "
                             "bids)")
        self.log_weight = log_weight
        super().__init__(blueprint, table, game, S.STATE_SIZE, **options)

    def _cards_that_matter(self, view) -> tuple:
        """The ace, king and queen of spades."""
        return tuple(SPADES * N_RANKS + rank for rank in (12, 11, 10))

    def _log_weights(self, view, states, history, out) -> None:
        """`belief=bids`: the `log_weight` slot's (the bid-inference tables); `belief=policy`:
        the base table's (`SearchPlayerBase`)."""
        if self.belief == "bids":
            self.log_weight(view, states, out)
            return
        super()._log_weights(view, states, history, out)


def make_spades_search_player(text: str, seed: int, make_player, error=ValueError):
    """The Spades search player of a spec string (module docstring); `make_player(BASE, seed)`
    makes the base (the Spades player grammar's); `error` (one line) on a bad spec."""
    from games.spades.play.bid_data import SpadesBidTablesError, load_belief, split_bids_belief

    plain, tables = split_bids_belief(text)  # belief=bids:FILE: the bid tables' log-weight
    options, base = parse_options(plain, error, SPEC_FORM, "search:heuristic", OPTIONS)
    try:
        options["log_weight"] = load_belief(tables) if tables else None
    except SpadesBidTablesError as exc:
        raise error(f"{text.strip()!r}: {exc}") from None
    kind = base.lower()
    if kind == "heuristic":
        try:
            return SpadesSearchPlayer(make_player(base, seed), seed=seed, name=text.strip(),
                                      log_weight=options["log_weight"],
                                      **constructor_options(options))
        except ValueError as exc:
            raise error(f"{text.strip()!r}: {exc}") from None
    if kind.startswith("db:"):
        # its rollouts follow the database's policy arrays through Spades' abstract game
        return SpadesSearchPlayer.from_options(text, seed, options, make_player(base, seed),
                                               error=error, log_weight=options["log_weight"])
    raise error(f"{text!r}: the base must be heuristic or db:PATH ({SPEC_FORM})")
