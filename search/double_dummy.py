"""An exact double-dummy solver for plain trick-taking card play (issue 55, item 5).

Four seats 0..3 play clockwise in two partnerships, seats 0 and 2 ("side 0") against seats 1
and 3; every seat must follow the suit led if it can; the highest card of the led suit wins
the trick unless a trump was played, then the highest trump wins; the trick's winner leads the
next. The trump is a suit 0..3 or `NO_TRUMP`. All hands are known (double dummy) and hold the
same number of cards, 1 to 13 each. The solver gives the number of tricks side 0 takes under
perfect play by both sides, and `dd_table` gives a 52-card deal's table of all 20
declarer/trump pairs, as bridge's double-dummy solvers (Haglund's DDS) do. It names no game: a
game drives it with its own hands, trump and leader.

Cards are `suit * 13 + rank` (ranks 0..12 low to high, the suits' order is the caller's); a
hand is a 52-bit mask in an int64, each suit a 13-bit group.

How it is fast enough (Haglund's DDS and Ginsberg's partition search are the anchors):
- Null-window search: `search` only answers "does side 0 take at least `need` of the tricks
  left?", which cuts far more than a search for the exact count; `_tricks_for_leader` finds
  the count by a few such tests, each starting from the last answer (MTD(f) driven by a target
  number of tricks), their transposition entries carried over.
- A transposition table at each trick's start, keyed by the position up to rank equivalence:
  per suit, which seat holds each remaining card, highest first (the cards already played are
  left out, so a 5 becomes the "2" once the 2, 3 and 4 are gone, and positions that differ
  only in such dead ranks share an entry). An entry holds a lower and an upper bound of the
  tricks side 0 takes from there; the value does not depend on the tricks already taken, so
  every later test, every leader and every deal with the same trump can use it.
- Quick tricks: at a trick's start, the tricks the leader can cash at once with top cards are
  a sure floor for its side, which often answers a test without a move.
- Move order: a winning card (the cheapest one that wins) before the rest, then low cards;
  leads of a suit's top card first. A good first move makes the others' refutation cheap.
- Equivalent cards: of two cards of one hand in one suit with no other seat's live card (nor
  a card of the trick) between them, only one is searched; they take the same tricks.
- The last trick is scored without search (every seat holds one card).

Everything is numba with no allocation per node; `search` walks the tree as one (an
iterative function on a stack of frames), the hands changed in place and restored on the way
back.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.bits import highest_bit, lowest_bit, popcount

N_RANKS = 13
N_SUITS = 4
NO_TRUMP = 4  # the trump index of a no-trump contract
SUIT_BITS = np.int64((1 << N_RANKS) - 1)
MAX_DEPTH = 53  # cards below the root (52) and the root itself
MOVE_SLOTS = 16  # a row of the move buffer: 13 cards at most, then their sort keys
TT_BITS = 20  # transposition entries: 2 ** TT_BITS
UNKNOWN_UPPER = 15  # an upper bound above any count of tricks

# Columns of a frame (int64[MAX_DEPTH + 1, FRAME_SIZE]): one node of the search's stack.
(F_LEADER, F_IN_TRICK, F_LED, F_BEST, F_WINNER, F_TRICK_MASK, F_LEFT, F_NEED, F_COUNT,
 F_INDEX, F_SLOT, F_K0, F_K1, F_LOWER, F_UPPER) = range(15)
FRAME_SIZE = 15

# Counters of `stats` (int64[N_STATS]).
S_NODES, S_TT_HITS, S_QUICK_CUTS = range(3)
N_STATS = 3


@njit(cache=True, inline="always")
def _suit_of(hand, suit):
    """The 13-bit group of `suit` in a card mask."""
    return (hand >> (N_RANKS * suit)) & SUIT_BITS


@njit(cache=True, inline="always")
def _beats(card, best, trump):
    """Whether `card` takes the trick from `best`, the card winning it so far: a higher card
    of best's suit, or any trump over a card that is not one."""
    suit = card // N_RANKS
    best_suit = best // N_RANKS
    if suit == best_suit:
        return card > best
    return suit == trump


