"""The `bidder` layout (`games/setback/abstraction/layout_bidder.py`), read like the spec: the
reference keys, with positions 12-13 of a playout key saying whether my team bid (`B`) or
defends (`D`), and the bid.

The checks every layout passes are written once here as `check_*` helpers (also run by
`test_layout_contract.py`): keys depend only on what the acting seat knows, equal keys carry
equal actions, the kernels equal a plain-Python reading on random deals, the codec round
trips, a mismatched layout is refused in one line, and a resumed run is bit-identical.
"""

import os

import numpy as np
import pytest

from games.setback.abstraction import layouts
from cli.main import main
from games.bits import popcount
from games.setback import state as S
from games.setback.cards import format_card
from games.setback.rules import apply_move
from setback_abstraction_reference import describe as reference_describe
from setback_situations import WORKED_MOVES, worked

NAME = "bidder"
LAYOUT = layouts.load(NAME)

# the worked deal of abstraction.md, every decision of its table (moves made, key, cards)
WORKED = [
    (0, "0AJx2", ["P", "2", "3", "4"]),  # P1 bids first: auction keys are the reference's
    (6, "...+0At4t..0B3TTTQ", ["TS", "QS"]),  # P3 (P1's partner) after AS 4S
    (8, "Hx.+0.......B3TxT2TJS.W", ["7S", "2S", "JS", "KH", "3D"]),  # P1 leads trick 2
    (9, "H4.-0Kx....0D3l2lT", ["QH", "TH"]),  # P2 (defending) after KH
    (10, "H4.+0KxQx..0B3TQw4l0", ["QS", "AH", "6H"]),  # P3 after KH QH
    (11, None, ["4H"]),  # P0 holding 4H 9H: both `l0`, forced, no key
]


def side_fields(state) -> str:
    """Positions 12-13 read off the state by the module docstring's table."""
    seat, bidder = int(state[S.TO_ACT]), int(state[S.HIGH_BIDDER])
    return ("B" if seat % 2 == bidder % 2 else "D") + str(int(state[S.HIGH_BID]))


def expected_key(state, fields) -> tuple:
    """(key or None, action names, moves) by the spec's plain-Python reading
    (`tests/setback_abstraction_reference.py`), with `fields(state)` inserted at pos 12 of a
    playout key."""
    key, names, moves = reference_describe(state)
    if key is not None and key[0] in "H.":
        key = key[:12] + fields(state) + key[12:]
    return key, names, moves


def kernel_key(layout, state) -> tuple:
    """(key text or None, n, token mask, moves) from the layout's kernel and codec."""
    moves = np.zeros(8, np.int64)
    n, situation, tokens, key = layout.abstract_decision(state, moves)
    text = layout.key_text(int(key)) if n >= 2 else None
    return text, int(n), int(tokens), [int(m) for m in moves[:n]], int(key)


def random_decisions(n_deals: int, seed: int):
    """Every decision state along one random playout of each of `n_deals` random deals."""
    rng = np.random.default_rng(seed)
    word = np.array([seed + 1], np.uint64)
    moves = np.zeros(8, np.int64)
    for _ in range(n_deals):
        state = S.new_state()
        S.random_deal(word, state)
        while int(state[S.PHASE]) != S.PHASE_OVER:
            yield state.copy()
            n = LAYOUT.abstract_decision(state, moves)[0]
            apply_move(state, int(moves[rng.integers(n)]))


