"""Spades' rules and scores as OpenSpiel 2.0.2 has them: the auction and the play's legal
moves, who takes a trick, the score of every kind of hand (contracts made and set, Nil made and
set, bags and their penalty, OpenSpiel's reading of the bags at a negative score), OpenSpiel's
bonus in its returns, and the game to 500 with the mercy rule. The move-for-move agreement with
pyspiel over random hands and games is tests/test_spades_vs_openspiel.py's."""

from __future__ import annotations

import numpy as np
import pytest

from games.rng import new_rng
from games.spades import state as S
from games.spades.api import Hand
from games.spades.cards import parse_card
from games.spades.random_play import play_random_game
from games.spades.rules import BID_MOVE, apply_move, legal_moves
from games.spades.scoring import game_winner, hand_score, returns_of, team_score


def mask(*cards: str) -> int:
    """The mask of the cards named."""
    out = 0
    for card in cards:
        out |= 1 << parse_card(card)
    return out


def legal(state) -> list[int]:
    """The legal moves of `state`, as a list."""
    buffer = np.empty(14, np.int64)
    return buffer[:legal_moves(state, buffer)].tolist()


# One row a kind of hand: the team's two bids, the two seats' tricks, its game score before
# the hand (the bags are its last digit), and its points.
SCORES = [
    # bids    tricks  before  points
    ((4, 3), (4, 3), 0, 70),  # made exactly: 10 a bid trick
    ((4, 3), (5, 4), 0, 72),  # made with two bags: 1 a bag
    ((4, 3), (2, 3), 0, -70),  # set: -10 a bid trick
    ((0, 4), (0, 5), 0, 141),  # Nil made (+100), partner's 4 made with a bag
    ((0, 4), (1, 5), 0, -58),  # Nil set (-100); its trick counts for the partner's contract
    ((0, 4), (3, 0), 0, -140),  # Nil set and the contract set
    ((0, 0), (0, 0), 0, 200),  # both Nil made
    ((0, 0), (2, 1), 0, -197),  # both Nil set: every trick a bag (the contract is 0)
    ((3, 3), (6, 3), 6, 63),  # nine bags so far: no penalty yet
    ((3, 3), (6, 3), 7, -37),  # the tenth bag: -100 (the bags roll over)
    ((1, 1), (7, 6), 9, -169),  # 9 + 11 bags: two penalties
    ((1, 1), (6, 4), -33, 28),  # at -33 OpenSpiel's C++ `%` reads -3 bags: -3 + 8, no penalty
    ((1, 1), (6, 4), -30, 28),
    ((1, 1), (6, 4), 2, -72),  # 2 + 8 bags: a penalty
    ((13, 0), (13, 0), 0, 230),  # thirteen bid and made beside a Nil made
]


@pytest.mark.parametrize("bids, tricks, before, points", SCORES)
def test_the_score_of_every_kind_of_hand(bids, tricks, before, points):
    assert team_score(bids[0], bids[1], tricks[0], tricks[1], before) == points


def test_a_hand_is_scored_per_team_with_its_own_bags():
    state = S.new_state()
    S.random_hand(new_rng(3), state, 7, -33)
    for seat, (bid, taken) in enumerate([(2, 5), (0, 0), (3, 4), (4, 4)]):
        state[S.BID + seat], state[S.TAKEN + seat] = bid, taken
    # the dealer's team (seats 0, 2): 5 + 4 bid, 9 taken, 4 bags on 7: -100
    # the other (seats 1, 3): Nil made, 4 bid and made, 4 bags on -3: none
    assert hand_score(state) == (50 + 4 - 100, 100 + 40)


# OpenSpiel's returns: a team's hand score at 500 or more and ahead gains 200, at -350 or less
# and behind loses 200, the second team compared with the first's adjusted score.
RETURNS = [
    ((-387, -20), (-587, -20)),
    ((-20, -387), (-20, -587)),
    ((-350, -349), (-550, -349)),
    ((-349, -350), (-349, -550)),
    ((-350, -350), (-350, -350)),
    ((230, -230), (230, -230)),
]


@pytest.mark.parametrize("scores, returns", RETURNS)
def test_openspiels_returns_add_its_bonus_on_the_hand_score(scores, returns):
    assert returns_of(*scores) == returns


# The game to 500 (scores by absolute team: EW, NS): at 500 or more and ahead wins; at -350 or
# less and behind loses (the mercy rule); level scores play on.
WINNERS = [
    ((500, 490), 0), ((490, 500), 1), ((500, 500), -1), ((510, 530), 1), ((499, 0), -1),
    ((-350, 0), 1), ((0, -350), 0), ((-350, -350), -1), ((-360, -355), 1), ((-349, 120), -1),
    ((600, -400), 0),
]


@pytest.mark.parametrize("scores, winner", WINNERS)
def test_the_game_to_500_and_the_mercy_rule(scores, winner):
    assert game_winner(*scores) == winner


