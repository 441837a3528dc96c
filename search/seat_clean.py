"""One seat's question of plain trick play: can seat n's side play so that n takes no trick of
the rest, whatever the other side does? (A Nil bid's fate under perfect play: the value
search, `search/trick_values.py`, bounds a Spades value with it.) It names no game.

The position is a row of the value search (`search/capture_values.py`: the four hands as
52-bit masks, the leader, at a trick's start) with its spec (trump, `SP_TRUMP_LAST`,
`SP_RUFF`); legal cards, equivalent cards and trick winners are that search's own
(`legal_cards`, `searched_cards`, `play`).

How (`keeps_clean`, all numba, no allocation per node):
- An AND/OR search: at n's side's turn (n or its partner) one card that keeps n clean is
  enough (OR), at the other side's every card must (AND). A branch ends as soon as n wins a
  trick (no), or when no card is left (yes).
- Iterative on a stack of rows (numba's cache cannot hold a recursive function).
- A seat holding the highest trump left must win a trick with it (no, without a search).
- A transposition table at each trick's start, keyed on the four hands up to rank
  equivalence (each suit's remaining cards' owners, highest first: `_suits_key`), the leader,
  n, the trump and the follow rules (so an entry holds for every later question: never
  cleared); an entry keeps the answer, two rows a bucket (the larger search's kept:
  `_store`).
- A seat that does not lead, holds no trump and only cards below every other seat's of
  their suit never takes a trick (yes, without a search: `_never_wins`).
- Equivalent cards (`searched_cards`) searched once; moves ordered for a quick answer: n
  ducks under the card winning (its highest card that does not win first) and leads low, its
  partner plays high, the other side plays low under n's card.
- A node count (`stats[0]`, which the value search adds to its own) and a limit: past it the
  answer is unknown (-1).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import highest_bit, lowest_bit, popcount
from search import capture_values as cv

NO_ANSWER = -1  # the node limit was passed first
MAX_DEPTH = cv.MAX_DEPTH
DEFAULT_TT_BITS = 16

# Columns of the transposition table (int64[2**bits, TT_COLUMNS]).
TT_EXTRA = 2  # 0, 1: the hands up to rank equivalence (`_suits_key`); 2: leader, n, trump
#   and follow rules (`_extra`)
TT_ANSWER = 3
TT_LEFT = 4  # the tricks left there (the larger search's entry is kept: `_store`)
TT_COLUMNS = 5

# Fields of a search frame (int64[MAX_DEPTH + 1, FRAME_SIZE]).
F_N = 0  # moves to search
F_I = 1  # next move to search
F_OR = 2  # 1: n's side to act (one clean child is enough)
F_SLOT = 3  # table slot, -1 inside a trick
F_EXTRA = 4
F_LOW = 5  # the key's suits 0 and 1 (`_suits_key`)
F_HIGH = 6  # its suits 2 and 3
FRAME_SIZE = 7

S_NODES = 0  # `stats` (int64[N_STATS])
N_STATS = 1


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _extra(row, seat, spec):
    """The key's word beside the hands: everything else the answer depends on."""
    return (row[cv.R_LEADER] | seat << 2 | spec[cv.SP_TRUMP] << 4 | spec[cv.SP_TRUMP_LAST] << 7
            | spec[cv.SP_RUFF] << 8)


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _suits_key(row, first):
    """Suits `first` and `first + 1` of the position up to rank equivalence: each suit's
    remaining cards' owners (2 bits each, highest card first) and their count (the ranks of
    the cards played no longer matter: only the order of those left)."""
    key = np.int64(0)
    for i in range(2):
        suit = first + i
        h0 = (row[cv.R_HAND] >> (cv.N_RANKS * suit)) & cv.SUIT_BITS
        h1 = (row[cv.R_HAND + 1] >> (cv.N_RANKS * suit)) & cv.SUIT_BITS
        h2 = (row[cv.R_HAND + 2] >> (cv.N_RANKS * suit)) & cv.SUIT_BITS
        h3 = (row[cv.R_HAND + 3] >> (cv.N_RANKS * suit)) & cv.SUIT_BITS
        rest = h0 | h1 | h2 | h3
        code = np.int64(0)
        count = 0
        while rest:
            rank = highest_bit(rest)
            rest ^= np.int64(1) << rank
            code = code << 2 | ((h1 >> rank & 1) | (h2 >> rank & 1) * 2 | (h3 >> rank & 1) * 3)
            count += 1
        key |= (code | np.int64(count) << 26) << (30 * i)
    return key


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _never_wins(row, seat, trump):
    """Whether `seat`, not leading, can take no trick however anyone plays: it holds no trump
    and each of its cards is below every card of its suit the other seats hold (a card led
    by another seat in its suit beats it; in another suit it is discarded), so it never
    leads either."""
    mine = row[cv.R_HAND + seat]
    if row[cv.R_LEADER] == seat or (trump < 4 and mine & cv._suit_mask(trump)):
        return False
    others = (row[cv.R_HAND] | row[cv.R_HAND + 1] | row[cv.R_HAND + 2]
              | row[cv.R_HAND + 3]) & ~mine
    for suit in range(4):
        held = mine & cv._suit_mask(suit)
        rivals = others & cv._suit_mask(suit)
        if held and rivals and highest_bit(held) > lowest_bit(rivals):
            return False
    return True


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _holds_top_trump(row, seat, trump):
    """Whether `seat` holds the highest trump left: it wins the trick it plays it to."""
    if trump > 3:
        return False
    trumps = (row[cv.R_HAND] | row[cv.R_HAND + 1] | row[cv.R_HAND + 2]
              | row[cv.R_HAND + 3]) & (cv.SUIT_BITS << (cv.N_RANKS * trump))
    return trumps != 0 and (row[cv.R_HAND + seat] >> highest_bit(trumps)) & 1 == 1


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _ordered(row, seat, spec, out):
    """The cards to search into `out[:MAX_CARDS]`, likeliest answer first (module docstring;
    the rest of `out` is scratch for their scores); returns their count."""
    keep = cv.searched_cards(row, spec)
    actor = cv.to_act(row)
    n_in = row[cv.R_N_IN]
    scores = out[cv.MAX_CARDS:]
    n = 0
    while keep:
        card = highest_bit(keep)
        keep &= ~(np.int64(1) << card)
        rank = card % cv.N_RANKS
        wins = n_in > 0 and cv._beats(card, row[cv.R_BEST], spec[cv.SP_TRUMP])
        if actor == seat:
            score = -rank if n_in == 0 else (100 + rank if not wins else 50 - rank)
        elif actor & 1 == seat & 1:
            score = rank
        else:
            score = -rank if n_in == 0 or not wins else -100 - rank
        cv.insert_by_score(out, scores, n, card, score)
        n += 1
    return n


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _store(tt, frame, answer, left):
    """Keep an answer in the two rows of its bucket: the first holds the larger search's
    (the most tricks left), the second the latest of the others."""
    slot = frame[F_SLOT]
    if tt[slot, TT_LEFT] > left:
        slot += 1
    entry = tt[slot]
    entry[0] = frame[F_LOW]
    entry[1] = frame[F_HIGH]
    entry[TT_EXTRA] = frame[F_EXTRA]
    entry[TT_ANSWER] = answer
    entry[TT_LEFT] = left


