"""`net:FILE[,sample]` of any game, written once: a policy network of `train distill` playing
alone (`NetPlayerBase`), and the spec's parsing and the network files read once a process
(`make_net_player`, `shared_net`). A game's player (Setback's and Euchre's
`games/NAME/play/net_player.py`) subclasses it with its features module (`features`: `GAME`,
`FEATURE_LAYOUT`, `INPUTS`, `OUTPUTS`, and its kernel `net_decision(state, history, n_moves,
us, them, w1, b1, w2, b2, w3, b3, *buffers)` writing the legal moves and their probabilities
into its first two buffers, and `scratch(hidden)` its buffers), its move text (`format_move`)
and how many moves a state says were made (`moves_made`).
"""

from __future__ import annotations

import os
import threading

import numpy as np

from games.rng import new_rng
from search.policy_net import NetFileError, load_net, pick

_NETS: dict = {}  # (path, size, mtime, game) -> PolicyNet: one copy a process
_NETS_LOCK = threading.Lock()


def shared_net(path: str, features):
    """The policy network of `path` for the game of `features` (its net module), read once a
    process; `NetFileError` (one line) when it is missing, damaged, newer or another game's or
    layout's."""
    try:
        stat = os.stat(path)
    except OSError:
        raise NetFileError(f"{path}: no such policy network file") from None
    key = (os.path.realpath(path), stat.st_size, stat.st_mtime_ns, features.GAME)
    with _NETS_LOCK:
        if key not in _NETS:
            _NETS[key] = load_net(path, features.GAME, features.FEATURE_LAYOUT,
                                  features.INPUTS, features.OUTPUTS)
        return _NETS[key]


class NetPlayerBase:
    """A policy network playing (module docstring): `net` a `PolicyNet`; `greedy` plays the
    most probable legal move, else one drawn from the network's probabilities."""

    features = None  # the game's net module (module docstring)

    def __init__(self, net, greedy: bool = True, seed: int = 0, name: str | None = None):
        self.net = net
        # the kernel's scratch buffers after the weights, sized by the game's net module
        self.buffers = self.features.scratch(net.hidden).decision_buffers()
        self.greedy = bool(greedy)
        self.name = name or "net"
        self.rng = new_rng(seed)
        self.counts = {"network": 0, "forced": 0}

    def seed(self, seed: int) -> None:
        """Restart the sampling generator from `seed`."""
        self.rng = new_rng(seed)

    @staticmethod
    def moves_made(state) -> int:
        """How many moves `state` (a view's) says were made (the game's)."""
        raise NotImplementedError

    @staticmethod
    def format_move(move: int) -> str:
        """A move's text (the game's)."""
        raise NotImplementedError

    def history(self, view) -> np.ndarray:
        """The moves so far as int64 (the network reads who played what from them), checked
        against the state (`moves_made`): ValueError, one line, when the view does not carry
        them."""
        history = np.asarray(view.history, dtype=np.int64)
        made = self.moves_made(view.state)
        if history.size != made:
            raise ValueError(f"the network reads the moves so far: this view carries "
                             f"{history.size} of the {made} made so far")
        return history

    def policy(self, view) -> tuple[np.ndarray, np.ndarray]:
        """(legal moves, the network's probability of each) at `view`: one forward pass of the
        game's kernel."""
        history = self.history(view)
        us, them = view.score_us_them
        n = self.features.net_decision(view.state, history, history.size, us, them,
                                       *self.net.parameters(), *self.buffers)
        return self.buffers[0][:n].copy(), self.buffers[1][:n].copy()

    def choose(self, view) -> int:
        """The move for the seat to act."""
        legal = view.legal_moves()
        if legal.size == 1:
            self.counts["forced"] += 1
            return int(legal[0])
        return self._pick(*self.policy(view))

    def _pick(self, moves: np.ndarray, probs: np.ndarray) -> int:
        """The move played from the network's policy (counted)."""
        self.counts["network"] += 1
        if self.greedy:
            return int(moves[int(np.argmax(probs))])
        return int(moves[pick(probs, probs.size, False, self.rng)])

    def explain(self, view) -> dict:
        """The move and why, for people (the Why panel): `{"move", "reason": "network" |
        "forced", "actions": [{"action", "move", "prob"}...] every legal move with the
        network's probability, in the engine's order, each named by its move's text,
        "chosen": the played move's index}`."""
        legal = view.legal_moves()
        if legal.size == 1:
            return {"move": int(legal[0]), "reason": "forced", "kind": None, "key": None,
                    "found": None, "lookups": [],
                    "actions": [{"action": self.format_move(int(legal[0])),
                                 "move": int(legal[0]), "prob": 1.0}],
                    "chosen": 0}
        moves, probs = self.policy(view)
        move = self._pick(moves, probs)  # one forward pass for the move and its reasons
        return {"move": move, "reason": "network", "kind": None, "key": None, "found": None,
                "lookups": [],
                "actions": [{"action": self.format_move(int(m)), "move": int(m),
                             "prob": float(p)} for m, p in zip(moves, probs)],
                "chosen": int(np.flatnonzero(moves == move)[0])}

    def close(self) -> None:
        """Nothing to release (the players' common interface)."""


