"""Bid-inference tables: what the auction (and the bidder's pitch) says about the hands,
counted from self-play deals (the Setback counterpart of AI Factory's Spades bidding tables).

Counting. Deal i of a build is `play.tournament.deal_state(seed, i)` (dealt from the stream
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

Use. `search.bid_tables.TablesBelief` turns the post tables into a belief about the hidden
cards of a position after the pitch (a product of the per-card probabilities, restricted to the
consistent layouts, sampled exactly; `load_belief` reads it from a file). Before the pitch
(trump unknown) the pre tables are descriptive only: the PIMC sampler stays uniform there.

File. msgpack map: `magic`, `version` (FORMAT_VERSION; newer refused), the build settings, the
arrays (dtype, shape, bytes) and a BLAKE2b checksum over them; written atomically. Anything
unreadable raises `BidTablesError` (one line).
"""

from __future__ import annotations

import hashlib
import os

import numpy as np
from numba import njit

from cfr.errors import CfrFileError
from games.rng import stream_seed
from games.bits import lowest_bit
from games.setback.rules import BID_MOVE, apply_move
from games.setback.state import (
    BID,
    DEALT,
    HAND,
    HIGH_BID,
    HIGH_BIDDER,
    TO_ACT,
    deal_hands,
    reset_deal,
    shuffle_top,
)
from play.heuristic import HIGH_VALUE, LOW_VALUE

MAGIC = "setback-cfr/bid-tables"
FORMAT_VERSION = 1
N_SEQ = 256
N_RANKS = 13
N_LOC = 5  # four seats relative to the bidder, then "not dealt"
N_CELLS = 26  # trump ranks 0..12, off-suit ranks 13..25
UNDEALT = 4
DEFAULT_PRIOR = 20.0
ALL_CARDS = np.int64((1 << 52) - 1)
BID_CODES = {"P": 0, "0": 0, "PASS": 0, "2": 1, "3": 2, "4": 3}
CODE_TEXT = "P234"
ARRAYS = ("pre", "pre_deals", "post", "post_deals", "pre_prob", "post_prob")


class BidTablesError(CfrFileError):
    """A tables file that cannot be read, or a bad request of the tables (one line)."""


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


# --- the heuristic bidder, compiled (play/heuristic.py rules 1-4 at game score 0-0) ----------
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
        shuffle_top(rng, deck)  # random_deal's deal, without its allocations
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
    from play.tournament import deal_state

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
    """Counts of deals first..last-1 (a worker's task: spec, seed, first, last)."""
    spec, seed, first, last = task
    counts = empty_counts()
    if is_compiled_spec(spec):
        count_heuristic(np.uint64(seed), first, last, *counts)
        return counts
    player = _WORKER.get(spec)
    if player is None:
        from play.player_spec import make_player

        player = _WORKER[spec] = make_player(spec, seed)
    for i in range(first, last):
        hands, seq, bidder, pitch = play_auction(player, seed, i)
        count_deal(hands, seq, bidder, pitch, *counts)
    return counts


def _ignore_sigint() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def build_counts(spec: str, deals: int, seed: int = 0, workers: int = 1, chunk: int | None = None,
                 progress: bool = False):
    """Count `deals` deals of `seed` bid by `spec` (see the module docstring), in chunks over
    `workers` processes; the counts depend on the seed only, never on the workers."""
    from tqdm import tqdm

    if chunk is None:
        chunk = 200_000 if is_compiled_spec(spec) else 500
    tasks = [(spec, seed, first, min(first + chunk, deals)) for first in range(0, deals, chunk)]
    total = empty_counts()
    with tqdm(total=deals, unit="deal", disable=not progress, leave=False) as bar:
        def add(task, counts):
            for t, c in zip(total, counts):
                t += c
            bar.update(task[3] - task[2])

        if workers <= 1 or len(tasks) <= 1:
            for task in tasks:
                add(task, count_chunk(task))
        else:
            import multiprocessing

            context = multiprocessing.get_context("fork")
            with context.Pool(min(workers, len(tasks)), initializer=_ignore_sigint) as pool:
                for task, counts in zip(tasks, pool.imap(count_chunk, tasks)):
                    add(task, counts)
    return total


