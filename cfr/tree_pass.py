"""The CFR pass over a precomputed game tree (`cfr.tree.GameTree`): same results, fewer calls.

It computes exactly what `cfr.traversal.pass_kernel` computes with full chance enumeration —
the same values, the same increments, logged in the same (post-)order — so a run that uses it
leaves a table identical bit for bit to one that walks the game interface. Instead of one
depth-first walk it makes three sweeps over flat arrays:
1. sigma(I) for every info set by regret matching on the frozen table (uniform if absent);
2. backwards over the (post-order numbered) nodes, parents first: reaches pi_0, pi_1, pi_c;
3. forwards, children first: v_0(h) and the log entries (formulas in `cfr.traversal`); a
   decision with pi_0 = pi_1 = 0 gets value 0 and no entry, as in the walk (which skips it:
   everything below it has zero reach too, so its subtree adds nothing either way).
Only full enumeration of chance: sampled chance uses the interface walk.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cfr.game import CHANCE, TERMINAL
from cfr.increment_log import IncrementLog, log_entry
from cfr.regret_matching import regret_matching
from cfr.table import InfoSetTable, find_offset
from cfr.tree import GameTree
from cfr.walk import decision_weights, regret_increment


@njit(cache=True, _nrt=False)
def resolve_offsets(keys, meta, offsets, infoset_key, infoset_offset):
    """infoset_offset[I] <- the table offset of info set I's key, or -1 if absent."""
    for i in range(infoset_key.shape[0]):
        if infoset_offset[i] < 0:
            infoset_offset[i] = find_offset(keys, meta, offsets, infoset_key[i])


@njit(cache=True, nogil=True, _nrt=False)
def tree_pass_kernel(player, edge_start, edge_count, infoset, utility, edge_child, edge_prob,
                     infoset_key, infoset_player, infoset_actions, infoset_offset,
                     regrets, strategy, sigma, reach, value,
                     lg_offset, lg_key, lg_meta, lg_values, lg_counts, update_player, weight,
                     in_place):
    """One full-enumeration pass over the tree; returns v_0 of the root (see module doc).

    `sigma` (info sets x max actions), `reach` (nodes x 3) and `value` (nodes) are
    work arrays. With `in_place` (every info set already in the table) the increments are
    added straight to `regrets` and `strategy` in log order instead of being logged: sigma is
    computed before the sweeps, so this is exactly log + merge, without the log.
    """
    n_nodes = player.shape[0]
    for i in range(infoset_key.shape[0]):
        regret_matching(regrets, infoset_offset[i], infoset_actions[i], sigma[i])
    root = n_nodes - 1
    reach[root, 0] = 1.0
    reach[root, 1] = 1.0
    reach[root, 2] = 1.0
    for h in range(n_nodes - 1, -1, -1):
        p = player[h]
        if p == TERMINAL:
            continue
        e0 = edge_start[h]
        ne = edge_count[h]
        r0 = reach[h, 0]
        r1 = reach[h, 1]
        rc = reach[h, 2]
        for j in range(ne):
            c = edge_child[e0 + j]
            reach[c, 0] = r0
            reach[c, 1] = r1
            reach[c, 2] = rc
        if p == CHANCE:
            for j in range(ne):
                reach[edge_child[e0 + j], 2] = rc * edge_prob[e0 + j]
        elif infoset[h] >= 0:
            i = infoset[h]
            rp = reach[h, p]
            for j in range(ne):
                reach[edge_child[e0 + j], p] = rp * sigma[i, j]
    for h in range(n_nodes):
        p = player[h]
        if p == TERMINAL:
            value[h] = utility[h]
            continue
        if p != CHANCE and reach[h, 0] == 0.0 and reach[h, 1] == 0.0:
            value[h] = 0.0  # pruned, as the walk does (everything below has zero reach too)
            continue
        e0 = edge_start[h]
        ne = edge_count[h]
        v = 0.0
        if p == CHANCE:
            for j in range(ne):
                v += edge_prob[e0 + j] * value[edge_child[e0 + j]]
            value[h] = v
            continue
        i = infoset[h]
        if i < 0:  # forced move
            value[h] = value[edge_child[e0]]
            continue
        for j in range(ne):
            v += sigma[i, j] * value[edge_child[e0 + j]]
        value[h] = v
        if update_player >= 0 and update_player != p:
            continue
        cf_reach, wr = decision_weights(reach, h, p, weight)
        if in_place:
            o = infoset_offset[i]
            for j in range(ne):
                regrets[o + j] += regret_increment(p, cf_reach, value[edge_child[e0 + j]], v)
            for j in range(ne):
                strategy[o + j] += wr * sigma[i, j]
            continue
        pos = log_entry(lg_offset, lg_key, lg_meta, lg_values, lg_counts,
                        infoset_offset[i], infoset_key[i], ne | (p << 7), ne)
        if pos < 0:
            continue
        for j in range(ne):
            lg_values[pos + j] = regret_increment(p, cf_reach, value[edge_child[e0 + j]], v)
        for j in range(ne):
            lg_values[pos + ne + j] = wr * sigma[i, j]
    return value[root]


class TreePass:
    """A game tree with the work arrays of its pass; `run` mirrors `traversal.traverse`."""

    def __init__(self, tree: GameTree):
        self.tree = tree
        n = tree.num_nodes
        width = max(1, int(tree.infoset_actions.max()) if tree.num_infosets else 1)
        self.infoset_offset = np.full(tree.num_infosets, -1, dtype=np.int64)
        self.sigma = np.zeros((tree.num_infosets, width), dtype=np.float64)
        self.reach = np.zeros((n, 3), dtype=np.float64)
        self.value = np.zeros(n, dtype=np.float64)
        self._table = None
        self._unresolved = True

    def run(self, table: InfoSetTable, log: IncrementLog, update_player: int,
            weight: float = 1.0, in_place: bool = False) -> float:
        """One pass against `table` (read only) into `log` (cleared first; grown if needed).

        With `in_place`, once every info set of the tree is in the table, the increments go
        straight into the table (same additions in the same order as log + merge) and the log
        stays empty; the caller's merge is then a no-op.
        """
        t = self.tree
        if table.keys.shape[1] != t.infoset_key.shape[1]:
            raise ValueError("table and game disagree on key words")
        if table is not self._table:  # offsets are stable for one table: resolve them once
            self._table = table
            self.infoset_offset[:] = -1
            self._unresolved = True
        if self._unresolved:
            resolve_offsets(table.keys, table.meta, table.offsets, t.infoset_key,
                            self.infoset_offset)
            self._unresolved = bool((self.infoset_offset < 0).any())
        while True:
            log.clear()
            v = tree_pass_kernel(
                t.player, t.edge_start, t.edge_count, t.infoset, t.utility, t.edge_child,
                t.edge_prob, t.infoset_key, t.infoset_player, t.infoset_actions,
                self.infoset_offset, table.regrets, table.strategy, self.sigma, self.reach,
                self.value, log.offset, log.key, log.meta, log.values, log.counts,
                int(update_player), float(weight), bool(in_place and not self._unresolved))
            if not log.overflowed:
                return float(v)
            log.grow()
