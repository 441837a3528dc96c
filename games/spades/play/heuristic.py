"""A simple rule-based Spades player: a yardstick above random, not a strong player.

It sees only its seat's view; `setback-cfr tournament --game spades` and `rating --game spades`
field it as `heuristic` (`games.spades.play.tournament`).

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

from games.spades import state as S
from games.spades.cards import N_RANKS, SPADES, power, suit_mask
from games.spades.rules import BID_MOVE
from games.spades.view import SeatView

ACE, KING, QUEEN, NINE = 12, 11, 10, 7  # rank indices


def cards_of(mask: int) -> list[int]:
    """The cards of `mask`, ascending (by suit, then rank)."""
    return [card for card in range(52) if mask >> card & 1]


def count_tricks(hand: int) -> float:
    """The tricks the bidding rule expects of `hand` (module docstring)."""
    tricks = 0.0
    spades = bin(hand & suit_mask(SPADES)).count("1")
    for suit in range(4):
        ranks = [c % N_RANKS for c in cards_of(hand & suit_mask(suit))]
        tricks += ACE in ranks
        tricks += KING in ranks and len(ranks) >= 2
        if suit == SPADES:
            tricks += QUEEN in ranks and len(ranks) >= 3
            tricks += max(0, len(ranks) - 3)
        elif spades >= 3:
            tricks += 1.0 if not ranks else 0.5 if len(ranks) == 1 else 0.0
    return tricks


def choose_bid(hand: int, highest: int) -> int:
    """The bid (0 = Nil .. `highest`) of the bidding rule for `hand`."""
    tricks = count_tricks(hand)
    spades = [c % N_RANKS for c in cards_of(hand & suit_mask(SPADES))]
    aces = sum(hand >> (s * N_RANKS + ACE) & 1 for s in range(4))
    if tricks < 1 and len(spades) <= 3 and max(spades, default=0) <= NINE and not aces:
        return 0
    # at least 1 (a bid of 0 is Nil), at most what the partner left: 0 when the partner bid 13
    return min(highest, max(1, int(tricks + 0.5)))


class SpadesHeuristicPlayer:
    """The rule-based player of the module docstring (deterministic)."""

    name = "heuristic"

    def choose(self, view: SeatView) -> int:
        """The move for the view's seat."""
        state, seat = view.state, view.seat
        legal = [int(m) for m in view.legal_moves()]
        if state[S.PHASE] == S.PHASE_BID:
            return BID_MOVE + choose_bid(int(state[S.HAND + seat]), legal[-1] - BID_MOVE)
        team_bid = int(state[S.BID + seat] + state[S.BID + (seat + 2) % 4])
        team_taken = int(state[S.TAKEN + seat] + state[S.TAKEN + (seat + 2) % 4])
        ducking = (state[S.BID + seat] == 0 and state[S.TAKEN + seat] == 0) or \
            (team_bid > 0 and team_taken >= team_bid)
        if state[S.N_IN_TRICK] == 0:
            return self.lead(legal, ducking)
        led = int(state[S.TRICK]) // N_RANKS
        best = int(state[S.TRICK + state[S.WINNING]])
        losers = [c for c in legal if power(c, led) < power(best, led)]
        if ducking:
            return max(losers, key=lambda c: (power(c, led), c)) if losers else \
                min(legal, key=lambda c: (power(c, led), c))
        partner_winning = (state[S.LEADER] + state[S.WINNING]) % 4 == (seat + 2) % 4
        winners = [c for c in legal if power(c, led) > power(best, led)]
        if winners and not partner_winning:
            return min(winners, key=lambda c: power(c, led))
        return min(legal, key=lambda c: (c // N_RANKS == SPADES, c % N_RANKS))

    @staticmethod
    def lead(legal: list[int], ducking: bool) -> int:
        """The card to lead: the lowest when ducking; else a side ace, else the lowest card of
        the longest side suit (or of spades, from a hand of spades)."""
        if ducking:
            return min(legal, key=lambda c: c % N_RANKS)
        aces = [c for c in legal if c % N_RANKS == ACE and c // N_RANKS != SPADES]
        if aces:
            return aces[0]
        suits = [c // N_RANKS for c in legal]
        longest = max(set(suits), key=lambda s: (suits.count(s), -s))
        return min(c for c in legal if c // N_RANKS == longest)