def hide_differently(state, rng) -> np.ndarray:
    """The state with every other seat's unplayed cards redrawn from the cards the acting seat
    cannot see (those hands and the undealt cards), hand sizes kept: a world it cannot tell
    from the true one."""
    out = state.copy()
    seat = int(state[S.TO_ACT])
    dealt = 0
    for s in range(4):
        dealt |= int(state[S.DEALT + s])
    pool = ~dealt & ((1 << 52) - 1)
    for s in range(4):
        if s != seat:
            pool |= int(state[S.HAND + s])
    cards = [c for c in range(52) if pool >> c & 1]
    rng.shuffle(cards)
    for s in range(4):
        if s == seat:
            continue
        old = int(state[S.HAND + s])
        k = popcount(np.int64(old))
        new = 0
        for c in cards[:k]:
            new |= 1 << c
        cards = cards[k:]
        out[S.HAND + s] = new
        out[S.DEALT + s] = (int(state[S.DEALT + s]) & ~old) | new
    return out


# ---- the checks every layout passes ---------------------------------------------------------

def check_worked_deal(layout, table):
    for n_moves, key, cards in table:
        state = worked(n_moves)
        text, n, _, moves, _ = kernel_key(layout, state)
        assert text == key, WORKED_MOVES[:n_moves]
        names = [format_card(m) if m < 52 else "P234"[[52, 54, 55, 56].index(m)] for m in moves]
        assert names == cards


def check_kernel_equals_plain_python(layout, fields, n_deals=150, seed=11):
    seen = 0
    for state in random_decisions(n_deals, seed):
        text, n, _, moves, key = kernel_key(layout, state)
        want, names, want_moves = expected_key(state, fields)
        assert (text, moves) == (want, [int(m) for m in want_moves])
        if text is not None:
            assert layout.text_key(text) == key
            assert len(text) <= 24 + len(fields(state)) and not text.endswith(".")
            seen += 1
    assert seen > 1000


def check_keys_see_only_what_the_seat_knows(layout, n_deals=120, seed=5):
    rng = np.random.default_rng(seed)
    checked = changed = 0
    for state in random_decisions(n_deals, seed):
        if int(state[S.PHASE]) != S.PHASE_PLAY:
            continue
        text, n, tokens, moves, _ = kernel_key(layout, state)
        for _ in range(2):
            world = hide_differently(state, rng)
            changed += not np.array_equal(world, state)
            assert kernel_key(layout, world)[:4] == (text, n, tokens, moves)
        checked += 1
    assert checked > 1000 and changed > checked  # the hidden cards did move


def check_equal_keys_carry_equal_actions(layout, n_deals=300, seed=3):
    actions = {}
    for state in random_decisions(n_deals, seed):
        text, n, tokens, _, _ = kernel_key(layout, state)
        if text is not None:
            assert actions.setdefault(text, (n, tokens)) == (n, tokens), text
    assert len(actions) > 2000


def check_mismatch_refused_in_one_line(name, key, tmp_path):
    from db.errors import DatabaseError
    from games.setback.db.synthetic import write_table
    from games.setback.play.strategy_player import StrategyFilePlayer

    entry = layouts.layout(name)
    path = str(tmp_path / "s.strategy")
    write_table(path, "baseline", {key: [0.5, 0.5]}, abstraction=entry.abstraction,
                abstraction_version=entry.version)
    assert StrategyFilePlayer(path).layout is entry
    with pytest.raises(DatabaseError) as info:
        StrategyFilePlayer(path, abstraction="reference")
    message = str(info.value)
    assert "\n" not in message and f"layout {name} ({entry.abstraction} v1)" in message
    assert "keys of two layouts never mix" in message


def check_resume_is_bit_identical(name, tmp_path):
    from cfr import checkpoint

    def train(run, iterations):
        assert main(["train", "baseline", "--run", str(run), "--iterations", str(iterations),
                     "--seed", "2", "--batch", "2", "--algorithm", "es-mccfr",
                     "--abstraction", name, "--no-progress"]) == 0
        return checkpoint.load(os.path.join(run, "checkpoint.ckpt"))

    train(tmp_path / "part", 2)
    part = train(tmp_path / "part", 6)  # resumed: the layout read back from run.json
    straight = train(tmp_path / "straight", 6)
    assert part.game == straight.game == f"setback-baseline-{name}"
    assert part.iteration == straight.iteration == 6
    assert part.table.same_contents(straight.table)
    assert part.extra["payoff_sum"] == straight.extra["payoff_sum"]