@njit(cache=True)
def _last_trick(hands, leader, trump):
    """The seat winning the last trick, every hand holding one card: nothing to choose."""
    best = lowest_bit(hands[leader])
    winner = leader
    for i in range(1, 4):
        seat = (leader + i) & 3
        card = lowest_bit(hands[seat])
        if _beats(card, best, trump):
            best = card
            winner = seat
    return winner


@njit(cache=True)
def position_key(hands, leader, trump):
    """The transposition key (two int64 words) of a trick's start: for each suit, the owner of
    every remaining card of it, highest first, behind a leading 1 (so lengths differ); then
    the leader and the trump. Positions with the same key have the same value (rank
    equivalence: which cards are gone does not matter, only the order of those left)."""
    k0 = np.int64(0)
    k1 = np.int64(0)
    for suit in range(N_SUITS):
        h1 = _suit_of(hands[1], suit)
        h2 = _suit_of(hands[2], suit)
        h3 = _suit_of(hands[3], suit)
        rest = _suit_of(hands[0], suit) | h1 | h2 | h3
        code = np.int64(1)
        while rest != 0:
            rank = highest_bit(rest)
            rest ^= np.int64(1) << rank
            owner = (h1 >> rank & 1) | (h2 >> rank & 1) * 2 | (h3 >> rank & 1) * 3
            code = code << 2 | owner
        if suit < 2:
            k0 |= code << (27 * suit)
        else:
            k1 |= code << (27 * (suit - 2))
    k1 |= np.int64(leader) << 54 | np.int64(trump) << 56
    return k0, k1


@njit(cache=True, inline="always")
def _slot(k0, k1, bits):
    """The transposition slot of a key (a multiplicative hash of both words)."""
    h = np.uint64(k0) * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(k1) * \
        np.uint64(0xC2B2AE3D27D4EB4F)
    return np.int64(h >> np.uint64(64 - bits))


@njit(cache=True, inline="always")
def _top_run(mine, everyone):
    """How many of the highest cards of a suit (13-bit groups: `everyone`'s remaining cards)
    are in `mine`, counted from the top down to the first card that is not."""
    run = 0
    while mine != 0:
        top = highest_bit(everyone)
        if not (mine >> top) & 1:
            break
        mine ^= np.int64(1) << top
        everyone ^= np.int64(1) << top
        run += 1
    return run


@njit(cache=True)
def quick_tricks(hands, leader, trump):
    """Tricks the leader surely takes by cashing its top cards now (a floor for its side):
    in each suit the run of the highest remaining cards it holds wins, one after the other
    (the leader keeps the lead). Against trumps only its top trumps count, unless they draw
    every trump the opponents hold: then its side-suit tops win too (nobody can ruff)."""
    everyone = hands[0] | hands[1] | hands[2] | hands[3]
    total = 0
    trump_run = 0
    for suit in range(N_SUITS):
        run = _top_run(_suit_of(hands[leader], suit), _suit_of(everyone, suit))
        total += run
        if suit == trump:
            trump_run = run
    if trump == NO_TRUMP:
        return total
    opp_trumps = max(popcount(_suit_of(hands[(leader + 1) & 3], trump)),
                     popcount(_suit_of(hands[(leader + 3) & 3], trump)))
    if trump_run >= opp_trumps:
        return total
    return trump_run


@njit(cache=True, inline="always")
def _insert(row, n, card, key):
    """Insert `card` with sort `key` into the first n moves of `row` (keys ascending; the
    keys live in row[MOVE_SLOTS:])."""
    j = n
    while j > 0 and row[MOVE_SLOTS + j - 1] > key:
        row[MOVE_SLOTS + j] = row[MOVE_SLOTS + j - 1]
        row[j] = row[j - 1]
        j -= 1
    row[MOVE_SLOTS + j] = key
    row[j] = card


