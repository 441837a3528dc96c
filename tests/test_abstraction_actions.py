"""abstraction.md, "Abstract actions after the first lead": one test per row of the Leading and
Following tables (action, canonical position, card played, tie-breaks), then properties over
random deals: every abstract action's card is legal and classifies back into that action, and
the kernels agree with a literal reading of the spec (`setback_abstraction_reference.py`)."""

from __future__ import annotations

import numpy as np

from games.setback.abstraction.decision import SIT_BID, SIT_ESTABLISH, SIT_FOLLOW, abstract_decision
from games.setback.abstraction.describe import decision_tokens, describe_decision, move_text
from games.setback.abstraction.follow_actions import FOLLOW_TOKENS, classify_follow
from games.setback.abstraction.lead_actions import LEAD_TOKENS, classify_lead
from games.setback.abstraction.trumps import lowest_dealt_trump, lowest_played_trump
from games.rng import new_rng
from games.setback import state as S
from games.setback.rules import apply_move, is_legal
from setback_abstraction_reference import describe as reference
from setback_situations import trick_state


def acts(st):
    return [(a["action"], a["move"]) for a in describe_decision(st)["actions"]]


# ---- Leading (spades trump; seat 1 leads trick 2) --------------------------------------------

def test_lead_other_trump_Tx_plays_the_highest():
    # dealt 3S (lowT 3): 6S 8S are other trumps, the highest is led
    assert acts(trick_state("6S 8S 3S KH", dealt_extra="", played="AS 4D 5D 6D"))[0] == ("Tx", "8S")


def test_lead_trump_r_game_points_or_rank_lowT_ascending():
    assert acts(trick_state("3S JS AS 8S", played="KS 4D 5D 6D")) == [
        ("Tx", "8S"), ("T3", "3S"), ("TJ", "JS"), ("TA", "AS")]


def test_lead_trump_lowT_from_a_lower_trump_played():
    # my lowest dealt trump 4S, but 2S has been played: lowT = 2, so 4S is an "other" trump
    assert acts(trick_state("4S 7S KH", played="2S 4D 5D 6D")) == [
        ("Tx", "7S"), ("S.", "KH")]


def test_lead_strong_plays_the_highest_non_trump_honour_lowest_suit_on_ties():
    assert acts(trick_state("KH KD QC 5C", played="AS 4D 5D 6D")) == [("S.", "KD"), ("W.", "5C")]


def test_lead_weak_plays_the_lowest_2_to_T_ten_counts_as_weak():
    assert acts(trick_state("TH JD", played="AS 4D 5D 6D")) == [("S.", "JD"), ("W.", "TH")]
    assert acts(trick_state("4H 4C 9D JD", played="AS 4D 5D 6D"))[-1] == ("W.", "4C")


# ---- Following (spades trump; h = the card now winning) --------------------------------------

def test_follow_play_trump_r():
    # KH led; holding 3S (my lowest dealt trump, lowT 3) and QS: each named, ascending
    assert acts(trick_state("3S QS 5H", "KH", played="AS 4D 5D 6D")) == [
        ("T3", "3S"), ("TQ", "QS"), ("l0", "5H")]


def test_follow_trump_to_win_plays_the_highest_such():
    # h = KH, not trump: every other trump wins
    assert acts(trick_state("7S 9S 2S 5H", "KH", played="AS 4D 5D 6D")) == [
        ("T2", "2S"), ("Wx", "9S"), ("l0", "5H")]


def test_follow_trump_to_lose_plays_the_lowest_such():
    # h = 8S (trump led): 9S wins, 6S 7S lose
    assert acts(trick_state("6S 7S 9S", "8S", played="2S 4D 5D 6D")) == [
        ("Wx", "9S"), ("Lx", "6S")]


def test_follow_to_win_g_highest_worth_g_ascending_g():
    assert acts(trick_state("6H 8H JH AH TH", "5H", played="AS 4D 5D 6D")) == [
        ("w0", "8H"), ("w1", "JH"), ("w4", "AH"), ("wT", "TH")]


