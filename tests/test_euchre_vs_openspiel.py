"""Our Euchre engine is OpenSpiel 2.0.2's `euchre`, decision by decision.

Random hands are driven through pyspiel's `euchre` and through our numba engine in lockstep:
OpenSpiel's chance outcomes (the dealer, then the cards one at a time from the dealer round the
table, then the upcard) become our deal; at every decision the seat to act and the set of legal
moves must agree (OpenSpiel's action ids mapped to our moves: its cards are `rank * 4 + suit`,
its other actions are numbered as ours), a random legal move is applied to both, and at the end
both must be over with the same points. The first disagreement fails the test with the hand
written as `setback-cfr replay --game euchre` input and both legal sets side by side.

`bench/euchre_vs_openspiel.py` runs the same driver on as many hands as asked.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pytest

from games.euchre import state as S
from games.euchre.api import format_move
from games.euchre.cards import SEAT_CHARS, format_card, from_openspiel_card
from games.euchre.rules import apply_move, legal_mask
from games.euchre.scoring import hand_score

OS_SEATS = "NESW"  # OpenSpiel's players 0..3
N_CARDS = 24


def our_move(action: int) -> int:
    """Our move number of an OpenSpiel action id (cards renumbered, other actions equal)."""
    return from_openspiel_card(action) if action < N_CARDS else action


OUR_MOVE = [our_move(a) for a in range(31)]


def moves_text(mask: int) -> list[str]:
    """Text of the moves in a legal-move mask, in our canonical order."""
    return [format_move(m) for m in range(31) if mask >> m & 1]


def hand_spec(dealer_os: int, hands_rel, upcard: int, moves: list[int], stick: bool) -> dict:
    """The hand as `setback-cfr replay --game euchre` input (for the failure message)."""
    dealer = OS_SEATS[dealer_os]
    d = SEAT_CHARS.index(dealer)
    spec = {"dealer": dealer,
            "hands": {SEAT_CHARS[(d + rel) % 4]: [format_card(c) for c in range(N_CARDS)
                                                  if int(hands_rel[rel]) >> c & 1]
                      for rel in range(4)},
            "upcard": format_card(upcard), "moves": [format_move(m) for m in moves]}
    if not stick:
        spec["stick_the_dealer"] = False
    return spec


def openspiel_hand(info: str) -> set[str]:
    """The acting player's cards from OpenSpiel's information state string (its `Hand:`
    section: one line a suit, `S KQJT9` or `S none`), as our card texts."""
    lines = info.split("Hand:\n", 1)[1].splitlines()[:4]
    cards = set()
    for line in lines:
        suit, ranks = line[0], line[2:]
        if ranks != "none":
            cards |= {rank + suit for rank in ranks}
    return cards


def compare_hand(game, seed: int, state: np.ndarray, stick: bool = True,
                 seen: Counter | None = None, check_hands: bool = False) -> str | None:
    """Play hand `seed` in lockstep through pyspiel's `game` and our engine (in `state`);
    return None when they agree throughout, else a readable description of the first
    disagreement. `seen`, when given, counts the decisions checked and the kinds of hand met
    (so a test can show the agreement covered every rule). With `check_hands`, the acting
    seat's cards must also be those of OpenSpiel's information state (the upcard picked up,
    the discard gone, every card played leaving its holder). Every fourth hand passes with
    probability 0.85 (when allowed) so the second round and the stuck dealer come up often;
    the others choose uniformly."""
    rng = random.Random(seed)
    pass_bias = 0.85 if seed % 4 == 3 else None
    ours = state
    os_state = game.new_initial_state()
    dealer = rng.randrange(4)
    os_state.apply_action(dealer)
    deck = list(range(N_CARDS))
    rng.shuffle(deck)
    hands = np.zeros(4, np.int64)
    for k in range(4 * S.HAND_SIZE):  # OpenSpiel deals card k to the dealer + k
        os_state.apply_action(deck[k])
        hands[k % 4] |= 1 << from_openspiel_card(deck[k])
    os_state.apply_action(deck[4 * S.HAND_SIZE])
    upcard = from_openspiel_card(deck[4 * S.HAND_SIZE])
    S.reset_hand(ours, hands, upcard, int(stick))
    moves: list[int] = []

    def diff(what: str) -> str:
        spec = hand_spec(dealer, hands, upcard, moves, stick)
        return (f"hand seed {seed}: {what}\n  after moves {spec['moves']}\n"
                f"  replay input: {json.dumps(spec)}")

    while not os_state.is_terminal():
        if os_state.is_chance_node():
            return diff("OpenSpiel has a chance node after the deal")
        if ours[S.PHASE] == S.PHASE_OVER:
            return diff("our hand is over, OpenSpiel's is not")
        os_seat = (os_state.current_player() - dealer) % 4
        if os_seat != ours[S.TO_ACT]:
            return diff(f"seat to act: OpenSpiel {OS_SEATS[os_state.current_player()]}, ours "
                        f"{OS_SEATS[(dealer + int(ours[S.TO_ACT])) % 4]}")
        actions = os_state.legal_actions()
        expected = 0
        for a in actions:
            expected |= 1 << OUR_MOVE[a]
        got = int(legal_mask(ours))
        if got != expected:
            return diff(f"legal moves of {OS_SEATS[os_state.current_player()]}: OpenSpiel "
                        f"{moves_text(expected)} "
                        f"({[os_state.action_to_string(a) for a in actions]}), ours "
                        f"{moves_text(got)}")
        if check_hands:
            theirs = openspiel_hand(os_state.information_state_string())
            mine = set(moves_text(int(ours[S.HAND + ours[S.TO_ACT]])))
            if theirs != mine:
                return diff(f"cards of {OS_SEATS[os_state.current_player()]}: OpenSpiel "
                            f"{sorted(theirs)}, ours {sorted(mine)}")
            if seen is not None:
                seen["hands checked card by card"] += not moves
        if pass_bias is not None and 24 in actions and rng.random() < pass_bias:
            action = 24
        else:
            action = actions[rng.randrange(len(actions))]
        if seen is not None:
            seen["decisions"] += 1
            if ours[S.PHASE] == S.PHASE_NAME and ours[S.N_PASSES] == 7:
                seen["dealer at the last call"] += 1
            if ours[S.PHASE] == S.PHASE_PLAY and ours[S.N_IN_TRICK] > 0:
                trump = int(ours[S.TRUMP])
                if legal_mask(ours) >> (6 * (3 - trump) + 2) & 1:
                    seen["left bower among the legal cards"] += 1
        os_state.apply_action(action)
        apply_move(ours, OUR_MOVE[action])
        moves.append(OUR_MOVE[action])
    if ours[S.PHASE] != S.PHASE_OVER:
        return diff("OpenSpiel's hand is over, ours is not")
    returns = os_state.returns()
    score = hand_score(ours)
    for player in range(4):
        team = (player - dealer) % 4 % 2
        mine = int(score[team] - score[1 - team])
        if mine != returns[player]:
            return diff(f"points: OpenSpiel returns {returns}, ours by dealer-relative team "
                        f"{[int(score[0]), int(score[1])]}")
    if seen is not None:
        seen["hands"] += 1
        if ours[S.MAKER] < 0:
            seen["all passed"] += 1
        else:
            seen["ordered up" if ours[S.DISCARD] >= 0 else "named in round two"] += 1
            seen["alone" if ours[S.ALONE] == 1 else "with partner"] += 1
            seen[f"makers' returns {int(returns[(dealer + int(ours[S.MAKER])) % 4]):+d}"] += 1
    return None


def compare_hands(first: int, count: int, stick: bool = True, progress=None,
                  check_hands: int = 0) -> tuple[Counter, str | None]:
    """Compare hands `first` .. `first + count - 1`; return (what was checked, the first
    disagreement or None). The first `check_hands` hands also compare the acting seat's cards
    at every decision. `progress`, when given, is called after every hand."""
    import pyspiel

    game = pyspiel.load_game("euchre", {"stick_the_dealer": stick})
    state = S.new_state()
    seen: Counter = Counter()
    for seed in range(first, first + count):
        problem = compare_hand(game, seed, state, stick, seen, seed < first + check_hands)
        if problem is not None:
            return seen, problem
        if progress is not None:
            progress()
    return seen, None


def test_ten_thousand_random_hands_agree_with_openspiel():
    pytest.importorskip("pyspiel")
    seen, problem = compare_hands(0, 10_000, check_hands=1_000)
    assert problem is None, problem
    assert seen["hands"] == 10_000 and seen["decisions"] > 200_000
    assert seen["hands checked card by card"] == 1_000
    # every rule was exercised many times: both rounds, the stuck dealer, alone and not,
    # the left bower following trump, and every possible score for the makers
    for kind in ("ordered up", "named in round two", "dealer at the last call", "alone",
                 "with partner", "left bower among the legal cards", "makers' returns -2",
                 "makers' returns +1", "makers' returns +2", "makers' returns +4"):
        assert seen[kind] >= 20, (kind, seen)
    assert seen["all passed"] == 0  # stick the dealer


def test_without_stick_the_dealer_all_pass_hands_agree_with_openspiel():
    pytest.importorskip("pyspiel")
    seen, problem = compare_hands(50_000, 1_000, stick=False)
    assert problem is None, problem
    assert seen["all passed"] >= 20, seen


def test_a_disagreement_is_reported_readably():
    """The driver's report names the hand, the moves so far and both legal sets: checked by
    comparing against OpenSpiel with the stick-the-dealer rules mismatched, which must fail
    exactly where the dealer is stuck."""
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("euchre", {"stick_the_dealer": False})
    state = S.new_state()
    for seed in range(3, 400, 4):  # the pass-biased hands
        problem = compare_hand(game, seed, state, stick=True)
        if problem is not None:
            break
    assert problem is not None
    assert problem.startswith(f"hand seed {seed}: legal moves of ")
    assert "OpenSpiel ['P'," in problem and "ours [" in problem
    spec = json.loads(problem.split("replay input: ")[1])
    assert spec["moves"] == ["P"] * 7 and len(spec["hands"]) == 4
