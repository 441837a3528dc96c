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
- Otherwise (a Nil bidder's own tricks, bags that cost 100 past ten), the one value search
  (`search/capture_values.py`, the one Setback's captured cards use) on the value itself:
  its counters are the tricks each seat takes (a trick counter per seat, no card weighing
  anything), the table index `pack(r0, r1, r2, r3)`, and its bounds at every node exact and
  tabulated once a solve (`value_bounds`: the best and worst split of the tricks left). Also
  tabulated once a solve, so that a Spades hand with a Nil bid is solved from its first
  trick in seconds at most: at each trick's start the one solver's count of side 0's tricks
  bounds the value (`trick_bounds`: the least and most over the splits with that count) and,
  where it follows from that count, gives it (`monotone_splits`); and the transposition table
  keys the splits whose values from there on are all the same as one (`same_futures`). Where
  the count's bounds do not decide a trick's start, a Nil bid's fate may: whether a seat's
  side can keep it from taking any trick of the rest (`search/seat_clean.py`, asked only for
  a seat whose answer could decide the node) bounds the value by the splits that side, or the
  other, can force (`seat_bounds`, `node_bounds`).
"""

from __future__ import annotations

import importlib

import numpy as np
from numba import njit

from games.bits import popcount
from search import capture_values as cv
from search.double_dummy import S_NODES, DoubleDummySolver, card_tricks, tricks_for_leader
from search.seat_clean import NO_ANSWER, SeatClean, keeps_clean
from search.seat_clean import S_NODES as CLEAN_NODES

INF = cv.INF
TABLE_SIZE = 1 << 16  # a value table: 4 bits of tricks a seat
VALUE_TT_BITS = 20  # entries of the value search's transposition table (75 MB; 18: 2.5 to 4
#   times the nodes of a 13-trick search with a Nil bid standing)
CLEAN_TT_BITS = 19  # entries of the one-seat question's table (`search/seat_clean.py`, 21 MB;
#   2^18: 1.16 times the nodes of a hard Nil position, 2^20: 0.97)


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
def by_tricks(table, base, left):
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
    value follows from side 0's tricks alone, never falling as they rise (`by_tricks`): there
    the one solver's trick count gives it."""
    for total in range(left):
        for r0 in range(total + 1):
            for r1 in range(total - r0 + 1):
                for r2 in range(total - r0 - r1 + 1):
                    c = r0 | r1 << 4 | r2 << 8 | (total - r0 - r1 - r2) << 12
                    out[c] = 1 if by_tricks(table, c, left - total) else 0


@njit(cache=True)
def same_futures(table, left, out):
    """out[c] = the first split (in the order below) of as many tricks taken so far as `c`
    whose values of `table` from there on equal c's for every way the `left` tricks can fall:
    the transposition table keys a position on that one, so positions that differ only in what
    no longer changes the value (a Nil bidder's tricks past the first, how a side's tricks fall
    between its seats when no Nil bid stands there) share their entries."""
    for total in range(left):
        rest = split_rows(left - total)
        firsts = split_rows(total)
        n = firsts.shape[0]
        keys = np.zeros(n, np.int64)  # a hash of each split's values from there on
        for i in range(n):
            h = np.int64(0)
            for j in range(rest.shape[0]):
                h = (h ^ table[firsts[i, 4] + rest[j, 4]]) * np.int64(0x100000001B3)
            keys[i] = h
            out[firsts[i, 4]] = firsts[i, 4]
            for k in range(i):  # the first equal one (its own first)
                if keys[k] != keys[i] or out[firsts[k, 4]] != firsts[k, 4]:
                    continue
                same = True
                for j in range(rest.shape[0]):
                    if table[firsts[i, 4] + rest[j, 4]] != table[firsts[k, 4] + rest[j, 4]]:
                        same = False
                        break
                if same:
                    out[firsts[i, 4]] = firsts[k, 4]
                    break


@njit(cache=True)
def trick_bounds(table, left, low, high):
    """For every split `c` of fewer tricks than `left` taken so far and every count k of the
    tricks side 0 takes of the rest: low[16 c + k] the least value of `table` over the ways the
    rest can fall giving side 0 k tricks or more, high[16 c + k] the most giving it k or fewer."""
    least = np.empty(16, np.int64)
    most = np.empty(16, np.int64)
    for total in range(left):
        rest = split_rows(left - total)
        firsts = split_rows(total)
        for i in range(firsts.shape[0]):
            c = firsts[i, 4]
            least[:] = INF
            most[:] = -INF
            for j in range(rest.shape[0]):
                k = rest[j, 0] + rest[j, 2]
                value = table[c + rest[j, 4]]
                least[k] = min(least[k], value)
                most[k] = max(most[k], value)
            for k in range(left - total - 1, -1, -1):  # k or more
                least[k] = min(least[k], least[k + 1])
            for k in range(1, left - total + 1):  # k or fewer
                most[k] = max(most[k], most[k - 1])
            for k in range(left - total + 1):
                low[16 * c + k] = least[k]
                high[16 * c + k] = most[k]


@njit(cache=True)
def seat_bounds(table, left, out):
    """For every seat n and every split `c` of fewer tricks than `left` taken so far, the bounds
    of `table` over the ways the rest can fall that a side can force about n's tricks: out[n,
    0, c] the one n's side forces when it can keep n from taking any trick of the rest
    (`keeps_clean`; over the splits where n takes none: their least value when n is of side
    0, their most when of side 1), out[n, 1, c] the one the other side forces when n's side
    cannot (over the splits where n takes one or more: the most, or the least)."""
    for total in range(left):
        rest = split_rows(left - total)
        firsts = split_rows(total)
        for i in range(firsts.shape[0]):
            c = firsts[i, 4]
            for n in range(4):
                out[n, 0, c] = INF if n & 1 == 0 else -INF
                out[n, 1, c] = -INF if n & 1 == 0 else INF
            for j in range(rest.shape[0]):
                value = table[c + rest[j, 4]]
                for n in range(4):
                    clean = rest[j, n] == 0
                    if (n & 1 == 0) == clean:  # a least value
                        out[n, 1 - clean, c] = min(out[n, 1 - clean, c], value)
                    else:
                        out[n, 1 - clean, c] = max(out[n, 1 - clean, c], value)


@njit(cache=True, forceinline=True)
def _settles(lo, hi, alpha, beta):
    """Whether bounds [lo, hi] of a node's value decide it for the window (alpha, beta)."""
    return lo >= beta or hi <= alpha or lo == hi


@njit(cache=True, forceinline=True)
def _seat_narrowed(lo, hi, seat, clean, c, seats):
    """(lo, hi) narrowed by what a side forces about `seat`'s tricks: its side keeps it clean
    (`clean` 1), or the other side makes it take one (`seat_bounds`)."""
    bound = seats[seat, 1 - clean, c]
    if (seat & 1 == 0) == (clean == 1):  # side 0 forces it: a lower bound
        return max(lo, bound), hi
    return lo, min(hi, bound)


@njit(cache=True)
def node_bounds(row, spec, table, seats, alpha, beta, k, clean_stack, clean_moves,
                clean_frames, clean_tt, clean_stats, limit):
    """(lower, upper) bounds of the value of the trick's start `row` within the window (alpha,
    beta), side 0 taking k of the tricks left under perfect play: the least and most value of
    a split giving side 0 k or more and k or fewer (`trick_bounds`), narrowed, for each seat
    whose question could decide the node, by whether its side can keep it from taking any
    trick of the rest (`keeps_clean`): then its side can force a split where it takes none,
    else the other side one where it takes some (each a bound on the side of whoever forces
    it, `seat_bounds`). The questions' nodes count in clean_stats, and stop once it passes
    `limit` (the bounds then as they are)."""
    at = 16 * row[cv.R_IDX0] + k
    lo = table[spec[cv.SP_KLOW_AT] + at]
    hi = table[spec[cv.SP_KHIGH_AT] + at]
    if _settles(lo, hi, alpha, beta):
        return lo, hi
    c = row[cv.R_IDX0]
    clean_stack[0, :] = row
    for seat in range(4):
        if_clean = _seat_narrowed(lo, hi, seat, 1, c, seats)
        if_not = _seat_narrowed(lo, hi, seat, 0, c, seats)
        if not (_settles(if_clean[0], if_clean[1], alpha, beta)
                or _settles(if_not[0], if_not[1], alpha, beta)):
            continue  # neither answer would decide the node: not asked
        answer = keeps_clean(clean_stack, clean_moves, clean_frames, spec, seat, clean_tt,
                             clean_stats, limit)
        if answer == NO_ANSWER:
            break
        lo, hi = if_clean if answer == 1 else if_not
        if _settles(lo, hi, alpha, beta):
            break
    return lo, hi


@njit(cache=True)
def value_search(stack, moves, frames, spec, table, seats, tt, ctx, cards_out, values_out,
                 dd_tt, dd_moves, dd_frames, dd_stats, clean_stack, clean_moves, clean_frames,
                 clean_tt, clean_stats, whole):
    """The value search (`search.capture_values`) of the position at stack[0]: every legal
    card's value (`card_values`: their count, -1 past the node limit) or, `whole`, the
    position's own (`position_value`), each trick count it asks answered by the one solver
    (its buffers `dd_*`) and each pair of bounds by `node_bounds` (`seats`, its buffers
    `clean_*`); both solvers' nodes count towards the limit."""
    while True:
        if whole:
            result = cv.position_value(stack, moves, frames, spec, table, tt, ctx)
        else:
            result = cv.card_values(stack, moves, frames, spec, table, tt, ctx, np.int64(-1),
                                    cards_out, values_out)
        if result != cv.NEEDS_TRICKS:
            return result
        row = stack[ctx[cv.CTX_PENDING]]
        hands = row[cv.R_HAND:cv.R_HAND + 4]
        leader = row[cv.R_LEADER]
        left = popcount(hands[leader])
        before = dd_stats[S_NODES]
        k = tricks_for_leader(hands, spec[cv.SP_TRUMP], spec[cv.SP_TRUMP_LAST], leader,
                              (left + 1) // 2, dd_tt, dd_moves, dd_frames, dd_stats)
        ctx[cv.CTX_NODES] += dd_stats[S_NODES] - before  # the value search's nodes now
        ctx[cv.CTX_ASKED] += 1
        dd_stats[S_NODES] = before
        if ctx[cv.CTX_KIND] == cv.ASK_BOUNDS:
            frame = frames[ctx[cv.CTX_PENDING]]
            before = clean_stats[CLEAN_NODES]
            ctx[cv.CTX_BOUND_LO], ctx[cv.CTX_BOUND_HI] = node_bounds(
                row, spec, table, seats, frame[cv.F_ALPHA], frame[cv.F_BETA], k, clean_stack,
                clean_moves, clean_frames, clean_tt, clean_stats,
                before + ctx[cv.CTX_LIMIT] - ctx[cv.CTX_NODES])
            ctx[cv.CTX_NODES] += clean_stats[CLEAN_NODES] - before
        else:
            ctx[cv.CTX_ANSWER] = table[row[cv.R_IDX0] + k * spec[cv.SP_SEAT_STEP]
                                       + (left - k) * spec[cv.SP_SEAT_STEP + 1]]


class TrickPlaySolver:
    """The solver of a game's card play with its buffers, reused from one decision to the
    next: the one solver's (its transposition entries hold across deals) and the value
    search's (`search.capture_values`: one generation a solve)."""

    def __init__(self, tt_bits: int = 18):
        self.tt_bits = tt_bits
        self.captures = {}  # a game declaring `CAPTURE_SOLVER`: its solver (module docstring)
        self.dd = DoubleDummySolver(tt_bits)
        self._search = None  # the value search's buffers, made on first use (`search`)
        self._clean = None  # the one-seat question's (`clean`)
        self._seats = None  # its bounds (`seat_tables`)
        self.spec = np.zeros(cv.SPEC_SIZE, dtype=np.int64)
        self.table = np.zeros(TABLE_SIZE, dtype=np.int64)  # the values of the splits
        self._tables = None  # the value search's tables (`value_tables`)
        self.splits = {}  # tricks left: `split_rows`
        self.hands = np.zeros(4, dtype=np.int64)
        self.trick = np.zeros(4, dtype=np.int64)
        self.cards = np.zeros(13, dtype=np.int64)
        self.values = np.zeros(13, dtype=np.int64)
        self.solved_by_tricks = False  # how the last solve went (the fast path or not)

    @property
    def search(self) -> cv.Buffers:
        """The value search's buffers (a game whose value follows from the tricks never needs
        them: Euchre's oracle does not hold their table)."""
        if self._search is None:
            self._search = cv.Buffers(VALUE_TT_BITS)
        return self._search

    @property
    def clean(self) -> SeatClean:
        """The one-seat question's buffers (`search/seat_clean.py`), made on first use."""
        if self._clean is None:
            self._clean = SeatClean(CLEAN_TT_BITS)
        return self._clean

    @property
    def seat_tables(self) -> np.ndarray:
        """The bounds each seat's side or the other can force about its tricks
        (`seat_bounds`), made on first use (4 MB)."""
        if self._seats is None:
            self._seats = np.zeros((4, 2, TABLE_SIZE), dtype=np.int64)
        return self._seats

    @property
    def value_tables(self) -> np.ndarray:
        """The value search's tables (`seat_tricks_spec`), made on first use (19 MB): the
        values, their least and most over the ways the rest can fall, where they follow from
        side 0's tricks, the index each is keyed on, the bounds for each count of side 0's
        tricks (`trick_bounds`)."""
        if self._tables is None:
            self._tables = np.zeros(37 * TABLE_SIZE, dtype=np.int64)
        return self._tables

    @property
    def nodes(self) -> int:
        """Nodes searched since the last `reset_nodes` (both searches')."""
        return self.dd.nodes + (0 if self._search is None else int(self._search.ctx[cv.CTX_NODES]))

    def reset_nodes(self) -> None:
        """Restart the node count."""
        self.dd.stats[S_NODES] = 0
        if self._search is not None:
            self._search.ctx[cv.CTX_NODES] = 0

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
        self.solved_by_tricks = left > 0 and bool(by_tricks(self.table, 0, left))
        if not self.solved_by_tricks:
            tables = self.value_tables
            tables[:TABLE_SIZE] = self.table
            value_bounds(self.table, left, tables[TABLE_SIZE:2 * TABLE_SIZE],
                         tables[2 * TABLE_SIZE:3 * TABLE_SIZE])
            monotone_splits(self.table, left, tables[3 * TABLE_SIZE:4 * TABLE_SIZE])
            same_futures(self.table, left, tables[4 * TABLE_SIZE:5 * TABLE_SIZE])
            trick_bounds(self.table, left, tables[5 * TABLE_SIZE:21 * TABLE_SIZE],
                         tables[21 * TABLE_SIZE:])
            seat_bounds(self.table, left, self.seat_tables)
            cv.seat_tricks_spec(trump, trump_last, TABLE_SIZE, self.spec)
            cv.set_root(self.hands, leader, self.trick, n_in_trick, self.spec,
                        self.search.stack[0])
        return trump, trump_last, leader, n_in_trick, left

    def _value_search(self, whole: bool) -> int:
        """`value_search` of the position `_prepare` set."""
        b, c = self.search, self.clean
        return int(value_search(b.stack, b.moves, b.frames, self.spec, self.value_tables,
                                self.seat_tables, b.table, b.ctx, self.cards, self.values,
                                self.dd.tt, self.dd.moves, self.dd.frames, self.dd.stats,
                                c.stack, c.moves, c.frames, c.tt, c.stats, whole))

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
            ctx = self.search.ctx
            ctx[cv.CTX_LIMIT] = (cv.NO_LIMIT if node_limit is None
                                 else int(ctx[cv.CTX_NODES]) + int(node_limit))
            n = self._value_search(False)
            ctx[cv.CTX_LIMIT] = cv.NO_LIMIT
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
        return self._value_search(True)
