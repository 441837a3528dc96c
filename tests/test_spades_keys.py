"""The Spades abstraction (`games/spades/abstraction`): worked keys on a hand-made deal that read
like the layout's table, keys that depend only on what the acting seat knows, equal keys with the
same actions, the codec, the heuristic's card past the learned tricks (`games.spades.heuristic`,
checked against the Python heuristic by tests/test_spades_search.py), and the abstract game
honouring the CFR game interface (`tests/test_game_conformance.py`'s checks)."""

from __future__ import annotations

import numpy as np
import pytest
from test_game_conformance import Checker, play_out

from games.spades.abstraction import abstract_game as G
from games.spades.abstraction.codec import KeyTextError, action_names, key_kind, key_text, text_key
from games.spades.abstraction.keys import (LEARNED_TRICKS, MOVES_BUFFER, abstract_decision,
                                           expected_tricks)
from cfr import game as cfr_game
from cfr.game import CHANCE, TERMINAL
from cfr.rng import word
from games.spades import state as S
from games.spades.api import Hand
from games.spades.heuristic import heuristic_move
from games.spades.rules import apply_move, legal_moves
from games.spades.scoring import score_difference
from games.spades.view import SeatView
from games.rng import new_rng
from games.spades.heuristic import heuristic_bid
from games.spades.train.game import GAME

CARDS = [rank + suit for suit in "CDHS" for rank in "23456789TJQKA"]
# North (the dealer's left when West deals): five spades with the ace and king, the ace and
# a guarded king of hearts, three low diamonds and two low clubs
NORTH = "AS KS 5S 4S 3S AH KH 2H 2D 3D 4D 2C 3C".split()


def _deal(north=NORTH):
    """West deals; North holds `north`, East, South and West the rest in card order."""
    rest = [c for c in CARDS if c not in north]
    return Hand("W", {"N": north, "E": rest[:13], "S": rest[13:26], "W": rest[26:]})


def _decide(hand):
    moves = np.empty(MOVES_BUFFER, np.int64)
    n, kind, key = abstract_decision(hand.state, moves)
    return n, kind, int(key), moves[:n].tolist()


def _decisions(n_hands: int, seed: int):
    """(state, its decision) at every decision of `n_hands` random hands, half the moves the
    abstraction's, half any legal move."""
    rng = new_rng(seed)
    chooser = np.random.default_rng(seed)
    moves = np.empty(MOVES_BUFFER, np.int64)
    legal = np.empty(16, np.int64)
    for _ in range(n_hands):
        state = S.new_state()
        S.random_hand(rng, state, 0, 0)
        while state[S.PHASE] != S.PHASE_OVER:
            n, kind, key = abstract_decision(state, moves)
            yield state.copy(), int(n), int(kind), int(key), moves[:n].copy()
            if chooser.random() < 0.5:
                move = int(moves[chooser.integers(n)])
            else:
                move = int(legal[chooser.integers(legal_moves(state, legal))])
            apply_move(state, move)


def test_signatures_agree_with_the_core():
    for name in ("CURRENT_PLAYER_SIG", "DECISION_SIG", "APPLY_SIG", "UTILITY_SIG",
                 "CHANCE_OUTCOMES_SIG", "CHANCE_SAMPLE_SIG"):
        assert getattr(G, name) == getattr(cfr_game, name), name
    assert (G.CHANCE, G.TERMINAL) == (CHANCE, TERMINAL)


