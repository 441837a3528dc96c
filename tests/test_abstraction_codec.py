"""The lossless codec between uint64 keys and the spec's strings (abstraction.md; bit layout in
`games/setback/abstraction/key_layout.py`): the round trip over every key seen along one random
abstract playout of each of 10,000 random deals (bootstrap keys at random game scores
included), and a hypothesis property over deals and scores."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as hst
from numba import njit

from games.setback.abstraction.bootstrap_key import bootstrap_key
from games.setback.abstraction.codec import KEY_WIDTH, KeyFormatError, key_text, text_key
from games.setback.abstraction.decision import abstract_decision
from games.setback.abstraction.key_layout import KIND_NAMES, key_kind
from games.setback.abstraction.describe import describe_decision
from games.rng import below, new_rng
from games.setback import state as S
from games.setback.rules import apply_move
from setback_abstraction_reference import bootstrap as reference_bootstrap
from setback_abstraction_reference import describe as reference


@njit(cache=True)
def collect_keys(n_deals, seed, out):
    """Keys at every decision along one random playout per deal; bootstrap keys at scores
    drawn from -3..12. Returns how many were written."""
    rng = np.empty(1, np.uint64)
    rng[0] = seed
    st = np.zeros(S.STATE_SIZE, np.int64)
    moves = np.zeros(8, np.int64)
    k = 0
    for _ in range(n_deals):
        S.random_deal(rng, st)
        while st[S.PHASE] != S.PHASE_OVER:
            n, situation, tokens, key = abstract_decision(st, moves)
            if n >= 2:
                out[k] = key
                k += 1
            if st[S.PHASE] == S.PHASE_AUCTION:
                out[k] = bootstrap_key(st, below(rng, 16) - 3, below(rng, 16) - 3)
                k += 1
            apply_move(st, moves[below(rng, n)])
    return k


def test_codec_round_trip_over_every_key_of_10000_deals():
    out = np.zeros(10_000 * 40, dtype=np.uint64)
    k = collect_keys(10_000, 2024, out)
    keys = np.unique(out[:k])
    kinds = set()
    for key in keys.tolist():
        text = key_text(key)
        assert text_key(text) == key
        kinds.add(KIND_NAMES[key_kind(key)])
        if "/" not in text:
            assert len(text) <= KEY_WIDTH and not text.endswith(".")
    assert kinds == set(KIND_NAMES)
    assert len(keys) > 50_000


@settings(max_examples=60, deadline=None)
@given(seed=hst.integers(0, 2**63 - 1), us=hst.integers(-3, 14), them=hst.integers(-3, 14),
       picks=hst.lists(hst.integers(0, 5), min_size=28, max_size=28))
def test_round_trip_and_reference_along_any_playout(seed, us, them, picks):
    st = S.new_state()
    S.random_deal(new_rng(seed), st)
    score = {"NS": us, "EW": them}  # dealer West: P1 is North
    moves = np.zeros(8, dtype=np.int64)
    i = 0
    while st[S.PHASE] != S.PHASE_OVER:
        desc = describe_decision(st, score, dealer=0)
        key, names, _ = reference(st)
        assert desc["key"] == key
        if key is not None:
            assert key_text(text_key(key)) == key
        if "bootstrap_key" in desc and desc["bootstrap_key"] is not None:
            seat = int(st[S.TO_ACT])
            mine, theirs = (us, them) if seat % 2 == 1 else (them, us)
            assert desc["bootstrap_key"] == reference_bootstrap(st, mine, theirs)
            assert key_text(text_key(desc["bootstrap_key"])) == desc["bootstrap_key"]
        n, *_ = abstract_decision(st, moves)
        apply_move(st, int(moves[picks[i % 28] % n]))
        i += 1


@pytest.mark.parametrize("text", ["", "0", "E3", "Q", "0AJx2x", "0AJ.x2", "E5AJx2", "...+1At4t..0TTTQ",
                                  "...+0At4t..0TTTQ.", "x./5/-1/0/AJx2........", "x./0/-1/0/AJx2",
                                  "Hx.+0.......TxT2TJS.Wx"])
def test_codec_rejects_strings_that_are_not_keys(text):
    with pytest.raises(KeyFormatError):
        text_key(text)