@njit(cache=True)
def ordered_moves(hands, seat, n_in_trick, led, best, winner, trick_mask, trump, row):
    """Write the cards `seat` tries into `row` (best first) and return their count: its legal
    cards less equivalent ones (the higher of two stands for both), ordered to refute the
    other side at once: a sure or cheapest winner first, then the cheapest cards; ruffing a
    partner's trick or a losing ruff last."""
    hand = hands[seat]
    legal = hand
    if n_in_trick > 0 and _suit_of(hand, led) != 0:
        legal = hand & (SUIT_BITS << (N_RANKS * led))
    everyone = hands[0] | hands[1] | hands[2] | hands[3]
    live = (everyone & ~hand) | trick_mask  # the cards that can come between two of mine
    partner_wins = n_in_trick > 0 and (winner & 1) == (seat & 1)
    n = 0
    rest = legal
    while rest != 0:
        card = lowest_bit(rest)
        rest &= rest - 1
        suit = card // N_RANKS
        rank = card - suit * N_RANKS
        above = (live | hand) & (SUIT_BITS << (N_RANKS * suit)) & ~((np.int64(2) << card) - 1)
        if above != 0 and (hand >> lowest_bit(above)) & 1:
            continue  # the next card up is mine too: it stands for this one
        if n_in_trick == 0:
            key = _lead_key(hands, seat, card, everyone, trump)
        elif partner_wins:
            # keep partner's trick: the cheapest card of the suit or discard; ruffs last
            key = 40 + rank if suit == trump and led != trump else 20 + rank
            if suit == led:
                key = rank
        elif _beats(card, best, trump):
            key = rank  # the cheapest card that takes the trick so far
        else:
            key = 40 + rank if suit == trump and led != trump else 20 + rank
        _insert(row, n, card, key)
        n += 1
    return n


@njit(cache=True, inline="always")
def _lead_key(hands, seat, card, everyone, trump):
    """The sort key of a lead: a suit's top card first (unless an opponent can ruff it), then
    low cards towards a partner holding the suit's top card, then low cards of other suits."""
    suit = card // N_RANKS
    rank = card - suit * N_RANKS
    top = highest_bit(_suit_of(everyone, suit))
    if rank == top:
        if trump == NO_TRUMP or suit == trump:
            return 0
        left_opp = hands[(seat + 1) & 3]
        right_opp = hands[(seat + 3) & 3]
        ruffable = ((_suit_of(left_opp, suit) == 0 and _suit_of(left_opp, trump) != 0)
                    or (_suit_of(right_opp, suit) == 0 and _suit_of(right_opp, trump) != 0))
        return 30 + rank if ruffable else 0
    if (_suit_of(hands[(seat + 2) & 3], suit) >> top) & 1:
        return 10 + rank
    return 30 + rank


@njit(cache=True, inline="always")
def _tt_bits(tt):
    """log2 of the transposition table's size (its rows are a power of two)."""
    return lowest_bit(np.int64(tt.shape[0]))


@njit(cache=True)
def _open_trick(hands, trump, frame, tt, stats):
    """Look at a trick's start before searching it: -1 when it must be searched, else its
    answer (1 side 0 takes `need` tricks, 0 it does not) from the trick count alone, the last
    trick, the transposition table or the leader's quick tricks. Leaves the slot, key and
    known bounds in `frame` for the store once searched."""
    leader = frame[F_LEADER]
    left = frame[F_LEFT]
    need = frame[F_NEED]
    frame[F_SLOT] = -1
    if need <= 0:
        return 1
    if need > left:
        return 0
    if left == 1:
        return 1 if _last_trick(hands, leader, trump) & 1 == 0 else 0
    k0, k1 = position_key(hands, leader, trump)
    slot = _slot(k0, k1, _tt_bits(tt))
    lower, upper = 0, left
    if tt[slot, 0] == k0 and tt[slot, 1] == k1:
        lower = tt[slot, 2]
        upper = tt[slot, 3]
        if lower >= need or upper < need:
            stats[S_TT_HITS] += 1
            return 1 if lower >= need else 0
    quick = quick_tricks(hands, leader, trump)
    if leader & 1 == 0 and quick >= need:
        stats[S_QUICK_CUTS] += 1
        return 1
    if leader & 1 == 1 and left - quick < need:
        stats[S_QUICK_CUTS] += 1
        return 0
    frame[F_SLOT] = slot
    frame[F_K0] = k0
    frame[F_K1] = k1
    frame[F_LOWER] = lower
    frame[F_UPPER] = upper
    return -1


@njit(cache=True, inline="always")
def _close_trick(tt, frame, result):
    """Record what a searched trick's start proved (side 0 takes `need` tricks or not) on top
    of the bounds its entry held, replacing whatever held the slot."""
    lower = frame[F_LOWER]
    upper = frame[F_UPPER]
    if result:
        lower = max(lower, frame[F_NEED])
    else:
        upper = min(upper, frame[F_NEED] - 1)
    slot = frame[F_SLOT]
    tt[slot, 0] = frame[F_K0]
    tt[slot, 1] = frame[F_K1]
    tt[slot, 2] = lower
    tt[slot, 3] = upper


