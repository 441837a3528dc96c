"""Euchre's `search[OPTIONS]:POLICY`: rollout search on a Euchre blueprint (a strategy database),
the search itself `play.search_base.SearchPlayerBase`'s (worlds drawn uniformly among those
consistent with the view, every legal move rolled out in each, the best mean played).

What is Euchre's: every decision with two or more legal moves is searched (the calls of both
rounds, the alone decision, the dealer's discard, every card); the worlds are
`games/euchre/search/worlds.py`'s (the upcard and its fate, the dealer's discard known to the
dealer only, the voids shown); the rollouts walk the abstract Euchre game (bound by
`cfr.binding.bind` as the trainer binds it) and score the hand's points for the team less the
other's, ending once they are settled; a key the blueprint lacks takes the first abstract action
(pass, alone, the lowest token) and the dealer's discard is the abstraction's rule. A decision
whose points are already settled (three tricks to the defenders, or three to the makers and one
to the defenders) has nothing to search: the blueprint's move is played.

Options are the Setback search player's (`games/setback/play/search_player.py`'s table) but
`objective` (the hand's points only), `bids` meaning every decision before the play (calls, alone,
discard) and `belief=bids` the calls of both rounds and the alone decision; `belief=model:FILE`
reads a card-location model of Euchre (`setback-cfr learn belief --game euchre`),
`model+policy:FILE` the model's weight times the policy's. POLICY is `db:PATH[,sample]`: a database
of a Euchre export, whose database player also makes the blueprint's own moves (the `margin` rule's
fallback, `bids=blueprint`, settled hands). Examples: `search:db:euchre.db`,
`search[worlds=200,threads=1]:db:euchre.db`.
"""

from __future__ import annotations

from games.euchre import public, rules
from games.euchre import state as S
from play.search_base import SearchPlayerBase
from play.search_options import DEFAULTS, parse_options
from games.euchre.search import worlds as euchre_worlds

SPEC_FORM = "search[OPTIONS]:db:PATH (OPTIONS: worlds=W,rollout=sample|greedy," \
            "bids=search|blueprint,margin=Z,think=MS,threads=T,voids=on|off," \
            "belief=uniform|bids|policy|model:FILE|model+policy:FILE,temper=T,pool=K," \
            "floor=F," \
            "evidence=others|opponents)"
OPTIONS = tuple(name for name in DEFAULTS if name != "objective")  # the hand's points only


class EuchreSearchPlayer(SearchPlayerBase):
    """Plays Euchre by rollout search on `blueprint` (a
    `db.plugin_player.PluginDatabasePlayer` of Euchre) whose table `table`
    (`db.policy_arrays.PolicyArrays` of game euchre) the rollouts follow (module docstring; the
    search itself is `play.search_base.SearchPlayerBase`'s)."""

    public, rules, fields, sampler = public, rules, S, euchre_worlds
    model_game = table_game = "euchre"

    def __init__(self, blueprint, table, **options):
        from games.euchre.abstraction import abstract_game
        from cfr.binding import bind

        super().__init__(blueprint, table, bind(abstract_game), S.STATE_SIZE, **options)

    def _unsearched(self, state) -> str | None:
        """The bids under `bids=blueprint`, and a hand whose points are settled (nothing left
        to search: "settled")."""
        from games.euchre.abstraction.abstract_game import is_settled

        reason = super()._unsearched(state)
        return "settled" if reason is None and is_settled(state) else reason

    def _cards_that_matter(self, view) -> tuple:
        """Once trump is named: the two bowers (its Jack and the Jack of its colour)."""
        from games.euchre.cards import JACK, left_bower, make_card

        trump = int(view.state[S.TRUMP])
        return () if trump < 0 else (int(make_card(JACK, trump)), int(left_bower(trump)))


def make_euchre_search_player(text: str, seed: int, make_player, error=ValueError):
    """The Euchre search player of a spec string (module docstring); `make_player(POLICY,
    seed)` makes the blueprint (the Euchre player grammar's); `error` (one line) on a bad spec
    or a policy that is not a Euchre database."""
    options, policy = parse_options(text, error, SPEC_FORM, "search:db:euchre.db", OPTIONS)
    if not policy.lower().startswith("db:"):
        raise error(f"{text!r}: the policy must be db:PATH, a database of a Euchre export "
                    f"({SPEC_FORM})")
    return EuchreSearchPlayer.from_options(text, seed, options, make_player(policy, seed),
                                           error=error)