@njit(cache=True, _nrt=False)
def keeps_clean(stack, moves, frames, spec, seat, tt, stats, limit):
    """1 when the side of `seat` can play so that `seat` takes no trick from the position at
    stack[0] (a trick's start) on, whatever the other side plays; 0 when the other side can
    make it take one; `NO_ANSWER` once stats[S_NODES] passes `limit`."""
    depth = 0
    entering = True
    answer = 0
    mask = tt.shape[0] - 1
    while True:
        if entering:
            row = stack[depth]
            frame = frames[depth]
            stats[S_NODES] += 1
            if stats[S_NODES] > limit:
                return NO_ANSWER
            answer = -1
            frame[F_SLOT] = -1
            if row[cv.R_N_IN] == 0:
                if depth > 0 and stack[depth - 1, cv.R_N_IN] == 3 and row[cv.R_LEADER] == seat:
                    answer = 0  # it just won the trick
                elif row[cv.R_HAND + seat] == 0:
                    answer = 1  # no trick left to take
                elif _holds_top_trump(row, seat, spec[cv.SP_TRUMP]):
                    answer = 0
                elif _never_wins(row, seat, spec[cv.SP_TRUMP]):
                    answer = 1
                else:
                    low, high = _suits_key(row, 0), _suits_key(row, 2)
                    extra = _extra(row, seat, spec)
                    slot = cv._slot(low, high, 0, 0, extra, mask) & ~1
                    for k in range(2):
                        entry = tt[slot + k]
                        if entry[0] == low and entry[1] == high and entry[TT_EXTRA] == extra:
                            answer = entry[TT_ANSWER]
                    frame[F_SLOT] = slot
                    frame[F_EXTRA] = extra
                    frame[F_LOW] = low
                    frame[F_HIGH] = high
            if answer < 0:
                frame[F_N] = _ordered(row, seat, spec, moves[depth])
                frame[F_I] = 0
                frame[F_OR] = 1 if cv.to_act(row) & 1 == seat & 1 else 0
        else:
            frame = frames[depth]
            if answer == frame[F_OR] or frame[F_I] == frame[F_N]:
                # a clean child of n's side, a dirty one of the other: decided; or every
                # child failed to decide it: the other answer
                answer = answer if answer == frame[F_OR] else 1 - frame[F_OR]
                if frame[F_SLOT] >= 0:
                    _store(tt, frame, answer, popcount(stack[depth, cv.R_HAND + seat]))
            else:
                answer = -1
        if answer >= 0:
            if depth == 0:
                return answer
            depth -= 1
            entering = False
            continue
        frame = frames[depth]
        cv.play(stack[depth], stack[depth + 1], moves[depth, frame[F_I]], spec)
        frame[F_I] += 1
        depth += 1
        entering = True


