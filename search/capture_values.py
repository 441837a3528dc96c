"""Exact double-dummy values of a hand whose value is not a monotone map of one side's tricks:
the one value search (issue 55, items 2 and 5), for the cards each side captures (Setback's
Game, Low and Jack) and for the tricks each seat takes (Spades' Nil bids and bags, declared by
`search/trick_values.py`). It names no game.

What a game declares, for a position of its card play (all hands known, trump set):
- the position as plain trick play: four seats 0..3 whose seats 0 and 2 are side 0, each
  hand a 52-bit mask (a card `suit * 13 + rank`, ranks low to high), the trick under way,
  trump, whether a seat holding the suit led may play a trump instead (`ruff_anytime`) and
  whether a trump may be led only from a hand of trumps alone (`SP_TRUMP_LAST`);
- a few *counters* (at most `MAX_COUNTERS`), each a weight per card (`weights[k, card]`)
  summed over the cards a side captures from here on, with its range `ranges[k]` (the weight
  still in play: the most one side can add); or, instead, a trick counter per seat (the table
  index steps by `SP_SEAT_STEP + seat` when that seat wins a trick: `seat_tricks_spec`);
- the final value, side 0's, for every value of side 0's counters (`table[index]`, the first
  counter's values consecutive: `prepare_spec`), read from the game's own scoring (side 1
  takes the rest of each counter);
- a move-order weight per card (how much a card is worth capturing: only the search's order).

How a value is found (all numba, no allocation per node; compiled with `_nrt=False` since
nothing here allocates and numba's reference counting of row views was most of the time; the
helpers inlined by LLVM, `forceinline`, not copied by numba into each caller, which compiled
`search` in twice the time, and without the wrappers Python would call them through):
- Fail-soft alpha-beta, iterative (numba's cache cannot hold a recursive function), on a
  stack of small node rows: the four hands, the trick under way and both sides' captured
  counters as table indices (`R_IDX0`, `R_IDX1`: one integer each, since a table index is
  linear in the counters).
- Bounds at every node: when the table never falls as side 0's counters rise (checked once,
  `prepare_spec`), the value lies between the table at side 0's counters and at side 0's
  plus all the weight still in play (`full - R_IDX1`): a node whose box is flat is settled
  (the game's "nothing left to win"), and a node whose range lies outside the window is cut.
  Seat trick counters: the least and most value over the ways the tricks left can fall,
  tabulated by the caller (`SP_TABULATED`). Otherwise the table's own minimum and maximum
  (loose, still exact).
- Where the value follows from side 0's tricks alone (flagged in the table, `SP_TRICKS_AT`),
  the search stops with `NEEDS_TRICKS`; its caller counts them with the one trick solver
  (`search/double_dummy.py`), puts the value in ctx[CTX_ANSWER] and calls again: the search
  goes on where it stopped (its state is all in its arrays). So the trick solver is linked
  only into the caller that answers (`search.trick_values.value_search`), never into the
  kernels of a game that needs no counts (Setback's), which compile as before. Elsewhere, at
  a trick's start with two tricks or more left, the caller bounds the value (`SP_KLOW_AT`,
  `ASK_BOUNDS`: from the same count, the least and most value for each count tabulated, and
  from what one seat's side can force, `search/seat_clean.py`) and hands the bounds back.
- A node limit (ctx[CTX_LIMIT], a count): past it, `ABORTED`, nothing on the path stored.
- A transposition table at each trick's start, keyed on the four hands, the leader and side
  0's counters (or the index the caller names for them, `SP_CANON_AT`: one of those whose
  values from there on are all the same); an entry keeps a lower and an upper bound and the
  best move. Entries carry a generation number: a new solve invalidates the table without
  clearing it.
- Each root move's exact value by MTD(f): null-window searches converging on it (the values
  are a few integers), the table's bounds carrying over between them.
- Move ordering: the table's move first; leads: trumps, then high and heavy cards; follows:
  cards that win the trick (cheapest first), then the others (cheapest first); with seat
  trick counters a follow is first judged by the tabulated bounds were the trick's winner
  after it to take the trick.
- Equivalent cards: of two cards of one hand in one suit with no live card of another seat (or
  of the trick) between them, only the higher is searched, when neither has weight in any
  counter.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import highest_bit, lowest_bit

N_RANKS = 13
SUIT_BITS = np.int64((1 << N_RANKS) - 1)
NO_TRUMP = 4
MAX_COUNTERS = 4
INF = 1 << 40  # above any value of a hand
MAX_DEPTH = 54  # 52 cards, plus room for the root
MAX_CARDS = 13  # never more legal cards than this per seat
DEFAULT_TT_BITS = 17

# A node row (int64[ROW_SIZE]): the position as plain trick play.
R_HAND = 0  # R_HAND + seat: the cards it holds
R_LEADER = 4  # the seat that led the trick under way (or leads the next)
R_N_IN = 5  # cards in the trick under way
R_LED = 6  # the suit led
R_BEST = 7  # the card winning the trick
R_WINNER = 8  # its seat
R_TRICK = 9  # the trick's cards (a mask)
R_IDX0 = 10  # side 0's counters captured since the root, as a table index
R_IDX1 = 11  # side 1's likewise
R_TW = 12  # the trick's cards' weight, as a table index
ROW_SIZE = 13

# A game's declaration in one array (int64[SPEC_SIZE], `prepare_spec`).
SP_WEIGHT = 0  # SP_WEIGHT + card: its weight in every counter, as a table index
SP_ORDER = 52  # SP_ORDER + card: its move-order weight
SP_TRUMP = 104
SP_RUFF = 105  # 1: a seat holding the suit led may play a trump instead
SP_FULL = 106  # the table index of every counter at its range
SP_MONO = 107  # 1: the table never falls as one of side 0's counters rises
SP_MIN = 108  # the table's minimum and maximum (the bounds otherwise)
SP_MAX = 109
SP_TRUMP_LAST = 110  # 1: a trump may be led only from a hand of trumps alone
SP_SEAT_STEP = 111  # SP_SEAT_STEP + seat: the table index's step when that seat wins a trick
SP_TABULATED = 115  # 1: the bounds are tabulated in the table, at SP_LOW_AT and SP_HIGH_AT
SP_LOW_AT = 116  # table[SP_LOW_AT + index]: the least value reachable from that index
SP_HIGH_AT = 117  # table[SP_HIGH_AT + index]: the most
SP_TRICKS_AT = 118  # > 0: table[SP_TRICKS_AT + index] = 1 where the value follows from
#   side 0's tricks alone (the caller counts them: `NEEDS_TRICKS`)
SP_STRIDES = 119  # SP_STRIDES + k: counter k's step in the table index
SP_CANON_AT = SP_STRIDES + MAX_COUNTERS  # > 0: table[SP_CANON_AT + index] = the index the
#   transposition table keys that one on: of all indices whose values from there on are
#   the same for every way the rest can fall, one (states that differ only in what can no
#   longer change the value merge)
SP_KLOW_AT = SP_CANON_AT + 1  # > 0: at a trick's start the search asks its caller for bounds of
#   the value (`NEEDS_TRICKS`, `ASK_BOUNDS`; answered in ctx[CTX_BOUND_LO], ctx[CTX_BOUND_HI])
#   from side 0's tricks under perfect play, k: side 0 can take k tricks and side 1 can hold
#   it to k, so the value lies between table[SP_KLOW_AT + 16 index + k] (the least value of
#   any split of the rest giving side 0 k or more) and
SP_KHIGH_AT = SP_KLOW_AT + 1  # table[SP_KHIGH_AT + 16 index + k] (the most, k or fewer); the
#   caller may narrow them further (`search.trick_values`: what a seat's side can force)
SPEC_SIZE = SP_KHIGH_AT + 1

# Columns of the transposition table (int64[2**bits, TT_COLUMNS]).
TT_EXTRA = 4  # 0..3: the four hands; 4: leader and side 0's counters
TT_GEN = 5
TT_LO = 6
TT_HI = 7
TT_MOVE = 8
TT_COLUMNS = 9

# The search's context (int64[CTX_SIZE]).
CTX_NODES = 0  # nodes visited since the last reset
CTX_GEN = 1  # generation of the current solve in the table
CTX_LIMIT = 2  # the search stops (`ABORTED`) once CTX_NODES passes this
CTX_PENDING = 3  # the depth of the node whose trick count is asked (`NEEDS_TRICKS`), or -1
CTX_ANSWER = 4  # its value, once the caller has counted the tricks
CTX_LOWER = 5  # `mtd`'s state while a count is asked: its bounds, its test
CTX_UPPER = 6
CTX_TEST = 7
CTX_CARD = 8  # `card_values`' card being valued while a count is asked
CTX_ASKED = 9  # trick counts asked since the buffers were made (the caller counts them)
CTX_KIND = 10  # what the count asked is for: ASK_VALUE (the node's value), ASK_BOUNDS
CTX_BOUND_LO = 11  # ASK_BOUNDS answered: a lower and an upper bound of the node's value
CTX_BOUND_HI = 12
CTX_SIZE = 13
ASK_VALUE = 0  # the caller answers the node's value (its tricks through the table)
ASK_BOUNDS = 1  # the caller answers bounds of the node's value (`SP_KLOW_AT`)
ANSWERED = 2  # the bounds asked are in ctx: the node asking them is opened again
NO_LIMIT = 1 << 62
ABORTED = -(1 << 50)  # below any value: the node limit was passed
NEEDS_TRICKS = -(1 << 51)  # below any value: the node at ctx[CTX_PENDING] needs its tricks

# Fields of a search frame (int64[MAX_DEPTH + 1, FRAME_SIZE], one row per depth).
F_ALPHA = 0
F_BETA = 1
F_ALPHA0 = 2  # the window after the table's bounds narrowed it, to classify the result
F_BETA0 = 3
F_BEST = 4
F_BEST_MOVE = 5
F_N = 6  # moves to search
F_I = 7  # next move to search
F_SLOT = 8  # table slot, -1 when the node is not stored (inside a trick)
F_EXTRA = 9  # the key's extra word
F_MAXIMIZE = 10
FRAME_SIZE = 11


@njit(cache=True, _nrt=False)
def prepare_spec(weights, ranges, n_counters, order, table, trump, ruff_anytime, spec):
    """Fill `spec` from a game's declaration (module docstring): `weights[k, card]`, the
    counters' `ranges`, the move-order weights, the filled `table` (the first counter's
    values consecutive: `index = c_0 + (r_0 + 1) * (c_1 + (r_1 + 1) * (c_2 + ...))`), trump
    (`NO_TRUMP`: none) and the follow rule."""
    strides = spec[SP_STRIDES:SP_STRIDES + MAX_COUNTERS]
    size = 1
    for k in range(n_counters):
        strides[k] = size
        size *= ranges[k] + 1
    for card in range(52):
        w = 0
        for k in range(n_counters):
            w += weights[k, card] * strides[k]
        spec[SP_WEIGHT + card] = w
        spec[SP_ORDER + card] = order[card]
    full = size - 1  # every counter at its range
    spec[SP_TRUMP] = trump
    spec[SP_RUFF] = ruff_anytime
    spec[SP_FULL] = full
    lo, hi = INF, -INF
    mono = 1
    for i in range(size):
        lo = min(lo, table[i])
        hi = max(hi, table[i])
        for k in range(n_counters):  # one step up each counter not at its range
            if i // strides[k] % (ranges[k] + 1) < ranges[k] and table[i + strides[k]] < table[i]:
                mono = 0
    spec[SP_MONO] = mono
    spec[SP_MIN] = lo
    spec[SP_MAX] = hi
    spec[SP_TRUMP_LAST] = 0
    spec[SP_TABULATED] = 0
    spec[SP_TRICKS_AT] = 0
    spec[SP_CANON_AT] = 0
    spec[SP_KLOW_AT] = 0
    spec[SP_KHIGH_AT] = 0
    for seat in range(4):
        spec[SP_SEAT_STEP + seat] = 0


def seat_tricks_spec(trump, trump_last, size, spec):
    """Fill `spec` for a value over the tricks each seat takes (no card weighs anything): the
    table index `r0 + 16 r1 + 256 r2 + 4096 r3` (seat i takes r_i more tricks), the values at
    table[:size], their exact bounds tabulated at table[size:2 size] (least) and
    table[2 size:3 size] (most), at table[3 size:4 size] a 1 where the value follows from
    side 0's tricks alone: the search asks its caller for their count (`NEEDS_TRICKS`) there,
    at table[4 size:5 size] the index the transposition table keys each one on
    (`SP_CANON_AT`: a Nil bidder's tricks past the first, a seat's share of its side's), and
    at table[5 size:21 size] and table[21 size:37 size] the least and most value for each
    count of side 0's tricks (`SP_KLOW_AT`, `SP_KHIGH_AT`: index 16 * index + count);
    `trump_last`: a trump may be led only from a hand of trumps alone. Plain Python: nothing
    to compile."""
    spec[:] = 0
    spec[SP_TRUMP] = trump
    spec[SP_TRUMP_LAST] = trump_last
    spec[SP_TABULATED] = 1
    spec[SP_LOW_AT] = size
    spec[SP_HIGH_AT] = 2 * size
    spec[SP_TRICKS_AT] = 3 * size
    spec[SP_CANON_AT] = 4 * size
    spec[SP_KLOW_AT] = 5 * size
    spec[SP_KHIGH_AT] = 21 * size
    for seat in range(4):
        spec[SP_SEAT_STEP + seat] = 1 << (4 * seat)


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _suit_mask(suit):
    return SUIT_BITS << (N_RANKS * suit) if suit < 4 else np.int64(0)


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _beats(card, best, trump):
    """Whether `card` beats `best`, the card winning the trick."""
    if card // N_RANKS == best // N_RANKS:
        return card > best
    return card // N_RANKS == trump


@njit(cache=True, _nrt=False)
def set_root(hands, leader, trick, n_in_trick, spec, row):
    """The root row of a position: `hands` (after the trick's cards left them), `leader` led
    the trick under way, `trick[:n_in_trick]` its cards; no counter captured yet."""
    for seat in range(4):
        row[R_HAND + seat] = hands[seat]
    row[R_LEADER] = leader
    row[R_N_IN] = n_in_trick
    row[R_IDX0] = 0
    row[R_IDX1] = 0
    row[R_TW] = 0
    row[R_TRICK] = 0
    row[R_LED] = -1
    row[R_BEST] = -1
    row[R_WINNER] = -1
    for i in range(n_in_trick):
        card = trick[i]
        row[R_TRICK] |= np.int64(1) << card
        row[R_TW] += spec[SP_WEIGHT + card]
        if i == 0:
            row[R_LED] = card // N_RANKS
            row[R_BEST] = card
            row[R_WINNER] = leader
        elif _beats(card, row[R_BEST], spec[SP_TRUMP]):
            row[R_BEST] = card
            row[R_WINNER] = (leader + i) & 3


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def play(parent, child, card, spec):
    """`child` = the row of `parent` after the seat to act plays `card` (a completed trick's
    cards to its winner's side, the winner leading next)."""
    for j in range(ROW_SIZE):
        child[j] = parent[j]
    seat = (child[R_LEADER] + child[R_N_IN]) & 3
    bit = np.int64(1) << card
    child[R_HAND + seat] &= ~bit
    child[R_TW] += spec[SP_WEIGHT + card]
    child[R_TRICK] |= bit
    if child[R_N_IN] == 0:
        child[R_LED] = card // N_RANKS
        child[R_BEST] = card
        child[R_WINNER] = seat
    elif _beats(card, child[R_BEST], spec[SP_TRUMP]):
        child[R_BEST] = card
        child[R_WINNER] = seat
    if child[R_N_IN] < 3:
        child[R_N_IN] += 1
        return
    winner = child[R_WINNER]
    child[R_IDX0 + (winner & 1)] += child[R_TW]
    child[R_IDX0] += spec[SP_SEAT_STEP + winner]  # a trick counter of the winner's
    child[R_TW] = 0
    child[R_TRICK] = 0
    child[R_N_IN] = 0
    child[R_LEADER] = winner


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def to_act(row):
    """The seat to act in `row`."""
    return (row[R_LEADER] + row[R_N_IN]) & 3


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def legal_cards(row, spec):
    """Mask of the cards the seat to act may play: any lead (no trump while the hand holds
    another suit, when the game says so); a follow of the suit led (or a trump, when the game
    allows one anyway), anything when void."""
    hand = row[R_HAND + to_act(row)]
    if row[R_N_IN] == 0:
        if spec[SP_TRUMP_LAST]:
            side = hand & ~_suit_mask(spec[SP_TRUMP])
            return side if side != 0 else hand
        return hand
    of_led = hand & _suit_mask(row[R_LED])
    if of_led == 0:
        return hand
    if spec[SP_RUFF]:
        return of_led | (hand & _suit_mask(spec[SP_TRUMP]))
    return of_led


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def searched_cards(row, spec):
    """The legal cards of the seat to act less the equivalent ones (module docstring): of each
    run of equivalent weightless cards only the highest is kept."""
    legal = legal_cards(row, spec)
    mine = row[R_HAND + to_act(row)]
    keep = legal
    live = (row[R_HAND] | row[R_HAND + 1] | row[R_HAND + 2] | row[R_HAND + 3]
            | row[R_TRICK]) & ~mine
    for suit in range(4):
        cards = legal & _suit_mask(suit)
        previous = -1  # the last card of this suit (searched or dropped), descending
        while cards:
            card = highest_bit(cards)
            cards &= ~(np.int64(1) << card)
            plain = spec[SP_WEIGHT + card] == 0
            if previous >= 0 and plain:
                between = ((np.int64(1) << previous) - 1) & ~((np.int64(2) << card) - 1)
                if (live & between) == 0:
                    keep &= ~(np.int64(1) << card)
                    previous = card
                    continue
            previous = card if plain else -1
    return keep


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def insert_by_score(out, scores, n, card, score):
    """Insert `card` of `score` into the first n cards of `out`, scores descending (`scores`
    theirs): the lists are short."""
    j = n
    while j > 0 and scores[j - 1] < score:
        scores[j] = scores[j - 1]
        out[j] = out[j - 1]
        j -= 1
    scores[j] = score
    out[j] = card


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _ordered_moves(row, spec, table, tt_move, out):
    """The moves to search into `out[:MAX_CARDS]`, best first (the rest of `out` is scratch for
    their scores); returns their count (module docstring)."""
    trump = spec[SP_TRUMP]
    n_in = row[R_N_IN]
    keep = searched_cards(row, spec)
    seat = to_act(row)
    # seat trick counters: a card is first judged by the bounds of the value were the trick's
    # winner after it to take the trick (a Nil bidder ducks, its opponents leave it winning)
    guided = spec[SP_TABULATED] != 0 and n_in > 0
    sign = 1 if seat & 1 == 0 else -1
    n = 0
    scores = out[MAX_CARDS:]  # the second half of the row: no allocation per node
    while keep:
        card = lowest_bit(keep)
        keep &= keep - 1
        rank = card % N_RANKS
        worth = spec[SP_ORDER + card]
        wins = n_in > 0 and _beats(card, row[R_BEST], trump)
        if n_in == 0:
            score = 2 * rank + (40 if card // N_RANKS == trump else 0) + 3 * worth
        elif wins:
            score = 200 - rank - (20 if card // N_RANKS == trump else 0)
        else:
            score = 100 - rank - worth
        if guided:
            winner = seat if wins else row[R_WINNER]
            taken = row[R_IDX0] + spec[SP_SEAT_STEP + winner]
            score += sign * (table[spec[SP_LOW_AT] + taken] + table[spec[SP_HIGH_AT] + taken]) * 512
        if card == tt_move:
            score = INF
        insert_by_score(out, scores, n, card, score)
        n += 1
    return n


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _bounds(row, spec, table):
    """(lower, upper) of the node's value (module docstring)."""
    if spec[SP_MONO]:
        return table[row[R_IDX0]], table[spec[SP_FULL] - row[R_IDX1]]
    if spec[SP_TABULATED]:
        return table[spec[SP_LOW_AT] + row[R_IDX0]], table[spec[SP_HIGH_AT] + row[R_IDX0]]
    if row[R_IDX0] + row[R_IDX1] == spec[SP_FULL]:  # everything captured: the final value
        return table[row[R_IDX0]], table[row[R_IDX0]]
    return spec[SP_MIN], spec[SP_MAX]


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _cut(lower, upper, alpha, beta):
    """(True, its fail-soft value) for a node whose value lies in [lower, upper] when that
    decides it for the window (alpha, beta), else (False, 0)."""
    if lower >= beta or lower == upper:
        return True, lower
    if upper <= alpha:
        return True, upper
    return False, np.int64(0)


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _slot(h0, h1, h2, h3, extra, mask):
    """Table index of a key (a multiplicative mix of its words)."""
    h = h0 * np.int64(0x9E3779B97F4A7C1)
    h = (h ^ h1) * np.int64(0x5851F42D4C957F2D)
    h = (h ^ h2) * np.int64(0x14057B7EF767814F)
    h = (h ^ h3) * np.int64(0x2545F4914F6CDD1D)
    h = (h ^ extra) * np.int64(0x9E3779B97F4A7C1)
    h ^= h >> np.int64(31)
    return h & mask


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _same_key(entry, row, extra, gen):
    return (entry[TT_GEN] == gen and entry[0] == row[R_HAND] and entry[1] == row[R_HAND + 1]
            and entry[2] == row[R_HAND + 2] and entry[3] == row[R_HAND + 3]
            and entry[TT_EXTRA] == extra)


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _open(stack, moves, frames, depth, spec, table, tt, ctx):
    """Enter the node at `depth` (its window already in its frame). Returns (True, value) when
    it is decided at once (settled, or cut by its bounds or the table's), else sets its frame
    up for its children and returns (False, 0)."""
    row = stack[depth]
    frame = frames[depth]
    ctx[CTX_NODES] += 1
    if ctx[CTX_NODES] > ctx[CTX_LIMIT]:
        ctx[CTX_KIND] = ASK_VALUE  # no count answered is left for a later search
        return True, ABORTED
    alpha = frame[F_ALPHA]
    beta = frame[F_BETA]
    lower, upper = _bounds(row, spec, table)
    done, value = _cut(lower, upper, alpha, beta)
    if done:
        return True, value
    slot = -1
    tt_move = -1
    extra = np.int64(0)
    if row[R_N_IN] == 0:
        key = row[R_IDX0]
        if spec[SP_CANON_AT] > 0:
            key = table[spec[SP_CANON_AT] + key]
        extra = row[R_LEADER] | (key << 2)
        slot = _slot(row[R_HAND], row[R_HAND + 1], row[R_HAND + 2], row[R_HAND + 3], extra,
                     tt.shape[0] - 1)
        entry = tt[slot]
        if _same_key(entry, row, extra, ctx[CTX_GEN]):
            lo = entry[TT_LO]
            hi = entry[TT_HI]
            done, value = _cut(lo, hi, alpha, beta)
            if done:
                return True, value
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
            tt_move = entry[TT_MOVE]
        if spec[SP_TRICKS_AT] > 0 and table[spec[SP_TRICKS_AT] + row[R_IDX0]] != 0:
            frame[F_SLOT] = slot  # where `search` keeps the answer
            frame[F_EXTRA] = extra
            ctx[CTX_PENDING] = depth
            ctx[CTX_KIND] = ASK_VALUE
            return True, NEEDS_TRICKS
        if spec[SP_KLOW_AT] > 0 and row[R_HAND + row[R_LEADER]] & (row[R_HAND + row[R_LEADER]] - 1):
            # two tricks or more left: the trick count bounds the value (`SP_KLOW_AT`)
            if ctx[CTX_KIND] != ANSWERED:  # ask it; `search` opens this node again
                ctx[CTX_PENDING] = depth
                ctx[CTX_KIND] = ASK_BOUNDS
                return True, NEEDS_TRICKS
            ctx[CTX_KIND] = ASK_VALUE
            done, value = _cut(ctx[CTX_BOUND_LO], ctx[CTX_BOUND_HI], alpha, beta)
            if done:
                return True, value
    _expand(row, frame, moves[depth], alpha, beta, slot, extra, tt_move, spec, table)
    return False, 0


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _expand(row, frame, moves, alpha, beta, slot, extra, tt_move, spec, table):
    """Set the frame of a node not decided at once up for its children."""
    maximize = to_act(row) & 1 == 0
    n = _ordered_moves(row, spec, table, tt_move, moves)
    frame[F_ALPHA] = alpha
    frame[F_BETA] = beta
    frame[F_ALPHA0] = alpha
    frame[F_BETA0] = beta
    frame[F_BEST] = -INF if maximize else INF
    frame[F_BEST_MOVE] = moves[0]
    frame[F_N] = n
    frame[F_I] = 0
    frame[F_SLOT] = slot
    frame[F_EXTRA] = extra
    frame[F_MAXIMIZE] = maximize


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _absorb(frame, value, move):
    """A child of the frame's node returned `value`."""
    if frame[F_MAXIMIZE]:
        if value > frame[F_BEST]:
            frame[F_BEST] = value
            frame[F_BEST_MOVE] = move
            if value > frame[F_ALPHA]:
                frame[F_ALPHA] = value
    elif value < frame[F_BEST]:
        frame[F_BEST] = value
        frame[F_BEST_MOVE] = move
        if value < frame[F_BETA]:
            frame[F_BETA] = value


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _close(stack, frames, depth, tt, ctx):
    """Leave the node at `depth`: store its bound in the table; return its value."""
    frame = frames[depth]
    best = frame[F_BEST]
    slot = frame[F_SLOT]
    if slot >= 0:
        row = stack[depth]
        entry = tt[slot]
        if not _same_key(entry, row, frame[F_EXTRA], ctx[CTX_GEN]):
            for k in range(4):
                entry[k] = row[R_HAND + k]
            entry[TT_EXTRA] = frame[F_EXTRA]
            entry[TT_GEN] = ctx[CTX_GEN]
            entry[TT_LO] = -INF
            entry[TT_HI] = INF
        if best <= frame[F_ALPHA0]:
            entry[TT_HI] = min(entry[TT_HI], best)  # failed low: an upper bound
        elif best >= frame[F_BETA0]:
            entry[TT_LO] = max(entry[TT_LO], best)  # failed high: a lower bound
        else:
            entry[TT_LO] = best
            entry[TT_HI] = best
        entry[TT_MOVE] = frame[F_BEST_MOVE]
    return best


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def resume(stack, frames, root, tt, ctx):
    """The node a search asked the tricks of is valued ctx[CTX_ANSWER]: keep the value in the
    table (exact), and return (the depth of its parent, root - 1 when it is the root; its
    value)."""
    depth = ctx[CTX_PENDING]
    value = ctx[CTX_ANSWER]
    ctx[CTX_PENDING] = -1
    frame = frames[depth]
    slot = frame[F_SLOT]
    entry = tt[slot]
    row = stack[depth]
    for k in range(4):
        entry[k] = row[R_HAND + k]
    entry[TT_EXTRA] = frame[F_EXTRA]
    entry[TT_GEN] = ctx[CTX_GEN]
    entry[TT_LO] = value
    entry[TT_HI] = value
    entry[TT_MOVE] = -1
    return depth - 1 if depth > root else root - 1, value


@njit(cache=True, _nrt=False)
def search(stack, moves, frames, root, alpha, beta, spec, table, tt, ctx):
    """Fail-soft alpha-beta value (side 0's) of `stack[root]` within (alpha, beta); `ABORTED`
    once the node count passes ctx[CTX_LIMIT] (the table's entries stay exact);
    `NEEDS_TRICKS` at a node whose value follows from side 0's tricks (`SP_TRICKS_AT`,
    `ASK_VALUE`) or is bounded by them (`ASK_BOUNDS`): the caller puts the value in
    ctx[CTX_ANSWER], or the bounds in ctx[CTX_BOUND_LO] and ctx[CTX_BOUND_HI], and calls
    again (alpha and beta unread: the asking node's window is in its frame, F_ALPHA and
    F_BETA), and the search goes on where it stopped (`resume`; a bounded node is opened
    again, `ANSWERED`)."""
    depth = root
    opening = -1  # the depth of the node to open next (one call of `_open`: compile time)
    if ctx[CTX_PENDING] >= 0 and ctx[CTX_KIND] == ASK_BOUNDS:
        opening = ctx[CTX_PENDING]
        ctx[CTX_PENDING] = -1
        ctx[CTX_KIND] = ANSWERED
    elif ctx[CTX_PENDING] >= 0:
        depth, value = resume(stack, frames, root, tt, ctx)
        if depth < root:
            return value
        _absorb(frames[depth], value, moves[depth, frames[depth, F_I] - 1])
    else:
        frames[root, F_ALPHA] = alpha
        frames[root, F_BETA] = beta
        opening = root
    while True:
        if opening >= 0:
            done, value = _open(stack, moves, frames, opening, spec, table, tt, ctx)
            depth = opening
            opening = -1
            if done:
                if value < -INF:
                    return value  # ABORTED (nothing on the path stored) or NEEDS_TRICKS
                if depth == root:
                    return value
                depth -= 1
                _absorb(frames[depth], value, moves[depth, frames[depth, F_I] - 1])
            continue
        frame = frames[depth]
        i = frame[F_I]
        if i < frame[F_N] and frame[F_ALPHA] < frame[F_BETA]:
            move = moves[depth, i]
            frame[F_I] = i + 1
            play(stack[depth], stack[depth + 1], move, spec)
            frames[depth + 1, F_ALPHA] = frame[F_ALPHA]
            frames[depth + 1, F_BETA] = frame[F_BETA]
            opening = depth + 1
            continue
        value = _close(stack, frames, depth, tt, ctx)
        if depth == root:
            return value
        depth -= 1
        _absorb(frames[depth], value, moves[depth, frames[depth, F_I] - 1])


@njit(cache=True, _nrt=False)
def mtd(stack, moves, frames, root, guess, spec, table, tt, ctx):
    """The exact value of `stack[root]` by null-window searches converging on it (MTD(f)): the
    values are a few integers, and each null-window test cuts far more than a full window,
    the table's bounds carrying over from one test to the next."""
    g = guess
    lower = -INF
    upper = INF
    beta = g
    resuming = ctx[CTX_PENDING] >= 0
    if resuming:  # the test under way asked a trick count (`search`)
        lower, upper, beta = ctx[CTX_LOWER], ctx[CTX_UPPER], ctx[CTX_TEST]
    while lower < upper:
        if not resuming:
            beta = g + 1 if g == lower else g
        resuming = False
        g = search(stack, moves, frames, root, beta - 1, beta, spec, table, tt, ctx)
        if g == NEEDS_TRICKS:
            ctx[CTX_LOWER], ctx[CTX_UPPER], ctx[CTX_TEST] = lower, upper, beta
            return g
        if g == ABORTED:
            return ABORTED
        if g < beta:
            upper = g
        else:
            lower = g
    return g


@njit(cache=True, _nrt=False)
def card_values(stack, moves, frames, spec, table, tt, ctx, only, moves_out, values_out):
    """Every legal card of the seat to act at `stack[0]` among the mask `only`, ascending, into
    `moves_out`, its exact value (side 0's) into `values_out`; returns their count, or -1 when
    the node count passed ctx[CTX_LIMIT] first, `NEEDS_TRICKS` when a search asks a trick
    count (`search`: called again, it goes on). A card equivalent to the next higher legal
    card takes that card's value without a search. Opens a new generation of the
    transposition table."""
    resuming = ctx[CTX_PENDING] >= 0
    if not resuming:
        ctx[CTX_GEN] += 1
        ctx[CTX_KIND] = ASK_VALUE
    legal = legal_cards(stack[0], spec) & only
    keep = searched_cards(stack[0], spec)
    n = 0
    while legal:
        moves_out[n] = lowest_bit(legal)
        legal &= legal - 1
        n += 1
    for i in range(ctx[CTX_CARD] if resuming else n - 1, -1, -1):  # descending, so an
        move = moves_out[i]  # equivalent card's value is known
        if not (keep >> move & 1) and i + 1 < n:
            values_out[i] = values_out[i + 1]
            continue
        if not resuming:
            play(stack[0], stack[1], move, spec)
        resuming = False
        guess = values_out[i + 1] if i + 1 < n else 0
        values_out[i] = mtd(stack, moves, frames, 1, guess, spec, table, tt, ctx)
        if values_out[i] == NEEDS_TRICKS:
            ctx[CTX_CARD] = i
            return NEEDS_TRICKS
        if values_out[i] == ABORTED:
            return -1
    return n


@njit(cache=True, _nrt=False)
def position_value(stack, moves, frames, spec, table, tt, ctx):
    """The exact value (side 0's) of `stack[0]` (`ABORTED` past the node limit,
    `NEEDS_TRICKS` as `card_values`); opens a new generation of the table."""
    if ctx[CTX_PENDING] < 0:
        ctx[CTX_GEN] += 1
        ctx[CTX_KIND] = ASK_VALUE
        # searched from stack[1], as `card_values`' children are: one compiled `mtd` and
        # `search` (numba specializes them on a literal root and first guess)
        for j in range(ROW_SIZE):
            stack[1, j] = stack[0, j]
    return mtd(stack, moves, frames, 1, np.int64(0), spec, table, tt, ctx)


class Buffers:
    """The search's buffers, reused from one solve to the next (the transposition table is
    invalidated by generation, never cleared)."""

    def __init__(self, tt_bits: int = DEFAULT_TT_BITS):
        self.stack = np.zeros((MAX_DEPTH + 1, ROW_SIZE), dtype=np.int64)
        self.moves = np.zeros((MAX_DEPTH + 1, 2 * MAX_CARDS), dtype=np.int64)
        self.frames = np.zeros((MAX_DEPTH + 1, FRAME_SIZE), dtype=np.int64)
        self.table = np.zeros((1 << tt_bits, TT_COLUMNS), dtype=np.int64)
        self.table[:, TT_GEN] = -1
        self.ctx = np.zeros(CTX_SIZE, dtype=np.int64)
        self.ctx[CTX_LIMIT] = NO_LIMIT
        self.ctx[CTX_PENDING] = -1
