"""Bid-inference tables: what the auction (and the bidder's pitch) says about the hands,
counted from self-play deals (the Setback counterpart of AI Factory's Spades bidding tables).

Counting. Deal i of a build is `tournament.deal_state(seed, i)` (dealt from the stream
`stream_seed(seed, i)`); the auction is bid by one player spec at all four seats, at game
score 0-0, and the high bidder then pitches (its first card fixes trump). For every deal:
- the bid sequence `seq` = sum of code(bid of the k-th bidder) * 4**k, k = 0..3 in auction order
  (dealer's left first, dealer last), code P=0, Two=1, Three=2, Four=3 (256 slots; illegal ones
  never occur);
- seats are counted relative to the high bidder (0 = bidder, 1 = its left, 2 = its partner,
  3 = its right); when everybody passed, relative to the dealer;
- before the pitch (`pre`): for each seat, its suits ordered by strength (more cards first, then
  the higher top cards; suits are symmetric until trump is known), `pre[seq, seat, order, rank]`
  counts the deals where the seat's order-th strongest suit held the rank (rank index 0..12 for
  Two..Ace), `pre_deals[seq]` the deals;
- after the pitch (`post`, deals with a bidder only): `post[seq, pitch, loc, cell]` counts the
  deals of pitch rank `pitch` (0..12) where location `loc` (the four seats relative to the
  bidder, and 4 = not dealt) held the card `cell`: cells 0..12 are the trump ranks, 13..25 the
  off-suit ranks (summed over the three off suits, so a cell counts up to 3 per deal);
  `post_deals[seq, pitch]` the deals.

Probabilities. A per-card probability is a count over its trials: `pre` cells have one trial per
deal, trump cells one, off-suit cells three. Every probability is smoothed towards the same
figure one context coarser, with a prior worth K deals (`prior`, default 20):

    p(context) = (n / m + K * p(parent)) / (N + K)     (n count, m trials per deal, N deals)

The back-off chains (each level sums the counts of the finer one):
- post: (sequence, pitch rank) -> (bidder's seat and bid, pitch rank) -> (bid, pitch rank) ->
  (pitch rank) -> all deals with a bidder -> uniform (6/52 for each seat, 28/52 not dealt);
- pre: sequence -> (bidder's seat and bid) -> bid -> all deals -> 6/52.
A sequence never seen (N = 0) therefore gets exactly its parent's figures, and so on up; no
probability is 0 (K > 0 and the uniform root is positive), and for every card and context the
five locations' post probabilities sum to 1 (each level does, and the smoothing is linear).

Use. `games.setback.search.bid_tables.TablesBelief` turns the post tables into a belief about the
hidden cards of a position after the pitch (a product of the per-card probabilities, restricted to
the consistent layouts, sampled exactly; `load_belief` reads it from a file). Before the pitch
(trump unknown) the pre tables are descriptive only: the PIMC sampler stays uniform there.

File: the one bid tables format (`play/bid_table_file.py`), game "setback", arrays `ARRAYS`.
Building runs the deals in chunks over workers (`play/bid_table_build.py`) and smooths with the
one back-off (`search/bid_smoothing.py`); the `bid-tables` command's Setback part
(`build_tables`, `summary`, `show`) is here, its options and checks are the command's.
"""

from __future__ import annotations

import os

import numpy as np
from numba import njit

from games.rng import stream_seed
from games.bits import lowest_bit
from games.setback.rules import BID_MOVE, apply_move
from games.setback.state import (
    BID,
    CARDS_DEALT,
    DEALT,
    HAND,
    HIGH_BID,
    HIGH_BIDDER,
    TO_ACT,
    deal_hands,
    reset_deal,
)
from games.scaffold.deck import shuffle_top
from play.bid_table_build import run_deal_chunks
from play.bid_table_file import BidTablesError, load_tables, save_tables
from games.setback.play.heuristic import HIGH_VALUE, LOW_VALUE
from search.bid_smoothing import back_off

