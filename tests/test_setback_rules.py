"""Scripted Setback deals, one per rule of ../shared/spec/setback-rules.md, with exact results."""

import numpy as np
import pytest

from games.setback.api import Deal
from games.setback.cards import format_card, parse_card, parse_hand
from games.setback.errors import SetbackError
from games.setback.game import game_winner, next_dealer
from games.setback.state import deal_hands

WORKED = {  # the worked deal of abstraction.md with South dealing: P1 = W, P2 = N, P3 = E
    "S": ["9H", "4H", "KC", "8D", "6S", "3C"],
    "W": ["AS", "JS", "7S", "2S", "KH", "3D"],
    "N": ["QH", "TH", "5D", "9C", "4S", "8C"],
    "E": ["AH", "TS", "6H", "2C", "JD", "QS"],
}


def play_all(deal, moves):
    for move in moves:
        deal.play(move)
    return deal


# --- cards ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text, expected", [("AS", "AS"), ("th", "TH"), ("10H", "TH"),
                                            ("10d", "TD"), ("2c", "2C"), (" ks ", "KS")])
def test_cards_parse_case_insensitively_and_accept_10(text, expected):
    assert format_card(parse_card(text)) == expected


@pytest.mark.parametrize("bad", ["1S", "AX", "10", "S", "", "11H", "AS2", "ZZ"])
def test_a_bad_card_token_is_named_in_the_error(bad):
    with pytest.raises(SetbackError, match=repr(bad)):
        parse_card(bad)


def test_duplicate_and_wrong_size_hands_are_errors():
    with pytest.raises(SetbackError, match="duplicate card AS"):
        parse_hand(["AS", "as"])
    hands = dict(WORKED, E=WORKED["E"][:5])
    with pytest.raises(SetbackError, match="hand E: a hand must hold 6 cards, got 5"):
        Deal("S", hands)
    hands = dict(WORKED, E=["AS"] + WORKED["E"][1:])
    with pytest.raises(SetbackError, match="duplicate card AS"):
        Deal("S", hands)


def test_game_points_of_a_mask_are_its_cards_points_summed():
    """Ten 10, Ace 4, King 3, Queen 2, Jack 1 (the rules' Game count), whatever the suits."""
    from games.setback.cards import game_points_of, mask_game_points

    assert mask_game_points(parse_hand(["TS", "AH", "KC", "QD", "JS", "9H"])) == 20
    rng = np.random.default_rng(5)
    for _ in range(2000):
        mask = np.int64(int(rng.integers(0, 1 << 52)))
        cards = [c for c in range(52) if mask >> c & 1]
        assert mask_game_points(mask) == sum(game_points_of(c) for c in cards)


# --- deal ----------------------------------------------------------------------------------


def test_deal_is_three_plus_three_from_the_dealers_left():
    hands = np.zeros(4, np.int64)
    deal_hands(np.arange(52, dtype=np.int64), hands)
    cards = [[c for c in range(52) if int(hands[s]) >> c & 1] for s in range(4)]
    assert cards[1] == [0, 1, 2, 12, 13, 14]  # dealer's left
    assert cards[2] == [3, 4, 5, 15, 16, 17]
    assert cards[3] == [6, 7, 8, 18, 19, 20]
    assert cards[0] == [9, 10, 11, 21, 22, 23]  # dealer


def test_the_deal_passes_clockwise_from_south():
    assert [next_dealer(d) for d in range(4)] == [1, 2, 3, 0]  # W->N->E->S->W


def test_random_deals_are_seeded():
    assert Deal.random(7).hand("W") == Deal.random(7).hand("W")
    assert Deal.random(7).hand("W") != Deal.random(8).hand("W")


# --- auction -------------------------------------------------------------------------------


def test_bids_must_rise_and_the_dealers_left_bids_first():
    deal = Deal("S", WORKED)
    assert (deal.to_act, deal.phase, deal.legal_moves()) == ("W", "bid", ["P", "2", "3", "4"])
    deal.play("2")
    assert (deal.to_act, deal.legal_moves()) == ("N", ["P", "3", "4"])


