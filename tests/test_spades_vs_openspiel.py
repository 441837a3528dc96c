"""Our Spades engine is OpenSpiel 2.0.2's `spades`, decision by decision, hand by hand.

Random hands are driven through pyspiel's `spades` and through our numba engine in lockstep.
OpenSpiel deals card k of its chance nodes to its player k % 4 (North first) and its North
bids and leads first, so its dealer is West: its player p is our seat p + 1 relative to the
dealer, its partnership 0 (N-S) our team 1 and its partnership 1 (E-W) our team 0. Moves are
the same numbers in both (cards `suit * 13 + rank`, bids 52 + bid). At every decision the seat
to act, the acting seat's cards and the legal moves must agree; a random legal move is applied
to both; at the end both must be over with the same returns and the same game scores
(`get_current_scores`, after `set_current_scores` with the game score before the hand). Whole
games chain hands at the game score, the dealer passing left, until our game to 500 ends. The
first disagreement fails with the hand written as `setback-cfr replay --game spades` input.

`bench/spades_vs_openspiel.py` runs the same driver on as many hands and games as asked.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pytest

from games.scaffold.table import SEAT_CHARS, absolute_team, next_dealer
from games.spades import state as S
from games.spades.api import format_move
from games.spades.cards import format_cards
from games.spades.rules import BID_MOVE, apply_move, legal_moves
from games.spades.scoring import game_winner, hand_score, returns_of

OS_SEATS = "NESW"  # OpenSpiel's players 0..3
FIRST_DEALER = 0  # West


def hand_spec(dealer: int, hands, moves: list[int], score) -> dict:
    """The hand as `setback-cfr replay --game spades` input (for the failure message)."""
    return {"dealer": SEAT_CHARS[dealer],
            "hands": {SEAT_CHARS[(dealer + rel) % 4]: format_cards(int(hands[rel]))
                      for rel in range(4)},
            "moves": [format_move(m) for m in moves],
            "score": {"NS": int(score[1]), "EW": int(score[0])}}


def choose_bid(rng: random.Random, actions: list[int], style: str) -> int:
    """A bid among `actions`: `uniform`; `low`, Nil one time in three and else 1..3, so
    contracts are made, bags pile up and Nil bids are made as well as set; `safe`, 1..3 (games
    that reach 500)."""
    if style == "uniform":
        return actions[rng.randrange(len(actions))]
    if style == "low" and rng.random() < 1 / 3:
        return BID_MOVE
    return min(BID_MOVE + rng.randint(1, 3), actions[-1])


def compare_hand(game, seed: int, state: np.ndarray, dealer: int = FIRST_DEALER,
                 score=(0, 0), seen: Counter | None = None, style: str | None = None
                 ) -> str | None:
    """Play hand `seed` (dealt by `dealer`, 0..3 = W N E S, at the game score `score` by
    absolute team EW, NS) in lockstep through pyspiel's `game` and our engine (in `state`);
    return None when they agree throughout, else a readable description of the first
    disagreement. `seen`, when given, counts the decisions checked and the kinds of hand met.
    `style`: how the seats bid (`choose_bid`); by default `low` in every other hand, else
    `uniform`."""
    rng = random.Random(seed)
    style = style or ("low" if seed % 2 else "uniform")
    rel_score = [int(score[absolute_team(t, dealer)]) for t in (0, 1)]
    os_state = game.new_initial_state()
    os_state.set_current_scores([rel_score[1], rel_score[0]])  # [N-S, E-W]
    deck = list(range(52))
    rng.shuffle(deck)
    hands = np.zeros(4, np.int64)
    for k, card in enumerate(deck):  # OpenSpiel deals card k to its player k % 4
        os_state.apply_action(card)
        hands[(k % 4 + 1) % 4] |= 1 << card
    S.reset_hand(state, hands, rel_score[0], rel_score[1])
    moves: list[int] = []
    buffer = np.empty(14, np.int64)

    def diff(what: str) -> str:
        spec = hand_spec(dealer, hands, moves, score)
        return (f"hand seed {seed}: {what}\n  after moves {spec['moves']}\n"
                f"  replay input: {json.dumps(spec)}")

    while not os_state.is_terminal():
        if os_state.is_chance_node():
            return diff("OpenSpiel has a chance node after the deal")
        if state[S.PHASE] == S.PHASE_OVER:
            return diff("our hand is over, OpenSpiel's is not")
        player = os_state.current_player()
        seat = int(state[S.TO_ACT])
        if (player + 1) % 4 != seat:
            return diff(f"seat to act: OpenSpiel {OS_SEATS[player]}, ours "
                        f"{OS_SEATS[(seat + 3) % 4]} (OpenSpiel's names)")
        theirs = np.flatnonzero(os_state.private_observation_tensor(player)).tolist()
        mine = [c for c in range(52) if int(state[S.HAND + seat]) >> c & 1]
        if theirs != mine:
            return diff(f"cards of {OS_SEATS[player]}: OpenSpiel {theirs}, ours {mine}")
        actions = os_state.legal_actions()
        n = legal_moves(state, buffer)
        if buffer[:n].tolist() != actions:
            return diff(f"legal moves of {OS_SEATS[player]}: OpenSpiel "
                        f"{[os_state.action_to_string(a) for a in actions]}, ours "
                        f"{[format_move(m) for m in buffer[:n].tolist()]}")
        if state[S.PHASE] == S.PHASE_BID:
            action = choose_bid(rng, actions, style)
        else:
            action = actions[rng.randrange(len(actions))]
            if seen is not None and state[S.N_IN_TRICK] == 0 and state[S.TRICK_NUMBER] > 0:
                seen["leads after a spade was played" if int(state[S.PLAYED]) >> 39
                     else "leads before any spade"] += 1
        if seen is not None:
            seen["decisions"] += 1
        os_state.apply_action(action)
        apply_move(state, action)
        moves.append(action)
    if state[S.PHASE] != S.PHASE_OVER:
        return diff("OpenSpiel's hand is over, ours is not")
    scores = hand_score(state)
    points = returns_of(*scores)
    returns = os_state.returns()
    for player in range(4):
        if returns[player] != points[(player + 1) % 2]:
            return diff(f"returns: OpenSpiel {returns} (N E S W), ours by dealer-relative "
                        f"team {[int(points[0]), int(points[1])]}")
    after = [rel_score[t] + int(scores[t]) for t in (0, 1)]
    if list(os_state.get_current_scores()) != [after[1], after[0]]:
        return diff(f"game score after the hand: OpenSpiel {os_state.get_current_scores()} "
                    f"(N-S, E-W), ours by dealer-relative team {after}")
    if seen is not None:
        count_hand(state, scores, points, seen)
    return None


def count_hand(state: np.ndarray, scores, points, seen: Counter) -> None:
    """Count the kinds of result a finished hand showed (so a test can see that the agreement
    covered every scoring rule)."""
    seen["hands"] += 1
    for seat in range(4):
        if state[S.BID + seat] == 0:
            seen["nil made" if state[S.TAKEN + seat] == 0 else "nil set"] += 1
    for team in range(2):
        bid = int(state[S.BID + team] + state[S.BID + team + 2])
        taken = int(state[S.TAKEN + team] + state[S.TAKEN + team + 2])
        seen["contract made" if taken >= bid else "contract set"] += 1
        bags = int(state[S.SCORE + team]) % 10 + taken - bid
        if taken >= bid and int(state[S.SCORE + team]) >= 0 and bags >= 10:
            seen["bags rolled over"] += 1
        if taken >= bid and int(state[S.SCORE + team]) % 10 and state[S.SCORE + team] < 0:
            seen["bags at a negative score"] += 1
    if points[0] != scores[0] or points[1] != scores[1]:
        seen["returns with OpenSpiel's bonus"] += 1


def compare_game(game, seed: int, state: np.ndarray, seen: Counter | None = None,
                 max_hands: int = 200) -> str | None:
    """Play game `seed` to 500 (or the mercy rule), each hand compared by `compare_hand` at
    the game score so far, West dealing first; return the first disagreement or None. In an
    even game every hand bids `safe` (so games reach 500), in an odd one as `compare_hand`
    chooses."""
    score = [0, 0]  # by absolute team: EW, NS
    dealer = FIRST_DEALER
    for index in range(max_hands):
        hand_seed = seed * 1000 + index
        problem = compare_hand(game, hand_seed, state, dealer, tuple(score), seen,
                               "safe" if seed % 2 == 0 else None)
        if problem is not None:
            return f"game {seed}, hand {index}: {problem}"
        scores = hand_score(state)
        for t in (0, 1):
            score[absolute_team(t, dealer)] += int(scores[t])
        if game_winner(score[0], score[1]) >= 0:
            if seen is not None:
                seen["games"] += 1
                seen["game won at 500" if max(score) >= 500 else "game ended by mercy"] += 1
            return None
        dealer = next_dealer(dealer)
    return f"game {seed}: undecided after {max_hands} hands at {score}"


def random_score(rng: random.Random) -> tuple[int, int]:
    """A game score (EW, NS) either side of zero, so bags and negative scores come up."""
    return rng.randint(-340, 490), rng.randint(-340, 490)


def compare_hands(first: int, count: int, games: int = 0, progress=None
                  ) -> tuple[Counter, str | None]:
    """Compare hands `first` .. `first + count - 1` (a third at 0 to 0, the others at a random
    game score, dealt by a random seat), then `games` whole games from seed `first`; return
    (what was checked, the first disagreement or None). `progress`, when given, is called after
    every hand and every game."""
    import pyspiel

    game = pyspiel.load_game("spades")
    state = S.new_state()
    seen: Counter = Counter()
    for seed in range(first, first + count):
        rng = random.Random(-seed - 1)
        score = (0, 0) if seed % 3 == 0 else random_score(rng)
        problem = compare_hand(game, seed, state, rng.randrange(4), score, seen)
        if problem is not None:
            return seen, problem
        if progress is not None:
            progress()
    for seed in range(first, first + games):
        problem = compare_game(game, seed, state, seen)
        if problem is not None:
            return seen, problem
        if progress is not None:
            progress()
    return seen, None


def test_random_hands_and_games_agree_with_openspiel():
    pytest.importorskip("pyspiel")
    seen, problem = compare_hands(0, 1_000, games=30)
    assert problem is None, problem
    assert seen["games"] == 30 and seen["hands"] > 1_000
    assert seen["decisions"] == 56 * seen["hands"]
    # every rule was exercised many times
    for kind in ("nil made", "nil set", "contract made", "contract set", "bags rolled over",
                 "bags at a negative score", "leads after a spade was played",
                 "game won at 500", "game ended by mercy"):
        assert seen[kind] >= 5, (kind, seen)


def test_a_disagreement_is_reported_readably():
    """The driver names the hand, the moves so far and both sides: here at the end of a hand
    whose game score OpenSpiel is told wrongly (its bags differ), so the hand scores part."""
    pyspiel = pytest.importorskip("pyspiel")

    class Misinformed:
        """An OpenSpiel state told a game score nine points above ours (so its bags differ)."""

        def __init__(self):
            self.inner = pyspiel.load_game("spades").new_initial_state()

        def __getattr__(self, name):
            return getattr(self.inner, name)

        def set_current_scores(self, scores):
            self.inner.set_current_scores([s + 9 for s in scores])

    class MisinformedGame:
        """OpenSpiel's game whose states are `Misinformed`."""

        def new_initial_state(self):
            return Misinformed()

    state = S.new_state()
    for seed in range(1, 200, 2):  # low bids: contracts made, so bags count
        problem = compare_hand(MisinformedGame(), seed, state, 0, (0, 0))
        if problem is not None:
            break
    assert problem is not None and problem.startswith(f"hand seed {seed}: ")
    assert "OpenSpiel" in problem and "ours" in problem
    spec = json.loads(problem.split("replay input: ")[1])
    assert len(spec["moves"]) == 56 and spec["dealer"] == "W"
