"""`net:FILE`, the policy network playing alone, and `search[OPTIONS]:net:FILE`, rollout search
with the network as the rollout policy (Setback; the network of `train distill`, exported by
`setback-cfr export`).

- `net:FILE` bids and plays the network's most probable legal move (`net:FILE,sample`: drawn
  from its probabilities). A decision is one forward pass: tens of microseconds.
- `search[OPTIONS]:net:FILE` is `search[OPTIONS]:POLICY` (`games/setback/play/search_player.py`) with the
  rollouts played by the network instead of a table (`games.setback.search.net`): worlds drawn
  consistent with the view, every legal move rolled out in each, the best mean played. Its
  options are the search's; `belief=policy` weighs the worlds by the network's probability
  of every move the others made (a pool of 4 x worlds by default: a forward pass a move),
  and `objective=` is score only.

Both read the deal's moves from the view (`view.history`): the network sees who played which
card, which the state alone does not say. A view without them, once moves were made, is
refused in one line.
"""

from __future__ import annotations

from games.setback.api import format_move
from games.setback import state as S
from games.setback.play.search_player import SearchPlayer
from games.setback.search import net as net_features
from games.setback.search.net import net_policy_log_weights, net_world_move_values, scratch
from play.net_player import NET_POLICY_POOL, NetPlayerBase, NetSearchMixin
from play.net_player import make_net_player as make_shared_net_player
from search.net_rollouts import NetRolloutSearch

SPEC_FORM = "net:FILE[,sample] (a policy network of `train distill`, exported by `export`)"


class NetPlayer(NetPlayerBase):
    """The policy network playing Setback (module docstring; `play.net_player.NetPlayerBase`:
    the most probable legal move when `greedy`, else one drawn from its probabilities)."""

    features = net_features
    format_move = staticmethod(format_move)

    @staticmethod
    def moves_made(state) -> int:
        """The bids made and the cards played."""
        return int(state[S.N_BIDS]) + bin(int(state[S.PLAYED])).count("1")


class NetSearchPlayer(NetSearchMixin, SearchPlayer):
    """Rollout search with the policy network as the rollout policy (module docstring): the
    Setback search player (`games/setback/play/search_player.py`: its worlds, its explanation) with
    `NetRolloutSearch` for the rollouts; the network's own move where the search is not run
    (`bids=blueprint`, the `margin` rule's fallback)."""

    policy_kernel = staticmethod(net_policy_log_weights)

    def __init__(self, net_player: NetPlayer, worlds: int = 100, greedy: bool = False,
                 search_bids: bool = True, margin: float = 0.0, think_ms: float | None = None,
                 threads: int | None = None, voids: bool = True, seed: int = 0,
                 name: str | None = None, belief: str = "uniform",
                 temper: float | None = None, pool: int | None = None,
                 floor: float | None = None, evidence: str = "others"):
        from play.search_base import SearchPlayerBase

        self.objective = "score"
        self._outcome = None
        net = net_player.net
        self._net_search = NetRolloutSearch(net, net_world_move_values,
                                            lambda: scratch(net.hidden), greedy, threads)
        if belief == "policy" and pool is None:
            pool = NET_POLICY_POOL
        SearchPlayerBase.__init__(self, net_player, None, None, S.STATE_SIZE, worlds=worlds,
                                  greedy=greedy, search_bids=search_bids, margin=margin,
                                  think_ms=think_ms, threads=threads, voids=voids, seed=seed,
                                  name=name, belief=belief, temper=temper, pool=pool,
                                  floor=floor, evidence=evidence)


def make_net_player(text: str, seed: int = 0):
    """`net:FILE[,sample]` (module docstring); PlayerSpecError on a bad spec or file."""
    from play.player_spec import PlayerSpecError

    return make_shared_net_player(NetPlayer, text, seed, SPEC_FORM, PlayerSpecError)


def make_net_search_player(text: str, options: dict, policy: str, seed: int = 0):
    """`search[OPTIONS]:net:FILE` from the parsed search `options` and the `net:` POLICY."""
    from play.player_spec import PlayerSpecError

    if options["belief"] not in ("uniform", "policy"):
        raise PlayerSpecError(f"{text!r}: search on a network takes belief=uniform or "
                              "belief=policy (the network as the model of the others' moves)")
    if options["objective"] != "score":
        raise PlayerSpecError(f"{text!r}: search on a network takes objective=score only")
    net_player = make_net_player(policy, seed)
    from play.search_options import constructor_options

    return NetSearchPlayer(net_player, seed=seed, name=text.strip(),
                           **constructor_options(options))
