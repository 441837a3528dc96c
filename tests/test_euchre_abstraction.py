"""The Euchre abstraction (`games/euchre/abstraction`): keys depend only on what the acting seat
knows, equal keys carry the same actions, worked keys on a hand-made deal, the codec, and the
abstract game honours the CFR game interface (`tests/test_game_conformance.py`'s checks; a key
there must carry one action list, here one abstract action list: the same card classes, whose
representative cards differ from deal to deal)."""

from __future__ import annotations

import numpy as np
import pytest
from test_game_conformance import PLAYOUTS, Checker, play_out, root  # noqa: F401

from games.euchre.abstraction import abstract_game as G
from games.euchre.abstraction.codec import KeyTextError, action_names, key_kind, key_text, text_key
from games.euchre.abstraction.keys import MOVES_BUFFER, abstract_decision, discard_rule
from cfr import game as cfr_game
from cfr.game import CHANCE, TERMINAL
from cfr.rng import word
from games.euchre import state as S
from games.euchre.api import Hand
from games.euchre.rules import apply_move, legal_moves
from games.euchre.view import SeatView
from games.rng import new_rng
from games.euchre.train.game import GAME


def _decisions(n_hands: int, seed: int):
    """(state, its decision) at every decision of `n_hands` random hands."""
    rng = new_rng(seed)
    chooser = np.random.default_rng(seed)
    moves = np.empty(MOVES_BUFFER, np.int64)
    legal = np.empty(8, np.int64)
    for _ in range(n_hands):
        state = S.new_state()
        S.random_hand(rng, state, 1)
        while state[S.PHASE] != S.PHASE_OVER:
            n, kind, key = abstract_decision(state, moves)
            yield state.copy(), int(n), int(kind), int(key), moves[:n].copy()
            if chooser.random() < 0.5:
                move = int(moves[chooser.integers(n)])
            else:
                move = int(legal[chooser.integers(legal_moves(state, legal))])
            apply_move(state, move)


def _shuffle_hidden(state: np.ndarray, chooser) -> np.ndarray:
    """The state with the other seats' unplayed cards (and the dealer's discard, for the
    others) dealt again among them, each keeping its count: what the acting seat cannot see."""
    seat = int(state[S.TO_ACT])
    out = state.copy()
    others = [s for s in range(4) if s != seat]
    pool = [c for s in others for c in range(24) if state[S.HAND + s] >> c & 1]
    hidden_discard = seat != 0 and state[S.DISCARD] >= 0
    if hidden_discard:
        pool.append(int(state[S.DISCARD]))
    if state[S.PHASE] in (S.PHASE_ORDER, S.PHASE_NAME):  # the unseen rest of the deck too
        seen = (state[S.PLAYED] | state[S.HAND + seat]) | (1 << int(state[S.UPCARD]))
        for s in others:
            seen |= state[S.HAND + s]
        pool += [c for c in range(24) if not seen >> c & 1]
    chooser.shuffle(pool)
    for s in others:
        count = bin(int(state[S.HAND + s])).count("1")
        if s == 0 and state[S.PHASE] != S.PHASE_DISCARD and state[S.MAKER] >= 0 \
                and state[S.N_PASSES] < 4 and not state[S.PLAYED] >> int(state[S.UPCARD]) & 1:
            # the dealer holds the ordered-up upcard (public): keep it, redeal the rest
            count -= 1
            mask = 1 << int(state[S.UPCARD])
        else:
            mask = 0
        for _ in range(count):
            mask |= 1 << pool.pop()
        out[S.HAND + s] = mask
        out[S.DEALT + s] = mask
    if hidden_discard:
        out[S.DISCARD] = pool.pop()
    return out


def test_signatures_agree_with_the_core():
    for name in ("CURRENT_PLAYER_SIG", "DECISION_SIG", "APPLY_SIG", "UTILITY_SIG",
                 "CHANCE_OUTCOMES_SIG", "CHANCE_SAMPLE_SIG"):
        assert getattr(G, name) == getattr(cfr_game, name), name
    assert (G.CHANCE, G.TERMINAL) == (CHANCE, TERMINAL)


def test_keys_depend_only_on_what_the_seat_knows():
    chooser = np.random.default_rng(3)
    moves = np.empty(MOVES_BUFFER, np.int64)
    checked = 0
    for state, n, kind, key, acts in _decisions(300, 11):
        seat = int(state[S.TO_ACT])
        views = [SeatView.of(state, 0).state]  # other hands (and the discard) erased
        views += [_shuffle_hidden(state, chooser) for _ in range(2)]
        for other in views:
            assert other[S.HAND + seat] == state[S.HAND + seat]
            n2, kind2, key2 = abstract_decision(other, moves)
            assert (n2, kind2, int(key2)) == (n, kind, key), key_text(key)
            assert np.array_equal(moves[:n2], acts)
        checked += 1
    assert checked > 3000


def test_equal_keys_carry_the_same_actions_and_the_codec_round_trips():
    seen: dict[int, tuple] = {}
    for state, n, kind, key, acts in _decisions(300, 12):
        assert 1 <= n <= 5
        legal = np.empty(8, np.int64)
        assert set(acts.tolist()) <= set(legal[:legal_moves(state, legal)].tolist())
        if n < 2:
            assert key == 0
            continue
        text = key_text(key)
        assert text_key(text) == key
        assert key_kind(text) == kind
        names = action_names(text, n)
        assert "?" not in "".join(names)
        assert seen.setdefault(key, (n, tuple(names), kind)) == (n, tuple(names), kind)
        if kind in (0, 1, 2):  # auction and alone actions are the same moves up to the suits
            assert seen[key][0] == n
    assert len(seen) > 1000
    with pytest.raises(KeyTextError):
        text_key("P0p102-o-9 S0+")  # unseen trumps out of range