def plain_spec(trump: int, trump_last: int, ruff_anytime: int = 0) -> np.ndarray:
    """A value search spec holding only what `keeps_clean` reads: trump, the lead rule, the
    follow rule (no card weighs anything)."""
    spec = np.zeros(cv.SPEC_SIZE, dtype=np.int64)
    spec[cv.SP_TRUMP] = trump
    spec[cv.SP_TRUMP_LAST] = trump_last
    spec[cv.SP_RUFF] = ruff_anytime
    return spec


def new_table(tt_bits: int = DEFAULT_TT_BITS) -> np.ndarray:
    """An empty transposition table (no hand is -1: no entry matches)."""
    return np.full((1 << tt_bits, TT_COLUMNS), -1, dtype=np.int64)


class SeatClean:
    """`keeps_clean` with its buffers, reused from one question to the next."""

    def __init__(self, tt_bits: int = DEFAULT_TT_BITS):
        self.stack = np.zeros((MAX_DEPTH + 1, cv.ROW_SIZE), dtype=np.int64)
        self.moves = np.zeros((MAX_DEPTH + 1, 2 * cv.MAX_CARDS), dtype=np.int64)
        self.frames = np.zeros((MAX_DEPTH + 1, FRAME_SIZE), dtype=np.int64)
        self.tt = new_table(tt_bits)
        self.stats = np.zeros(N_STATS, dtype=np.int64)

    def keeps_clean(self, hands, trump: int, trump_last: int, leader: int, seat: int,
                    limit: int = cv.NO_LIMIT) -> int:
        """`keeps_clean` of four hands of one size (52-bit masks) when `leader` leads."""
        spec = plain_spec(trump, trump_last)
        cv.set_root(np.asarray(hands, dtype=np.int64), leader, np.zeros(4, np.int64), 0, spec,
                    self.stack[0])
        return int(keeps_clean(self.stack, self.moves, self.frames, spec, seat, self.tt,
                               self.stats, self.stats[S_NODES] + limit))