N_SEQ = 256
N_RANKS = 13
N_LOC = 5  # four seats relative to the bidder, then "not dealt"
N_CELLS = 26  # trump ranks 0..12, off-suit ranks 13..25
UNDEALT = 4
DEFAULT_PRIOR = 20.0
ALL_CARDS = np.int64((1 << 52) - 1)
BID_CODES = {"P": 0, "0": 0, "PASS": 0, "2": 1, "3": 2, "4": 3}
CODE_TEXT = "P234"
SHAPES = {"pre": (N_SEQ, 4, 4, N_RANKS), "pre_deals": (N_SEQ,),
          "post": (N_SEQ, N_RANKS, N_LOC, N_CELLS), "post_deals": (N_SEQ, N_RANKS),
          "pre_prob": (N_SEQ, 4, 4, N_RANKS), "post_prob": (N_SEQ, N_RANKS, N_LOC, N_CELLS)}
ARRAYS = tuple(SHAPES)


# --- sequences --------------------------------------------------------------------------------
def sequence_bids(seq: int) -> tuple[int, int, int, int]:
    """The bid codes (0 P, 1 Two, 2 Three, 3 Four) of sequence `seq`, in auction order."""
    return tuple((seq >> (2 * k)) & 3 for k in range(4))


def sequence_text(seq: int) -> str:
    """`P,2,P,3`: the bids of `seq` in auction order (dealer's left first)."""
    return ",".join(CODE_TEXT[c] for c in sequence_bids(seq))


def parse_sequence(text: str) -> int:
    """The sequence index of `P,2,P,3` (or `0` for a pass); a bad or illegal auction raises
    BidTablesError."""
    parts = [p.strip().upper() for p in str(text).split(",")]
    if len(parts) != 4 or any(p not in BID_CODES for p in parts):
        raise BidTablesError(f"bad sequence {text!r}: expected four bids in auction order "
                             "(dealer's left first), each P (or 0), 2, 3 or 4, as in P,2,P,3")
    seq = sum(BID_CODES[p] << (2 * k) for k, p in enumerate(parts))
    if not sequence_info(seq)[0]:
        raise BidTablesError(f"sequence {text!r} is not a legal auction (a bid must beat the "
                             "high bid; only the dealer may bid Four over a Four)")
    return seq


def sequence_info(seq: int) -> tuple[bool, int, int]:
    """(legal, high bidder relative to the dealer or -1, high bid 0/2/3/4) of `seq`."""
    high, bidder, legal = 0, -1, True
    for k, code in enumerate(sequence_bids(seq)):
        seat = (k + 1) % 4
        if code == 0:
            continue
        bid = code + 1
        if not (bid > high or (bid == 4 and high == 4 and seat == 0)):
            legal = False
        high, bidder = bid, seat
    return legal, bidder, high


def _groupings():
    """Per sequence: its (bidder, bid) class 0..12 (0 = all passed) and its bid level 0..3."""
    klass = np.zeros(N_SEQ, np.int64)
    level = np.zeros(N_SEQ, np.int64)
    for seq in range(N_SEQ):
        _, bidder, high = sequence_info(seq)
        if bidder >= 0:
            klass[seq] = 1 + bidder * 3 + (high - 2)
            level[seq] = high - 1
    return klass, level


# --- the heuristic bidder, compiled (games/setback/play/heuristic.py rules 1-4 at 0-0) ------------
# rule 1's values of the top and the lowest trump held, by rank (2..14), as numba reads them
_HIGH_VALUE = np.array([HIGH_VALUE.get(rank, 0.0) for rank in range(15)])
_LOW_VALUE = np.array([LOW_VALUE.get(rank, 0.0) for rank in range(15)])