def test_worked_bid_keys():
    hand = _deal()
    # North bids first (place 0), nobody has bid. Expected tricks: AS, KS (with another
    # spade), two spades past the third, AH, KH (guarded) = 6; the ace and king of spades,
    # five spades. Actions: Nil, then one under the estimate to two over.
    n, kind, key, moves = _decide(hand)
    assert (n, kind, key_text(key)) == (5, 0, "B0--0 e6AK-5")
    assert action_names(key_text(key), n) == ["Nil", "5", "6", "7", "8"]
    assert moves == [52, 57, 58, 59, 60]  # the engine's bids: 52 + Nil (0), 5 .. 8
    hand.play("6")
    # East (place 1): eleven clubs to the ace and king (2 tricks) and 5D 6D, no spade (so
    # no credit for its voids); one opponent's bid, 6, is in the bucket "six or more" (3)
    n, _, key, _ = _decide(hand)
    assert key_text(key) == "B1--3 e2---0"
    hand.play("3")
    # South (place 2): its partner North bid 6, the one opponent 3 (bucket 1: up to 3)
    n, _, key, _ = _decide(hand)
    assert key_text(key) == "B26-1 e2---0"
    hand.play("2")
    # West, the dealer (place 3): eight spades to the queen (the queen, five past the third)
    # and two voids beside them (clubs, diamonds) = 8; partner East bid 3, opponents 6 + 2
    n, _, key, _ = _decide(hand)
    assert (n, key_text(key)) == (5, "B33-3 e8--Q5")
    assert action_names(key_text(key), n) == ["Nil", "7", "8", "9", "10"]


def test_a_partner_bid_leaving_few_bids_gives_fewer_actions():
    hand = _deal()
    hand.play("11")  # North bids 11, East 1: South may bid at most 2
    hand.play("1")
    n, _, key, moves = _decide(hand)
    assert key_text(key).startswith("B2b")  # partner's 11 is written b
    assert n == 3 and moves == [52, 53, 54] and action_names(key_text(key), n) == [
        "Nil", "1", "2"]


def test_worked_play_key():
    hand = _deal()
    for bid in ("6", "3", "2", "Nil"):
        hand.play(bid)
    # North leads trick 0: we (N-S) need 6 + 2 = 8 (written capped, 7), they 3 + Nil = 3;
    # West's Nil is alive; no spade played; eight spades unseen (bucket 3). The legal leads
    # are the side cards: AH and KH are the boss of hearts (S0-, KH the lower represents it),
    # every other side card has three or more unseen cards above it (S3-, the 2 of clubs
    # represents them). North's team is not the dealer's ('), a spade lead is not legal.
    n, kind, key, moves = _decide(hand)
    assert (n, kind, key_text(key)) == (2, 1, "P00---73--n-3 S0-.S3-'")
    assert moves == [CARDS.index("KH"), CARDS.index("2C")]
    hand.play("KH")
    # East follows with no heart (clubs and diamonds only): it may play anything; North (an
    # opponent) is winning with a side card. East holds every club from the 4 up, so no club
    # has an unseen one above it (S0-, the 4 represents them); 5D 6D have (S3-).
    n, _, key, moves = _decide(hand)
    assert key_text(key) == "P10-o-37-n--3 S0-.S3-"
    assert moves == [CARDS.index("4C"), CARDS.index("5D")]


def test_past_the_learned_tricks_the_heuristics_card_is_forced():
    hand = _deal()
    for bid in ("6", "3", "2", "Nil"):
        hand.play(bid)
    moves = np.empty(MOVES_BUFFER, np.int64)
    while hand.state[S.TRICK_NUMBER] < LEARNED_TRICKS:
        n, _, _ = abstract_decision(hand.state, moves)
        apply_move(hand.state, int(moves[0]))
    while hand.state[S.PHASE] != S.PHASE_OVER:
        n, kind, key = abstract_decision(hand.state, moves)
        assert (n, kind, int(key)) == (1, 2, 0)
        assert moves[0] == heuristic_move(hand.state)
        apply_move(hand.state, int(moves[0]))


def test_expected_tricks_are_the_heuristics_count():
    checked = 0
    for state, *_ in _decisions(100, 5):
        if state[S.PHASE] == S.PHASE_BID:
            hand = int(state[S.HAND + int(state[S.TO_ACT])])
            bid = heuristic_bid(hand, 13)  # the key's trick count is the heuristic's bid
            assert expected_tricks(hand) == bid or bid == 0
            checked += 1
    assert checked == 400


