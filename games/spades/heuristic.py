"""The Spades heuristic in numba: a simple rule-based player, a yardstick above random, not a
strong player. It reads only the fields of the seat to act that its view shows (its hand, the
bids, the tricks taken, the trick on the table), so it may be asked at any seat of a full state
or of a seat's view. `games.spades.play.heuristic.SpadesHeuristicPlayer` plays it in matches;
search's rollouts (`games/spades/search/policy.py`) follow it; the Spades abstraction
(`games/spades/abstraction/keys.py`) plays its card past the learned tricks and keys the bids by
its trick count. It sits with the rules, which all three may import.

Bidding counts sure and likely tricks: each ace; a king with another card of its suit; in
spades also the queen with two more, and one trick a spade past the third; one a void and half
a singleton beside three spades or more. It bids that count rounded (at least 1, at most what
its partner's bid allows), and Nil with under one trick, no spade above the nine, at most
three spades and no ace.

Playing: a Nil bidder who has taken no trick plays its highest card that does not win the trick
(else its lowest), and leads its lowest card. Otherwise, once its team has its contract it
ducks the same way (bags cost); before that, second to fourth hand lets a trick its partner is
winning go (lowest card) and else wins as cheaply as it can, or plays its lowest card (a side
card before a spade); it leads a side ace if it has one, else the lowest card of its longest
side suit.
"""

from __future__ import annotations

from numba import njit

from games.bits import popcount
from games.spades.cards import N_RANKS, SPADES, power, suit_mask
from games.spades.rules import BID_MOVE, highest_bid, legal_cards
from games.spades.state import (BID, HAND, LEADER, N_IN_TRICK, PHASE, PHASE_BID, TAKEN, TO_ACT,
                                TRICK, WINNING)

ACE, KING, QUEEN, NINE = 12, 11, 10, 7  # rank indices


@njit(cache=True, nogil=True)
def count_tricks2(hand):
    """Twice the tricks the bidding rule (module docstring) expects of `hand` (an integer: its
    half tricks stay exact)."""
    spades = popcount(hand & suit_mask(SPADES))
    twice = 0
    for suit in range(4):
        ranks = (hand >> (N_RANKS * suit)) & ((1 << N_RANKS) - 1)
        length = popcount(ranks)
        twice += 2 * (ranks >> ACE & 1)
        if ranks >> KING & 1 and length >= 2:
            twice += 2
        if suit == SPADES:
            if ranks >> QUEEN & 1 and length >= 3:
                twice += 2
            twice += 2 * max(0, length - 3)
        elif spades >= 3:
            twice += 2 if length == 0 else 1 if length == 1 else 0
    return twice


@njit(cache=True, nogil=True)
def heuristic_bid(hand, highest):
    """The heuristic's bid (0 = Nil .. `highest`) for `hand` (module docstring)."""
    twice = count_tricks2(hand)
    spades = (hand >> (N_RANKS * SPADES)) & ((1 << N_RANKS) - 1)
    aces = 0
    for suit in range(4):
        aces += hand >> (suit * N_RANKS + ACE) & 1
    # no spade above the nine: the spade ranks above NINE are empty
    if twice < 2 and popcount(spades) <= 3 and (spades >> (NINE + 1)) == 0 and aces == 0:
        return 0
    rounded = (twice + 1) // 2  # int(tricks + 0.5) for tricks = twice / 2 >= 0
    return min(highest, max(1, rounded))  # a partner's 13 leaves only Nil


@njit(cache=True, nogil=True)
def heuristic_move(state):
    """The heuristic's move (a card, or `BID_MOVE + bid`) for the seat to act in `state`."""
    seat = state[TO_ACT]
    if state[PHASE] == PHASE_BID:
        return BID_MOVE + heuristic_bid(state[HAND + seat], highest_bid(state))
    legal = legal_cards(state)
    partner = (seat + 2) % 4
    team_bid = state[BID + seat] + state[BID + partner]
    team_taken = state[TAKEN + seat] + state[TAKEN + partner]
    ducking = (state[BID + seat] == 0 and state[TAKEN + seat] == 0) or \
        (team_bid > 0 and team_taken >= team_bid)
    if state[N_IN_TRICK] == 0:
        return _lead(legal, ducking)
    led = state[TRICK] // N_RANKS
    top = power(state[TRICK + state[WINNING]], led)
    partner_winning = (state[LEADER] + state[WINNING]) % 4 == partner
    best_loser, best_loser_key = -1, -1  # ducking: the strongest loser (power, then card)
    low, low_key = -1, 1 << 20  # the weakest card (power, then card)
    cheap_win, cheap_key = -1, 1 << 20  # the cheapest winner
    side_low, side_key = -1, 1 << 20  # the lowest card, side suits before spades
    for card in range(52):
        if not legal >> card & 1:
            continue
        p = power(card, led)
        if p < top and p * 64 + card > best_loser_key:
            best_loser, best_loser_key = card, p * 64 + card
        if p * 64 + card < low_key:
            low, low_key = card, p * 64 + card
        if p > top and p < cheap_key:
            cheap_win, cheap_key = card, p
        key = (card // N_RANKS == SPADES) * 64 + card % N_RANKS
        if key < side_key:
            side_low, side_key = card, key
    if ducking:
        return best_loser if best_loser >= 0 else low
    if cheap_win >= 0 and not partner_winning:
        return cheap_win
    return side_low


@njit(cache=True, nogil=True)
def _lead(legal, ducking):
    """The heuristic's lead from the cards `legal`: the lowest when ducking; else a side ace,
    else the lowest card of the longest side suit (or of spades, from a hand of spades)."""
    if ducking:
        low, low_rank = -1, 99
        for card in range(52):
            if legal >> card & 1 and card % N_RANKS < low_rank:
                low, low_rank = card, card % N_RANKS
        return low
    for suit in range(3):  # a side ace, the lowest suit first
        card = suit * N_RANKS + ACE
        if legal >> card & 1:
            return card
    longest, length = -1, -1
    for suit in range(4):
        n = popcount(legal & suit_mask(suit))
        if n > length:
            longest, length = suit, n
    lowest = legal & suit_mask(longest)
    return popcount((lowest & -lowest) - 1)