@njit(cache=True)
def _suit_value(hand, suit):
    bits = (hand >> (13 * suit)) & 0x1FFF
    if bits == 0:
        return 0.0
    n = 0
    top = -1
    low = 99
    for r in range(13):
        if bits >> r & 1:
            n += 1
            if low == 99:
                low = r + 2
            top = r + 2
    value = _HIGH_VALUE[top]
    lowv = _LOW_VALUE[low]
    value += lowv / 2 if n == 1 else lowv
    if bits >> 9 & 1:  # the Jack
        guarded = (bits >> 12 & 1) == 1 or (bits >> 11 & 1) == 1 or n >= 3
        value += 0.9 if guarded else 0.6
    aces_tens = 0
    kings = 0
    for s in range(4):
        sb = (hand >> (13 * s)) & 0x1FFF
        aces_tens += (sb >> 12 & 1) + (sb >> 8 & 1)
        kings += sb >> 11 & 1
    game = 0.15 * aces_tens + 0.1 * kings
    value += min(game, 0.8)
    value += 0.3 * max(0, n - 2)
    return value


@njit(cache=True)
def _best_suit(hand):
    best, best_value = 0, _suit_value(hand, 0)
    for s in range(1, 4):
        v = _suit_value(hand, s)
        if v > best_value:
            best, best_value = s, v
    return best, best_value


@njit(cache=True)
def heuristic_bid(state):
    """The heuristic's bid (0, 2, 3, 4) for the seat to act, at game score 0-0."""
    seat = state[TO_ACT]
    high = state[HIGH_BID]
    high_bidder = state[HIGH_BIDDER]
    if high == 4 and seat != 0:
        return 0  # the only legal bid
    _, value = _best_suit(state[HAND + seat])
    partner = (seat + 2) % 4
    if state[BID + partner] >= 2:
        value += 0.4
    t2, t3, t4 = 1.2 + 0.0, 2.2 + 0.0, 3.2 + 0.0
    partner_holds = high_bidder == partner and high > 0
    if seat == 0 and high == 4 and not partner_holds and value >= t4 - 0.3:
        return 4
    for bid in (4, 3, 2):
        t = t4 if bid == 4 else (t3 if bid == 3 else t2)
        legal = bid > high or (bid == 4 and high == 4 and seat == 0)
        if value >= t and legal:
            if partner_holds and bid < 4:
                break
            return bid
    return 0


@njit(cache=True)
def heuristic_pitch(hand):
    """The heuristic's pitch: the top card of its best suit."""
    suit, _ = _best_suit(hand)
    bits = (hand >> (13 * suit)) & 0x1FFF
    top = 12
    while not (bits >> top & 1):
        top -= 1
    return suit * 13 + top


# --- counting ---------------------------------------------------------------------------------
@njit(cache=True)
def _strength_order(hand, order):
    """`order[k]` = the k-th strongest suit of `hand` (more cards, then higher cards; ties by
    suit index)."""
    keys = np.empty(4, np.int64)
    for s in range(4):
        bits = (hand >> (13 * s)) & 0x1FFF
        n = 0
        b = bits
        while b:
            b &= b - 1
            n += 1
        keys[s] = (n << 13) | bits
        order[s] = s
    for i in range(1, 4):  # insertion sort, descending key, stable
        j = i
        while j > 0 and keys[order[j]] > keys[order[j - 1]]:
            tmp = order[j]
            order[j] = order[j - 1]
            order[j - 1] = tmp
            j -= 1