def test_random_games_end_by_the_rules():
    scores = np.zeros(2, np.int64)
    ends = set()
    for game in range(300):
        winner, hands = play_random_game(11, game, scores)
        assert winner in (0, 1) and hands >= 1
        ew, ns = int(scores[0]), int(scores[1])
        assert game_winner(ew, ns) == winner
        ends.add("500" if max(ew, ns) >= 500 else "mercy")
    assert ends == {"mercy"}  # random bidders overbid: the mercy rule ends their games


def test_the_auction_caps_a_bid_at_13_less_the_partners():
    state = S.new_state()
    S.random_hand(new_rng(1), state, 0, 0)
    assert state[S.TO_ACT] == 1  # the dealer's left bids first
    assert legal(state) == list(range(BID_MOVE, BID_MOVE + 14))
    apply_move(state, BID_MOVE + 5)
    assert state[S.TO_ACT] == 2 and len(legal(state)) == 14  # its partner has not bid yet
    apply_move(state, BID_MOVE + 0)
    assert legal(state) == list(range(BID_MOVE, BID_MOVE + 9))  # partner bid 5: Nil .. 8
    apply_move(state, BID_MOVE + 8)
    assert legal(state) == list(range(BID_MOVE, BID_MOVE + 14))  # partner bid Nil: any
    apply_move(state, BID_MOVE + 13)
    assert state[S.PHASE] == S.PHASE_PLAY and state[S.TO_ACT] == 1  # the first bidder leads
    assert [int(state[S.BID + s]) for s in range(4)] == [13, 5, 0, 8]


def hand_of(rest: dict) -> dict:
    """A deal (seat letter -> cards) where the seats of `rest` hold those cards and the other
    cards go round the other seats."""
    taken = {c for cards in rest.values() for c in cards}
    others = [r + s for s in "CDHS" for r in "23456789TJQKA" if r + s not in taken]
    hands = dict(rest)
    for letter in "WNES":
        if letter not in hands:
            hands[letter], others = others[:13], others[13:]
    return hands


def test_a_leader_holding_another_suit_never_leads_a_spade():
    """OpenSpiel never breaks spades: even with spades played (trumped in) before, a leader
    leads a heart, diamond or club while it holds one, and spades from a hand of spades only."""
    state = S.new_state()
    S.random_hand(new_rng(4), state, 0, 0)
    state[S.PHASE], state[S.TO_ACT], state[S.LEADER] = S.PHASE_PLAY, 1, 1
    state[S.TRICK_NUMBER] = 6
    state[S.PLAYED] = mask("AS", "KS", "QS", "2C", "3C")  # spades have been played
    state[S.HAND + 1] = mask("JS", "TS", "2H", "9D")
    assert legal(state) == [parse_card("9D"), parse_card("2H")]
    state[S.HAND + 1] = mask("JS", "TS")
    assert legal(state) == [parse_card("TS"), parse_card("JS")]
    state[S.N_IN_TRICK], state[S.TRICK], state[S.TO_ACT] = 1, parse_card("4C"), 2
    state[S.HAND + 2] = mask("5S", "KH")  # void in clubs: a spade or anything else
    assert legal(state) == [parse_card("KH"), parse_card("5S")]
    state[S.HAND + 2] = mask("5S", "KH", "7C")  # holds a club: it must follow
    assert legal(state) == [parse_card("7C")]


def test_a_spade_takes_the_trick_and_the_suit_led_beats_the_rest():
    hands = hand_of({"N": ["2D"] + [r + "H" for r in "23456789TJQK"],
                     "E": ["AD"] + [r + "C" for r in "23456789TJQK"],
                     "S": ["2S", "AH"] + [r + "D" for r in "3456789TJQK"]})
    assert hands["W"] == ["AC"] + [r + "S" for r in "3456789TJQKA"]
    hand = Hand("W", hands)
    for bid in ("1", "1", "1", "1"):
        hand.play(bid)
    hand.play("2D")  # N leads a diamond
    assert hand.legal_moves() == ["AD"]  # E follows
    hand.play("AD")
    assert "2S" not in hand.legal_moves()  # S holds diamonds: it must follow
    hand.play("3D")
    assert "AC" in hand.legal_moves()  # W, void in diamonds, may play anything
    hand.play("AC")
    assert hand.tricks[0].winner == "E"  # the ace of the suit led; no spade, the ace of clubs
    hand.play("2C")  # E leads a club
    assert "2S" in hand.legal_moves()  # S, void in clubs, may trump
    hand.play("2S")
    hand.play(hand.legal_moves()[-1])  # W: AS, its highest spade, beats S's 2S
    hand.play(hand.legal_moves()[0])
    assert hand.tricks[1].cards == ["2C", "2S", "AS", "2H"] and hand.tricks[1].winner == "W"


def test_a_deal_is_thirteen_cards_a_seat_of_one_deck():
    state = S.new_state()
    rng = new_rng(9)
    for _ in range(100):
        S.random_hand(rng, state, 0, 0)
        hands = [int(state[S.HAND + s]) for s in range(4)]
        assert [bin(h).count("1") for h in hands] == [13] * 4
        assert hands[0] | hands[1] | hands[2] | hands[3] == (1 << 52) - 1
