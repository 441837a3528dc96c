"""The one search of captured cards (`search/capture_values.py`) on declarations of its own, not
a game's: every legal card's value equals a plain brute-force minimax over plain trick play on
small random endings, for a value table that rises with side 0's counters (bounds from the
counters' box) and one that does not (a Hearts-like "take them all" table: the table's own
range), with trump or none, must-follow or a trump allowed anyway, tricks part played."""

from __future__ import annotations

import random

import numpy as np
import pytest

from search.capture_values import (NO_TRUMP, SP_MONO, SPEC_SIZE, Buffers, card_values,
                                   position_value, prepare_spec, set_root)


def _winner(trick, leader, trump):
    """The seat winning a complete trick (cards in play order from `leader`)."""
    best = 0
    for i in range(1, 4):
        a, b = trick[i], trick[best]
        if a // 13 == b // 13:
            if a > b:
                best = i
        elif a // 13 == trump:
            best = i
    return (leader + best) % 4


def _legal(hand, trick, trump, ruff):
    if not trick:
        return sorted(hand)
    led = [c for c in hand if c // 13 == trick[0] // 13]
    if not led:
        return sorted(hand)
    return sorted(led + ([c for c in hand if c // 13 == trump and c not in led] if ruff else []))


def _brute(hands, leader, trick, taken, trump, ruff, weights, value):
    """Side 0's value under perfect play; `taken[k]` side 0's counter k so far."""
    if not any(hands) and not trick:
        return value(taken)
    seat = (leader + len(trick)) % 4
    results = []
    for card in _legal(hands[seat], trick, trump, ruff):
        rest = [list(h) for h in hands]
        rest[seat].remove(card)
        now = trick + [card]
        if len(now) == 4:
            won = _winner(now, leader, trump)
            add = [sum(w[c] for c in now) if won % 2 == 0 else 0 for w in weights]
            results.append(_brute(rest, won, [], [t + a for t, a in zip(taken, add)], trump,
                                  ruff, weights, value))
        else:
            results.append(_brute(rest, leader, now, taken, trump, ruff, weights, value))
    return max(results) if seat % 2 == 0 else min(results)


def _declaration(kind):
    """(weights per counter, value of side 0's counters given their ranges, ruff_anytime)."""
    if kind == "rising":  # Setback-like: points per card and one special card
        points = [[(c % 13 >= 8) * (c % 13 - 7) for c in range(52)], [int(c == 13) for c in
                                                                       range(52)]]
        return points, (lambda t, r: (t[0] > r[0] - t[0]) - (t[0] < r[0] - t[0])
                        + 2 * t[1] - r[1]), 1
    hearts = [[int(c // 13 == 2) for c in range(52)], [int(c == 49) for c in range(52)]]
    # side 0's hearts and the queen of spades cost it, unless it takes every one of them
    return hearts, (lambda t, r: 5 if t == r and sum(r) else -t[0] - 3 * t[1]), 0


@pytest.mark.parametrize("kind", ["rising", "take-all"])
def test_card_values_equal_brute_force(kind):
    weights_list, value_of, ruff = _declaration(kind)
    buffers = Buffers(10)  # a small table: collisions and replacements happen
    weights = np.zeros((4, 52), dtype=np.int64)
    ranges = np.zeros(4, dtype=np.int64)
    table = np.zeros(4096, dtype=np.int64)
    spec = np.zeros(SPEC_SIZE, dtype=np.int64)
    moves_out = np.zeros(13, dtype=np.int64)
    values_out = np.zeros(13, dtype=np.int64)
    checked = 0
    monotone = set()  # which bounds the search used
    for seed in range(60):
        rng = random.Random(seed)
        size = 1 + seed % 3
        deck = rng.sample(range(52), 4 * size)
        hands = [deck[i * size:(i + 1) * size] for i in range(4)]
        leader = rng.randrange(4)
        trump = rng.choice([0, 1, 2, 3, NO_TRUMP])
        trick = []
        for i in range(seed % 4 if size > 1 else 0):  # a trick part played
            seat = (leader + i) % 4
            card = rng.choice(_legal(hands[seat], trick, trump, ruff))
            hands[seat].remove(card)
            trick.append(card)
        live = [c for h in hands for c in h] + trick
        for k, w in enumerate(weights_list):
            weights[k] = w
            ranges[k] = sum(w[c] for c in live)
        # the first counter's values consecutive (prepare_spec's layout)
        tops = [int(r) for r in ranges[:len(weights_list)]]
        for index in range(int(np.prod([r + 1 for r in tops]))):
            counts, rest = [], index
            for r in tops:
                counts.append(rest % (r + 1))
                rest //= r + 1
            table[index] = value_of(counts, tops)
        prepare_spec(weights, ranges, len(weights_list), weights[0], table, trump, ruff, spec)
        monotone.add(int(spec[SP_MONO]))
        masks = np.array([sum(1 << c for c in h) for h in hands], dtype=np.int64)
        set_root(masks, leader, np.array(trick + [0] * (4 - len(trick)), dtype=np.int64),
                 len(trick), spec, buffers.stack[0])
        n = card_values(buffers.stack, buffers.moves, buffers.frames, spec, table,
                        buffers.table, buffers.ctx, np.int64(-1), moves_out, values_out)
        seat = (leader + len(trick)) % 4
        assert list(moves_out[:n]) == _legal(hands[seat], trick, trump, ruff)
        zero = [0] * len(weights_list)
        for card, value in zip(moves_out[:n], values_out[:n]):
            rest = [list(h) for h in hands]
            rest[seat].remove(int(card))
            after = trick + [int(card)]
            if len(after) == 4:
                won = _winner(after, leader, trump)
                taken = [sum(w[c] for c in after) if won % 2 == 0 else 0 for w in weights_list]
                expected = _brute(rest, won, [], taken, trump, ruff, weights_list,
                                  lambda t: value_of(t, [int(r) for r in ranges[:len(weights_list)]]))
            else:
                expected = _brute(rest, leader, after, zero, trump, ruff, weights_list,
                                  lambda t: value_of(t, [int(r) for r in ranges[:len(weights_list)]]))
            assert value == expected, (seed, int(card))
        best = max(values_out[:n]) if seat % 2 == 0 else min(values_out[:n])
        assert position_value(buffers.stack, buffers.moves, buffers.frames, spec, table,
                              buffers.table, buffers.ctx) == best
        checked += 1
    assert checked == 60
    assert monotone == ({1} if kind == "rising" else {0, 1})  # take-all: flat when no heart
