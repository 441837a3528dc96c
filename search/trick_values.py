"""Exact double-dummy values of a game's cards: the one solver (`search/double_dummy.py`)
driven by what a game declares, for the all-seeing oracles (issue 55, items 2 and 5). It names
no game.

What a game declares (`games/<game>/trick_play.py`), for a hand in its card play:
- `solver_position(state, hands, trick)`: the position as plain trick play, four seats 0..3
  whose seats 0 and 2 are team 0 (side 0): `hands` (four 52-bit masks, a card `suit * 13 +
  rank`, ranks low to high) and `trick` (the cards of the trick under way, in play order) are
  filled; it returns (trump or `NO_TRUMP`, `trump_last`: a trump may be led only from a hand of
  trumps alone, the seat that led the trick, how many cards it holds). A game whose cards are
  not plain maps them (Euchre's bowers become the two top trumps) and a seat that sits out
  gets cards that never win (Euchre's lone maker's partner);
- `final_values(state, splits, table)`: team 0's value of the hand less team 1's for every
  split of the tricks still to play (the one under way included) between the four seats, a
  row of `splits` (`split_rows`: r0, r1, r2, r3, then the index `pack(r0, r1, r2, r3)` in
  `table` to fill), read from the game's own scoring (its contracts, Nil bids, bags);
- `game_card(state, card)`: the game's card of a solver card.
Those hooks are compiled functions called from Python with arrays (never passed to a kernel:
numba's cache cannot keep a signature of functions across processes).

A game whose value counts *which* cards each side captures, not only the tricks (a point for
the lowest trump taken, for the game points captured), declares instead `CAPTURE_SOLVER`: the
module of its place (`search.capture_solver`) whose `Solver(tt_bits)` runs the one search of
captured cards (`search/capture_values.py`), with `side_values(state)` (the legal cards
ascending, their exact values from the acting seat's team's side) and `team_value(state)`
(team 0's); `TrickPlaySolver` hands such a game's positions to it.

How a value is found:
- When the table depends on side 0's tricks alone and never falls as they rise (Euchre's
  points; Spades' contracts without a Nil bid or a bag penalty within reach), the value is
  the table's at the tricks side 0 takes under perfect play (a monotone map commutes with
  the minimax), and the one solver's trick count is all that is needed (`card_tricks`: its
  transposition table, partition search, quick tricks).
- Otherwise (a Nil bidder's own tricks, bags that cost 100 past ten), fail-soft alpha-beta on
  the value itself (`objective_search`), over the same plain cards and move order, with the
  bounds of `value_bounds` (the best and worst split of the tricks left) cutting at every
  trick's start and a transposition table keyed by the cards left, the leader and the tricks
  each seat has taken since the root (the value depends on them), for one solve.
"""

from __future__ import annotations

import importlib

import numpy as np
from numba import njit

from games.bits import popcount
from search.double_dummy import (F_BEST, F_IN_TRICK, F_LEADER, F_LED, F_LEFT, F_TRICK_MASK,
                                 F_WINNER, MAX_DEPTH, MOVE_SLOTS, S_NODES, DoubleDummySolver,
                                 card_tricks, child_root, ordered_moves, play_card, set_root,
                                 to_act, tricks_for_leader)

INF = 1 << 40  # above any value of a hand
ABORTED = -(1 << 50)  # `objective_search` stopped at its node limit
NO_LIMIT = 1 << 62
TABLE_SIZE = 1 << 16  # a value table: 4 bits of tricks a seat
OBJ_TT_BITS = 18  # entries of the alpha-beta's transposition table

# Columns of a frame of `objective_search` (int64[MAX_DEPTH + 1, O_SIZE]): the trick's state
# in the one solver's columns (`set_root` writes them), then this search's own.
O_LEADER, O_IN_TRICK, O_LED, O_BEST, O_WINNER, O_MASK = (F_LEADER, F_IN_TRICK, F_LED, F_BEST,
                                                         F_WINNER, F_TRICK_MASK)
(O_COUNTS, O_COUNT, O_INDEX, O_ALPHA, O_BETA, O_VALUE, O_LOW, O_HIGH, O_SLOT, O_ALPHA0,
 O_BETA0) = range(F_LEFT + 1, F_LEFT + 12)
O_SIZE = F_LEFT + 12
T_KEY, T_META, T_LOWER, T_UPPER = range(4)  # a transposition entry of `objective_search`


