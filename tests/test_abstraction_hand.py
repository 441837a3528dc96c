"""abstraction.md, "Suit strength and the top suits", "Hand code" and the establish card."""

from __future__ import annotations

import pytest

from games.setback.abstraction.establish import establish_rank
from games.setback.abstraction.hand_code import hand_code, hand_text, parse_hand_text
from games.setback.abstraction.suits import suit_strength, top_suits
from setback_situations import mask


def code(text: str) -> str:
    return hand_text(hand_code(mask(text)))


def test_strength_is_sum_of_rank_minus_one():
    assert suit_strength(mask("AS JS 7S 2S"), 3) == 13 + 10 + 6 + 1
    assert suit_strength(mask("AS JS 7S 2S"), 0) == 0


@pytest.mark.parametrize("hand, expected", [
    ("AS JS 7S 2S", "AJx2.."),
    ("KC 9C 7C", "Kx7..."),
    ("5D", "5....."),
])
def test_hand_code_examples(hand, expected):
    assert code(hand)[:6] == expected


def test_twelve_characters_second_field_dots_when_not_kept():
    assert code("AS JS 7S 2S KH 3D") == "AJx2........"


def test_second_suit_kept_when_close_and_different():
    # spades 13+10 = 23, hearts 13+9 = 22: within 2 and different rank lists
    assert top_suits(mask("AS JS AH TH")) == (3, 2)
    assert code("AS JS AH TH") == "AJ....AT...."


def test_second_suit_dropped_at_difference_two():
    assert top_suits(mask("AS JS AH 9H"))[1] == -1  # 23 vs 13+8 = 21


def test_equal_rank_lists_keep_one_suit_the_lowest_card_first():
    # identical rank lists: the tie goes to the suit whose lowest card comes first (C before H)
    assert top_suits(mask("5H 5C")) == (0, -1)


def test_equal_strength_lexicographic_higher_first():
    # hearts A (13), spades K 2 (12 + 1): same strength, A > K so hearts first
    assert top_suits(mask("AH KS 2S")) == (2, 3)
    assert code("AH KS 2S") == "A.....K2...."


def test_lexicographic_prefix_counts_smaller():
    # 7 6 (6+5) vs 7 5 2 (6+4+1): same strength; 7 6 > 7 5 2 at the second rank
    assert top_suits(mask("7C 6C 7D 5D 2D"))[0] == 0


def test_hand_code_text_round_trip():
    for hand in ("AS JS 7S 2S KH 3D", "AH KS 2S", "TS 9S 8S 7S 6S 5S"):
        c = hand_code(mask(hand))
        assert parse_hand_text(hand_text(c)) == c
    assert code("TS 9S 8S 7S 6S 5S") == "Txxxx5......"


@pytest.mark.parametrize("suit_cards, led", [
    ("KS QS 4S", "K"), ("JS TS 2S", "T"), ("JS 6S", "6"), ("4S 3S", "4"), ("3S", "3"),
    ("AS JS 7S 2S", "A"), ("JS 4S", "J"), ("JS TS", "T"), ("JS", "J"),
])
def test_establish_card_examples(suit_cards, led):
    field = mask(suit_cards) >> 39
    assert "23456789TJQKA"[establish_rank(field) - 2] == led
