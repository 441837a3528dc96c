"""`net:FILE[,sample]`: the policy network of a Euchre `train distill` run (exported by
`setback-cfr export`) playing alone: every call, alone, discard and card is the network's most
probable legal move (`,sample`: one drawn from its probabilities), one forward pass a decision
(`games.euchre.search.net`). `search[OPTIONS]:net:FILE` is Euchre's rollout search with the
network playing the rollouts (`EuchreNetSearchPlayer`); its `belief=policy` weighs the worlds by
the network's probability of the others' moves. The network reads the hand's moves
from the view (`view.history`, the dealer's discard hidden from the others as the table hides
it); a view without them, once moves were made, is refused in one line.
"""

from __future__ import annotations

from games.euchre import state as S
from games.euchre.api import format_move
from games.euchre.play.search_player import EuchreSearchPlayer
from games.euchre.search import net as net_features
from games.euchre.search.net import net_policy_log_weights, net_world_move_values, scratch
from play.net_player import NET_POLICY_POOL, NetPlayerBase, NetSearchMixin, make_net_player

SPEC_FORM = ("net:FILE[,sample] (a Euchre policy network of `train distill`, exported by "
             "`export`)")


class EuchreNetPlayer(NetPlayerBase):
    """The policy network playing Euchre (module docstring; `play.net_player.NetPlayerBase`:
    the most probable legal move when `greedy`, else one drawn from its probabilities)."""

    features = net_features
    format_move = staticmethod(format_move)

    @staticmethod
    def moves_made(state) -> int:
        """The passes, the call that named trump, the dealer's discard after an order-up, the
        alone decision and the cards played."""
        ordered_up = state[S.MAKER] >= 0 and state[S.N_PASSES] < 4
        return int(state[S.N_PASSES]) + int(state[S.MAKER] >= 0) + int(state[S.ALONE] >= 0) \
            + int(ordered_up and state[S.PHASE] != S.PHASE_DISCARD) \
            + bin(int(state[S.PLAYED])).count("1")


def make_euchre_net_player(text: str, seed: int, error=ValueError):
    """`net:FILE[,sample]` (module docstring); `error` (one line) on a bad spec or file."""
    return make_net_player(EuchreNetPlayer, text, seed, SPEC_FORM, error)


class EuchreNetSearchPlayer(NetSearchMixin, EuchreSearchPlayer):
    """`search[OPTIONS]:net:FILE`: Euchre's rollout search (`EuchreSearchPlayer`: its worlds,
    its settled hands) with the rollouts played by the network (`net_world_move_values`)
    instead of a table, the network's own move where the search is not run (`bids=blueprint`,
    the `margin` rule's fallback, a settled hand). The worlds are drawn uniformly among those
    consistent with the view (`belief=uniform`), or from a pool of `pool` (default 4) times as
    many weighed by the network's probability of the modelled seats' moves
    (`belief=policy`)."""

    table_game = None  # the rollouts follow a network, not a table
    policy_kernel = staticmethod(net_policy_log_weights)

    def __init__(self, net_player: EuchreNetPlayer, greedy: bool = False,
                 threads: int | None = None, **options):
        from play.search_base import SearchPlayerBase
        from search.net_rollouts import NetRolloutSearch

        net = net_player.net
        self._net_search = NetRolloutSearch(net, net_world_move_values,
                                            lambda: scratch(net.hidden), greedy, threads)
        if options.get("belief") == "policy" and options.get("pool") is None:
            options["pool"] = NET_POLICY_POOL
        SearchPlayerBase.__init__(self, net_player, None, None, S.STATE_SIZE, greedy=greedy,
                                  threads=threads, **options)


def make_euchre_net_search_player(text: str, options: dict, policy: str, seed: int,
                                  error=ValueError):
    """`search[OPTIONS]:net:FILE` from the parsed search `options` and the `net:` POLICY;
    `error` (one line) on a bad spec or file."""
    from play.search_options import constructor_options

    if options["belief"] not in ("uniform", "policy"):
        raise error(f"{text!r}: search on a Euchre network takes belief=uniform or "
                    "belief=policy (the network as the model of the others' moves)")
    net_player = make_euchre_net_player(policy, seed, error)
    return EuchreNetSearchPlayer(net_player, seed=seed, name=text.strip(),
                                 **constructor_options(options))
