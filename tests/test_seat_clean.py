"""The one-seat question (`search/seat_clean.py`): whether a seat's side can keep it from taking
any trick equals a plain brute force over the rules of trick play on small endings (1 to 4
tricks, every trump and no trump, with and without `trump_last`, any leader, any seat, a small
table so entries collide)."""

from __future__ import annotations

import random

import pytest

from search.seat_clean import NO_ANSWER, SeatClean

NO_TRUMP = 4


def _legal(hand: set, led, trump, trump_last) -> list:
    if led is not None:
        follow = [c for c in hand if c // 13 == led]
        return sorted(follow or hand)
    if trump_last and trump != NO_TRUMP:
        side = [c for c in hand if c // 13 != trump]
        return sorted(side or hand)
    return sorted(hand)


def _winner(trick, leader, trump) -> int:
    """The seat that wins four cards played from `leader` on."""
    best, at = trick[0], 0
    for i, card in enumerate(trick[1:], 1):
        if (card // 13 == best // 13 and card > best) or (card // 13 == trump != best // 13):
            best, at = card, i
    return (leader + at) % 4


def _clean(hands, leader, trick, seat, trump, trump_last) -> bool:
    """Whether seat's side keeps `seat` from every trick: its side picks one card, the other
    side every card (no pruning but the answer's own)."""
    if len(trick) == 4:
        winner = _winner(trick, leader, trump)
        if winner == seat:
            return False
        return _clean(hands, winner, [], seat, trump, trump_last)
    actor = (leader + len(trick)) % 4
    if not hands[actor]:
        return True
    led = trick[0] // 13 if trick else None
    answers = []
    for card in _legal(hands[actor], led, trump, trump_last):
        hands[actor].remove(card)
        answers.append(_clean(hands, leader, trick + [card], seat, trump, trump_last))
        hands[actor].add(card)
    return any(answers) if actor % 2 == seat % 2 else all(answers)


def _deal(rng, tricks):
    cards = rng.sample(range(52), 4 * tricks)
    return [set(cards[tricks * s:tricks * (s + 1)]) for s in range(4)]


@pytest.mark.parametrize("tricks", [1, 2, 3, 4])
def test_the_answer_equals_brute_force(tricks):
    rng = random.Random(tricks)
    solver = SeatClean(tt_bits=6)  # a small table: collisions and replacements happen
    answers = set()
    for _ in range(120 if tricks < 4 else 40):
        hands = _deal(rng, tricks)
        trump, trump_last = rng.randrange(5), rng.randrange(2)
        leader, seat = rng.randrange(4), rng.randrange(4)
        masks = [sum(1 << c for c in h) for h in hands]
        want = _clean([set(h) for h in hands], leader, [], seat, trump, trump_last)
        got = solver.keeps_clean(masks, trump, trump_last, leader, seat)
        assert got == int(want), (tricks, hands, trump, trump_last, leader, seat)
        answers.add(got)
    assert answers == {0, 1}


def test_cards_of_one_suit_alone_run_to_the_highest():
    """Seat 0 holds the two lowest cards of a suit, everyone else higher ones of it: it ducks
    both tricks (yes); given the ace as well, it must take a trick (no)."""
    solver = SeatClean()
    low = [(1 << 0) | (1 << 1), (1 << 5) | (1 << 6), (1 << 7) | (1 << 8), (1 << 9) | (1 << 10)]
    assert solver.keeps_clean(low, NO_TRUMP, 0, 0, 0) == 1
    high = [(1 << 0) | (1 << 12), (1 << 5) | (1 << 6), (1 << 7) | (1 << 8), (1 << 9) | (1 << 10)]
    assert solver.keeps_clean(high, NO_TRUMP, 0, 1, 0) == 0


def test_past_its_node_limit_there_is_no_answer():
    """Stopped at its limit the search answers nothing; what it stored stays exact."""
    rng = random.Random(9)
    hands = [sum(1 << c for c in h) for h in _deal(rng, 6)]
    solver = SeatClean()
    seat = next(s for s in range(4) if not hands[s] >> 51 & 1)  # not the ace of trumps
    assert solver.keeps_clean(hands, 3, 1, 0, seat, limit=3) == NO_ANSWER
    fresh = SeatClean()
    answer = fresh.keeps_clean(hands, 3, 1, 0, seat)
    assert fresh.stats[0] > 3 and solver.keeps_clean(hands, 3, 1, 0, seat) == answer
