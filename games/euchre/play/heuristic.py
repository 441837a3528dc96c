"""A simple Euchre player by well-known table rules: the baseline the trained player is
measured against.

Naming trump (a suit's "trumps" count both bowers once it is trump):
- round 1, ordering up the upcard's suit: order up (the dealer: pick it up) with three or more
  trumps including a bower, or with four or more; the dealer counts the upcard it would take;
- round 2, naming another suit: the same rule for the best other suit (most trumps, then a
  bower, then the most aces elsewhere); the dealer, stuck, names that best suit anyway;
- going alone: with both bowers and the ace of trump, plus a fourth trump or an ace elsewhere;
- the dealer's discard: the abstraction's rule (`games.euchre.abstraction.keys.discard_rule`: void a
  side suit with a single non-ace card if possible, else throw the lowest side card).

Card play:
- leading: the makers (the maker or its partner) holding trumps lead their highest trump
  while it is the best trump left and others are out ("pull trumps"), else the lowest trump
  with three or more; otherwise anyone leads a side-suit ace, else the lowest side-suit card
  (the lowest trump if it holds nothing else);
- following: when the partner wins the trick for sure (I play last, or its card beats every
  card I have not seen), play the lowest card; otherwise play the lowest card that wins the
  trick so far if there is one, else the lowest card (a side card before a trump, the lowest
  rank first).

Everything is read from the seat's view (its own cards, the upcard, the cards played): it
never peeks. Deterministic: the same view always gives the same move.
"""

from __future__ import annotations

from games.euchre.abstraction.keys import discard_rule
from games.euchre import state as S
from games.euchre.cards import (
    ALL_CARDS,
    JACK,
    card_rank,
    card_suit,
    effective_suit,
    effective_suit_mask,
    left_bower,
    make_card,
    mask_to_cards,
    power,
)
from games.euchre.rules import ALONE_MOVE, PARTNER_MOVE, PASS_MOVE, TRUMP_MOVE, next_active

ACE = 5


def trump_count(hand: int, trump: int) -> int:
    """Cards of `hand` that are trumps when `trump` is named (both bowers included)."""
    return bin(int(hand) & int(effective_suit_mask(trump, trump))).count("1")


def has_bower(hand: int, trump: int) -> bool:
    """Whether `hand` holds the right or the left bower of `trump`."""
    return bool(int(hand) >> make_card(JACK, trump) & 1 or int(hand) >> left_bower(trump) & 1)


def side_aces(hand: int, trump: int) -> int:
    """Aces of `hand` outside `trump`."""
    return sum(1 for s in range(4) if s != trump and int(hand) >> make_card(ACE, s) & 1)


def worth_naming(hand: int, trump: int) -> bool:
    """The naming rule: three or more trumps including a bower, or four or more."""
    n = trump_count(hand, trump)
    return n >= 4 or (n >= 3 and has_bower(hand, trump))


def worth_alone(hand: int, trump: int) -> bool:
    """Going alone: both bowers and the ace of trump, plus a fourth trump or a side ace."""
    hand = int(hand)
    top = all(hand >> c & 1 for c in (make_card(JACK, trump), left_bower(trump),
                                       make_card(ACE, trump)))
    return top and (trump_count(hand, trump) >= 4 or side_aces(hand, trump) >= 1)


def _strength(card: int, trump: int) -> int:
    """How strong a card is in its own (effective) suit: trumps above every side card."""
    return int(power(card, trump, effective_suit(card, trump)))


def _lowest(cards: list[int], trump: int) -> int:
    """The card to throw: a side card before a trump, then the lowest rank (then index)."""
    return min(cards, key=lambda c: (effective_suit(c, trump) == trump, _strength(c, trump), c))


class EuchreHeuristicPlayer:
    """The rules of the module docstring as a `games.euchre.view.Player`."""

    def __init__(self, name: str = "heuristic"):
        self.name = name

    def seed(self, seed: int) -> None:
        """Nothing to seed: the player is deterministic."""

    def choose(self, view) -> int:
        """The move for the seat of `view` (a `games.euchre.view.SeatView`)."""
        legal = [int(m) for m in view.legal_moves()]
        if len(legal) == 1:
            return legal[0]
        state = view.state
        phase = int(state[S.PHASE])
        seat = int(state[S.TO_ACT])
        hand = int(state[S.HAND + seat])
        upcard = int(state[S.UPCARD])
        if phase == S.PHASE_ORDER:
            suit = card_suit(upcard)
            if seat == 0:
                hand |= 1 << upcard
            return TRUMP_MOVE + suit if worth_naming(hand, suit) else PASS_MOVE
        if phase == S.PHASE_NAME:
            suits = [m - TRUMP_MOVE for m in legal if m != PASS_MOVE]
            best = max(suits, key=lambda s: (trump_count(hand, s), has_bower(hand, s),
                                             side_aces(hand, s), -s))
            if PASS_MOVE not in legal or worth_naming(hand, best):
                return TRUMP_MOVE + best
            return PASS_MOVE
        if phase == S.PHASE_DISCARD:
            return int(discard_rule(hand, upcard, int(state[S.TRUMP])))
        if phase == S.PHASE_ALONE:
            return ALONE_MOVE if worth_alone(hand, int(state[S.TRUMP])) else PARTNER_MOVE
        return self._card(state, seat, hand, legal)

    def _card(self, state, seat: int, hand: int, legal: list[int]) -> int:
        trump = int(state[S.TRUMP])
        unseen = int(ALL_CARDS) & ~hand & ~int(state[S.PLAYED])
        if int(state[S.N_PASSES]) >= 4:
            unseen &= ~(1 << int(state[S.UPCARD]))  # turned down: out of play
        trumps_mask = int(effective_suit_mask(trump, trump))
        if int(state[S.N_IN_TRICK]) == 0:
            return self._lead(state, seat, hand, legal, trump, unseen, trumps_mask)
        led = effective_suit(int(state[S.TRICK]), trump)
        w = int(state[S.WINNING])
        winning = int(state[S.TRICK + w])
        best = int(power(winning, trump, led))
        winner = int(state[S.LEADER])
        for _ in range(w):
            winner = int(next_active(state, winner))
        last = int(state[S.N_IN_TRICK]) == int(state[S.N_ACTIVE]) - 1
        if winner % 2 == seat % 2:
            # the partner wins: is it sure to? (nobody after me can hold a better card)
            sure = last or all(power(c, trump, led) <= best for c in mask_to_cards(unseen))
            if sure:
                return _lowest(legal, trump)
        winners = [c for c in legal if power(c, trump, led) > best]
        if winners:
            return min(winners, key=lambda c: (int(power(c, trump, led)), c))
        return _lowest(legal, trump)

    def _lead(self, state, seat, hand, legal, trump, unseen, trumps_mask) -> int:
        my_trumps = [c for c in legal if int(trumps_mask) >> c & 1]
        makers = int(state[S.MAKER]) % 2 == seat % 2
        if makers and my_trumps:
            top = max(my_trumps, key=lambda c: _strength(c, trump))
            unseen_trumps = mask_to_cards(unseen & trumps_mask)
            if all(_strength(c, trump) < _strength(top, trump) for c in unseen_trumps) \
                    and unseen_trumps:
                return top
            if len(my_trumps) >= 3:
                return min(my_trumps, key=lambda c: _strength(c, trump))
        side = [c for c in legal if not int(trumps_mask) >> c & 1]
        aces = [c for c in side if card_rank(c) == ACE]
        if aces:
            return min(aces)
        if side:
            return _lowest(side, trump)
        return min(legal, key=lambda c: _strength(c, trump))