def test_worked_keys_on_a_hand_made_deal():
    # South deals: West is the dealer's left (seat 1), North the partner, East the right.
    hand = Hand("S", {"W": ["JH", "JD", "AH", "9H", "AC"], "N": ["9C", "TC", "QC", "KC", "9S"],
                      "E": ["TS", "QS", "KS", "AS", "TD"], "S": ["QD", "KD", "AD", "9D", "TH"]},
                "QH")
    moves = np.empty(MOVES_BUFFER, np.int64)
    n, kind, key = abstract_decision(hand.state, moves)
    # West, hearts as trump: right (JH), left (JD), the ace, one low trump (9H), AC; voids
    # in diamonds (JD is a trump) and spades
    assert (n, kind) == (2, 0) and key_text(key) == "O1Q RLA1a1v2"
    assert action_names(key_text(key), n) == ["P", "order"]
    hand.play("H")  # West orders up: the dealer picks up QH and discards by the rule
    n, kind, key = abstract_decision(hand.state, moves)
    assert (n, kind) == (1, 4)
    # the dealer's hand QD KD AD 9D TH QH: TH is a trump, the diamonds no single non-ace
    assert hand.state[S.HAND] >> int(moves[0]) & 1 and hand.hand("S").count("9D")
    assert int(moves[0]) == discard_rule(int(hand.state[S.HAND]), int(hand.state[S.UPCARD]), 2)
    assert moves[0] == 6 * 1 + 0  # 9D: the lowest non-ace side card
    hand.play("9D")
    n, kind, key = abstract_decision(hand.state, moves)
    assert (n, kind) == (2, 2) and key_text(key) == "A11 RLA1a1v2"
    hand.play("partner")
    n, kind, key = abstract_decision(hand.state, moves)  # West leads the first trick
    # role 0 (maker), 0-0 tricks, leading; unseen trumps: QH KH TH (3); tokens: the bowers
    # and AH are unbeaten trumps (T0-), 9H has the three unseen above it (T3-), AC is the
    # boss of clubs (S0-)
    assert kind == 3 and key_text(key) == "P0p000---3 S0-.T0-.T3-'"  # West: not the dealer's
    assert action_names(key_text(key), n) == ["S0-", "T0-", "T3-"]
    # T0- is represented by the weakest of JH JD AH: the ace of hearts
    assert [hand.state[S.HAND + 1] >> int(c) & 1 for c in moves[:n]] == [1, 1, 1]
    assert moves[1] == 2 * 6 + 5 and moves[2] == 2 * 6 + 0 and moves[0] == 5
    hand.play("AH")
    n, kind, key = abstract_decision(hand.state, moves)  # North follows: 9C TC QC KC 9S
    # North (the dealer's partner, a defender: role 1) is second (position 1) to a trump lead
    # the opponent wins with a trump; North has none and may play anything. Clubs: KC and QC
    # have only AC above them unseen (S1-), TC and 9C have JC and AC (the kitty's JC is
    # unseen too: S2-), 9S has TS JS QS KS AS (S3-)
    assert key_text(key) == "P1p001ToT3 S1-.S2-.S3-"
    assert action_names(key_text(key), n) == ["S1-", "S2-", "S3-"]
    assert moves.tolist()[:3] == [0 * 6 + 3, 0 * 6 + 0, 3 * 6 + 0]  # QC, 9C (the lowest), 9S


class _SameCount(tuple):
    """An action list equal to any list of the same length (equal keys, same card classes)."""

    def __eq__(self, other):
        return len(self) == len(other)

    __hash__ = tuple.__hash__


class _AbstractKeys(dict):
    def setdefault(self, key, value):
        return super().setdefault(key, (value[0], _SameCount(value[1])))


def test_the_abstract_game_honours_the_interface():
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
        return checker.child(state, actions[rng.integers(len(actions))])

    terminals = sum(play_out(checker, GAME, step) for _ in range(PLAYOUTS // 4))
    assert terminals == PLAYOUTS // 4 and len(checker.keys) > 500


def test_settled_hands_end_early_with_the_hands_points():
    """The abstract game stops once the points cannot change; played on, the engine gives the
    same points."""
    from games.euchre.scoring import score_difference

    rng = np.random.default_rng(5)
    actions = np.empty(GAME.max_actions, np.int64)
    keys = np.zeros(1, np.uint64)
    for h in range(200):
        state = root(GAME)
        step = 0
        while int(GAME.current_player(state)) == CHANCE:
            out = np.empty_like(state)
            GAME.chance_sample(state, word(np.uint64(7), np.uint64(100 * h + step)), out)
            state, step = out, step + 1
        while int(GAME.current_player(state)) != TERMINAL:
            n = int(GAME.decision(state, actions, keys))
            out = np.empty_like(state)
            GAME.apply(state, int(actions[rng.integers(n)]), out)
            state = out
        u = float(GAME.utility(state))
        assert u in (-4.0, -2.0, -1.0, 1.0, 2.0, 4.0)
        legal = np.empty(8, np.int64)
        while state[S.PHASE] != S.PHASE_OVER:
            apply_move(state, int(legal[rng.integers(legal_moves(state, legal))]))
        assert float(score_difference(state)) == u
