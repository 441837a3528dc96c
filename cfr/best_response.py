"""Exact best response against a fixed policy, over a game tree (two players, perfect recall).

For the responder i against the other player's policy sigma_{-i}:
    BR(h) = u_i(h)                                      at a terminal
    BR(h) = sum_o P(o) BR(h o)                          at chance
    BR(h) = sum_a sigma(I(h), a) BR(h a)                at the other player's decisions
    BR(h) = BR(h a*(I(h)))                              at i's decisions, where
    a*(I) = argmax_a sum_{h in I} pi_{-i}(h) BR(h a)    (pi_{-i}: chance and other player reach;
                                                         first maximum on ties)
Perfect recall makes this well founded: every history below h in I lies deeper. Computed by
memoised recursion over the flat tree.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from cfr.game import CHANCE, TERMINAL
from cfr.regret_matching import average_strategy
from cfr.table import InfoSetTable, find_offset
from cfr.tree import GameTree


def average_policy(tree: GameTree, table: InfoSetTable) -> np.ndarray:
    """sigma[I, a]: the table's average strategy at each tree info set (uniform if absent)."""
    width = int(tree.infoset_actions.max()) if tree.num_infosets else 1
    sigma = np.zeros((tree.num_infosets, width), dtype=np.float64)
    _fill_average(table.keys, table.meta, table.offsets, table.strategy, tree.infoset_key,
                  tree.infoset_actions, sigma)
    return sigma


@njit(cache=True)
def _fill_average(keys, meta, offsets, strategy, infoset_key, infoset_actions, sigma):
    for i in range(infoset_key.shape[0]):
        o = find_offset(keys, meta, offsets, infoset_key[i])
        average_strategy(strategy, o, infoset_actions[i], sigma[i])


@njit(cache=True)
def other_reach(player, edge_start, edge_count, infoset, edge_child, edge_prob, sigma, responder):
    """pi_{-i}(h) for every node: product of chance and non-responder action probabilities."""
    n = player.shape[0]
    reach = np.zeros(n, dtype=np.float64)
    reach[n - 1] = 1.0
    for h in range(n - 1, -1, -1):
        p = player[h]
        if p == TERMINAL:
            continue
        e0 = edge_start[h]
        for j in range(edge_count[h]):
            c = edge_child[e0 + j]
            if p == CHANCE:
                reach[c] = reach[h] * edge_prob[e0 + j]
            elif p != responder and infoset[h] >= 0:
                reach[c] = reach[h] * sigma[infoset[h], j]
            else:
                reach[c] = reach[h]
    return reach


_I1 = types.int64[::1]
_F1 = types.float64[::1]
_BR_SIG = types.float64(
    types.int64, _I1, _I1, _I1, _I1, _F1, _I1, _F1, types.float64[:, ::1], types.int64,
    _F1, _I1, _I1, _I1, _F1, types.uint8[::1], _I1)


@njit(_BR_SIG, cache=True)
def br_value(h, player, edge_start, edge_count, infoset, utility, edge_child, edge_prob, sigma,
             responder, reach, members_start, members, best, memo, done, scratch):
    """BR(h) for `responder` (module docstring); fills `best[I]` as it decides info sets.

    `members[members_start[I]:members_start[I+1]]` are the histories of info set I; `memo`,
    `done` cache node values; `best[I]` is -1 until decided.
    """
    if done[h]:
        return memo[h]
    p = player[h]
    e0 = edge_start[h]
    ne = edge_count[h]
    if p == TERMINAL:
        v = utility[h] if responder == 0 else -utility[h]
    elif p == CHANCE:
        v = 0.0
        for j in range(ne):
            v += edge_prob[e0 + j] * br_value(edge_child[e0 + j], player, edge_start, edge_count,
                                               infoset, utility, edge_child, edge_prob, sigma,
                                               responder, reach, members_start, members, best,
                                               memo, done, scratch)
    elif infoset[h] < 0:
        v = br_value(edge_child[e0], player, edge_start, edge_count, infoset, utility,
                     edge_child, edge_prob, sigma, responder, reach, members_start, members,
                     best, memo, done, scratch)
    elif p != responder:
        v = 0.0
        i = infoset[h]
        for j in range(ne):
            v += sigma[i, j] * br_value(edge_child[e0 + j], player, edge_start, edge_count,
                                        infoset, utility, edge_child, edge_prob, sigma,
                                        responder, reach, members_start, members, best, memo,
                                        done, scratch)
    else:
        i = infoset[h]
        if best[i] < 0:
            totals = np.zeros(ne, dtype=np.float64)
            for m in range(members_start[i], members_start[i + 1]):
                g = members[m]
                g0 = edge_start[g]
                for j in range(ne):
                    totals[j] += reach[g] * br_value(edge_child[g0 + j], player, edge_start,
                                                     edge_count, infoset, utility, edge_child,
                                                     edge_prob, sigma, responder, reach,
                                                     members_start, members, best, memo, done,
                                                     scratch)
            a_best = 0
            for j in range(1, ne):
                if totals[j] > totals[a_best]:
                    a_best = j
            best[i] = a_best
        v = br_value(edge_child[e0 + best[i]], player, edge_start, edge_count, infoset, utility,
                     edge_child, edge_prob, sigma, responder, reach, members_start, members,
                     best, memo, done, scratch)
    memo[h] = v
    done[h] = 1
    return v


def infoset_members(tree: GameTree) -> tuple[np.ndarray, np.ndarray]:
    """(members_start, members): the histories of each info set, in CSR form."""
    nodes = np.flatnonzero(tree.infoset >= 0)
    order = np.argsort(tree.infoset[nodes], kind="stable")
    members = nodes[order].astype(np.int64)
    counts = np.bincount(tree.infoset[nodes], minlength=tree.num_infosets)
    start = np.zeros(tree.num_infosets + 1, dtype=np.int64)
    np.cumsum(counts, out=start[1:])
    return start, members


def best_response(tree: GameTree, sigma: np.ndarray, responder: int,
                  members: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[float, np.ndarray]:
    """(value for `responder` of its best response to sigma, best action index per info set).

    Info sets of the other player keep best = -1.
    """
    t = tree
    start, mem = members if members is not None else infoset_members(tree)
    sigma = np.ascontiguousarray(sigma, dtype=np.float64)
    reach = other_reach(t.player, t.edge_start, t.edge_count, t.infoset, t.edge_child,
                        t.edge_prob, sigma, responder)
    best = np.full(t.num_infosets, -1, dtype=np.int64)
    memo = np.zeros(t.num_nodes, dtype=np.float64)
    done = np.zeros(t.num_nodes, dtype=np.uint8)
    v = br_value(t.root, t.player, t.edge_start, t.edge_count, t.infoset, t.utility, t.edge_child,
                 t.edge_prob, sigma, int(responder), reach, start, mem, best, memo, done,
                 np.zeros(1, dtype=np.int64))
    return float(v), best
