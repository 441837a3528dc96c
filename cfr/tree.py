"""A game's whole tree as flat arrays, built once through the game interface (small games).

Used by exact best response, exploitability and game value, and by the flat-tree CFR pass
(`cfr.tree_pass`) that trades the interface's per-node calls for array reads. Nodes are
numbered in depth-first post-order (children before their parent, the root last), so a forward
sweep is bottom-up and a backward sweep top-down; the edges of node i are
`edge_start[i] : edge_start[i] + edge_count[i]`, in the game's action / outcome order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cfr.game import CHANCE, TERMINAL, Game


@dataclass
class GameTree:
    """Flat arrays of one game tree; info sets numbered densely in first-visit order."""

    player: np.ndarray  # int64[N]: 0, 1, CHANCE or TERMINAL
    edge_start: np.ndarray  # int64[N]
    edge_count: np.ndarray  # int64[N]
    infoset: np.ndarray  # int64[N]: dense info-set id at decisions with >= 2 actions, else -1
    utility: np.ndarray  # float64[N]: player 0's payoff at terminals
    edge_child: np.ndarray  # int64[E]
    edge_action: np.ndarray  # int64[E]
    edge_prob: np.ndarray  # float64[E]: chance probability (1.0 on decision edges)
    infoset_key: np.ndarray  # uint64[I, key_words]
    infoset_player: np.ndarray  # int64[I]
    infoset_actions: np.ndarray  # int64[I]

    @property
    def num_nodes(self) -> int:
        """Number of histories (decision, chance and terminal nodes)."""
        return len(self.player)

    @property
    def root(self) -> int:
        """The root's node number (the last node)."""
        return len(self.player) - 1

    @property
    def num_infosets(self) -> int:
        """Number of distinct info sets with at least two actions."""
        return len(self.infoset_player)


def build_tree(game: Game) -> GameTree:
    """Enumerate every history of `game` through its interface, depth first."""
    kw = game.key_words
    actions = np.zeros(game.max_actions, dtype=np.int64)
    probs = np.zeros(game.max_actions, dtype=np.float64)
    keybuf = np.zeros(2, dtype=np.uint64)
    player, estart, ecount, infoset, util = [], [], [], [], []
    echild, eaction, eprob = [], [], []
    ids: dict[tuple, int] = {}
    ikeys, iplayer, iactions = [], [], []
    post: list[int] = []

    def visit(state: np.ndarray) -> int:
        """Add `state` and its subtree; return its (pre-order) node number."""
        node = len(player)
        p = int(game.current_player(state))
        player.append(p)
        estart.append(0)
        ecount.append(0)
        infoset.append(-1)
        util.append(0.0)
        if p == TERMINAL:
            util[node] = float(game.utility(state))
            post.append(node)
            return node
        if p == CHANCE:
            n = int(game.chance_outcomes(state, actions, probs))
            outs = [(int(actions[i]), float(probs[i])) for i in range(n)]
        else:
            n = int(game.decision(state, actions, keybuf))
            outs = [(int(actions[i]), 1.0) for i in range(n)]
            if n >= 2:
                key = tuple(int(k) for k in keybuf[:kw])
                iid = ids.get(key)
                if iid is None:
                    iid = ids[key] = len(iplayer)
                    ikeys.append(key)
                    iplayer.append(p)
                    iactions.append(n)
                infoset[node] = iid
        children = []
        for a, pr in outs:
            child = np.empty(game.state_size, dtype=np.int64)
            game.apply(state, a, child)
            children.append((visit(child), a, pr))
        estart[node] = len(echild)
        ecount[node] = len(children)
        for c, a, pr in children:
            echild.append(c)
            eaction.append(a)
            eprob.append(pr)
        post.append(node)
        return node

    visit(np.ascontiguousarray(game.initial_state(), dtype=np.int64))
    i64 = np.int64
    post_arr = np.array(post, dtype=i64)  # post_arr[new id] = pre-order id
    new_id = np.empty(len(post), dtype=i64)
    new_id[post_arr] = np.arange(len(post), dtype=i64)
    return GameTree(
        player=np.array(player, dtype=i64)[post_arr],
        edge_start=np.array(estart, dtype=i64)[post_arr],
        edge_count=np.array(ecount, dtype=i64)[post_arr],
        infoset=np.array(infoset, dtype=i64)[post_arr],
        utility=np.array(util, dtype=np.float64)[post_arr],
        edge_child=new_id[np.array(echild, dtype=i64)],
        edge_action=np.array(eaction, dtype=i64),
        edge_prob=np.array(eprob, dtype=np.float64),
        infoset_key=np.array(ikeys, dtype=np.uint64).reshape(-1, kw),
        infoset_player=np.array(iplayer, dtype=i64),
        infoset_actions=np.array(iactions, dtype=i64),
    )