def _shuffle_hidden(state: np.ndarray, chooser) -> np.ndarray:
    """The state with the other seats' unplayed cards dealt again among them, each keeping
    its count: what the acting seat cannot see."""
    seat = int(state[S.TO_ACT])
    out = state.copy()
    others = [s for s in range(4) if s != seat]
    pool = [c for s in others for c in range(52) if state[S.HAND + s] >> c & 1]
    chooser.shuffle(pool)
    for s in others:
        mask = 0
        for _ in range(bin(int(state[S.HAND + s])).count("1")):
            mask |= 1 << pool.pop()
        out[S.HAND + s] = mask
    return out


def test_keys_depend_only_on_what_the_seat_knows():
    chooser = np.random.default_rng(3)
    moves = np.empty(MOVES_BUFFER, np.int64)
    checked = 0
    for state, n, kind, key, acts in _decisions(60, 11):
        views = [SeatView.of(state, 0).state] + [_shuffle_hidden(state, chooser)]
        for other in views:
            n2, kind2, key2 = abstract_decision(other, moves)
            assert (n2, kind2, int(key2)) == (n, kind, key), key_text(key)
            assert np.array_equal(moves[:n2], acts)
        checked += 1
    assert checked > 2000


def test_equal_keys_carry_the_same_actions_and_the_codec_round_trips():
    seen: dict[int, tuple] = {}
    legal = np.empty(16, np.int64)
    for state, n, kind, key, acts in _decisions(200, 12):
        assert set(acts.tolist()) <= set(legal[:legal_moves(state, legal)].tolist())
        assert len(set(acts.tolist())) == n
        if n < 2:
            assert key == 0
            continue
        text = key_text(key)
        assert text_key(text) == key and key_kind(text) == kind
        names = action_names(text, n)
        assert "?" not in "".join(names)
        if kind == 0:  # a bid key names its bids exactly
            assert names == ["Nil"] + [str(m - 52) for m in acts[1:]]
        assert seen.setdefault(key, (n, tuple(names))) == (n, tuple(names))
    assert len(seen) > 1000
    for bad in ("P00---83--n-3 S0-", "B0--0 e6AK-8", "P00---73--n-3 X0-", "Q", "",
                "P19-o-66----3 S0-.S3-'"):
        with pytest.raises(KeyTextError, match="bad Spades key"):
            text_key(bad)  # need 8 > 7, spades 8 > 7, a bad token, no such kind, and a
            # trick count of 9 overflowing its two bits (was a raw IndexError before)


class _SameCount(tuple):
    """An action list equal to any list of the same length (equal keys, same card classes)."""

    def __eq__(self, other):
        return len(self) == len(other)

    __hash__ = tuple.__hash__


class _AbstractKeys(dict):
    def setdefault(self, key, value):
        return super().setdefault(key, (value[0], _SameCount(value[1])))


def test_the_abstract_game_honours_the_interface_and_scores_the_hand():
    checker = Checker(GAME)
    checker.keys = _AbstractKeys()
    rng = np.random.default_rng(12345)
    counter = 0

    def step(state, actions, probs):
        nonlocal counter
        if int(GAME.current_player(state)) == CHANCE:
            counter += 1
            out = np.zeros(GAME.state_size, dtype=np.int64)
            outcome = int(GAME.chance_sample(state, word(np.uint64(99), np.uint64(counter)),
                                             out))
            assert outcome in actions
            assert np.array_equal(out, checker.child(state, outcome))
            return out
        child = checker.child(state, actions[rng.integers(len(actions))])
        if int(GAME.current_player(child)) == TERMINAL:  # the hand's points, in tens
            assert GAME.utility(child) == score_difference(child) / 10
        return child

    terminals = sum(play_out(checker, GAME, step) for _ in range(100))
    assert terminals == 100 and len(checker.keys) > 500