def test_facing_a_four_only_the_dealer_may_bid_again_and_steals_it():
    deal = Deal("S", WORKED)
    deal.play("P")
    deal.play("4")  # N, the dealer's partner
    assert (deal.to_act, deal.legal_moves()) == ("E", ["P"])
    deal.play("P")
    assert (deal.to_act, deal.legal_moves()) == ("S", ["P", "4"])
    deal.play("4")  # the dealer steals it, even from its partner
    assert (deal.to_act, deal.phase) == ("S", "lead")


def test_an_illegal_bid_names_the_legal_options():
    deal = Deal("S", WORKED)
    deal.play("3")
    with pytest.raises(SetbackError, match="illegal move 2 for N .bid.; legal: P 4"):
        deal.play("2")


def test_all_pass_ends_the_deal_at_once_scoring_nothing():
    deal = play_all(Deal("S", WORKED), ["P", "P", "P", "P"])
    assert deal.is_over and deal.to_act is None and deal.legal_moves() == []
    assert deal.deal_score() == {"EW": 0, "NS": 0}
    assert deal.points() == {"high": None, "low": None, "jack": None, "game": None}


# --- playout -------------------------------------------------------------------------------


def test_worked_deal_first_lead_sets_trump_and_trump_must_follow_trump():
    deal = play_all(Deal("S", WORKED), ["3", "P", "P", "P"])
    assert (deal.to_act, deal.phase) == ("W", "lead")
    assert deal.legal_moves() == ["3D", "KH", "2S", "7S", "JS", "AS"]  # any card leads
    deal.play("AS")
    assert deal.trump == "S"
    assert deal.legal_moves() == ["4S"]  # N holds one spade: must play it
    deal.play("4S")
    assert deal.legal_moves() == ["TS", "QS"]
    deal.play("TS")
    assert deal.legal_moves() == ["6S"]
    deal.play("6S")
    assert deal.tricks[0].winner == "W" and deal.to_act == "W"


def test_trumping_in_is_allowed_while_able_to_follow():
    deal = play_all(Deal("S", WORKED), ["3", "P", "P", "P", "AS", "4S", "TS", "6S", "KH"])
    assert deal.legal_moves() == ["TH", "QH"]  # N: hearts only, no trump left
    deal.play("QH")
    # E holds hearts and the trump QS: hearts or trump, never the off-suit 2C or JD.
    assert deal.legal_moves() == ["6H", "AH", "QS"]
    deal.play("AH")
    assert deal.legal_moves() == ["4H", "9H"]  # S
    deal.play("4H")
    assert deal.tricks[1].winner == "E"


def test_a_player_void_in_the_suit_led_may_play_anything():
    deal = play_all(Deal("S", WORKED), ["3", "P", "P", "P", "AS", "4S", "TS", "6S", "3D"])
    assert deal.legal_moves() == ["5D"]  # N follows diamonds
    deal.play("5D")
    assert deal.legal_moves() == ["JD", "QS"]  # E: diamond or trump
    deal.play("QS")
    assert deal.legal_moves() == ["8D"]
    deal.play("8D")
    assert deal.tricks[1].winner == "E"  # the trump beats the higher diamond


def test_an_illegal_card_names_the_legal_options():
    deal = play_all(Deal("S", WORKED), ["3", "P", "P", "P", "AS"])
    with pytest.raises(SetbackError, match="illegal move 8C for N .follow.; legal: 4S"):
        deal.play("8C")
    with pytest.raises(SetbackError, match="bad card 'XX'"):
        deal.play("XX")


# --- scoring -------------------------------------------------------------------------------