# ---- the bidder layout ------------------------------------------------------------------

def test_worked_deal_keys_and_cards():
    check_worked_deal(LAYOUT, WORKED)


def test_a_defender_and_the_bidders_side_read_different_keys_in_one_trick():
    # P2 defends after KH (D), P3 is the bidder's partner after KH QH (B): the reference key
    # says neither; the positions before 12 and the actions are the reference's
    reference = layouts.load("reference")
    for n_moves in (6, 8, 9, 10):
        state = worked(n_moves)
        ref = kernel_key(reference, state)[0]
        mine = kernel_key(LAYOUT, state)[0]
        assert mine[:12] + mine[14:] == ref and mine[12:14] == side_fields(state)


def test_kernel_equals_a_plain_python_reading_on_random_deals():
    check_kernel_equals_plain_python(LAYOUT, side_fields)


def test_keys_depend_only_on_what_the_acting_seat_knows():
    check_keys_see_only_what_the_seat_knows(LAYOUT)


def test_equal_keys_always_carry_the_same_actions():
    check_equal_keys_carry_equal_actions(LAYOUT)


@pytest.mark.parametrize("text", [
    "Hx.+0.......TxT2TJS.W",  # a reference playout key: no side and bid
    "Hx.+0.......X3TxT2TJS.W",  # no such side
    "Hx.+0.......B5TxT2TJS.W",  # no such bid
    "Hx.+0.......B3",  # no actions
    "Hx.+0.......B3TxT2TJS.W.",  # not trimmed
])
def test_the_codec_refuses_strings_that_are_not_its_keys(text):
    from games.setback.abstraction.codec import KeyFormatError

    with pytest.raises(KeyFormatError):
        LAYOUT.text_key(text)


def test_auction_establish_and_bootstrap_keys_are_the_references():
    reference = layouts.load("reference")
    for text in ("0AJx2", "E3AJx2", "x./0/-1/0/AJx2........"):
        assert LAYOUT.text_key(text) == reference.text_key(text)
        assert LAYOUT.key_text(reference.text_key(text)) == text


def test_a_mismatched_layout_is_refused_in_one_line(tmp_path):
    check_mismatch_refused_in_one_line(NAME, "Hx.+0.......B3TxT2", tmp_path)


def test_resume_is_bit_identical(tmp_path):
    check_resume_is_bit_identical(NAME, tmp_path)


def check_bulk_parse_equals_key_by_key(layout, n_deals=200, seed=8):
    """The layout's bulk `text_keys` (what a database is read with for search) gives every
    stored string's key exactly as `text_key` does, auction and playout keys alike, in
    batches sharing one memo as `db.policy_arrays` reads them."""
    texts, keys = [], []
    for state in random_decisions(n_deals, seed):
        text, n, _, _, key = kernel_key(layout, state)
        if n >= 2:
            texts.append(text)
            keys.append(key)
    playout = [t for t in texts if t[0] in "H."]
    assert playout and all(t[12] in "BD" for t in playout) and len(playout) < len(texts)
    memo: dict = {}
    half = len(texts) // 2
    bulk = layout.text_keys(texts[:half], memo) + layout.text_keys(texts[half:], memo)
    assert bulk == [layout.text_key(t) for t in texts] == keys


def test_the_bulk_codec_reads_every_key_as_the_exact_one_does():
    check_bulk_parse_equals_key_by_key(LAYOUT)


@pytest.mark.parametrize("text", ["Hx.+0.......X3TxT2TJS.W", "Hx.+0.......B"])
def test_the_bulk_codec_refuses_a_playout_string_without_its_fields(text):
    from games.setback.abstraction.codec import KeyFormatError

    with pytest.raises(KeyFormatError):
        LAYOUT.text_keys([text])