def pack(r0: int, r1: int, r2: int, r3: int) -> int:
    """The index in a value table of the split where seat i takes r_i more tricks."""
    return r0 | r1 << 4 | r2 << 8 | r3 << 12


@njit(cache=True)
def split_rows(left):
    """Every split of `left` tricks between the four seats: rows (r0, r1, r2, r3, their index
    in a value table)."""
    rows = np.zeros(((left + 1) * (left + 2) * (left + 3) // 6, 5), np.int64)
    n = 0
    for r0 in range(left + 1):
        for r1 in range(left - r0 + 1):
            for r2 in range(left - r0 - r1 + 1):
                r3 = left - r0 - r1 - r2
                rows[n, 0], rows[n, 1], rows[n, 2], rows[n, 3] = r0, r1, r2, r3
                rows[n, 4] = r0 | r1 << 4 | r2 << 8 | r3 << 12
                n += 1
    return rows


@njit(cache=True)
def value_bounds(table, left, low, high):
    """Fill `low` and `high` (int64[TABLE_SIZE]) for every split of fewer tricks than `left`
    taken so far: the worst and best value of `table` over the ways the rest can fall."""
    for total in range(left, -1, -1):
        for r0 in range(total + 1):
            for r1 in range(total - r0 + 1):
                for r2 in range(total - r0 - r1 + 1):
                    c = r0 | r1 << 4 | r2 << 8 | (total - r0 - r1 - r2) << 12
                    if total == left:
                        low[c] = table[c]
                        high[c] = table[c]
                        continue
                    lo, hi = INF, -INF
                    for seat in range(4):
                        child = c + (np.int64(1) << (4 * seat))
                        lo = min(lo, low[child])
                        hi = max(hi, high[child])
                    low[c] = lo
                    high[c] = hi


@njit(cache=True)
def _by_tricks(table, base, left):
    """Whether the values of `table` from the split `base` on (`left` tricks to go) are a
    non-decreasing function of side 0's tricks alone (seats 0 and 2)."""
    last = -INF
    for k in range(left + 1):
        value = table[base + (k | (left - k) << 4)]  # seat 0 takes k, seat 1 the rest
        if value < last:
            return False
        last = value
        for r0 in range(k + 1):
            for r1 in range(left - k + 1):
                if table[base + (r0 | r1 << 4 | (k - r0) << 8 | (left - k - r1) << 12)] != value:
                    return False
    return True


@njit(cache=True)
def monotone_splits(table, left, out):
    """out[c] = 1 for every split `c` of fewer than `left` tricks taken so far from which the
    value follows from side 0's tricks alone, never falling as they rise (`_by_tricks`): there
    the one solver's trick count gives it."""
    for total in range(left):
        for r0 in range(total + 1):
            for r1 in range(total - r0 + 1):
                for r2 in range(total - r0 - r1 + 1):
                    c = r0 | r1 << 4 | r2 << 8 | (total - r0 - r1 - r2) << 12
                    out[c] = 1 if _by_tricks(table, c, left - total) else 0


@njit(cache=True)
def _set_frame(frames, hands, trump, leader, trick, n_in_trick, counts):
    """The root of `objective_search`: `leader` led the trick under way, `trick[:n_in_trick]`
    its cards (`set_root`); `counts` the tricks each seat took since the root (4 bits a
    seat)."""
    set_root(hands, trump, leader, trick, n_in_trick, frames)
    frames[0, O_COUNTS] = counts


@njit(cache=True, inline="always")
def _step(hands, trump, frames, moves, depth):
    """Play the current move of the node at `depth` and set up its child (a trick's winner
    counted and leading the next)."""
    frame = frames[depth]
    child = frames[depth + 1]
    _, winner = play_card(hands, trump, frame, child, moves[depth, frame[O_INDEX]])
    child[O_COUNTS] = frame[O_COUNTS]
    if frame[O_IN_TRICK] == 3:
        child[O_COUNTS] += np.int64(1) << (4 * winner)
    child[O_ALPHA] = frame[O_ALPHA]
    child[O_BETA] = frame[O_BETA]


@njit(cache=True, inline="always")
def _slot(key, meta, mask):
    """The transposition slot of a key (a multiplicative hash)."""
    h = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(meta) * \
        np.uint64(0xC2B2AE3D27D4EB4F)
    return np.int64((h >> np.uint64(20)) & np.uint64(mask))


@njit(cache=True)
def objective_search(hands, trump, trump_last, alpha, beta, table, low_tab, high_tab, mono, tt,
                     gen, moves, frames, dd_tt, dd_moves, dd_frames, stats, limit):
    """The fail-soft alpha-beta value (side 0 maximizing `table`, whose bounds are `low_tab`,
    `high_tab`) of the node frames[0] (`_set_frame`) within (alpha, beta): exact when it lies
    strictly inside. At a trick's start whose value follows from side 0's tricks (`mono`) the
    one solver counts them (its buffers `dd_*`). Transposition entries of another generation
    `gen` (another solve) are never read. `ABORTED`, the hands restored, once the node count
    stats[S_NODES] passes `limit` (what is stored by then is exact and stays)."""
    frames[0, O_ALPHA] = alpha
    frames[0, O_BETA] = beta
    mask = tt.shape[0] - 1
    depth = 0
    entering = True
    value = np.int64(0)
    while True:
        if entering:
            frame = frames[depth]
            stats[S_NODES] += 1
            if stats[S_NODES] > limit:
                for d in range(depth):  # every node above has its current move played
                    seat = (frames[d, O_LEADER] + frames[d, O_IN_TRICK]) & 3
                    hands[seat] ^= np.int64(1) << moves[d, frames[d, O_INDEX]]
                return ABORTED
            a, b = frame[O_ALPHA], frame[O_BETA]
            low, high = -INF, INF
            slot = -1
            key = np.int64(0)
            meta = np.int64(0)
            if frame[O_IN_TRICK] == 0 and hands[frame[O_LEADER]] != 0 and mono[frame[O_COUNTS]]:
                left = popcount(hands[frame[O_LEADER]])
                k = tricks_for_leader(hands, trump, trump_last, frame[O_LEADER], (left + 1) // 2,
                                      dd_tt, dd_moves, dd_frames, stats)
                low = high = table[frame[O_COUNTS] + (k | (left - k) << 4)]
            elif frame[O_IN_TRICK] == 0:
                low, high = low_tab[frame[O_COUNTS]], high_tab[frame[O_COUNTS]]
                key = hands[0] | hands[1] | hands[2] | hands[3]
                meta = frame[O_LEADER] | frame[O_COUNTS] << 2 | gen << 18
                slot = _slot(key, meta, mask)
                if tt[slot, T_KEY] == key and tt[slot, T_META] == meta:
                    low = max(low, tt[slot, T_LOWER])
                    high = min(high, tt[slot, T_UPPER])
            if low >= high or high <= a:
                value = high
            elif low >= b:
                value = low
            else:
                seat = (frame[O_LEADER] + frame[O_IN_TRICK]) & 3
                frame[O_COUNT] = ordered_moves(hands, seat, frame[O_IN_TRICK], frame[O_LED],
                                               frame[O_BEST], frame[O_WINNER], frame[O_MASK],
                                               trump, trump_last, moves[depth])
                frame[O_INDEX] = 0
                frame[O_VALUE] = -INF if seat & 1 == 0 else INF
                frame[O_LOW] = low
                frame[O_HIGH] = high
                frame[O_SLOT] = slot
                # the node's own range narrows its window: nothing outside it can be reached
                a = max(a, low)
                b = min(b, high)
                frame[O_ALPHA] = a
                frame[O_BETA] = b
                frame[O_ALPHA0] = a
                frame[O_BETA0] = b
                _step(hands, trump, frames, moves, depth)
                depth += 1
                continue
            entering = False
        # `value` is the finished node's at `depth`: hand it to its parent
        if depth == 0:
            return value
        depth -= 1
        frame = frames[depth]
        seat = (frame[O_LEADER] + frame[O_IN_TRICK]) & 3
        hands[seat] ^= np.int64(1) << moves[depth, frame[O_INDEX]]
        if seat & 1 == 0:
            frame[O_VALUE] = max(frame[O_VALUE], value)
            frame[O_ALPHA] = max(frame[O_ALPHA], value)
        else:
            frame[O_VALUE] = min(frame[O_VALUE], value)
            frame[O_BETA] = min(frame[O_BETA], value)
        frame[O_INDEX] += 1
        if frame[O_ALPHA] >= frame[O_BETA] or frame[O_INDEX] == frame[O_COUNT]:
            value = min(max(frame[O_VALUE], frame[O_LOW]), frame[O_HIGH])
            slot = frame[O_SLOT]
            if slot >= 0:
                lower, upper = frame[O_LOW], frame[O_HIGH]
                if value <= frame[O_ALPHA0]:
                    upper = value  # failed low: at most this
                elif value >= frame[O_BETA0]:
                    lower = value  # failed high: at least this
                else:
                    lower = upper = value
                tt[slot, T_KEY] = hands[0] | hands[1] | hands[2] | hands[3]
                tt[slot, T_META] = frame[O_LEADER] | frame[O_COUNTS] << 2 | gen << 18
                tt[slot, T_LOWER] = lower
                tt[slot, T_UPPER] = upper
            continue  # this node is finished too
        _step(hands, trump, frames, moves, depth)
        depth += 1
        entering = True


@njit(cache=True)
def objective_card_values(hands, trump, trump_last, leader, trick, n_in_trick, table, low_tab,
                          high_tab, mono, tt, gen, moves, frames, dd_tt, dd_moves, dd_frames,
                          stats, limit, cards_out, values_out):
    """Every legal card of the seat to act ascending in `cards_out`, its exact value (side 0's,
    perfect play after it) in `values_out`; returns the count, or -1 when the node count
    passed `limit` first. `n_in_trick` < 0: the value of the position alone (no card chosen)
    in values_out[0], and 0 is returned."""
    if n_in_trick < 0:
        _set_frame(frames, hands, trump, leader, trick, -n_in_trick - 1, 0)
        values_out[0] = objective_search(hands, trump, trump_last, -INF, INF, table, low_tab,
                                         high_tab, mono, tt, gen, moves, frames, dd_tt,
                                         dd_moves, dd_frames, stats, limit)
        return 0
    seat, legal = to_act(hands, trump, trump_last, leader, trick, n_in_trick)
    n = 0
    while legal != 0:
        card, legal, winner = child_root(hands, trump, leader, trick, n_in_trick, legal, frames)
        frames[0, O_COUNTS] = 0 if winner < 0 else np.int64(1) << (4 * winner)
        # a full window: each card's value exact, not just the best one's
        values_out[n] = objective_search(hands, trump, trump_last, -INF, INF, table, low_tab,
                                         high_tab, mono, tt, gen, moves, frames, dd_tt,
                                         dd_moves, dd_frames, stats, limit)
        hands[seat] ^= np.int64(1) << card
        if values_out[n] == ABORTED:
            return -1
        cards_out[n] = card
        n += 1
    return n


class TrickPlaySolver:
    """The solver of a game's card play with its buffers, reused from one decision to the
    next: the one solver's (its transposition entries hold across deals) and the
    alpha-beta's (one generation a solve)."""

    def __init__(self, tt_bits: int = 18):
        self.tt_bits = tt_bits
        self.captures = {}  # a game declaring `CAPTURE_SOLVER`: its solver (module docstring)
        self.dd = DoubleDummySolver(tt_bits)
        self.tt = np.zeros((1 << OBJ_TT_BITS, 4), dtype=np.int64)
        self.gen = 0
        self.moves = np.zeros((MAX_DEPTH + 1, 2 * MOVE_SLOTS), dtype=np.int64)
        self.frames = np.zeros((MAX_DEPTH + 1, O_SIZE), dtype=np.int64)
        self.table = np.zeros(TABLE_SIZE, dtype=np.int64)
        self.low = np.zeros(TABLE_SIZE, dtype=np.int64)
        self.high = np.zeros(TABLE_SIZE, dtype=np.int64)
        self.mono = np.zeros(TABLE_SIZE, dtype=np.uint8)
        self.splits = {}  # tricks left: `split_rows`
        self.hands = np.zeros(4, dtype=np.int64)
        self.trick = np.zeros(4, dtype=np.int64)
        self.cards = np.zeros(13, dtype=np.int64)
        self.values = np.zeros(13, dtype=np.int64)
        self.solved_by_tricks = False  # how the last solve went (the fast path or not)

    @property
    def nodes(self) -> int:
        """Nodes searched since the last `reset_nodes`."""
        return self.dd.nodes

    def reset_nodes(self) -> None:
        """Restart the node count."""
        self.dd.stats[S_NODES] = 0

    def _capture_solver(self, game):
        """The solver of `game` when its value counts the cards captured, else None."""
        kind = getattr(game, "CAPTURE_SOLVER", None)
        if kind is None:
            return None
        if game.__name__ not in self.captures:  # the module beside the declaration's
            place = game.__name__.rsplit(".", 1)[0]
            module = importlib.import_module(f"{place}.{kind}")
            self.captures[game.__name__] = module.Solver(self.tt_bits)
        return self.captures[game.__name__]

    def solvable_by_tricks(self, state, game) -> bool:
        """Whether the value of `state` (a hand of `game` in its card play) follows from the
        tricks side 0 takes (the fast path: module docstring)."""
        if self._capture_solver(game) is not None:
            return False
        self._prepare(state, game)
        return self.solved_by_tricks

    def _prepare(self, state, game):
        """The position of `state` as plain trick play and its value table (module
        docstring): (trump, trump_last, leader, cards in the trick, tricks left)."""
        self.trick[:] = 0
        trump, trump_last, leader, n_in_trick = (int(x) for x in game.solver_position(
            state, self.hands, self.trick))
        left = int(popcount(self.hands[(leader + n_in_trick) & 3]))
        self.table[:] = 0
        if left not in self.splits:
            self.splits[left] = split_rows(left)
        game.final_values(state, self.splits[left], self.table)
        monotone_splits(self.table, left, self.mono)
        self.solved_by_tricks = left > 0 and bool(self.mono[0])
        if not self.solved_by_tricks:
            value_bounds(self.table, left, self.low, self.high)
            self.gen += 1
        return trump, trump_last, leader, n_in_trick, left

    def card_values(self, state, game, node_limit: int | None = None):
        """(the legal cards of the seat to act in the game's numbering, ascending; their exact
        values from its team's side) of `state`, a hand of `game` (its `trick_play`
        declaration) in its card play; None when the value search (not the trick count)
        needs more than `node_limit` nodes (a count: the same answer on any machine; a game
        whose value counts the cards captured is always solved whole)."""
        captures = self._capture_solver(game)
        if captures is not None:
            return captures.side_values(state)
        trump, trump_last, leader, n_in_trick, left = self._prepare(state, game)
        if self.solved_by_tricks:
            n = card_tricks(self.hands, trump, trump_last, leader, self.trick, n_in_trick,
                            (left + 1) // 2, self.dd.tt, self.dd.moves, self.dd.frames,
                            self.dd.stats, self.cards, self.values)
            values = self.table[self.values[:n] | (left - self.values[:n]) << 4]
        else:
            n = objective_card_values(self.hands, trump, trump_last, leader, self.trick,
                                      n_in_trick, self.table, self.low, self.high, self.mono,
                                      self.tt, self.gen, self.moves, self.frames, self.dd.tt,
                                      self.dd.moves, self.dd.frames, self.dd.stats,
                                      NO_LIMIT if node_limit is None
                                      else self.nodes + int(node_limit), self.cards,
                                      self.values)
            if n < 0:
                return None
            values = self.values[:n].copy()
        if (leader + n_in_trick) % 2 == 1:
            values = -values
        cards = np.array([int(game.game_card(state, int(c))) for c in self.cards[:n]],
                         dtype=np.int64)
        order = np.argsort(cards, kind="stable")
        return cards[order], values[order]

    def value(self, state, game) -> int:
        """The exact value of `state` (a hand of `game` in its card play) from team 0's side."""
        captures = self._capture_solver(game)
        if captures is not None:
            return int(captures.team_value(state))
        trump, trump_last, leader, n_in_trick, left = self._prepare(state, game)
        if left == 0:
            return int(self.table[0])
        if self.solved_by_tricks:
            if n_in_trick == 0:
                tricks = tricks_for_leader(self.hands, trump, trump_last, leader,
                                           (left + 1) // 2, self.dd.tt, self.dd.moves,
                                           self.dd.frames, self.dd.stats)
                return int(self.table[tricks | (left - tricks) << 4])
            n = card_tricks(self.hands, trump, trump_last, leader, self.trick, n_in_trick,
                            (left + 1) // 2, self.dd.tt, self.dd.moves, self.dd.frames,
                            self.dd.stats, self.cards, self.values)
            seat = (leader + n_in_trick) % 2
            best = self.values[:n].max() if seat == 0 else self.values[:n].min()
            return int(self.table[best | (left - best) << 4])
        objective_card_values(self.hands, trump, trump_last, leader, self.trick,
                              -n_in_trick - 1, self.table, self.low, self.high, self.mono,
                              self.tt, self.gen, self.moves, self.frames, self.dd.tt,
                              self.dd.moves, self.dd.frames, self.dd.stats, NO_LIMIT,
                              self.cards, self.values)
        return int(self.values[0])