LONE_TRUMP = {  # the only spade dealt is the Jack, held by W
    "W": ["JS", "2C", "3C", "4C", "5C", "6C"],
    "N": ["AH", "KH", "QH", "TH", "9H", "8H"],
    "E": ["2D", "3D", "4D", "5D", "6D", "7D"],
    "S": ["AD", "KD", "QD", "TD", "9D", "8D"],
}
LONE_TRUMP_MOVES = ["2", "P", "P", "P",
                    "JS", "8H", "2D", "8D",
                    "2C", "9H", "3D", "9D",
                    "3C", "TH", "4D", "TD",
                    "4C", "QH", "5D", "QD",
                    "5C", "KH", "6D", "KD",
                    "6C", "AH", "7D", "AD"]


def test_a_lone_trump_is_high_low_and_jack():
    deal = play_all(Deal("S", LONE_TRUMP), LONE_TRUMP_MOVES)
    assert deal.points() == {"high": "EW", "low": "EW", "jack": "EW", "game": "EW"}
    assert deal.deal_score() == {"EW": 4, "NS": 0}


def test_exhausted_once_low_jack_and_game_are_settled():
    deal = play_all(Deal("S", LONE_TRUMP), LONE_TRUMP_MOVES[:8])
    assert not deal.is_exhausted  # Low and Jack taken, but Game is open (EW 1 point)
    play_all(deal, LONE_TRUMP_MOVES[8:12])
    assert not deal.is_exhausted  # EW 1, 38 game points not yet taken
    play_all(deal, LONE_TRUMP_MOVES[12:16])
    assert deal.is_exhausted  # EW 21, the 18 not yet taken cannot catch up


TIE = {
    "W": ["2S", "3C", "4C", "5C", "6C", "7C"],
    "N": ["3S", "2H", "3H", "4H", "5H", "TH"],
    "E": ["4S", "2D", "3D", "4D", "5D", "TD"],
    "S": ["5S", "6D", "7D", "8D", "9D", "8C"],
}
TIE_MOVES = ["3", "P", "P", "P",
             "2S", "3S", "4S", "5S",  # S wins: NS takes Low (2S); High (5S) was dealt to S
             "6D", "3C", "2H", "TD",  # E takes TD: EW 10 game points
             "2D", "7D", "4C", "3H",  # S wins
             "8C", "5C", "4H", "3D",  # S wins
             "8D", "6C", "TH", "4D",  # S wins TH: NS 10 game points
             "9D", "7C", "5H", "5D"]


def test_low_goes_to_the_team_that_takes_it_and_a_game_tie_scores_nobody():
    deal = play_all(Deal("S", TIE), TIE_MOVES)
    assert deal.points() == {"high": "NS", "low": "NS", "jack": None, "game": None}


def test_a_bidder_short_of_its_bid_is_set_back_and_the_other_team_keeps_its_points():
    deal = play_all(Deal("S", TIE), TIE_MOVES)
    assert deal.deal_score() == {"EW": -3, "NS": 2}


def test_low_to_the_taker_not_the_holder():
    hands = dict(WORKED)
    # W leads AS; N must follow with 4S; the lowest trump in play is 2S (W's own), so move it:
    # give W's 2S to N and N's 4S to W.
    hands["W"] = ["AS", "JS", "7S", "4S", "KH", "3D"]
    hands["N"] = ["QH", "TH", "5D", "9C", "2S", "8C"]
    deal = play_all(Deal("S", hands), ["3", "P", "P", "P", "AS", "2S", "TS", "6S"])
    assert deal.tricks[0].winner == "W"
    assert deal.points()["low"] == "EW"  # N (NS) held the 2S; EW took it


# --- the game to 11 ------------------------------------------------------------------------


@pytest.mark.parametrize("ew, ns, winner", [
    (10, 9, -1),     # nobody at 11
    (11, 3, 0),
    (-5, 11, 1),     # negative scores are fine
    (11, 11, -1),    # a tie at 11 or more plays another deal
    (13, 13, -1),
    (14, 12, 0),     # both over 11: the higher wins
    (11, 12, 1),
    (-12, -3, -1),
])
def test_game_winner(ew, ns, winner):
    assert game_winner(ew, ns) == winner