@njit(cache=True)
def count_deal(hands, seq, bidder, pitch, pre, pre_deals, post, post_deals):
    """Add one deal (dealt `hands` by seat relative to the dealer, sequence `seq`, high bidder
    relative to the dealer or -1, pitch card or -1) to the count arrays."""
    ref = bidder if bidder >= 0 else 0
    order = np.empty(4, np.int64)
    pre_deals[seq] += 1
    for r in range(4):
        hand = hands[(ref + r) % 4]
        _strength_order(hand, order)
        for k in range(4):
            bits = (hand >> (13 * order[k])) & 0x1FFF
            while bits:
                pre[seq, r, k, lowest_bit(bits)] += 1
                bits &= bits - 1
    if bidder < 0:
        return
    trump = pitch // 13
    prank = pitch % 13
    post_deals[seq, prank] += 1
    dealt = hands[0] | hands[1] | hands[2] | hands[3]
    for loc in range(5):
        mask = hands[(bidder + loc) % 4] if loc < 4 else ALL_CARDS & ~dealt
        while mask:
            card = lowest_bit(mask)
            mask &= mask - 1
            post[seq, prank, loc, card % 13 + (0 if card // 13 == trump else 13)] += 1


@njit(cache=True)
def count_heuristic(seed, first, last, pre, pre_deals, post, post_deals):
    """Deals first..last-1 of `seed`, bid and pitched by the compiled heuristic, counted."""
    state = np.zeros(32, np.int64)
    rng = np.zeros(1, np.uint64)
    hands = np.zeros(4, np.int64)
    deck = np.empty(52, np.int64)
    for i in range(first, last):
        rng[0] = stream_seed(np.uint64(seed), np.uint64(i))
        shuffle_top(rng, deck, CARDS_DEALT)  # random_deal's deal, without its allocations
        deal_hands(deck, hands)
        reset_deal(state, hands)
        seq = 0
        for k in range(4):
            bid = heuristic_bid(state)
            seq |= (0 if bid == 0 else bid - 1) << (2 * k)
            apply_move(state, BID_MOVE + bid)
        bidder = state[HIGH_BIDDER]
        pitch = -1
        if bidder >= 0:
            pitch = heuristic_pitch(hands[bidder])
        count_deal(hands, seq, bidder, pitch, pre, pre_deals, post, post_deals)


def empty_counts():
    """Zeroed count arrays (pre, pre_deals, post, post_deals)."""
    return (np.zeros((N_SEQ, 4, 4, N_RANKS), np.int64), np.zeros(N_SEQ, np.int64),
            np.zeros((N_SEQ, N_RANKS, N_LOC, N_CELLS), np.int64),
            np.zeros((N_SEQ, N_RANKS), np.int64))


def play_auction(player, seed: int, index: int):
    """Deal `index` of `seed` bid (and pitched) by `player` at all four seats through its
    Python interface: (dealt hands by seat, sequence, bidder or -1, pitch card or -1)."""
    from games.setback.view import SeatView
    from games.setback.play.tournament import deal_state

    state = deal_state(seed, index)
    if hasattr(player, "seed"):
        player.seed(int(stream_seed(np.uint64(seed), np.uint64(index))))
    seq = 0
    history: list[int] = []
    for k in range(4):
        move = int(player.choose(SeatView.of(state, 0, (0, 0), history)))
        bid = move - BID_MOVE
        seq |= (0 if bid == 0 else bid - 1) << (2 * k)
        apply_move(state, move)
        history.append(move)
    hands = np.array([state[DEALT + s] for s in range(4)], dtype=np.int64)
    bidder = int(state[HIGH_BIDDER])
    pitch = -1
    if bidder >= 0:
        pitch = int(player.choose(SeatView.of(state, 0, (0, 0), history)))
    return hands, seq, bidder, pitch


def is_compiled_spec(spec: str) -> bool:
    """Whether `spec` has a compiled bidder here (only `heuristic`)."""
    return str(spec).strip().lower() == "heuristic"


_WORKER = {}


def count_chunk(task):
    """Counts of deals first..first+n-1 (a worker's task: spec, seed, first, n)."""
    spec, seed, first, n = task
    counts = empty_counts()
    if is_compiled_spec(spec):
        count_heuristic(np.uint64(seed), first, first + n, *counts)
        return counts
    player = _WORKER.get(spec)
    if player is None:
        from games.setback.play.grammar import make_player

        player = _WORKER[spec] = make_player(spec, seed)
    for i in range(first, first + n):
        hands, seq, bidder, pitch = play_auction(player, seed, i)
        count_deal(hands, seq, bidder, pitch, *counts)
    return counts


def build_counts(spec: str, deals: int, seed: int = 0, workers: int = 1, chunk: int | None = None,
                 progress: bool = False):
    """Count `deals` deals of `seed` bid by `spec` (see the module docstring), in chunks over
    `workers` processes; the counts depend on the seed only, never on the workers."""
    from tqdm import tqdm

    if chunk is None:
        chunk = 200_000 if is_compiled_spec(spec) else 500
    total = empty_counts()
    with tqdm(total=deals, unit="deal", disable=not progress, leave=False) as bar:
        for counts in run_deal_chunks(count_chunk, (spec, seed), 0, deals, chunk, workers,
                                      bar.update):
            for t, c in zip(total, counts):
                t += c
    return total


# --- smoothing --------------------------------------------------------------------------------
def smooth(pre, pre_deals, post, post_deals, prior: float = DEFAULT_PRIOR):
    """(pre_prob, post_prob): the smoothed probabilities of the module docstring, down its
    back-off chains (`search.bid_smoothing.back_off`)."""
    klass, level = _groupings()
    cls_level = np.zeros(13, np.int64)
    cls_level[klass] = level
    pre_prob = back_off(pre, pre_deals[:, None, None, None], (klass, cls_level), 6.0 / 52.0,
                        prior)
    # post contexts flattened to (context, pitch rank), the pitch rank kept at every level
    pitch = np.arange(N_RANKS)
    chain = (klass[:, None] * N_RANKS + pitch, cls_level[:, None] * N_RANKS + pitch,
             np.tile(pitch, 4))
    uniform = np.full((N_LOC, N_CELLS), 6.0 / 52.0)
    uniform[UNDEALT] = 28.0 / 52.0
    trials = np.ones(N_CELLS)
    trials[13:] = 3.0
    post_prob = back_off(post.reshape((N_SEQ * N_RANKS,) + post.shape[2:]),
                         post_deals.reshape(-1, 1, 1), [c.reshape(-1) for c in chain],
                         uniform, prior, trials)
    return pre_prob, post_prob.reshape(post.shape)


# --- the tables object and its file -----------------------------------------------------------
class BidTables:
    """Counts, smoothed probabilities and build settings (`meta`) of one build."""

    def __init__(self, pre, pre_deals, post, post_deals, meta: dict, pre_prob=None,
                 post_prob=None):
        self.pre, self.pre_deals, self.post, self.post_deals = pre, pre_deals, post, post_deals
        self.meta = dict(meta)
        if pre_prob is None or post_prob is None:
            pre_prob, post_prob = smooth(pre, pre_deals, post, post_deals,
                                            self.meta.get("prior", DEFAULT_PRIOR))
        self.pre_prob, self.post_prob = pre_prob, post_prob

    @classmethod
    def build(cls, spec: str, deals: int, seed: int = 0, workers: int = 1,
              prior: float = DEFAULT_PRIOR, progress: bool = False) -> "BidTables":
        """Count and smooth (module docstring)."""
        counts = build_counts(spec, deals, seed, workers, progress=progress)
        meta = {"bidders": str(spec), "deals": int(deals), "seed": int(seed),
                "prior": float(prior), "score": [0, 0]}
        return cls(*counts, meta)

    def arrays(self) -> dict:
        """The stored arrays by name."""
        return {name: getattr(self, name) for name in ARRAYS}

    def save(self, path: str) -> None:
        """Write the tables atomically (`play.bid_table_file`)."""
        save_tables(path, "setback", self.meta, self.arrays())

    @classmethod
    def load(cls, path: str) -> "BidTables":
        """Read a tables file; anything unreadable raises BidTablesError (one line)."""
        meta, arrays = load_tables(path, "setback", SHAPES)
        probs = [arrays["pre_prob"], arrays["post_prob"]]
        if any(not np.all((q > 0) & (q <= 1)) for q in probs):
            raise BidTablesError(f"{path}: bid tables probabilities outside (0, 1]")
        return cls(arrays["pre"], arrays["pre_deals"], arrays["post"], arrays["post_deals"],
                   meta, *probs)

    # --- views ---------------------------------------------------------------------------
    def card_probs(self, seq: int, pitch_rank: int | None = None) -> np.ndarray:
        """float64[5, 26]: P(location holds the card) after the pitch, for `seq` and the pitch
        rank index (0..12, Two..Ace), or averaged over the pitches seen (by deal count) when
        None."""
        if pitch_rank is not None:
            return self.post_prob[seq, pitch_rank]
        deals = self.post_deals[seq].astype(np.float64)
        if deals.sum() == 0:
            deals = self.post_deals.sum(axis=0).astype(np.float64)
        if deals.sum() == 0:
            deals = np.ones(N_RANKS)
        w = deals / deals.sum()
        return np.tensordot(w, self.post_prob[seq], axes=1)


def load_belief(path: str):
    """The `games.setback.search.bid_tables.TablesBelief` of the tables file `path` (BidTablesError
    when missing or unreadable)."""
    from play.bid_table_file import load_belief as load_game_belief

    return load_game_belief(path, "setback")


def load(path: str) -> BidTables:
    """Setback's tables of the file `path` (`BidTables.load`)."""
    return BidTables.load(path)


def belief(tables: BidTables, name: str):
    """The `games.setback.search.bid_tables.TablesBelief` of `tables`
    (`bid_table_file.load_belief`'s)."""
    from games.setback.search.bid_tables import TablesBelief

    return TablesBelief(tables.post_prob, name)


# --- the `bid-tables` command's Setback part (its options and checks: cli/bid_tables.py) -------
def check_bidders(spec: str, seed: int) -> None:
    """Refuse a bad `--bidders` player in one line (ValueError) before any deal is counted."""
    from games.setback.play.grammar import make_player

    if spec.strip().lower().startswith(("pimc", "pimc-pi")):
        raise ValueError("a pimc player bids with its bid= player; name that one")
    player = make_player(spec.strip(), seed)
    if hasattr(player, "close"):
        player.close()


def build_tables(args, progress: bool) -> BidTables:
    """The tables of `bid-tables --bidders ... --deals ...` (see the module docstring)."""
    return BidTables.build(args.bidders.strip(), args.deals, args.seed, args.workers, args.prior,
                           progress=progress)


def summary(tables: BidTables, args, seconds: float) -> list[str]:
    """The lines a build prints."""
    bid = int(tables.post_deals.sum())
    return [f"bid tables: {args.deals:,} deals bid by {args.bidders.strip()} (seed {args.seed}), "
            f"{bid:,} with a bidder, {int((tables.pre_deals > 0).sum())} sequences seen, in "
            f"{seconds:.1f} s ({args.deals / max(seconds, 1e-9):,.0f} deals/s, {args.workers} "
            f"worker(s)) -> {args.out}"]


SEAT_NAMES = ("bidder", "left", "partner", "right", "not dealt")
RANKS = "23456789TJQKA"


def show(tables: "BidTables", args) -> tuple[dict, list[str]]:
    """`bid-tables --show` of Setback's tables: (the JSON result, the text lines) of one
    sequence (`args.sequence`, `args.pitch`), and the heatmap `args.png` drawn."""
    if args.sequence is not None:
        seq = parse_sequence(args.sequence)
    else:
        seen = tables.post_deals.sum(axis=1)
        if seen.sum() == 0:
            raise BidTablesError(f"{args.show}: no deal with a bidder was counted")
        seq = int(np.argmax(seen))
    _, bidder, high = sequence_info(seq)
    if bidder < 0:
        raise BidTablesError(f"--sequence {sequence_text(seq)}: everybody passed, so there is "
                             "no pitch and no trump to show")
    pitch = None
    if args.pitch is not None:
        text = args.pitch.strip().upper()
        text = "T" if text == "10" else text
        if len(text) != 1 or text not in RANKS:
            raise BidTablesError(f"--pitch {args.pitch!r}: expected a rank 2-9, T, J, Q, K or A")
        pitch = RANKS.index(text)
    probs = tables.card_probs(seq, pitch)
    deals = int(tables.post_deals[seq].sum() if pitch is None else tables.post_deals[seq, pitch])
    trump_len = probs[:, :13].sum(axis=1)
    result = {"file": args.show, "sequence": sequence_text(seq), "bidder_seat": bidder,
              "bid": high, "pitch": None if pitch is None else RANKS[pitch], "deals": deals,
              "seats": {SEAT_NAMES[loc]: {"trump": {RANKS[r]: float(probs[loc, r])
                                                     for r in range(13)},
                                          "expected_trump_length": float(trump_len[loc])}
                        for loc in range(5)}}
    png = None
    if args.png is not None:
        png = write_heatmap(probs, result, args.png)
        result["png"] = png
    pitch_text = "any pitch (weighted by deals)" if pitch is None else f"pitch rank {RANKS[pitch]}"
    dealer_rel = ("dealer", "dealer's left", "dealer's partner", "dealer's right")[bidder]
    meta = tables.meta
    lines = [f"sequence {sequence_text(seq)}: {dealer_rel} bids {high}, {pitch_text}; "
             f"{deals:,} deals counted (tables of {meta.get('deals', '?')} deals bid by "
             f"{meta.get('bidders', '?')}, prior {meta.get('prior', '?')})",
             "P(seat holds the trump rank):",
             f"  {'seat':10}" + "".join(f"{r:>6}" for r in RANKS) + "  E[trumps]"]
    for loc in range(5):
        lines.append(f"  {SEAT_NAMES[loc]:10}" + "".join(f"{probs[loc, r]:6.2f}" for r in range(13))
                     + f"  {trump_len[loc]:9.2f}")
    if deals == 0:
        lines.append("  (sequence never seen: the figures are its back-off context's)")
    if png:
        lines.append(f"heatmap PNG: {png}")
    return result, lines


def write_heatmap(probs, result: dict, path: str) -> str:
    """A heatmap PNG of one sequence (rows: seats and not dealt; columns: trump then off-suit
    ranks)."""
    if not path.lower().endswith(".png"):
        raise BidTablesError(f"--png {path!r}: the heatmap is a PNG file (name it *.png)")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise BidTablesError(f"--png needs matplotlib ({exc})") from None
    fig, ax = plt.subplots(figsize=(12, 3.4))
    image = ax.imshow(probs, aspect="auto", cmap="viridis", vmin=0.0, vmax=1.0)
    ax.set_yticks(range(5), SEAT_NAMES)
    ax.set_xticks(range(26), [f"{r}t" for r in RANKS] + [f"{r}o" for r in RANKS])
    ax.axvline(12.5, color="white", linewidth=1)
    ax.set_xlabel("card: rank of trump (t) | rank of an off suit (o, per card)")
    pitch = result["pitch"] or "any"
    ax.set_title(f"P(holds card) after {result['sequence']} (bid {result['bid']}), pitch "
                 f"{pitch}, {result['deals']:,} deals")
    for loc in range(5):
        for cell in range(26):
            ax.text(cell, loc, f"{probs[loc, cell]:.2f}", ha="center", va="center", fontsize=6,
                    color="white" if probs[loc, cell] < 0.6 else "black")
    fig.colorbar(image, ax=ax, fraction=0.03)
    fig.tight_layout()
    try:
        from cfr.atomic_file import atomic_path

        with atomic_path(path, suffix=".png") as tmp:
            fig.savefig(tmp, format="png", dpi=110)
    except (OSError, ValueError) as exc:
        raise BidTablesError(f"--png {path!r}: cannot write the PNG ({exc})") from None
    finally:
        plt.close(fig)
    return path