@njit(cache=True, inline="always")
def _play(hands, trump, frames, moves, depth):
    """Play the current move of the node at `depth` (from its hand) and set up its child at
    depth + 1: the same trick one card on, or, after the fourth card, the next trick led by
    this one's winner with side 0's need less the trick if it won it."""
    frame = frames[depth]
    child = frames[depth + 1]
    card = moves[depth, frame[F_INDEX]]
    seat = (frame[F_LEADER] + frame[F_IN_TRICK]) & 3
    hands[seat] ^= np.int64(1) << card
    led, best, winner = frame[F_LED], frame[F_BEST], frame[F_WINNER]
    if frame[F_IN_TRICK] == 0:
        led, best, winner = card // N_RANKS, card, seat
    elif _beats(card, best, trump):
        best, winner = card, seat
    if frame[F_IN_TRICK] == 3:
        child[F_LEADER] = winner
        child[F_IN_TRICK] = 0
        child[F_TRICK_MASK] = 0
        child[F_LEFT] = frame[F_LEFT] - 1
        child[F_NEED] = frame[F_NEED] - (1 if winner & 1 == 0 else 0)
    else:
        child[F_LEADER] = frame[F_LEADER]
        child[F_IN_TRICK] = frame[F_IN_TRICK] + 1
        child[F_LED] = led
        child[F_BEST] = best
        child[F_WINNER] = winner
        child[F_TRICK_MASK] = frame[F_TRICK_MASK] | np.int64(1) << card
        child[F_LEFT] = frame[F_LEFT]
        child[F_NEED] = frame[F_NEED]


@njit(cache=True)
def search(hands, trump, leader, need, tt, moves, frames, stats):
    """Whether side 0 (seats 0 and 2) takes at least `need` of the tricks left when `leader`
    leads to the next trick (hands of equal size), both sides playing perfectly: one
    null-window test. Iterative on `frames` (numba's cache cannot hold a recursive function
    reliably); `hands` change during the search and are restored; `moves[d]` holds the moves
    of the node at depth d."""
    root = frames[0]
    root[F_LEADER] = leader
    root[F_IN_TRICK] = 0
    root[F_TRICK_MASK] = 0
    root[F_LEFT] = popcount(hands[leader])
    root[F_NEED] = need
    depth = 0
    entering = True
    result = False
    while True:
        if entering:
            frame = frames[depth]
            stats[S_NODES] += 1
            known = -1
            if frame[F_IN_TRICK] == 0:
                known = _open_trick(hands, trump, frame, tt, stats)
            else:
                frame[F_SLOT] = -1
            if known >= 0:
                result = known == 1
                entering = False
            else:
                seat = (frame[F_LEADER] + frame[F_IN_TRICK]) & 3
                frame[F_COUNT] = ordered_moves(hands, seat, frame[F_IN_TRICK], frame[F_LED],
                                               frame[F_BEST], frame[F_WINNER],
                                               frame[F_TRICK_MASK], trump, moves[depth])
                frame[F_INDEX] = 0
                _play(hands, trump, frames, moves, depth)
                depth += 1
                continue
        # `result` is the finished node's at `depth`: take it back to its parent
        if depth == 0:
            return result
        depth -= 1
        frame = frames[depth]
        seat = (frame[F_LEADER] + frame[F_IN_TRICK]) & 3
        hands[seat] ^= np.int64(1) << moves[depth, frame[F_INDEX]]
        # side 0 to play stops at its first success, side 1 at its first refutation; with
        # every move tried, the last answer is the node's too
        frame[F_INDEX] += 1
        if result == (seat & 1 == 0) or frame[F_INDEX] == frame[F_COUNT]:
            if frame[F_SLOT] >= 0:
                _close_trick(tt, frame, result)
            continue
        _play(hands, trump, frames, moves, depth)
        depth += 1
        entering = True


