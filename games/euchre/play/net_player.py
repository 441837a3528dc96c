"""`net:FILE[,sample]`: the policy network of a Euchre `train distill` run (exported by
`setback-cfr export`) playing alone: every call, alone, discard and card is the network's most
probable legal move (`,sample`: one drawn from its probabilities), one forward pass a decision
(`games.euchre.search.net`). `search[OPTIONS]:net:FILE` is Euchre's rollout search with the
network playing the rollouts (`EuchreNetSearchPlayer`). The network reads the hand's moves from the view
(`view.history`, the dealer's discard hidden from the others as the table hides it); a view
without them, once moves were made, is refused in one line.
"""

from __future__ import annotations

import numpy as np

from games.euchre import state as S
from games.euchre.api import format_move
from games.euchre.play.search_player import EuchreSearchPlayer
from games.euchre.search.net import (FEATURE_LAYOUT, GAME, INPUTS, OUTPUTS, NetScratch,
                                     net_decision, net_world_move_values)
from games.rng import new_rng
from search.policy_net import NetFileError, load_net, pick

SPEC_FORM = "net:FILE[,sample] (a Euchre policy network of `train distill`, exported by `export`)"
_NETS: dict = {}  # (path, size, mtime) -> PolicyNet: one copy a process


def euchre_net(path: str):
    """The Euchre policy network of `path`, read once a process; `NetFileError` (one line) when
    it is missing, damaged, newer or another game's or layout's."""
    import os

    try:
        stat = os.stat(path)
    except OSError:
        raise NetFileError(f"{path}: no such policy network file") from None
    key = (os.path.realpath(path), stat.st_size, stat.st_mtime_ns)
    if key not in _NETS:
        _NETS[key] = load_net(path, GAME, FEATURE_LAYOUT, INPUTS, OUTPUTS)
    return _NETS[key]


def hand_moves(view) -> np.ndarray:
    """The hand's moves as int64, as many as the state says were made (ValueError, one line,
    when the view does not carry them)."""
    history = np.asarray(view.history, dtype=np.int64)
    state = view.state
    ordered_up = state[S.MAKER] >= 0 and state[S.N_PASSES] < 4  # the dealer then discards
    made = int(state[S.N_PASSES]) + int(state[S.MAKER] >= 0) + int(state[S.ALONE] >= 0) \
        + int(ordered_up and state[S.PHASE] != S.PHASE_DISCARD) \
        + bin(int(state[S.PLAYED])).count("1")
    if history.size != made:
        raise ValueError(f"the network reads the hand's moves: this view carries "
                         f"{history.size} of the {made} made so far")
    return history


class EuchreNetPlayer:
    """The policy network playing Euchre (module docstring): `net` a `PolicyNet`; `greedy`
    plays the most probable legal move, else one drawn from the network's probabilities."""

    def __init__(self, net, greedy: bool = True, seed: int = 0, name: str | None = None):
        self.net = net
        self.greedy = bool(greedy)
        self.name = name or "net"
        self.rng = new_rng(seed)
        self._buffers = NetScratch(net.hidden).decision_buffers()
        self.counts = {"network": 0, "forced": 0}

    def seed(self, seed: int) -> None:
        """Restart the sampling generator from `seed`."""
        self.rng = new_rng(seed)

    def policy(self, view) -> tuple[np.ndarray, np.ndarray]:
        """(legal moves, the network's probability of each) at `view`."""
        history = hand_moves(view)
        us, them = view.score_us_them
        n = net_decision(view.state, history, history.size, us, them, *self.net.parameters(),
                         *self._buffers)
        return self._buffers[0][:n].copy(), self._buffers[1][:n].copy()

    def choose(self, view) -> int:
        """The move for the seat to act."""
        return self.explain(view)["move"]

    def explain(self, view) -> dict:
        """The move and why: `{"move", "reason": "network" | "forced", "actions": [{"action",
        "move", "prob"}...] every legal move with the network's probability, "chosen"}`."""
        legal = view.legal_moves()
        if legal.size == 1:
            self.counts["forced"] += 1
            moves, probs = legal, np.ones(1)
        else:
            self.counts["network"] += 1
            moves, probs = self.policy(view)
        chosen = int(pick(probs, probs.size, self.greedy or legal.size == 1, self.rng))
        return {"move": int(moves[chosen]), "reason": "network" if legal.size > 1 else "forced",
                "actions": [{"action": format_move(int(m)), "move": int(m), "prob": float(p)}
                            for m, p in zip(moves, probs)], "chosen": chosen}

    def close(self) -> None:
        """Nothing to release (the players' common interface)."""


def make_euchre_net_player(text: str, seed: int, error=ValueError):
    """`net:FILE[,sample]` (module docstring); `error` (one line) on a bad spec or file."""
    body = text.strip()
    path, _, option = body[4:].partition(",")
    if not path:
        raise error(f"{text!r}: net: needs a path, as in net:euchre.net")
    if option not in ("", "sample"):
        raise error(f"{text!r}: unknown net option {option!r} ({SPEC_FORM})")
    try:
        net = euchre_net(path)
    except NetFileError as exc:
        raise error(str(exc)) from None
    return EuchreNetPlayer(net, greedy=option != "sample", seed=seed, name=body)


class EuchreNetSearchPlayer(EuchreSearchPlayer):
    """`search[OPTIONS]:net:FILE`: Euchre's rollout search (`EuchreSearchPlayer`: its worlds,
    its settled hands) with the rollouts played by the network (`net_world_move_values`)
    instead of a table, the network's own move where the search is not run (`bids=blueprint`,
    the `margin` rule's fallback, a settled hand). The worlds are drawn uniformly among those
    consistent with the view (`belief=uniform` only)."""

    table_game = None  # the rollouts follow a network, not a table

    def __init__(self, net_player: EuchreNetPlayer, greedy: bool = False,
                 threads: int | None = None, **options):
        from play.search_base import SearchPlayerBase
        from search.net_rollouts import NetRolloutSearch

        net = net_player.net
        self._net_search = NetRolloutSearch(net, net_world_move_values,
                                            lambda: NetScratch(net.hidden), greedy, threads)
        SearchPlayerBase.__init__(self, net_player, None, None, S.STATE_SIZE, greedy=greedy,
                                  threads=threads, **options)

    def _new_search(self, game, table, greedy, threads):
        """The network's rollouts (`search.net_rollouts.NetRolloutSearch`)."""
        return self._net_search

    def _objective(self, view):
        """The rollouts' context: the hand's moves and the score by team relative to the
        dealer."""
        us, them = view.score_us_them
        scores = np.array([us, them] if view.seat % 2 == 0 else [them, us], dtype=np.int64)
        return hand_moves(view), scores


def make_euchre_net_search_player(text: str, options: dict, policy: str, seed: int,
                                  error=ValueError):
    """`search[OPTIONS]:net:FILE` from the parsed search `options` and the `net:` POLICY;
    `error` (one line) on a bad spec or file."""
    from play.search_options import constructor_options

    if options["belief"] != "uniform":
        raise error(f"{text!r}: search on a Euchre network takes belief=uniform only")
    net_player = make_euchre_net_player(policy, seed, error)
    return EuchreNetSearchPlayer(net_player, seed=seed, name=text.strip(),
                                 **constructor_options(options))