# --- smoothing --------------------------------------------------------------------------------
def smooth(pre, pre_deals, post, post_deals, prior: float = DEFAULT_PRIOR):
    """(pre_prob, post_prob, pre_root): the smoothed probabilities of the module docstring;
    `pre_root` is the all-deals pre marginal."""
    klass, level = _groupings()
    pre = pre.astype(np.float64)
    post = post.astype(np.float64)
    k = float(prior)
    mult = np.ones(N_CELLS)
    mult[13:] = 3.0

    def p(n, deals, parent, m):
        return (n / m + k * parent) / (deals + k)

    # pre: sequence <- class <- bid <- all <- 6/52
    n_all = pre.sum(axis=0)
    d_all = pre_deals.sum()
    p_all = p(n_all, d_all, 6.0 / 52.0, 1.0)
    n_lvl = np.zeros((4,) + pre.shape[1:])
    d_lvl = np.zeros(4)
    n_cls = np.zeros((13,) + pre.shape[1:])
    d_cls = np.zeros(13)
    np.add.at(n_lvl, level, pre)
    np.add.at(d_lvl, level, pre_deals)
    np.add.at(n_cls, klass, pre)
    np.add.at(d_cls, klass, pre_deals)
    p_lvl = p(n_lvl, d_lvl[:, None, None, None], p_all[None], 1.0)
    cls_level = np.zeros(13, np.int64)
    cls_level[klass] = level
    p_cls = p(n_cls, d_cls[:, None, None, None], p_lvl[cls_level], 1.0)
    pre_prob = p(pre, pre_deals[:, None, None, None], p_cls[klass], 1.0)
    # post: (seq, pitch) <- (class, pitch) <- (bid, pitch) <- pitch <- all <- uniform
    uniform = np.full((N_LOC, N_CELLS), 6.0 / 52.0)
    uniform[UNDEALT] = 28.0 / 52.0
    n_pitch = post.sum(axis=0)
    d_pitch = post_deals.sum(axis=0).astype(np.float64)
    root = p(n_pitch.sum(axis=0), d_pitch.sum(), uniform, mult)
    p_pitch = p(n_pitch, d_pitch[:, None, None], root[None], mult)
    n_lvl = np.zeros((4,) + post.shape[1:])
    d_lvl = np.zeros((4, N_RANKS))
    n_cls = np.zeros((13,) + post.shape[1:])
    d_cls = np.zeros((13, N_RANKS))
    np.add.at(n_lvl, level, post)
    np.add.at(d_lvl, level, post_deals)
    np.add.at(n_cls, klass, post)
    np.add.at(d_cls, klass, post_deals)
    p_lvl = p(n_lvl, d_lvl[:, :, None, None], p_pitch[None], mult)
    p_cls = p(n_cls, d_cls[:, :, None, None], p_lvl[cls_level], mult)
    post_prob = p(post, post_deals[:, :, None, None], p_cls[klass], mult)
    return pre_prob, post_prob, p_all