@njit(cache=True)
def tricks_for_leader(hands, trump, leader, guess, tt, moves, frames, stats):
    """Tricks side 0 takes when `leader` leads to the first trick (hands of equal size, at a
    trick's start): null-window tests stepping from `guess` until the count is pinned
    between a test passed and the one above failed (MTD(f), a step of one trick)."""
    left = popcount(hands[leader])
    low, high = 0, left
    target = guess
    while low < high:
        target = min(max(target, low + 1), high)
        if search(hands, trump, leader, target, tt, moves, frames, stats):
            low = target
            target += 1
        else:
            high = target - 1
            target -= 1
    return low


@njit(cache=True)
def table_of(hands, tt, moves, frames, stats, out):
    """Fill `out` (int64[5, 4], trump 0..3 or NO_TRUMP by declarer seat) with the tricks the
    declarer's side takes when that seat declares with that trump: its left-hand opponent
    (the next seat) leads. The four leaders of one trump share the transposition table, and
    each starts its tests from the last one's count."""
    left = popcount(hands[0])
    for trump in range(N_SUITS + 1):
        guess = (left + 1) // 2
        for leader in range(4):
            side0 = tricks_for_leader(hands, trump, leader, guess, tt, moves, frames, stats)
            guess = side0
            declarer = (leader + 3) & 3
            out[trump, declarer] = side0 if declarer & 1 == 0 else left - side0


def new_table(tt_bits: int = TT_BITS) -> np.ndarray:
    """An empty transposition table of 2 ** tt_bits entries (key words, lower, upper)."""
    return np.zeros((1 << tt_bits, 4), dtype=np.int64)


def check_hands(hands) -> np.ndarray:
    """The four hands as int64 masks, checked: 52-bit masks, disjoint, of one size 1..13
    (ValueError naming what is wrong)."""
    masks = np.array([int(h) for h in hands], dtype=np.int64)
    if masks.shape != (4,):
        raise ValueError(f"four hands expected, got {masks.shape[0]}")
    if any(int(m) < 0 or int(m) >> 52 for m in masks):
        raise ValueError("a hand holds a card outside 0..51")
    seen = 0
    for m in masks:
        if seen & int(m):
            raise ValueError("two hands hold the same card")
        seen |= int(m)
    sizes = {bin(int(m)).count("1") for m in masks}
    if len(sizes) != 1 or not 1 <= next(iter(sizes)) <= 13:
        raise ValueError(f"the hands must hold 1 to 13 cards each, all as many: sizes "
                         f"{[bin(int(m)).count('1') for m in masks]}")
    return masks


class DoubleDummySolver:
    """The solver with its buffers (transposition table, move rows, counters), reused from
    one solve to the next: entries stay valid across deals, as the key is the whole position
    up to rank equivalence."""

    def __init__(self, tt_bits: int = TT_BITS):
        self.tt = new_table(tt_bits)
        self.moves = np.zeros((MAX_DEPTH + 1, 2 * MOVE_SLOTS), dtype=np.int64)
        self.frames = np.zeros((MAX_DEPTH + 1, FRAME_SIZE), dtype=np.int64)
        self.stats = np.zeros(N_STATS, dtype=np.int64)

    @property
    def nodes(self) -> int:
        """Nodes searched since the solver was made."""
        return int(self.stats[S_NODES])

    def tricks(self, hands, trump: int, leader: int) -> int:
        """Tricks seats 0 and 2 take when `leader` leads first, `trump` a suit 0..3 or
        `NO_TRUMP`; `hands` are four card masks of one size (`check_hands`)."""
        if trump not in range(N_SUITS + 1) or leader not in range(4):
            raise ValueError(f"trump must be 0..4 and leader 0..3: {trump}, {leader}")
        masks = check_hands(hands)
        return int(tricks_for_leader(masks, trump, leader, (bin(int(masks[0])).count("1") + 1)
                                     // 2, self.tt, self.moves, self.frames, self.stats))

    def table(self, hands) -> np.ndarray:
        """The double-dummy table of a deal: int64[5, 4], row trump (0..3, then `NO_TRUMP`),
        column declarer seat, the tricks the declarer's side takes when the next seat
        leads."""
        masks = check_hands(hands)
        out = np.zeros((N_SUITS + 1, 4), dtype=np.int64)
        table_of(masks, self.tt, self.moves, self.frames, self.stats, out)
        return out