def test_follow_to_lose_g_lowest_worth_g():
    assert acts(trick_state("6H 8H QH AH", "KH 2S", played="AS 4D 5D 6D")) == [
        ("l0", "6H"), ("l2", "QH"), ("l4", "AH")]


def test_follow_to_win_before_follow_to_lose():
    assert acts(trick_state("3H 8H QH", "5H", played="AS 4D 5D 6D")) == [
        ("w0", "8H"), ("w2", "QH"), ("l0", "3H")]


def test_contribute_a_ten_first_in_suit_order():
    # void in hearts (led): an off-suit Ten may be contributed
    assert acts(trick_state("TD TC 3C", "5H", played="AS 4D 5D 6D")) == [
        ("N.", "TC"), ("D.", "3C")]


def test_contribute_game_plays_the_highest_lowest_suit_on_ties():
    assert acts(trick_state("KD KC QC 7C", "5H", played="AS 4D 5D 6D")) == [
        ("G.", "KC"), ("D.", "7C")]


def test_duck_plays_the_lowest_rank_lowest_suit_on_ties():
    assert acts(trick_state("4D 4C 9C JC", "5H", played="AS 4D 5D 6D")) == [
        ("G.", "JC"), ("D.", "4C")]


def test_void_in_trump_lead_discards_take_off_suit_rows():
    assert acts(trick_state("TD KC 2H", "8S", played="2S 4D 5D 6D")) == [
        ("N.", "TD"), ("G.", "KC"), ("D.", "2H")]


def test_following_canonical_order_is_the_table_order():
    assert list(FOLLOW_TOKENS[:13]) == ["T" + r for r in "23456789TJQKA"]
    assert list(FOLLOW_TOKENS[13:]) == ["Wx", "Lx", "w0", "w1", "w2", "w3", "w4", "wT",
                                        "l0", "l1", "l2", "l3", "l4", "lT", "N.", "G.", "D."]
    assert list(LEAD_TOKENS) == ["Tx"] + ["T" + r for r in "23456789TJQKA"] + ["S.", "W."]


# ---- properties over random deals ------------------------------------------------------------

def random_decisions(n_deals, seed):
    """Yield the state at every decision along one random abstract playout of each deal."""
    rng = np.random.default_rng(seed)
    moves = np.zeros(8, dtype=np.int64)
    for i in range(n_deals):
        st = S.new_state()
        S.random_deal(new_rng(seed * 100_003 + i), st)
        while st[S.PHASE] != S.PHASE_OVER:
            yield st
            n, *_ = abstract_decision(st, moves)
            apply_move(st, int(moves[rng.integers(n)]))


def test_each_abstract_actions_card_is_legal_and_classifies_back():
    moves = np.zeros(8, dtype=np.int64)
    checked = 0
    for st in random_decisions(400, 1):
        n, situation, tokens, key = abstract_decision(st, moves)
        if situation in (SIT_BID, SIT_ESTABLISH):
            continue
        names = decision_tokens(situation, tokens)
        seat = st[S.TO_ACT]
        trump = st[S.TRUMP]
        low_t = min(lowest_dealt_trump(st, seat, trump), lowest_played_trump(st, trump))
        table = FOLLOW_TOKENS if situation == SIT_FOLLOW else LEAD_TOKENS
        for i in range(n):
            card = int(moves[i])
            assert is_legal(st, card)
            if situation == SIT_FOLLOW:
                h = st[S.TRICK + st[S.WINNING]]
                token = classify_follow(trump, st[S.TRICK] // 13, h, low_t, card)
            else:
                token = classify_lead(st[S.HAND + seat], trump, low_t, card)
            assert table[token] == names[i]
            checked += 1
    assert checked > 5000


def test_kernels_agree_with_a_literal_reading_of_the_spec():
    count = 0
    for st in random_decisions(600, 2):
        desc = describe_decision(st)
        key, names, moves = reference(st)
        assert desc["key"] == key
        assert [a["action"] for a in desc["actions"]] == names
        assert [a["move"] for a in desc["actions"]] == [move_text(m) for m in moves]
        count += 1
    assert count > 10_000
