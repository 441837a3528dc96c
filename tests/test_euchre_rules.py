"""The Euchre engine's invariants on random hands, against an independent Python oracle:
every card played once, the trick winner holds the highest trump or the highest card of the
suit led, the bowers count as trump (for winning and for following), the points; and the game
to 10 around the hands."""

from __future__ import annotations

import numpy as np
import pytest

from games.euchre import state as S
from games.euchre.cards import effective_suit, left_bower, parse_card, power
from games.euchre.random_play import (
    STAT_EW_WINS,
    STAT_GAMES,
    STAT_HANDS,
    STAT_POINTS,
    STAT_SIZE,
    play_random_hand,
    play_random_hands,
    simulate_games,
)
from games.euchre.rules import apply_move, legal_mask
from games.euchre.scoring import hand_score
from games.rng import new_rng

# The oracle's own card model: text cards, explicit rank orders (no shared arithmetic).
SUITS = "CDHS"
PLAIN_ORDER = "9TJQKA"
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}


def text(card: int) -> str:
    """Our card index as text (rank then suit), written out independently."""
    return PLAIN_ORDER[card % 6] + SUITS[card // 6]


def oracle_suit(card: str, trump: str) -> str:
    """The suit a card follows: the jack of trump's colour is a trump."""
    if card[0] == "J" and card[1] == SAME_COLOUR[trump]:
        return trump
    return card[1]


def oracle_strength(card: str, trump: str, led: str) -> int:
    """A ranking: trumps above the suit led above everything else; among trumps the right
    bower, then the left, then A K Q T 9; in the suit led A K Q J T 9."""
    trump_order = ["J" + trump, "J" + SAME_COLOUR[trump]] + [r + trump for r in "AKQT9"]
    if card in trump_order:
        return 100 - trump_order.index(card)
    if card[1] == led:
        return 50 + PLAIN_ORDER.index(card[0])
    return 0


def oracle_winner(cards: list[str], trump: str) -> int:
    """Position in the trick of the winning card."""
    led = oracle_suit(cards[0], trump)
    strengths = [oracle_strength(c, trump, led) for c in cards]
    return strengths.index(max(strengths))


def oracle_follow(hand: list[str], led_card: str, trump: str) -> set[str]:
    """The cards a hand may play to a trick led with `led_card`."""
    led = oracle_suit(led_card, trump)
    same = {c for c in hand if oracle_suit(c, trump) == led}
    return same or set(hand)


def mask_text(mask) -> set[str]:
    """The cards of a mask as text."""
    return {text(c) for c in range(24) if int(mask) >> c & 1}


def test_bowers():
    jh, jd, js, jc = (parse_card(c) for c in ("JH", "JD", "JS", "JC"))
    assert left_bower(1) == jh and left_bower(3) == jc
    assert effective_suit(jh, 1) == 1 and effective_suit(jh, 2) == 2
    assert effective_suit(js, 0) == 0 and effective_suit(jd, 0) == 1
    ace_trump, nine_trump = parse_card("AD"), parse_card("9D")
    assert power(jd, 1, 3) > power(jh, 1, 3) > power(ace_trump, 1, 3) > power(nine_trump, 1, 3)
    assert power(nine_trump, 1, 3) > power(parse_card("AS"), 1, 3) > 0
    assert power(parse_card("AC"), 1, 3) == 0  # neither trump nor the suit led


@pytest.mark.parametrize("stick", [1, 0])
def test_random_hands_keep_the_invariants(stick):
    rng = new_rng(20261124 + stick)
    state = S.new_state()
    moves = np.empty(32, np.int64)
    checked_tricks = left_bower_follows = 0
    for _ in range(1500):
        n = play_random_hand(rng, state, stick, moves)
        dealt = [int(state[S.DEALT + s]) for s in range(4)]
        # replay the moves from the deal, checking every decision against the oracle
        replayed = S.new_state()
        S.reset_hand(replayed, np.array(dealt, np.int64), state[S.UPCARD], stick)
        played: list[int] = []
        trick: list[tuple[int, int]] = []
        for move in moves[:n]:
            phase = replayed[S.PHASE]
            seat = int(replayed[S.TO_ACT])
            if phase == S.PHASE_PLAY:
                trump = SUITS[replayed[S.TRUMP]]
                hand = mask_text(replayed[S.HAND + seat])
                legal = mask_text(legal_mask(replayed))
                if trick:
                    assert legal == oracle_follow(sorted(hand), text(trick[0][1]), trump)
                    led = oracle_suit(text(trick[0][1]), trump)
                    if led == trump and "J" + SAME_COLOUR[trump] in hand:
                        left_bower_follows += 1
                        assert "J" + SAME_COLOUR[trump] in legal
                else:
                    assert legal == hand
                assert seat != replayed[S.OUT]
                played.append(int(move))
                trick.append((seat, int(move)))
            apply_move(replayed, move)
            if phase == S.PHASE_PLAY and replayed[S.N_IN_TRICK] == 0:
                assert len(trick) == replayed[S.N_ACTIVE]
                winner = trick[oracle_winner([text(c) for _, c in trick], trump)][0]
                assert replayed[S.LEADER] == winner
                checked_tricks += 1
                trick = []
        assert np.array_equal(replayed, state)
        if state[S.MAKER] < 0:  # all passed (only without stick the dealer)
            assert not stick and n == 8 and played == []
            assert hand_score(state) == (0, 0)
            continue
        # every card played once, by the seats that play, from what they held
        assert len(played) == len(set(played)) == 5 * state[S.N_ACTIVE]
        assert int(state[S.PLAYED]) == sum(1 << c for c in played)
        held = dealt[:]
        if state[S.DISCARD] >= 0:
            held[0] = (held[0] | 1 << int(state[S.UPCARD])) & ~(1 << int(state[S.DISCARD]))
            assert state[S.DISCARD] != state[S.UPCARD]
        out = int(state[S.OUT])
        assert int(state[S.PLAYED]) == sum(h for s, h in enumerate(held) if s != out)
        if out >= 0:
            assert state[S.HAND + out] == held[out]  # the partner sat out untouched
        # the points
        makers = int(state[S.MAKER]) % 2
        tricks = int(state[S.TRICKS_WON + makers])
        assert tricks + state[S.TRICKS_WON + 1 - makers] == 5
        expected = [0, 0]
        if tricks <= 2:
            expected[1 - makers] = 2
        else:
            expected[makers] = 1 if tricks < 5 else (4 if state[S.ALONE] == 1 else 2)
        assert list(hand_score(state)) == expected
    assert checked_tricks > 5000 and left_bower_follows > 20


def test_random_play_is_deterministic():
    assert play_random_hands(7, 300, 1) == play_random_hands(7, 300, 1)
    assert play_random_hands(7, 300, 1) != play_random_hands(8, 300, 1)


def test_games_to_ten():
    stats = np.zeros(STAT_SIZE, np.int64)
    simulate_games(3, 0, 400, stats)
    assert stats[STAT_GAMES] == 400
    assert 0.4 < stats[STAT_EW_WINS] / 400 < 0.6
    # one side scores 1, 2 or 4 a hand: a game lasts at least 3 hands and ends at 10 to 13
    assert 3 * 400 <= stats[STAT_HANDS] < 40 * 400
    winners_points = stats[STAT_POINTS] + stats[STAT_POINTS + 1]
    assert winners_points >= 10 * 400
    again = np.zeros(STAT_SIZE, np.int64)
    simulate_games(3, 0, 400, again)
    assert np.array_equal(stats, again)
