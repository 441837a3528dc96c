"""An exact double-dummy solver for plain trick-taking card play (issue 55, item 5).

Four seats 0..3 play clockwise in two partnerships, seats 0 and 2 ("side 0") against seats 1
and 3; every seat must follow the suit led if it can; the highest card of the led suit wins
the trick unless a trump was played, then the highest trump wins; the trick's winner leads the
next. The trump is a suit 0..3 or `NO_TRUMP`. All hands are known (double dummy) and hold the
same number of cards, 1 to 13 each. `DoubleDummySolver.tricks` gives the tricks side 0 takes
under perfect play by both sides, and `DoubleDummySolver.table` a deal's table of all 20
declarer/trump pairs (the declarer's left-hand opponent leading), the table Haglund's DDS
gives. It names no game: a game drives it with its own hands, trump and leader
(`search/trick_values.py` for a game's card play: a root inside a trick, `set_root`, and
every legal card's tricks, `card_tricks`). With `trump_last` a trump may be led only from a
hand of trumps alone (Spades never breaks spades); the quick tricks then draw no trumps first.

Cards are `suit * 13 + rank` (ranks 0..12 low to high, the suits' order is the caller's); a
hand is a 52-bit mask in an int64, each suit a 13-bit group.

How (Haglund's DDS and Ginsberg's partition search are the anchors):
- Null-window search: `search` only answers "does side 0 take at least `need` of the tricks
  left?", which cuts far more than a search for the exact count; `tricks_for_leader` finds
  the count by a few such tests, each starting from the last answer (MTD(f) driven by a target
  number of tricks), their transposition entries carried over.
- A transposition table at each trick's start (`describe`, `_probe`, `_close_trick`). A
  position is its hands' lengths in every suit and, per suit, which seat holds each remaining
  card, highest first (rank equivalence: the cards already played are left out, so a 5 is
  the "2" once the 2, 3 and 4 are gone). Every node also reports the cards whose ranks
  decided its answer, and an entry holds for every position agreeing on the lengths and on
  the owners down to the lowest deciding card of each suit (partition search: the lower cards
  are interchangeable). An entry keeps a lower and an upper bound of the tricks side 0 takes
  from there: the value does not depend on the tricks already taken, so every later test,
  every leader and every deal with the same trump can use it.
- Sure tricks, which often answer a test without a move: at a trick's start the leader's
  runs of top cards (`quick_tricks`), else a low card led to the partner's top card and the
  partner's runs (`entry_tricks`), a ruff of the partner's when one trick decides
  (`_partner_ruff`) and, with a trump suit, each side's master trumps (`master_trumps`);
  after the lead, the second hand's side winning the trick by a ruff or by its top card of
  the suit, and the winner's runs after it (`_second_hand`).
- "Later tricks" (`_later_tricks`, DDS's bounds): a side on lead that needs every trick
  without trumps, short of suits it tops or whose leader can only lead a suit an opponent
  tops; the other side's sure trump tricks.
- Move order (`ordered_moves`): leads by DDS's weights (`_lead_key_trump`,
  `_lead_key_no_trump`: few replies, the side's winners, no ruffs for the opponents, finesse
  positions); in a trick DDS's weights for the second, third and fourth hand
  (`_follow_weight`): the cheapest card that wins and holds, low when the partner wins anyway
  or the card cannot matter, the third hand forcing out the fourth's top card cheaply,
  discards from long suits and not from a bare top card or a guarded second card, no ruff of
  a partner's sure trick. A good first move makes the refutation of the others cheap. At a
  trick's start two leads gain weight (DDS's best moves, its bonuses by the branch of the
  lead weights: more for a lead that wins the trick): the one that last refuted at the same
  depth (F_KILLER) and the one that last proved the leader's side's bound there, kept in the
  transposition entry (the next test searches the same positions with another target).
- Equivalent cards: of two cards of one hand in one suit with no other seat's live card (nor
  a card of the trick) between them, only one is searched; they take the same tricks. Once a
  card failed, its suit's cards below every card that decided the answers so far are skipped
  (`_skip_equivalent`, DDS's rule).
- The last trick is scored without search (every seat holds one card).

Everything is numba with no allocation per node; `search` walks the tree as one iterative
function on a stack of frames (numba's cache cannot hold a function that calls itself with
several argument types), the hands changed in place and restored on the way back. The
search's functions are compiled without reference counting (`_nrt=False`): they allocate
nothing, and numba counts the references of every array argument of every call with atomic
increments, which took a third of the solver's time. Its small helpers are compiled once and
inlined by LLVM (`forceinline`), not copied by numba into every call site (`inline="always"`,
kept only for the thin entry points): numba re-ran its passes on each copy and its SSA pass
grows with the square of a function's size, which made the cold build (issue 55's bench,
`bench/cold_build.py`) about a quarter longer for the same machine code. Nor are those helpers
given the wrappers that let Python call a compiled function (`no_cpython_wrapper`,
`no_cfunc_wrapper`): only compiled code calls them, and the wrappers were a tenth of the
solver's build.
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
 F_INDEX, F_DECIDER, F_REL, F_STORE, F_META, F_BUCKET, F_LENS, F_SHARP) = range(17)
F_CODE = 17  # F_CODE + suit: the owners of the suit's remaining cards (`describe`)
F_TOTAL = 21  # F_TOTAL + suit: how many cards of the suit remain (`describe`)
F_HINT = F_TOTAL + 4  # a trick's start: the lead a matching entry names (`_probe`), or -1
F_FLOOR = F_HINT + 1  # F_FLOOR + suit: the lowest rank of the suit still worth trying here
F_KILLER = F_FLOOR + 4  # a trick's start: 1 + the last lead that refuted at this depth, or 0
# F_KEYS + 0 / 1: the owners of suits 0 and 1 / 2 and 3 (`describe`), each suit's from its
# top card down in a field of 2 * N_RANKS bits, the lowest bits 0 below its remaining cards:
# an entry's owners compare with one mask a word (E_KEYS, E_MASKS)
F_KEYS = F_KILLER + 1
FRAME_SIZE = F_KEYS + 2
KEY_BITS = 2 * N_RANKS
KILLER_BONUS = 55  # DDS's weight for the lead that last refuted at the same depth
HINT_BONUS = 18  # DDS's weight for the lead a matching transposition entry names

# A transposition entry: a row of four words of int64[2 ** tt_bits, TT_WIDTH], BUCKET rows
# sharing a hash. A probe scans whole buckets, so the fewer bytes a row, the faster it is.
E_LENS = 0  # every hand's length in every suit (as F_LENS)
E_META = 1  # the position's meta (below), from bit USED_SHIFT when last stored or used
E_KEYS = 2  # E_KEYS + 0 / 1: the owners of the suits' top cards the entry names (as F_KEYS,
# KEY_WORD's bits), above them at BOUND_SHIFT in E_KEYS its lower and upper bound of side 0's
# tricks (4 bits each), in E_KEYS + 1 one more than the lead that last proved the leader's
# side's bound here (0: none)
TT_WIDTH = 4
BOUND_SHIFT = 2 * KEY_BITS
KEY_WORD = (np.int64(1) << BOUND_SHIFT) - 1
USED_SHIFT = 23
BUCKET_BITS = 4
BUCKET = 1 << BUCKET_BITS  # rows of a sharp bucket (below)
WIDE_BITS = 6
WIDE = 1 << WIDE_BITS  # rows of a general bucket: all the positions of a length pattern
# An entry naming the owners of at least SHARP top cards of every suit (or all its cards) is
# kept in a bucket hashed on those owners too ("sharp"), the others in the bucket of the
# lengths alone: positions of one length pattern are legion and would crowd a single bucket.
SHARP = 2
META_POSITION = 63  # E_META's low bits: leader | trump << 2 | trump_last << 5 (as F_META)
META_TOPS = 6  # E_META >> (META_TOPS + 4 * suit) & 15: how many top cards of the suit count
META_USED = np.int64(1) << 22  # set in every stored entry (an empty row's E_META is 0)
META_WORD = (np.int64(1) << USED_SHIFT) - 1  # E_META's meta, below its time

# Counters of `stats` (int64[N_STATS]); S_CLOCK counts the table's stores and hits, the time
# an entry's E_META keeps (the least recently used goes first).
S_NODES, S_TT_HITS, S_QUICK_CUTS, S_CLOCK = range(4)
N_STATS = 4


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _suit_of(hand, suit):
    """The 13-bit group of `suit` in a card mask."""
    return (hand >> (N_RANKS * suit)) & SUIT_BITS


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _beats(card, best, trump):
    """Whether `card` takes the trick from `best`, the card winning it so far: a higher card
    of best's suit, or any trump over a card that is not one."""
    suit = card // N_RANKS
    best_suit = best // N_RANKS
    if suit == best_suit:
        return card > best
    return suit == trump


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def after_card(card, seat, n_in_trick, led, best, winner, trump):
    """(suit led, winning card, its seat) of a trick once `seat` plays `card` to it as its
    card number `n_in_trick` (0: the lead)."""
    if n_in_trick == 0:
        return card // N_RANKS, card, seat
    if _beats(card, best, trump):
        return led, card, seat
    return led, best, winner


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _deciding_card(trick, best):
    """The card of a finished trick whose rank decided it: its winner `best` when it beat
    another card of its own suit (else its rank did not matter: it won by suit), as a mask."""
    suit_cards = trick & (SUIT_BITS << (N_RANKS * (best // N_RANKS)))
    return np.int64(1) << best if suit_cards & (suit_cards - 1) != 0 else np.int64(0)


@njit(cache=True, _nrt=False)
def _last_trick(hands, leader, trump):
    """(winner, deciding card mask) of the last trick, every hand holding one card: nothing
    to choose."""
    best = lowest_bit(hands[leader])
    winner = leader
    for i in range(1, 4):
        seat = (leader + i) & 3
        card = lowest_bit(hands[seat])
        if _beats(card, best, trump):
            best = card
            winner = seat
    return winner, _deciding_card(hands[0] | hands[1] | hands[2] | hands[3], best)


@njit(cache=True, _nrt=False)
def describe(hands, frame):
    """Write the position's description at a trick's start into `frame`: F_LENS, every hand's
    length in every suit (4 bits each), F_CODE + suit, the owner (2 bits) of each remaining
    card of the suit, highest first, F_TOTAL + suit, their count, and F_KEYS the same owners
    from each suit's top card down, two suits a word. The transposition
    table compares positions by these (rank equivalence: the cards already played do not
    matter, only the order of those left)."""
    lens = np.int64(0)
    low_keys = np.int64(0)
    high_keys = np.int64(0)
    for suit in range(N_SUITS):
        h0 = _suit_of(hands[0], suit)
        h1 = _suit_of(hands[1], suit)
        h2 = _suit_of(hands[2], suit)
        h3 = _suit_of(hands[3], suit)
        lens |= (popcount(h0) | popcount(h1) << 4 | popcount(h2) << 8
                 | popcount(h3) << 12) << (16 * suit)
        rest = h0 | h1 | h2 | h3
        code = np.int64(0)
        while rest != 0:
            rank = highest_bit(rest)
            rest ^= np.int64(1) << rank
            code = code << 2 | ((h1 >> rank & 1) | (h2 >> rank & 1) * 2 | (h3 >> rank & 1) * 3)
        total = popcount(h0 | h1 | h2 | h3)
        frame[F_CODE + suit] = code
        frame[F_TOTAL + suit] = total
        aligned = code << (2 * (N_RANKS - total))
        if suit < 2:
            low_keys |= aligned << (KEY_BITS * suit)
        else:
            high_keys |= aligned << (KEY_BITS * (suit - 2))
    frame[F_LENS] = lens
    frame[F_KEYS] = low_keys
    frame[F_KEYS + 1] = high_keys


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _bucket(lens, meta, bits, size_bits):
    """The first row of the transposition bucket of a position (a multiplicative hash of its
    lengths, leader and trump)."""
    h = np.uint64(lens) * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(meta) * \
        np.uint64(0xC2B2AE3D27D4EB4F)
    return np.int64(h >> np.uint64(64 - bits + size_bits)) << size_bits


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _sharp_owners(frame):
    """The owners of the SHARP top cards of every suit (all its cards if fewer), 4 bits a
    suit: what the sharp bucket of a described position is hashed on besides its lengths."""
    owners = np.int64(0)
    for suit in range(N_SUITS):
        drop = max(frame[F_TOTAL + suit] - SHARP, 0)
        owners |= (frame[F_CODE + suit] >> (2 * drop)) << (2 * SHARP * suit)
    return owners


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _top_run(mine, everyone):
    """The highest remaining cards of a suit (13-bit groups: `everyone`'s remaining cards)
    that are in `mine`, from the top down to the first card that is not (a 13-bit group)."""
    run = np.int64(0)
    while mine != 0:
        top = highest_bit(everyone)
        if not (mine >> top) & 1:
            break
        mine ^= np.int64(1) << top
        everyone ^= np.int64(1) << top
        run |= np.int64(1) << top
    return run


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _top_of(cards, n):
    """The `n` highest cards of a mask."""
    for _ in range(popcount(cards) - n):
        cards &= cards - 1
    return cards


@njit(cache=True, _nrt=False)
def quick_tricks(hands, leader, trump, trump_last, wanted, entry_suit):
    """(tricks, cards): the tricks the leader surely takes by cashing its top cards now (a
    floor for its side), at most `wanted` of them, and the cards that make them sure (the
    fewer, the more positions a stored answer covers). In each suit the run of the highest
    remaining cards it holds wins, one after the other (the leader keeps the lead), and once
    a whole run is cashed, its lower cards too when no other hand held more cards of the suit
    than the run (`_length_winners`). Against
    trumps only its top trumps count, unless they draw every trump the opponents hold: then
    its side-suit tops win too (nobody can ruff). With `trump_last` (a trump may be led only
    by a hand holding nothing else) it cannot draw them first while it holds another suit:
    then only its top trumps count (each wins the trick it falls on, whoever leads), and the
    side suits' rounds every hand with a trump must follow (`_followed_runs`; `entry_suit`:
    a suit whose trick the opponents have just followed, `entry_tricks`, or -1)."""
    everyone = hands[0] | hands[1] | hands[2] | hands[3]
    runs = np.int64(0)
    for suit in range(N_SUITS):
        runs |= _top_run(_suit_of(hands[leader], suit), _suit_of(everyone, suit)) << (
            N_RANKS * suit)
    cards = np.int64(0)
    if trump != NO_TRUMP:
        trump_run = runs & (SUIT_BITS << (N_RANKS * trump))
        opp_trumps = max(popcount(_suit_of(hands[(leader + 1) & 3], trump)),
                         popcount(_suit_of(hands[(leader + 3) & 3], trump)))
        if popcount(trump_run) < opp_trumps or (opp_trumps > 0 and trump_last and (
                hands[leader] & ~(SUIT_BITS << (N_RANKS * trump))) != 0):
            return _followed_runs(hands, leader, trump, runs, _top_of(trump_run, wanted),
                                  wanted, entry_suit)
        if opp_trumps > 0:
            cards = trump_run  # every trump of the run: it is what stops the ruffs
            runs ^= trump_run
    count = popcount(cards)
    if cards != 0:
        count += _length_winners(hands, leader, trump, count)
    # the longest runs first, each only as far as still wanted
    while count < wanted and runs != 0:
        longest = np.int64(0)
        longest_suit = 0
        for suit in range(N_SUITS):
            run = runs & (SUIT_BITS << (N_RANKS * suit))
            if popcount(run) > popcount(longest):
                longest = run
                longest_suit = suit
        runs ^= longest
        take = min(popcount(longest), wanted - count)
        cards |= _top_of(longest, take)
        count += take
        if take == popcount(longest) and not (trump_last and longest_suit == trump):
            count += _length_winners(hands, leader, longest_suit, take)
    return count, cards


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _followed_runs(hands, leader, trump, runs, cards, wanted, entry_suit):
    """`quick_tricks` while the opponents keep trumps: the leader's top trumps (`cards`) win
    whatever trick they fall on, and of each side suit's run as many rounds as every other
    hand holding a trump must follow (DDS's quick tricks against trumps): nobody can ruff
    them, and as those hands follow every round they discard nothing from the other suits.
    The opponents' cards of `entry_suit` count one fewer (one fell on the entry trick but is
    still in their hands)."""
    count = popcount(cards)
    for suit in range(N_SUITS):
        if count >= wanted:
            break
        if suit == trump:
            continue
        run = runs & (SUIT_BITS << (N_RANKS * suit))
        safe = popcount(run)
        for seat in range(1, 4):
            other = hands[(leader + seat) & 3]
            if _suit_of(other, trump) != 0:
                held = popcount(_suit_of(other, suit))
                if suit == entry_suit and seat != 2:
                    held -= 1
                safe = min(safe, held)
        if safe <= 0:
            continue
        take = min(safe, wanted - count)
        cards |= _top_of(run, take)
        count += take
    return count, cards


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _length_winners(hands, leader, suit, run):
    """The leader's cards of `suit` below its `run` top cards that win once the run is cashed
    (DDS's quick tricks by length): every other hand's cards of the suit fall under the run
    (none holds more than `run`), so the rest of the leader's cards are the suit's only ones
    left. The lengths alone decide it (the run's cards are named already); 0 otherwise."""
    own = popcount(_suit_of(hands[leader], suit))
    if own <= run:
        return 0
    for seat in range(1, 4):
        if popcount(_suit_of(hands[(leader + seat) & 3], suit)) > run:
            return 0
    return own - run


@njit(cache=True, _nrt=False)
def entry_tricks(hands, leader, trump, trump_last, wanted):
    """(tricks, cards): like `quick_tricks`, for the leader's side through the partner's
    entry: the leader leads its lowest card of a suit in which the partner holds the top
    card, the partner wins that trick (nobody can ruff it) and, on lead, cashes its own quick
    tricks. The cards the other two hands drop on the entry trick are kept in their hands,
    which can only shorten the partner's runs (a floor still). The cards: the partner's top
    card and its quick tricks' cards."""
    partner = leader ^ 2
    lho = hands[(leader + 1) & 3]
    rho = hands[(leader + 3) & 3]
    everyone = hands[0] | hands[1] | hands[2] | hands[3]
    best = 0
    best_cards = np.int64(0)
    for suit in range(N_SUITS):
        mine = _suit_of(hands[leader], suit)
        theirs = _suit_of(hands[partner], suit)
        if mine == 0 or theirs == 0:
            continue
        top = highest_bit(_suit_of(everyone, suit))
        if not (theirs >> top) & 1:
            continue
        if trump != NO_TRUMP and suit != trump and (
                (_suit_of(lho, suit) == 0 and _suit_of(lho, trump) != 0)
                or (_suit_of(rho, suit) == 0 and _suit_of(rho, trump) != 0)):
            continue  # an opponent could ruff the entry
        if trump_last and suit == trump and (
                hands[leader] & ~(SUIT_BITS << (N_RANKS * trump))) != 0:
            continue  # the leader may not lead a trump yet
        entry = np.int64(1) << (N_RANKS * suit + top)
        low = np.int64(1) << (N_RANKS * suit + lowest_bit(mine))
        hands[partner] ^= entry
        hands[leader] ^= low
        more, cards = quick_tricks(hands, partner, trump, trump_last, wanted - 1, suit)
        hands[partner] ^= entry
        hands[leader] ^= low
        if 1 + more > best:
            best = 1 + more
            best_cards = cards | entry
            if best >= wanted:
                break
    return best, best_cards


@njit(cache=True, _nrt=False)
def _partner_ruff(hands, leader, trump):
    """The cards that make a trick sure for the leader's side by a ruff of the partner's
    (DDS's quick tricks): a side suit the leader holds and the partner has none of, holding
    a trump, and each opponent either follows it or cannot ruff over the partner (its top
    trump: then it decides); -1 when there is no such suit."""
    partner = leader ^ 2
    mates = _suit_of(hands[partner], trump)
    if mates == 0:
        return -1
    for suit in range(N_SUITS):
        if suit == trump or _suit_of(hands[leader], suit) == 0 or \
                _suit_of(hands[partner], suit) != 0:
            continue
        cards = np.int64(0)
        ok = True
        for opponent in ((leader + 1) & 3, (leader + 3) & 3):
            theirs = _suit_of(hands[opponent], trump)
            if _suit_of(hands[opponent], suit) != 0 or theirs == 0:
                continue
            if theirs > mates:
                ok = False
                break
            cards = np.int64(1) << (N_RANKS * trump + highest_bit(mates))
        if ok:
            return cards
    return -1


@njit(cache=True, _nrt=False)
def master_trumps(hands, side, trump):
    """(tricks, cards): tricks `side` (0 or 1) takes with its master trumps whoever leads, and
    those trumps. A trump above every trump of the other side wins the trick it is played
    to (and every card is played by the end: a trump is never thrown away, a void hand's
    trump on another suit is a ruff). Those of one hand fall on different tricks; the two
    partners' might fall on the same one, so only the better hand's count."""
    opponents = _suit_of(hands[1 - side] | hands[3 - side], trump)
    floor = highest_bit(opponents) if opponents != 0 else -1
    best = 0
    cards = np.int64(0)
    for seat in (side, side + 2):
        mine = _suit_of(hands[seat], trump) >> (floor + 1) << (floor + 1)
        if popcount(mine) > best:
            best = popcount(mine)
            cards = mine << (N_RANKS * trump)
    return best, cards


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _holder(hands, card):
    """The seat holding `card`."""
    for seat in range(4):
        if (hands[seat] >> card) & 1:
            return seat
    return -1


@njit(cache=True, _nrt=False)
def _later_tricks(hands, leader, trump, left, wanted):
    """DDS's "later tricks" bounds at a trick's start: the cards that show the leader's side
    cannot take `wanted` of the `left` tricks (the ranks that decide it; 0 when the lengths
    alone do), or -1 when these rules do not show it. Without trumps: needing every trick, it
    cannot when an opponent holds the top card of every suit its leader holds (those top
    cards decide), nor when the suits whose top card it holds are shorter in all (each at the
    longer of its two hands) than the tricks left: it leads every trick, so the other side
    keeps a top card of another suit. With trumps the other side's trumps take tricks: as many as
    its longer trump hand when the leader's side has none; one with the top trump, two with
    the top two when one of its hands holding them has another; one with the second trump
    guarded, sitting after the top trump's hand or with the third trump on its side."""
    side = leader & 1
    trumps = np.int64(0)
    if trump != NO_TRUMP:
        trumps = _suit_of(hands[0] | hands[1] | hands[2] | hands[3], trump)
    if trumps == 0:
        if wanted < left:
            return -1
        everyone = hands[0] | hands[1] | hands[2] | hands[3]
        # every suit the leader can lead topped by an opponent: they take that trick
        tops = np.int64(0)
        for suit in range(N_SUITS):
            if _suit_of(hands[leader], suit) != 0:
                top = N_RANKS * suit + highest_bit(_suit_of(everyone, suit))
                if _holder(hands, top) & 1 == side:
                    tops = -1
                    break
                tops |= np.int64(1) << top
        if tops >= 0:
            return tops
        total = 0
        cards = np.int64(0)
        for suit in range(N_SUITS):
            rest = _suit_of(everyone, suit)
            if rest == 0:
                continue
            top = N_RANKS * suit + highest_bit(rest)
            seat = _holder(hands, top)
            if seat & 1 == side:
                total += max(popcount(_suit_of(hands[seat], suit)),
                             popcount(_suit_of(hands[seat ^ 2], suit)))
            elif rest & (rest - 1) != 0:
                cards |= np.int64(1) << top
        return cards if 0 < total < left else -1
    top = N_RANKS * trump + highest_bit(trumps)
    second = -1
    if trumps & (trumps - 1) != 0:
        second = N_RANKS * trump + highest_bit(trumps ^ (np.int64(1) << (top - N_RANKS * trump)))
    top_seat = _holder(hands, top)
    if top_seat & 1 != side:
        if _suit_of(hands[leader] | hands[leader ^ 2], trump) == 0:
            longest = max(popcount(_suit_of(hands[(leader + 1) & 3], trump)),
                          popcount(_suit_of(hands[(leader + 3) & 3], trump)))
            return 0 if left - longest < wanted else -1
        if wanted == left:
            return np.int64(1) << top
        if wanted == left - 1 and second >= 0:
            seat = _holder(hands, second)
            if seat & 1 != side and (popcount(_suit_of(hands[seat], trump)) > 1
                                     or popcount(_suit_of(hands[seat ^ 2], trump)) > 1):
                return np.int64(1) << second
        return -1
    if wanted < left or second < 0:
        return -1
    seat = _holder(hands, second)
    if seat & 1 == side or popcount(_suit_of(hands[seat], trump)) <= 1:
        return -1
    if top_seat == (seat + 3) & 3:
        return np.int64(1) << second
    rest = trumps & ~(np.int64(1) << (top - N_RANKS * trump)) & ~(
        np.int64(1) << (second - N_RANKS * trump))
    if rest == 0:
        return -1
    third = N_RANKS * trump + highest_bit(rest)
    return np.int64(1) << third if _holder(hands, third) & 1 != side else -1


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def legal_cards(hand, n_in_trick, led, trump, trump_last):
    """The cards of `hand` its seat may play: the suit led if it holds any (else any card);
    leading, any card, but with `trump_last` no trump while it holds another suit."""
    if n_in_trick > 0:
        follow = hand & (SUIT_BITS << (N_RANKS * led))
        return follow if follow != 0 else hand
    if trump_last and trump != NO_TRUMP:
        side = hand & ~(SUIT_BITS << (N_RANKS * trump))
        return side if side != 0 else hand
    return hand


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
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
def ordered_moves(hands, seat, n_in_trick, led, best, winner, trick_mask, trump, trump_last,
                  row):
    """Write the cards `seat` tries into `row` (best first) and return their count: its legal
    cards less equivalent ones (the higher of two stands for both), ordered to refute the
    other side at once: a sure or cheapest winner first, then the cheapest cards; ruffing a
    partner's trick or a losing ruff last."""
    return _ordered_moves(hands, seat, n_in_trick, led, best, winner, trick_mask, trump,
                          trump_last, row, -1, -1)


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _ordered_moves(hands, seat, n_in_trick, led, best, winner, trick_mask, trump, trump_last,
                   row, killer, hint):
    """`ordered_moves`, the leads `killer` (the last to refute at this depth) and `hint` (a
    matching entry's) weighted up as DDS's best moves (-1: none)."""
    hand = hands[seat]
    legal = legal_cards(hand, n_in_trick, led, trump, trump_last)
    everyone = hands[0] | hands[1] | hands[2] | hands[3]
    live = (everyone & ~hand) | trick_mask  # the cards that can come between two of mine
    n = 0
    rest = legal
    while rest != 0:
        card = lowest_bit(rest)
        rest &= rest - 1
        suit = card // N_RANKS
        above = (live | hand) & (SUIT_BITS << (N_RANKS * suit)) & ~((np.int64(2) << card) - 1)
        if above != 0 and (hand >> lowest_bit(above)) & 1:
            continue  # the next card up is mine too: it stands for this one
        row[n] = card
        n += 1
    if n < 2:
        return n  # a forced move needs no weight
    # the weights read the hands from registers, not memory the move row's stores might
    # alias: the compiler can then compute what they share once for all the cards
    hands = (hands[0], hands[1], hands[2], hands[3])
    for i in range(n):
        card = row[i]
        if n_in_trick == 0:
            if trump == NO_TRUMP or _suit_of(everyone, trump) == 0:
                key = _lead_key_no_trump(hands, seat, card, everyone, killer, hint)
            else:
                key = _lead_key_trump(hands, seat, card, everyone, trump, killer, hint)
        else:
            key = -_follow_weight(hands, seat, n_in_trick, card, led, best, winner, trump,
                                  everyone | trick_mask)
        _insert(row, i, card, key)  # row[i] is read: the sorted prefix is row[:i]
    return n


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _dds_rank(cards):
    """DDS's rank (2..14) of the highest card of a 13-bit group, 0 when it is empty."""
    return highest_bit(cards) + 2 if cards != 0 else 0


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _dds_low(cards):
    """DDS's rank (2..14) of the lowest card of a 13-bit group, 0 when it is empty."""
    return lowest_bit(cards) + 2 if cards != 0 else 0


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _discard_shape(hands, seat, suit, live):
    """(length, holds the suit's top card, holds its second card) of `seat` in `suit`
    (`live`: the cards still in play, the trick's included): discarding from a long suit is
    cheap, from a bare top card or a guarded second card costly."""
    mine = _suit_of(hands[seat], suit)
    rest = _suit_of(live, suit)
    top = highest_bit(rest)
    rest ^= np.int64(1) << top
    second = highest_bit(rest) if rest != 0 else -1
    return (popcount(mine), (mine >> top) & 1 == 1,
            second >= 0 and (mine >> second) & 1 == 1)


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _cheapest_over(mine, live, floor):
    """The rank of the lowest of `mine`'s searched cards (a card standing for the run of its
    hand's cards below it with no other live card between) above rank `floor`, or -1: the
    card that beats `floor` as cheaply as the search can."""
    above = mine & ~((np.int64(2) << floor) - 1) if floor >= 0 else mine
    if above == 0:
        return -1
    card = lowest_bit(above)
    # climb to the top of its run: the card the move list keeps
    while True:
        over = live & ~((np.int64(2) << card) - 1)
        if over == 0 or not (mine >> lowest_bit(over)) & 1:
            return card
        card = lowest_bit(over)


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _second_best_top(cards, live):
    """The highest card of `cards` below their top run (the run of their highest cards with
    no other live card between), -1 when they are one run: the card a defender keeps after
    its top one is forced out."""
    if cards == 0:
        return -1
    card = highest_bit(cards)
    while True:
        below = live & ((np.int64(1) << card) - 1)
        if below == 0:
            return -1
        nxt = highest_bit(below)
        if not (cards >> nxt) & 1:
            rest = cards & ((np.int64(1) << nxt) - 1)
            return highest_bit(rest) if rest != 0 else -1
        card = nxt


# The weights (this and the two lead keys) are compiled apart, not inlined: inlined into both
# `search` and `ordered_moves` they made the solver's cold build 32 s instead of 15 s, for 1 %
# of its CPU
@njit(cache=True, _nrt=False)
def _follow_weight(hands, seat, n_in_trick, card, led, best, winner, trump, live):
    """DDS's weight (higher first) of a card played to a trick under way (`live`: the cards in
    the hands and in the trick). Following suit: a card that wins the trick and holds it, the
    cheapest such first; a card that cannot matter, low; the second hand low when its partner
    wins anyway; the third hand forcing out the fourth hand's top card as cheaply as it can.
    Discarding: from long suits, not from a bare top card or a guarded second card; ruffing
    only what the partner does not win already, over the next hand's trumps if it can."""
    suit = card // N_RANKS
    rank = card - suit * N_RANKS
    r = rank + 2
    suit_live = _suit_of(live, suit)
    rel_rank = 1 + popcount(suit_live >> (rank + 1))
    below = suit_live & ((np.int64(1) << rank) - 1)
    sequence = below != 0 and (hands[seat] >> (N_RANKS * suit + highest_bit(below))) & 1 == 1
    trumps = trump != NO_TRUMP and _suit_of(live, trump) != 0
    leader = (seat - n_in_trick) & 3
    b = best - (best // N_RANKS) * N_RANKS + 2  # the winning card so far, DDS's rank
    best_ruff = trump != NO_TRUMP and best // N_RANKS == trump and led != trump
    follows = suit == led
    count, top_mine, second_mine = _discard_shape(hands, seat, suit, live)
    kx = count == 2 and second_mine
    if n_in_trick == 1:
        third = (seat + 1) & 3
        fourth = seat ^ 2
        max3 = _dds_rank(_suit_of(hands[third], led))
        maxp = _dds_rank(_suit_of(hands[fourth], led))
        min3 = _dds_low(_suit_of(hands[third], led))
        minp = _dds_low(_suit_of(hands[fourth], led))
        trumps3 = _suit_of(hands[third], trump) if trumps else np.int64(0)
        trumps4 = _suit_of(hands[fourth], trump) if trumps else np.int64(0)
        if follows and trumps:
            ruff3 = max3 == 0 and trumps3 != 0
            if led == trump:
                win = (maxp > b and maxp > max3) or (r > b and r > max3)
            elif r > b and r > max3:
                win = not ruff3 or (maxp == 0 and trumps4 > trumps3)
            elif maxp > b and maxp > max3:
                win = not ruff3
            elif b > maxp and b > max3 and b > r:
                win = maxp == 0 and trumps4 != 0 and (not ruff3 or trumps4 > trumps3)
            else:
                win = maxp == 0 and trumps4 != 0
            if win:
                if min3 > r:
                    return 40 + rel_rank
                if maxp > b and _suit_of(hands[leader], led) > _suit_of(hands[fourth], led):
                    return 41 + rel_rank
                if r > b:
                    if r < maxp:
                        return 78 - r
                    if r > max3:
                        return 73 - r
                    return 62 - r if sequence else 49 - r
                return 47 - r if maxp > 0 else 40 - r
            if r < min3 or r < minp:
                return -9 + rel_rank
            if r < b:
                return -16 + rel_rank
            return 22 - r if sequence else 10 - r
        if follows:
            if maxp > b and maxp > max3:
                return -r
            if r > b and r > max3:
                return 81 - r
            if min3 > r or minp > r:
                return -3 + rel_rank
            if r < b:
                return -11 + rel_rank
            return 10 + rel_rank if sequence else 13 - r
        partner_wins = _suit_of(hands[fourth], led) > (
            _suit_of(hands[third], led) | (np.int64(1) << (b - 2)))
        if trumps:
            if led == trump or suit != trump:
                high = led == trump and partner_wins
                if led != trump:
                    if max3 != 0:
                        high = partner_wins or (maxp == 0 and trumps4 != 0)
                    else:
                        high = (maxp == 0 and trumps4 > trumps3) or (
                            trumps3 == 0 and _suit_of(hands[fourth], led) >> (b - 2) != 0)
                if high:
                    return -r + (60 if led != trump else 0) + (count << 6) // 44
                return -r + (-2 if led != trump else 0) + (count << 6) // 36 - (4 if kx else 0)
            if max3 != 0 or (maxp == 0 and trumps4 != 0 and trumps4 > trumps3) or \
                    (np.int64(1) << rank) > trumps3:
                return 24 - r + (count << 6) // 44
            return 15 - r + (count << 6) // 36 - (4 if kx else 0)
        if partner_wins:
            add = (count << 6) // 23 - (2 if kx else (3 if count == 1 and top_mine else 0))
        else:
            add = (count << 6) // 33 - (6 if kx else (8 if count == 1 and top_mine else 0))
        return -r + add
    if n_in_trick == 2:
        fourth = (seat + 1) & 3
        cards4 = _suit_of(hands[fourth], led)
        max4 = _dds_rank(cards4)
        min4 = _dds_low(cards4)
        mine = _suit_of(hands[seat], led)
        max3 = _dds_rank(mine)
        lead_wins = winner == leader
        if follows:
            low = -r
            if trumps and led != trump and best_ruff:
                return low
            if lead_wins and b > max4:
                if trumps and led != trump and max4 == 0:
                    return low
                if not trumps and _suit_of(hands[leader], led) == 0:
                    # partner's card was bare and this hand holds the top: overtake when the
                    # run then outlasts the defenders' cards
                    everything = _suit_of(live, led)
                    if (mine >> highest_bit(everything)) & 1:
                        opp = max(popcount(cards4) - 1,
                                  popcount(_suit_of(hands[(seat + 3) & 3], led)))
                        runs = _top_run(mine, everything & ~(np.int64(1) << (b - 2)))
                        if opp <= popcount(runs) - 1 and \
                                rank == _cheapest_over(mine, everything, b - 2):
                            return low + 20
                return low
            if max3 < min4 or max3 < b:
                return low
            if trumps and led != trump and not lead_wins and max4 == 0:
                return 20 - r if r > b else low
            weight = 58 if trumps and max3 > max4 else 60
            if trumps and max3 > max4 and led != trump and lead_wins:
                weight_win = r > max4
            else:
                weight_win = r > b and r > max4
            w = weight - r if weight_win else low
            if (trumps and max3 <= max4) or (not trumps and max4 > max3 and max4 > b):
                second4 = _second_best_top(cards4, _suit_of(live, led))
                if second4 >= 0:
                    if second4 + 2 > b:
                        if rank == _cheapest_over(mine, _suit_of(live, led), second4):
                            w += 20
                    elif winner == (seat + 3) & 3:
                        if rank == _cheapest_over(mine, _suit_of(live, led), b - 2):
                            w += 20
            return w
        if not trumps:
            return -r + (count << 6) // 24 - (4 if kx or (count == 1 and top_mine) else 0)
        if led == trump or suit != trump:
            return -r + (count << 6) // 40
        trumps4 = _suit_of(hands[fourth], trump)
        if lead_wins and b > max4 and (max4 != 0 or trumps4 == 0):
            return -r - 50
        if best_ruff and r < b:
            return -32 + rel_rank + (count << 6) // 40
        add = (count << 6) // 50
        if lead_wins:
            if max4 != 0:
                # don't ruff the partner's king: the second card of the suit is its
                rest = _suit_of(live, led)
                rest ^= np.int64(1) << highest_bit(rest)
                second = highest_bit(rest) if rest != 0 else -1
                held = second >= 0 and (second == b - 2 or (
                    _suit_of(hands[leader], led) >> second) & 1 == 1)
                return (36 if held else 48) - r + add
            return (48 if (np.int64(1) << rank) > trumps4 else -12) - r + add
        if max4 != 0:
            return 72 - r + add
        return (48 if (np.int64(1) << rank) > trumps4 else 36) - r + add
    partner_wins = winner == seat ^ 2
    if follows:
        if partner_wins or (led != trump and best_ruff):
            return -r
        return 30 - r if r > b else -r
    if not trumps:
        return -r + (count << 6) // 27 - (6 if kx else (8 if count == 1 and top_mine else 0))
    val = (count << 6) // 24 - (2 if kx else 0)
    if led == trump:
        return -r + val
    if partner_wins:
        return (2 if suit == trump else 25) - r + val
    if best_ruff:
        if suit == trump:
            return 33 + rel_rank if r > b else -13 + rel_rank
        return 14 - r + val
    if suit == trump:
        return 33 + rel_rank
    return 14 - r + val


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _lead_view(hands, seat, card, everyone, scale):
    """What DDS's lead weights look at, for `seat` leading `card`: (suit, rank, the suit's
    remaining cards, the left-hand opponent, partner and right-hand opponent, the opponents'
    lengths in the suit, the weight of the suit by the opponents' replies (a void counts as
    many as the tricks left: the fewer replies, the smaller the tree), the card's rank among
    the suit's remaining cards (14 the top), the ranks of the suit's two highest cards and the
    seats of its three highest, -1 where there are fewer)."""
    suit = card // N_RANKS
    rank = card - suit * N_RANKS
    left = popcount(hands[seat])
    rest = _suit_of(everyone, suit)
    lho, partner, rho = (seat + 1) & 3, seat ^ 2, (seat + 3) & 3
    count_lho = popcount(_suit_of(hands[lho], suit))
    count_rho = popcount(_suit_of(hands[rho], suit))
    weight = -((((count_lho if count_lho else left) + (count_rho if count_rho else left))
                * 128) // scale)
    tops = rest
    first = highest_bit(tops)
    tops ^= np.int64(1) << first
    second = highest_bit(tops) if tops != 0 else -1
    if tops != 0:
        tops ^= np.int64(1) << second
    third = highest_bit(tops) if tops != 0 else -1
    first_seat = _holder(hands, N_RANKS * suit + first)
    second_seat = _holder(hands, N_RANKS * suit + second) if second >= 0 else -1
    third_seat = _holder(hands, N_RANKS * suit + third) if third >= 0 else -1
    return (suit, rank, rest, lho, partner, rho, count_lho, count_rho, weight,
            14 - popcount(rest >> (rank + 1)), first, second, first_seat, second_seat,
            third_seat)


@njit(cache=True)
def _lead_key_no_trump(hands, seat, card, everyone, killer, hint):
    """The sort key of a lead with no trump left, DDS's weights (lower first): a suit the
    opponents hold few cards of (fewer replies to search); the leader's side's winners first,
    more so when the second best card is not an opponent's guarded card; else a suit whose
    top card an opponent holds bare, or whose next cards the leader's side holds, or led
    through the next opponent's top card towards the partner's second best; never towards
    the last opponent's top or second card. The lead that last refuted at this depth
    (`killer`) or that a matching entry names (`hint`) gains DDS's bonus, larger for a lead
    that wins the trick."""
    (suit, rank, rest, lho, partner, rho, count_lho, count_rho, weight, rel_rank, first,
     second, first_seat, second_seat, third_seat) = _lead_view(hands, seat, card, everyone, 19)
    if _suit_of(hands[partner], suit) == 0:
        weight -= 9
    opponents = _suit_of(hands[lho] | hands[rho], suit)
    mates = _suit_of(hands[partner], suit)
    if rank == first or (mates != 0 and highest_bit(mates) > highest_bit(opponents)):
        if second_seat == rho:
            if count_rho != 1:
                weight -= 1
        elif second_seat == lho:
            weight += 22 if count_lho != 1 else 16
        weight += 126 if card == killer else (32 if card == hint else 0)
        if (second_seat != lho or count_lho == 1) and (second_seat != rho or count_rho == 1):
            return -(weight + 45 + rel_rank)
        return -(weight + 18 + rel_rank)
    weight += 47 if card == killer else (19 if card == hint else 0)
    if first_seat == rho or second_seat == rho:
        if count_rho != 1:
            weight -= 10
    elif first_seat == lho and second_seat == partner:
        if popcount(mates) != 1:
            weight += 31
    if second_seat == partner and third_seat == partner:
        weight += 35
    elif (second_seat == seat and third_seat == partner and popcount(mates) > 1) or (
            second_seat == partner and third_seat == seat and popcount(mates) > 1):
        weight += 25
    below = rest & ((np.int64(1) << rank) - 1)
    sequence = below != 0 and (hands[seat] >> (N_RANKS * suit + highest_bit(below))) & 1
    if (count_lho == 1 and first_seat == lho) or (count_rho == 1 and first_seat == rho):
        return -(weight + 28 + rel_rank)
    if first_seat == seat:
        return -(weight - 17 + rel_rank)
    if not sequence:
        return -(weight + 12 + rel_rank)
    if rank == second:
        return -(weight + 48)
    return -(weight + 29 - rel_rank)


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _top_trump(hand, trump):
    """The rank of a hand's highest trump, -1 without one."""
    return highest_bit(_suit_of(hand, trump))


@njit(cache=True)
def _lead_key_trump(hands, seat, card, everyone, trump, killer, hint):
    """The sort key of a lead with trumps left, DDS's weights (lower first): a suit the
    opponents hold few cards of; not one an opponent can ruff, one the partner can; a lead
    that wins the trick (a top card nobody can ruff, towards the partner's winner or ruff)
    first, more so when the side also holds the second card; never towards the last
    opponent's top or second card. The lead that last refuted at this depth (`killer`) gains
    DDS's bonus, and so does, when the lead wins the trick, the one a matching entry names
    (`hint`)."""
    (suit, rank, rest, lho, partner, rho, count_lho, count_rho, weight, rel_rank, first,
     second, first_seat, second_seat, third_seat) = _lead_view(hands, seat, card, everyone, 13)
    count = popcount(_suit_of(hands[seat], suit))
    count_partner = popcount(_suit_of(hands[partner], suit))
    trumps_lho = _suit_of(hands[lho], trump) != 0
    trumps_rho = _suit_of(hands[rho], trump) != 0
    trumps_partner = _suit_of(hands[partner], trump) != 0
    side_suit = suit != trump
    if side_suit and ((count_lho == 0 and trumps_lho) or (count_rho == 0 and trumps_rho)):
        weight -= 12
    if side_suit and count_partner == 0 and trumps_partner and count_rho > 0:
        weight += 17
    if first_seat == rho or second_seat == rho:
        if count_rho != 1:
            weight -= 12
    elif first_seat == lho and second_seat == partner:
        if count_partner != 1:
            weight += 27
    if side_suit and count == 1 and _suit_of(hands[seat], trump) != 0 and \
            count_partner > 1 and first_seat == partner:
        weight += 19
    no_ruff_lho = count_lho != 0 or not trumps_lho
    no_ruff_rho = count_rho != 0 or not trumps_rho
    mates = _suit_of(hands[partner], suit)
    opponents = _suit_of(hands[lho] | hands[rho], suit)
    wins = False
    if rank == first:
        if not side_suit:
            wins = True
        elif count_partner != 0 or not trumps_partner:
            wins = no_ruff_lho and no_ruff_rho
        else:
            over = _top_trump(hands[partner], trump)
            wins = (count_lho != 0 or over > _top_trump(hands[lho], trump)) and (
                count_rho != 0 or over > _top_trump(hands[rho], trump))
    elif mates != 0 and highest_bit(mates) > highest_bit(opponents):
        wins = not side_suit or (no_ruff_lho and no_ruff_rho)
    elif side_suit and count_partner == 0 and trumps_partner:
        over = _top_trump(hands[partner], trump)
        ruff_lho = count_lho == 0 and trumps_lho
        ruff_rho = count_rho == 0 and trumps_rho
        if ruff_lho and ruff_rho:
            wins = over > max(_top_trump(hands[lho], trump), _top_trump(hands[rho], trump))
        elif ruff_lho:
            wins = over > _top_trump(hands[lho], trump)
        elif ruff_rho:
            wins = over > _top_trump(hands[rho], trump)
        else:
            wins = True
    below = rest & ((np.int64(1) << rank) - 1)
    sequence = below != 0 and (hands[seat] >> (N_RANKS * suit + highest_bit(below))) & 1
    bare_top = (count_lho == 1 and first_seat == lho) or (count_rho == 1 and first_seat == rho)
    if wins:
        weight += KILLER_BONUS if card == killer else (HINT_BONUS if card == hint else 0)
        if bare_top:
            return -(weight + 35 + rel_rank)
        if first_seat == seat:
            if second_seat == partner:
                return -(weight + 48 + rel_rank)
            if rank == first:
                return -(weight + 31)
            return -(weight - 3 + rel_rank)
        if first_seat == partner:
            return -(weight + (42 if second_seat == seat else 28) + rel_rank)
        if sequence and rank == second:
            return -(weight + 40)
        return -(weight + (22 if sequence else 11) + rel_rank)
    if card == killer:
        weight += HINT_BONUS
    if second_seat == partner and third_seat == partner:
        weight += 20
    elif (second_seat == seat and third_seat == partner and count_partner > 1) or (
            second_seat == partner and third_seat == seat and count_partner > 1):
        weight += 13
    if bare_top:
        return -(weight + rel_rank + 2)
    if first_seat == seat:
        if second_seat == partner:
            return -(weight + 33 + rel_rank)
        if rank == first:
            return -(weight + 38)
        return -(weight - 14 + rel_rank)
    if first_seat == partner:
        return -(weight + 34 + rel_rank)
    if sequence and rank == second:
        return -(weight + 35)
    return -(weight + 17 - (rank + 2))


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _tt_bits(tt):
    """log2 of the transposition table's size (its rows are a power of two)."""
    return lowest_bit(np.int64(tt.shape[0]))


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _key_masks(meta):
    """The bits of F_KEYS and F_KEYS + 1 (suits 0 and 1, 2 and 3) that an entry with this
    meta names: its top cards of each suit."""
    low_mask = np.int64(0)
    high_mask = np.int64(0)
    for suit in range(N_SUITS):
        n = meta >> (META_TOPS + 4 * suit) & 15
        mask = ((np.int64(1) << (2 * n)) - 1) << (2 * (N_RANKS - n) + KEY_BITS * (suit & 1))
        if suit < 2:
            low_mask |= mask
        else:
            high_mask |= mask
    return low_mask, high_mask


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _matches(tt, row, frame):
    """Whether the entry at `row` holds for the position described in `frame` (a stored entry
    with the same lengths, leader and trump; the same owners of its top cards of each
    suit)."""
    meta = tt[row, E_META]
    if (meta & (META_POSITION | META_USED)) != frame[F_META] | META_USED or \
            tt[row, E_LENS] != frame[F_LENS]:
        return False
    low_mask, high_mask = _key_masks(meta)
    return (frame[F_KEYS] ^ tt[row, E_KEYS]) & low_mask == 0 and \
        (frame[F_KEYS + 1] ^ tt[row, E_KEYS + 1]) & high_mask == 0


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _bounds(tt, row):
    """(lower, upper) bound of side 0's tricks that the entry at `row` keeps."""
    bounds = tt[row, E_KEYS] >> BOUND_SHIFT
    return bounds & 15, bounds >> 4


@njit(cache=True, _nrt=False)
def _probe(hands, tt, frame, need, stats):
    """The answer of the transposition table for a trick's start described in `frame`: -1
    when no entry decides whether side 0 takes `need` tricks, else 1 or 0, with the cards
    that decided it (the entry's top cards) in frame[F_REL]. Undecided, frame[F_HINT] gets
    the lead a matching entry names (a lead weighted up, `_ordered_moves`)."""
    frame[F_HINT] = -1
    for i in range(BUCKET + WIDE):
        row = frame[F_SHARP] + i if i < BUCKET else frame[F_BUCKET] + i - BUCKET
        if not _matches(tt, row, frame):
            continue
        if frame[F_HINT] < 0:
            frame[F_HINT] = (tt[row, E_KEYS + 1] >> BOUND_SHIFT) - 1
        lower, upper = _bounds(tt, row)
        if lower >= need or upper < need:
            everyone = hands[0] | hands[1] | hands[2] | hands[3]
            rel = np.int64(0)
            for suit in range(N_SUITS):
                rel |= _top_of(everyone & (SUIT_BITS << (N_RANKS * suit)),
                               tt[row, E_META] >> (META_TOPS + 4 * suit) & 15)
            frame[F_REL] = rel
            stats[S_CLOCK] += 1
            tt[row, E_META] = (tt[row, E_META] & META_WORD) | stats[S_CLOCK] << USED_SHIFT
            return 1 if lower >= need else 0
    return -1


@njit(cache=True, _nrt=False)
def _open_trick(hands, trump, trump_last, frame, tt, stats):
    """Look at a trick's start before searching it: -1 when it must be searched, else its
    answer (1 side 0 takes `need` tricks, 0 it does not) from the trick count alone, the last
    trick, the transposition table or the leader's side's quick tricks, with the cards whose
    ranks decided it in frame[F_REL]. Leaves the position's description in `frame` for the
    store once searched."""
    leader = frame[F_LEADER]
    left = frame[F_LEFT]
    need = frame[F_NEED]
    frame[F_REL] = 0
    frame[F_STORE] = 0
    if need <= 0:
        return 1
    if need > left:
        return 0
    if left == 1:
        winner, decider = _last_trick(hands, leader, trump)
        frame[F_REL] = decider
        return 1 if winner & 1 == 0 else 0
    # the leader's side needs `need` (side 0) or `left - need + 1` (side 1) to decide: its
    # quick tricks come first, as they cost less than describing the position
    wanted = need if leader & 1 == 0 else left - need + 1
    # np.int64 constants here and below: a literal argument compiles its callee once more
    quick, cards = quick_tricks(hands, leader, trump, trump_last, wanted, np.int64(-1))
    if quick >= wanted:
        stats[S_QUICK_CUTS] += 1
        frame[F_REL] = cards
        return 1 if leader & 1 == 0 else 0
    quick, cards = entry_tricks(hands, leader, trump, trump_last, wanted)
    if quick >= wanted:
        stats[S_QUICK_CUTS] += 1
        frame[F_REL] = cards
        return 1 if leader & 1 == 0 else 0
    if wanted == 1 and trump != NO_TRUMP:
        cards = _partner_ruff(hands, leader, trump)
        if cards >= 0:
            stats[S_QUICK_CUTS] += 1
            frame[F_REL] = cards
            return 1 if leader & 1 == 0 else 0
    if trump != NO_TRUMP:
        # each side's master trumps win tricks whoever leads (see `master_trumps`)
        sure, cards = master_trumps(hands, np.int64(0), trump)
        if sure >= need:
            stats[S_QUICK_CUTS] += 1
            frame[F_REL] = cards
            return 1
        sure, cards = master_trumps(hands, np.int64(1), trump)
        if left - sure < need:
            stats[S_QUICK_CUTS] += 1
            frame[F_REL] = cards
            return 0
    cards = _later_tricks(hands, leader, trump, left, wanted)
    if cards >= 0:
        stats[S_QUICK_CUTS] += 1
        frame[F_REL] = cards
        return 0 if leader & 1 == 0 else 1
    describe(hands, frame)
    frame[F_META] = leader | trump << 2 | trump_last << 5
    frame[F_BUCKET] = _bucket(frame[F_LENS], frame[F_META], _tt_bits(tt), WIDE_BITS)
    frame[F_SHARP] = _bucket(frame[F_LENS], frame[F_META] | _sharp_owners(frame) << 8,
                             _tt_bits(tt), BUCKET_BITS)
    known = _probe(hands, tt, frame, need, stats)
    if known >= 0:
        stats[S_TT_HITS] += 1
        return known
    frame[F_STORE] = 1
    return -1


@njit(cache=True, _nrt=False)
def _second_hand(hands, trump, frame, stats):
    """After the lead: -1, or the answer when the second hand's side surely wins the trick
    (DDS's second-hand quick tricks): one of its hands can ruff the suit led and the third
    hand cannot, or its highest card of the suit beats the card led and the third hand's (and
    the third hand cannot ruff); without a trump suit the hand winning it then cashes its runs
    of top cards (the one it won with gone) as the next leader. The side needs `need` tricks
    (side 0) or `left - need + 1` (side 1) of those to decide; the cards used go to
    frame[F_REL] (none for a ruff: the lengths decide it)."""
    leader = frame[F_LEADER]
    second = (leader + 1) & 3
    third = leader ^ 2
    fourth = (leader + 3) & 3
    led = frame[F_LED]
    side_trumps = trump != NO_TRUMP and led != trump
    third_ruffs = side_trumps and _suit_of(hands[third], led) == 0 and \
        _suit_of(hands[third], trump) != 0
    if third_ruffs:
        return -1
    wanted = frame[F_NEED] if second & 1 == 0 else frame[F_LEFT] - frame[F_NEED] + 1
    if side_trumps and ((_suit_of(hands[second], led) == 0
                         and _suit_of(hands[second], trump) != 0)
                        or (_suit_of(hands[fourth], led) == 0
                            and _suit_of(hands[fourth], trump) != 0)):
        if wanted > 1:
            return -1
        stats[S_QUICK_CUTS] += 1
        frame[F_REL] = 0
        return 1 if second & 1 == 0 else 0
    ours = _suit_of(hands[second] | hands[fourth], led)
    if ours == 0:
        return -1
    top = highest_bit(ours)
    if top < frame[F_BEST] - N_RANKS * led or _suit_of(hands[third], led) >> top != 0:
        return -1
    winner = second if (_suit_of(hands[second], led) >> top) & 1 else fourth
    sure = 1
    cards = np.int64(1) << (N_RANKS * led + top)
    if trump == NO_TRUMP and sure < wanted:
        # the same hand then leads: its runs, less the card it took this trick with
        rest = hands[winner] ^ cards
        everyone = (hands[0] | hands[1] | hands[2] | hands[3]) ^ cards
        for suit in range(N_SUITS):
            if sure >= wanted:
                break
            run = _top_run(_suit_of(rest, suit), _suit_of(everyone, suit))
            run = _top_of(run, wanted - sure)
            sure += popcount(run)
            cards |= run << (N_RANKS * suit)
    if sure < wanted:
        return -1
    stats[S_QUICK_CUTS] += 1
    frame[F_REL] = cards
    return 1 if second & 1 == 0 else 0


@njit(cache=True, _nrt=False)
def _close_trick(hands, tt, frame, result, rel, lead, stats):
    """Record what a searched trick's start proved (side 0 takes `need` tricks or not) for
    every position that agrees with it on the lengths and on the owners of the cards down to
    the lowest card of each suit in `rel` (the cards whose ranks decided it: partition
    search). An entry for the same set merges the bound; else the bucket's least recently
    used entry goes. `lead`, when not -1, is the lead that proved the leader's side's bound:
    the entry keeps it for the next search of the position (`_probe`'s hint)."""
    everyone = hands[0] | hands[1] | hands[2] | hands[3]
    meta = frame[F_META] | META_USED
    for suit in range(N_SUITS):
        rel_suit = _suit_of(rel, suit)
        n = 0
        if rel_suit != 0:
            n = popcount(_suit_of(everyone, suit) >> lowest_bit(rel_suit))
        meta |= np.int64(n) << (META_TOPS + 4 * suit)
    need = frame[F_NEED]
    base, size = frame[F_SHARP], BUCKET
    for suit in range(N_SUITS):
        n = meta >> (META_TOPS + 4 * suit) & 15
        if n < min(SHARP, frame[F_TOTAL + suit]):
            base, size = frame[F_BUCKET], WIDE
    low_mask, high_mask = _key_masks(meta)
    low_keys = frame[F_KEYS] & low_mask
    high_keys = frame[F_KEYS + 1] & high_mask
    target = -1
    victim = base
    least = np.int64(1) << 62
    for row in range(base, base + size):
        if tt[row, E_META] & META_WORD == meta and tt[row, E_LENS] == frame[F_LENS] and \
                tt[row, E_KEYS] & KEY_WORD == low_keys and \
                tt[row, E_KEYS + 1] & KEY_WORD == high_keys:
            target = row
            break
        if tt[row, E_META] >> USED_SHIFT < least:
            least = tt[row, E_META] >> USED_SHIFT
            victim = row
    if target < 0:
        target = victim
        lower, upper, hint = 0, frame[F_LEFT], 0
    else:
        lower, upper = _bounds(tt, target)
        hint = tt[target, E_KEYS + 1] >> BOUND_SHIFT
    if lead >= 0:
        hint = lead + 1
    if result:
        lower = max(lower, need)
    else:
        upper = min(upper, need - 1)
    stats[S_CLOCK] += 1
    tt[target, E_LENS] = frame[F_LENS]
    tt[target, E_META] = meta | stats[S_CLOCK] << USED_SHIFT
    tt[target, E_KEYS] = low_keys | (lower | upper << 4) << BOUND_SHIFT
    tt[target, E_KEYS + 1] = high_keys | hint << BOUND_SHIFT


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def play_card(hands, trump, frame, child, card):
    """The seat to act at node `frame` plays `card` (from its hand): write the trick's state
    of the node after it into `child` (columns F_LEADER to F_TRICK_MASK, which other searches
    over these cards share): the same trick one card on, or after the fourth card the next
    trick led by this one's winner. Returns (the trick's winning card, its seat)."""
    seat = (frame[F_LEADER] + frame[F_IN_TRICK]) & 3
    bit = np.int64(1) << card
    hands[seat] ^= bit
    led, best, winner = after_card(card, seat, frame[F_IN_TRICK], frame[F_LED], frame[F_BEST],
                                   frame[F_WINNER], trump)
    if frame[F_IN_TRICK] == 3:
        child[F_LEADER] = winner
        child[F_IN_TRICK] = 0
        child[F_TRICK_MASK] = 0
    else:
        child[F_LEADER] = frame[F_LEADER]
        child[F_IN_TRICK] = frame[F_IN_TRICK] + 1
        child[F_LED] = led
        child[F_BEST] = best
        child[F_WINNER] = winner
        child[F_TRICK_MASK] = frame[F_TRICK_MASK] | bit
    return best, winner


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _play(hands, trump, frames, moves, depth):
    """Play the current move of the node at `depth` and set up its child at depth + 1
    (`play_card`), with side 0's need less the trick if it won it (frame[F_DECIDER]: the
    card whose rank decided the trick)."""
    frame = frames[depth]
    child = frames[depth + 1]
    card = moves[depth, frame[F_INDEX]]
    best, winner = play_card(hands, trump, frame, child, card)
    if frame[F_IN_TRICK] == 3:
        frame[F_DECIDER] = _deciding_card(frame[F_TRICK_MASK] | (np.int64(1) << card), best)
        child[F_LEFT] = frame[F_LEFT] - 1
        child[F_NEED] = frame[F_NEED] - (1 if winner & 1 == 0 else 0)
    else:
        frame[F_DECIDER] = 0
        child[F_LEFT] = frame[F_LEFT]
        child[F_NEED] = frame[F_NEED]


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _cover_sequences(hand, everyone, trick_mask, rel):
    """`rel` widened for a node where every move of `hand` failed. The search tried one card
    of each run of the hand's cards with no other live card between them (the highest), as
    the others take the same tricks here; a stored answer holds for other positions, where
    the run must still be one. When the lowest deciding card of a suit is the top of such a
    run, the run's lower cards decide too (then nothing can come between them anywhere the
    answer is reused); below the lowest deciding card everything is interchangeable."""
    live = everyone | trick_mask
    for suit in range(N_SUITS):
        rel_suit = _suit_of(rel, suit)
        if rel_suit == 0:
            continue
        mine = _suit_of(hand, suit)
        low = lowest_bit(rel_suit)
        below = _suit_of(live, suit) & ((np.int64(1) << low) - 1)
        while (mine >> low) & 1 and below != 0:
            nxt = highest_bit(below)
            if not (mine >> nxt) & 1:
                break
            rel |= np.int64(1) << (N_RANKS * suit + nxt)
            below ^= np.int64(1) << nxt
            low = nxt
    return rel


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _skip_equivalent(frame, row, rel):
    """Step frame[F_INDEX] past the moves that need no search after the move before it
    failed: when that card ranked below every card of its suit that decided the answers so
    far (`rel`, none: above them all), any other card of the suit below them takes the same
    tricks (DDS's rule: a stored answer holds wherever the owners of those cards agree, and
    swapping two cards below them changes none of them). frame[F_FLOOR + suit] keeps the
    lowest rank still worth trying in each suit (-1: all)."""
    tried = row[frame[F_INDEX] - 1]
    suit = tried // N_RANKS
    if frame[F_FLOOR + suit] < 0:
        deciding = _suit_of(rel, suit)
        floor = lowest_bit(deciding) if deciding != 0 else N_RANKS
        if tried - N_RANKS * suit < floor:
            frame[F_FLOOR + suit] = floor
    while frame[F_INDEX] < frame[F_COUNT]:
        card = row[frame[F_INDEX]]
        suit = card // N_RANKS
        if card - N_RANKS * suit >= frame[F_FLOOR + suit]:
            break
        frame[F_INDEX] += 1


@njit(cache=True, _nrt=False)
def search(hands, trump, trump_last, need, tt, moves, frames, stats):
    """Whether side 0 (seats 0 and 2) takes at least `need` of the tricks left (the one under
    way included) from the position `set_root` wrote into frames[0], both sides playing
    perfectly: one null-window test. Iterative on `frames` (numba's cache cannot hold a
    recursive function reliably); `hands` change during the search and are restored;
    `moves[d]` holds the moves of the node at depth d. Each node also reports the cards whose
    ranks decided its answer (`rel`), so a trick's start is stored for every position that
    agrees on them."""
    frames[0, F_NEED] = need
    depth = 0
    entering = True
    result = False
    rel = np.int64(0)
    while True:
        if entering:
            frame = frames[depth]
            stats[S_NODES] += 1
            known = -1
            if frame[F_IN_TRICK] == 0:
                known = _open_trick(hands, trump, trump_last, frame, tt, stats)
            else:
                frame[F_STORE] = 0
                frame[F_REL] = 0
                if frame[F_IN_TRICK] == 1:
                    known = _second_hand(hands, trump, frame, stats)
            if known >= 0:
                result = known == 1
                rel = frame[F_REL]
                entering = False
            else:
                seat = (frame[F_LEADER] + frame[F_IN_TRICK]) & 3
                killer, hint = -1, -1
                if frame[F_IN_TRICK] == 0:
                    killer, hint = frame[F_KILLER] - 1, frame[F_HINT]
                frame[F_COUNT] = _ordered_moves(hands, seat, frame[F_IN_TRICK], frame[F_LED],
                                                frame[F_BEST], frame[F_WINNER],
                                                frame[F_TRICK_MASK], trump, trump_last,
                                                moves[depth], killer, hint)
                frame[F_INDEX] = 0
                frame[F_FLOOR:F_FLOOR + N_SUITS] = -1
                _play(hands, trump, frames, moves, depth)
                depth += 1
                continue
        # `result` and `rel` are the finished node's at `depth`: take them to its parent
        if depth == 0:
            return result
        depth -= 1
        frame = frames[depth]
        seat = (frame[F_LEADER] + frame[F_IN_TRICK]) & 3
        hands[seat] ^= np.int64(1) << moves[depth, frame[F_INDEX]]
        rel |= frame[F_DECIDER]
        # side 0 to play stops at its first success, side 1 at its first refutation: then
        # only that move's cards decided it; with every move tried, all of theirs did
        frame[F_INDEX] += 1
        if result != (seat & 1 == 0):
            rel |= frame[F_REL]
            frame[F_REL] = rel
            _skip_equivalent(frame, moves[depth], rel)
            if frame[F_INDEX] < frame[F_COUNT]:
                _play(hands, trump, frames, moves, depth)
                depth += 1
                entering = True
                continue
            # every move failed, equivalent cards left out: keep them equivalent wherever
            # the answer is reused
            rel = _cover_sequences(hands[seat], hands[0] | hands[1] | hands[2] | hands[3],
                                   frame[F_TRICK_MASK], rel)
        elif frame[F_IN_TRICK] == 0:
            frame[F_KILLER] = moves[depth, frame[F_INDEX] - 1] + 1
        if frame[F_STORE]:
            # the leader's side proved its bound with the last lead tried: keep it as a hint
            lead = moves[depth, frame[F_INDEX] - 1] if result == (seat & 1 == 0) else -1
            _close_trick(hands, tt, frame, result, rel, lead, stats)


@njit(cache=True)
def set_root(hands, trump, leader, trick, n_in_trick, frames):
    """Write the search's root into frames[0]: `leader` led the trick under way, of which
    `trick[:n_in_trick]` are the cards played (0 to 3, in play order; none at a trick's
    start, the hands then of one size). F_LEADER to F_LEFT are the columns of a trick's state
    that other searches over these cards share (`search.trick_values`)."""
    root = frames[0]
    root[F_LEADER] = leader
    root[F_IN_TRICK] = n_in_trick
    root[F_TRICK_MASK] = 0
    for i in range(n_in_trick):
        root[F_LED], root[F_BEST], root[F_WINNER] = after_card(
            trick[i], (leader + i) & 3, i, root[F_LED], root[F_BEST], root[F_WINNER], trump)
        root[F_TRICK_MASK] |= np.int64(1) << trick[i]
    root[F_LEFT] = popcount(hands[(leader + n_in_trick) & 3])


# The entry points' shared steps are copied into them (`inline="always"`, a few lines): each
# compiled function that calls `search` links the whole solver and optimizes it again
@njit(cache=True, inline="always")
def tricks_from_root(hands, trump, trump_last, guess, tt, moves, frames, stats):
    """Tricks side 0 takes from the root `set_root` wrote (the trick under way included):
    null-window tests stepping from `guess` until the count is pinned between a test passed
    and the one above failed (MTD(f), a step of one trick)."""
    left = frames[0, F_LEFT]
    low, high = 0, left
    target = guess
    while low < high:
        target = min(max(target, low + 1), high)
        if search(hands, trump, trump_last, target, tt, moves, frames, stats):
            low = target
            target += 1
        else:
            high = target - 1
            target -= 1
    return low


@njit(cache=True, inline="always")
def tricks_for_leader(hands, trump, trump_last, leader, guess, tt, moves, frames, stats):
    """Tricks side 0 takes when `leader` leads to the next trick (hands of equal size):
    `tricks_from_root` from that trick's start."""
    set_root(hands, trump, leader, frames[0, F_CODE:F_CODE], np.int64(0), frames)
    return tricks_from_root(hands, trump, trump_last, guess, tt, moves, frames, stats)


@njit(cache=True)
def to_act(hands, trump, trump_last, leader, trick, n_in_trick):
    """(the seat to act, its legal cards) when `leader` led the trick under way, of which
    `trick[:n_in_trick]` are the cards so far."""
    seat = (leader + n_in_trick) & 3
    led = trick[0] // N_RANKS if n_in_trick > 0 else 0
    return seat, legal_cards(hands[seat], n_in_trick, led, trump, trump_last)


@njit(cache=True)
def child_root(hands, trump, leader, trick, n_in_trick, legal, frames):
    """Play the lowest card of `legal` from the seat to act's hand to the trick under way
    (`set_root`'s) and make the position after it the root: (the card, the legal cards left,
    -1 when the trick goes on, else its winner, who leads the next trick from the root)."""
    card = lowest_bit(legal)
    legal &= legal - 1
    hands[(leader + n_in_trick) & 3] ^= np.int64(1) << card
    trick[n_in_trick] = card
    set_root(hands, trump, leader, trick, n_in_trick + 1, frames)
    if n_in_trick < 3:
        return card, legal, -1
    winner = frames[0, F_WINNER]
    set_root(hands, trump, winner, trick, np.int64(0), frames)
    return card, legal, winner


@njit(cache=True)
def card_tricks(hands, trump, trump_last, leader, trick, n_in_trick, guess, tt, moves, frames,
                stats, cards_out, tricks_out):
    """Every legal card of the seat to act (`leader` led the trick under way, `trick[:n_in_trick]`
    its cards so far) ascending in `cards_out`, and in `tricks_out` the tricks side 0 takes
    from here (this trick included) after it, both sides playing perfectly from then on.
    Each card's tests start from the last card's count (`guess` for the first). Returns the
    count of cards."""
    seat, legal = to_act(hands, trump, trump_last, leader, trick, n_in_trick)
    n = 0
    while legal != 0:
        card, legal, winner = child_root(hands, trump, leader, trick, n_in_trick, legal, frames)
        won = 1 if winner >= 0 and winner & 1 == 0 else 0  # the trick it finished
        value = won
        if hands[seat] != 0 or winner < 0:
            value += tricks_from_root(hands, trump, trump_last, guess - won, tt, moves, frames,
                                      stats)
        hands[seat] ^= np.int64(1) << card
        cards_out[n] = card
        tricks_out[n] = value
        guess = value
        n += 1
    return n


@njit(cache=True, forceinline=True, _nrt=False, no_cpython_wrapper=True,
      no_cfunc_wrapper=True)
def _points(hands, seat, suit):
    """The high-card points of `seat` and its partner in `suit`: 4, 3, 2 and 1 for the four
    highest cards of the suit still held (on a full deal the ace to the jack)."""
    rest = _suit_of(hands[0] | hands[1] | hands[2] | hands[3], suit)
    side = _suit_of(hands[seat] | hands[(seat + 2) & 3], suit)
    points = 0
    for value in range(4, 0, -1):
        if rest == 0:
            break
        top = highest_bit(rest)
        rest ^= np.int64(1) << top
        points += value * ((side >> top) & 1)
    return points


@njit(cache=True)
def first_guess(hands, trump, no_trump_count):
    """The first test's target for seat 0 leading a full deal (13 cards each) with `trump`:
    an estimate of side 0's tricks, no trump from its high-card points (`_points`), a trump
    suit from its count without trumps (`no_trump_count`), its trump length and points and
    the longest trump hands of the two sides. A least-squares fit on DDS's tables of 500
    random deals (seed 0), in sixteenths; the tests start at the estimate rounded up from a
    quarter, and one test off the count costs one test more (`tricks_from_root`)."""
    points = 0
    for suit in range(N_SUITS):
        points += _points(hands, 0, suit)
    if trump == NO_TRUMP:
        return (122 + 8 * (points - 20)) // 16
    n = np.empty(4, dtype=np.int64)
    for seat in range(4):
        n[seat] = popcount(_suit_of(hands[seat], trump))
    estimate = (84 + 6 * no_trump_count + 5 * (2 * (n[0] + n[2]) - 13)
                + 6 * (max(n[0], n[2]) - max(n[1], n[3])) + 2 * (_points(hands, 0, trump) - 5)
                + 4 * (points - 20))
    return estimate // 16


@njit(cache=True)
def table_of(hands, tt, moves, frames, stats, out):
    """Fill `out` (int64[5, 4], trump 0..3 or NO_TRUMP by declarer seat) with the tricks the
    declarer's side takes when that seat declares with that trump: its left-hand opponent
    (the next seat) leads. No trump first, then the suits; the four leaders of one trump share
    the transposition table. Each count's tests start from a guess (a test off the count can
    cost as much as the two that pin it): seat 0 leading, on a full deal `first_guess`, else
    the mean of seat 0's counts before; seats 1 and 2 from seat 0's count (the other side's
    lead most often takes side 0 that count or one fewer, the same side's lead its count);
    seat 3 from seat 1's."""
    left = popcount(hands[0])
    firsts = 0
    no_trump_count = 0
    counts = np.zeros(4, dtype=np.int64)
    for i in range(N_SUITS + 1):
        trump = (i + NO_TRUMP) % (N_SUITS + 1)  # NO_TRUMP, then 0..3
        if left == 13:
            guess = first_guess(hands, trump, no_trump_count)
        else:
            guess = (left + 1) // 2 if i == 0 else (2 * firsts + i) // (2 * i)
        for leader in range(4):
            if leader > 0:
                guess = counts[max(leader - 2, 0)]
            side0 = tricks_for_leader(hands, trump, 0, leader, guess, tt, moves, frames, stats)
            counts[leader] = side0
            declarer = (leader + 3) & 3
            out[trump, declarer] = side0 if declarer & 1 == 0 else left - side0
        firsts += counts[0]
        if trump == NO_TRUMP:
            no_trump_count = counts[0]


def new_table(tt_bits: int = TT_BITS) -> np.ndarray:
    """An empty transposition table of 2 ** tt_bits entries (`E_LENS` to `E_KEYS`)."""
    return np.zeros((1 << tt_bits, TT_WIDTH), dtype=np.int64)


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
        return int(tricks_for_leader(masks, trump, 0, leader, (bin(int(masks[0])).count("1") + 1)
                                     // 2, self.tt, self.moves, self.frames, self.stats))

    def table(self, hands) -> np.ndarray:
        """The double-dummy table of a deal: int64[5, 4], row trump (0..3, then `NO_TRUMP`),
        column declarer seat, the tricks the declarer's side takes when the next seat
        leads."""
        masks = check_hands(hands)
        out = np.zeros((N_SUITS + 1, 4), dtype=np.int64)
        table_of(masks, self.tt, self.moves, self.frames, self.stats, out)
        return out