# `belief=policy` on a network: a pool of 4 x worlds by default (a table's is 20): a world's
# weight replays the hand with a forward pass a modelled move, some 25 us each, where a table
# looks a key up
NET_POLICY_POOL = 4


class NetSearchMixin:
    """What every game's `search[OPTIONS]:net:FILE` player shares, put before the game's search
    player among its bases: its search is the network's rollouts (`self._net_search`, a
    `search.net_rollouts.NetRolloutSearch` the game builds), whose context is the moves so far
    and the score by team relative to the dealer. `belief=policy` weighs the worlds by the
    network's probability of the modelled seats' moves through the game's `policy_kernel`
    (its `net_policy_log_weights`)."""

    policy_kernel = None  # the game's compiled `net_policy_log_weights`

    def _new_search(self, game, table, greedy, threads):
        """The network's rollouts."""
        return self._net_search

    def _objective(self, view):
        """The rollouts' context: the moves so far and the score by team relative to the
        dealer."""
        us, them = view.score_us_them
        scores = np.array([us, them] if view.seat % 2 == 0 else [them, us], dtype=np.int64)
        return self.blueprint.history(view), scores

    def _log_weights(self, view, states, history, out) -> None:
        """`belief=policy`: each world's log-probability of the modelled seats' moves under
        the network (the game's `policy_kernel`), the pool split among the search's
        threads."""
        played_by = self._facts[0]  # who played which card (`_worlds` read it)
        _, scores = self._objective(view)
        modelled = self.modelled_seats(view)
        search = self._net_search
        parts = search.threads
        bounds = [states.shape[0] * k // parts for k in range(parts + 1)]

        def part(k: int) -> None:
            """Thread k's share of the states, with its own scratch buffers."""
            self.policy_kernel(states, bounds[k], bounds[k + 1], played_by, history,
                               history.size, modelled, scores, self.floor, *search.weights,
                               *search.belief_buffers(k), out)

        search.each(parts, part)


def make_net_player(cls, text: str, seed: int, spec_form: str, error=ValueError):
    """`net:FILE[,sample]` (`text`) as a player of class `cls` (a `NetPlayerBase`); `error`
    (one line) on a bad spec or file, `spec_form` saying what is expected."""
    body = text.strip()
    if not body.lower().startswith("net:"):
        raise error(f"{text!r}: expected {spec_form}")
    path, _, option = body[4:].partition(",")
    if not path:
        raise error(f"{text!r}: net: needs a path, as in net:model.net")
    if option not in ("", "sample"):
        raise error(f"{text!r}: unknown net option {option!r} ({spec_form})")
    try:
        net = shared_net(path, cls.features)
    except NetFileError as exc:
        raise error(str(exc)) from None
    return cls(net, greedy=option != "sample", seed=seed, name=body)