# --- the tables object and its file -----------------------------------------------------------
class BidTables:
    """Counts, smoothed probabilities and build settings (`meta`) of one build."""

    def __init__(self, pre, pre_deals, post, post_deals, meta: dict, pre_prob=None,
                 post_prob=None):
        self.pre, self.pre_deals, self.post, self.post_deals = pre, pre_deals, post, post_deals
        self.meta = dict(meta)
        if pre_prob is None or post_prob is None:
            pre_prob, post_prob, _ = smooth(pre, pre_deals, post, post_deals,
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
        """Write the tables atomically (module docstring)."""
        import msgpack

        from cfr.atomic_file import atomic_writer

        blobs, digest = {}, hashlib.blake2b(digest_size=16)
        for name in ARRAYS:
            a = np.ascontiguousarray(getattr(self, name))
            data = a.astype(a.dtype.newbyteorder("<")).tobytes()
            digest.update(name.encode() + b"\0" + data)
            blobs[name] = {"dtype": a.dtype.str.lstrip("<>|="), "shape": list(a.shape),
                           "data": data}
        document = {"magic": MAGIC, "version": FORMAT_VERSION, "meta": self.meta,
                    "arrays": blobs, "checksum": digest.hexdigest()}
        with atomic_writer(path) as handle:
            handle.write(msgpack.packb(document, use_bin_type=True))

    @classmethod
    def load(cls, path: str) -> "BidTables":
        """Read a tables file; anything unreadable raises BidTablesError (one line)."""
        import msgpack

        try:
            with open(path, "rb") as handle:
                raw = handle.read()
        except (OSError, ValueError) as exc:
            raise BidTablesError(f"{path}: cannot read bid tables "
                                 f"({getattr(exc, 'strerror', None) or exc})") from None
        try:
            document = msgpack.unpackb(raw, raw=False, strict_map_key=False)
        except Exception:  # noqa: BLE001 - msgpack raises several kinds on damage
            raise BidTablesError(f"{path}: not a bid tables file, or truncated or corrupt") \
                from None
        if not isinstance(document, dict) or document.get("magic") != MAGIC:
            raise BidTablesError(f"{path}: not a bid tables file (no {MAGIC!r} header)")
        version = document.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise BidTablesError(f"{path}: bad format version {version!r}")
        if version > FORMAT_VERSION:
            raise BidTablesError(f"{path}: bid tables format {version} is newer than this "
                                 f"program reads ({FORMAT_VERSION}); upgrade setback-cfr")
        expected = {"pre": (N_SEQ, 4, 4, N_RANKS), "pre_deals": (N_SEQ,),
                    "post": (N_SEQ, N_RANKS, N_LOC, N_CELLS), "post_deals": (N_SEQ, N_RANKS),
                    "pre_prob": (N_SEQ, 4, 4, N_RANKS),
                    "post_prob": (N_SEQ, N_RANKS, N_LOC, N_CELLS)}
        arrays, digest = {}, hashlib.blake2b(digest_size=16)
        blobs = document.get("arrays")
        meta = document.get("meta")
        if not isinstance(blobs, dict) or not isinstance(meta, dict):
            raise BidTablesError(f"{path}: bid tables file without arrays or settings")
        for name in ARRAYS:
            blob = blobs.get(name)
            try:
                dtype = np.dtype("<" + blob["dtype"])
                if dtype.kind not in "if":
                    raise ValueError
                a = np.frombuffer(blob["data"], dtype=dtype).reshape(blob["shape"])
            except Exception:  # noqa: BLE001 - any malformed entry is the same error
                raise BidTablesError(f"{path}: bid tables array {name!r} is malformed") from None
            if a.shape != expected[name]:
                raise BidTablesError(f"{path}: bid tables array {name!r} has shape {a.shape}, "
                                     f"expected {expected[name]}")
            digest.update(name.encode() + b"\0" + blob["data"])
            arrays[name] = a.astype(np.int64 if dtype.kind == "i" else np.float64)
        if document.get("checksum") != digest.hexdigest():
            raise BidTablesError(f"{path}: bid tables checksum mismatch (the file is corrupt)")
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
    """The `search.bid_tables.TablesBelief` of the tables file `path` (BidTablesError when
    missing or unreadable)."""
    from search.bid_tables import TablesBelief

    if not os.path.isfile(path):
        raise BidTablesError(f"{path}: no such bid tables file")
    tables = BidTables.load(path)
    return TablesBelief(tables.post_prob, os.path.basename(path))
