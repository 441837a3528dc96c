"""Positions for Spades' bid tables (`search/spades_bid_tables.py`): the auctions (and, if asked,
the play) of self-play deals of a population of Spades players, and the tables' file.

Deal i of seed s is `games.spades.state.random_hand` from `stream_seed(s, i)`, at a game score
of 0 to 0, dealt by seat `WNES`[i mod 4]. With P players named by specs
(`play.spades_tournament.make_spades_player`; the list is split as `play.belief_data.
parse_population` splits `--players`), the dealer's team is played by player i mod P and the
other by player (i div P) mod P, so every ordered pairing comes round. Each player is reseeded
from the deal's seed before it (`play.tournament.reseed`), so a deal's bids do not depend on
which worker or chunk played it. A build counts deals 0..N-1 and holds out the next M
(N..N+M-1) for the log-loss it reports.

File. msgpack map: `magic` (MAGIC), `version` (FORMAT_VERSION; newer refused), `game`
("spades"), `meta` (the build settings and held-out figures), the counts (int64, shape
(contexts, bids, cells)) and a BLAKE2b checksum over them; written atomically. A file of another
game (Setback's bid tables included) or a damaged one raises `SpadesBidTablesError` (one line).
"""

from __future__ import annotations

import hashlib

import numpy as np

from cfr.errors import CfrFileError
from games import registry
from games.rng import new_rng, stream_seed
from games.scaffold.table import SEAT_CHARS
from games.scaffold.view import ask
from games.spades import state as S
from games.spades.rules import apply_move, is_legal
from games.spades.view import SeatView
from play.belief_data import parse_population
from play.tournament import reseed
from search.spades_bid_tables import N_BIDS, N_CELLS, N_CONTEXTS, SpadesBidTables

MAGIC = "setback-cfr/spades-bid-tables"
FORMAT_VERSION = 1
SETBACK_MAGIC = "setback-cfr/bid-tables"  # play/bid_tables.py's files


class SpadesBidTablesError(CfrFileError):
    """A Spades bid tables file that cannot be used, or a bad build request (one line)."""


def make_population(text: str, seed: int) -> tuple[list[str], list]:
    """(specs, one (dealer's team, other team) pair of player objects per spec) of `text`; a
    bad spec raises its `SpadesSpecError` (one line)."""
    specs = parse_population(text)
    # the players through the registry: play.spades_tournament builds the search player,
    # which reads this module's tables (an import loop otherwise)
    make = registry.get("spades").load("tournament").make_player
    return specs, [(make(s, seed), make(s, seed)) for s in specs]


def close_population(players: list) -> None:
    """Close the players that hold resources (database players)."""
    for pair in players:
        for player in pair:
            if hasattr(player, "close"):
                player.close()


def generate_deals(players: list, seed: int, first: int, count: int, tricks: bool = False,
                   progress=None) -> dict:
    """Deals first..first+count-1 (module docstring) bid (and with `tricks` played out) by the
    population `players`: {"hands", "bids", "tricks"}, int64[count, 4] by seat relative to the
    dealer (tricks -1 when not played out). `progress(1)` after each deal."""
    out = {k: np.zeros((count, 4), np.int64) for k in ("hands", "bids", "tricks")}
    out["tricks"][:] = -1
    state = S.new_state()
    for row, i in enumerate(range(first, first + count)):
        deal_seed = int(stream_seed(np.uint64(seed), np.uint64(i))) >> 1
        S.random_hand(new_rng(deal_seed), state, 0, 0)
        n = len(players)
        pair = (players[i % n][0], players[(i // n) % n][1])
        reseed(pair, deal_seed)
        dealer = i % 4
        history: list[int] = []
        while state[S.PHASE] == S.PHASE_BID or (tricks and state[S.PHASE] == S.PHASE_PLAY):
            seat = int(state[S.TO_ACT])
            player = pair[seat % 2]
            move = ask(player, state, SeatView.of(state, dealer, (0, 0), history))
            if not is_legal(state, move):
                raise SpadesBidTablesError(f"player {player.name!r} chose the illegal move "
                                           f"{move} (seat {SEAT_CHARS[(dealer + seat) % 4]})")
            apply_move(state, move)
            history.append(move)
        out["hands"][row] = state[S.DEALT:S.DEALT + 4]
        out["bids"][row] = state[S.BID:S.BID + 4]
        if tricks:
            out["tricks"][row] = state[S.TAKEN:S.TAKEN + 4]
        if progress is not None:
            progress(1)
    return out


def _chunk(task) -> dict:
    """One worker's chunk: (spec text, seed, first, count, tricks) -> its deals."""
    text, seed, first, count, tricks = task
    _, players = make_population(text, seed)
    try:
        return generate_deals(players, seed, first, count, tricks)
    finally:
        close_population(players)


def generate(text: str, seed: int, first: int, count: int, tricks: bool = False,
             workers: int = 1, progress=None, chunk: int = 500) -> dict:
    """`generate_deals` of the population `text`, in `workers` processes (the same deals for
    any count: each deal reseeds its players)."""
    if workers <= 1 or count <= chunk:
        _, players = make_population(text, seed)
        try:
            return generate_deals(players, seed, first, count, tricks, progress)
        finally:
            close_population(players)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    tasks = [(text, seed, f, min(chunk, first + count - f), tricks)
             for f in range(first, first + count, chunk)]
    parts = []
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        for task, part in zip(tasks, pool.map(_chunk, tasks)):
            parts.append(part)
            if progress is not None:
                progress(task[3])
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def build(text: str, deals: int, seed: int = 0, heldout: int = 0, prior: float = 20.0,
          tricks: bool = False, workers: int = 1, progress=None) -> SpadesBidTables:
    """Count the tables on deals 0..deals-1 of `seed` and measure them on the next `heldout`
    (`search.spades_bid_tables.heldout_losses`, kept in `meta["heldout"]`)."""
    from search.spades_bid_tables import heldout_losses

    data = generate(text, seed, 0, deals + heldout, tricks, workers, progress)
    meta = {"game": "spades", "players": parse_population(text), "deals": int(deals),
            "seed": int(seed), "prior": float(prior), "tricks": bool(tricks),
            "heldout_deals": int(heldout)}
    tables = SpadesBidTables.count(data["hands"][:deals], data["bids"][:deals],
                                   data["tricks"][:deals], meta)
    if heldout:
        tables.meta["heldout"] = heldout_losses(tables, data["hands"][deals:],
                                                data["bids"][deals:])
    return tables


def save(tables: SpadesBidTables, path: str) -> None:
    """Write `tables` to `path` atomically (module docstring)."""
    import msgpack

    from cfr.atomic_file import atomic_writer

    counts = np.ascontiguousarray(tables.counts, dtype="<i8")
    data = counts.tobytes()
    document = {"magic": MAGIC, "version": FORMAT_VERSION, "game": "spades",
                "meta": tables.meta, "shape": list(counts.shape), "counts": data,
                "checksum": hashlib.blake2b(data, digest_size=16).hexdigest()}
    with atomic_writer(path) as handle:
        handle.write(msgpack.packb(document, use_bin_type=True))


def load(path: str) -> SpadesBidTables:
    """Read a Spades bid tables file; anything else raises SpadesBidTablesError (one line)."""
    import msgpack

    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except (OSError, ValueError) as exc:
        raise SpadesBidTablesError(f"{path}: cannot read Spades bid tables "
                                   f"({getattr(exc, 'strerror', None) or exc})") from None
    try:
        doc = msgpack.unpackb(raw, raw=False, strict_map_key=False)
    except Exception:  # noqa: BLE001 - msgpack raises several kinds on damage
        raise SpadesBidTablesError(f"{path}: not a Spades bid tables file, or truncated or "
                                   "corrupt") from None
    magic = doc.get("magic") if isinstance(doc, dict) else None
    if magic == SETBACK_MAGIC:
        raise SpadesBidTablesError(f"{path}: Setback's bid tables, not Spades' (build them "
                                   "with bid-tables --game spades)")
    if magic != MAGIC:
        raise SpadesBidTablesError(f"{path}: not a Spades bid tables file (no {MAGIC!r} "
                                   "header)")
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SpadesBidTablesError(f"{path}: bad format version {version!r}")
    if version > FORMAT_VERSION:
        raise SpadesBidTablesError(f"{path}: Spades bid tables format {version} is newer than "
                                   f"this program reads ({FORMAT_VERSION}); upgrade setback-cfr")
    if doc.get("game") != "spades":
        raise SpadesBidTablesError(f"{path}: bid tables of the game {doc.get('game')!r}, not "
                                   "Spades'")
    shape = (N_CONTEXTS, N_BIDS, N_CELLS)
    data, meta = doc.get("counts"), doc.get("meta")
    if not isinstance(data, bytes) or not isinstance(meta, dict) \
            or doc.get("shape") != list(shape) or len(data) != 8 * N_CONTEXTS * N_BIDS * N_CELLS:
        raise SpadesBidTablesError(f"{path}: Spades bid tables without counts of shape {shape} "
                                   "or settings")
    if doc.get("checksum") != hashlib.blake2b(data, digest_size=16).hexdigest():
        raise SpadesBidTablesError(f"{path}: Spades bid tables checksum mismatch (the file is "
                                   "corrupt)")
    counts = np.frombuffer(data, dtype="<i8").reshape(shape).astype(np.int64)
    if (counts < 0).any() or not isinstance(meta.get("prior", 20.0), (int, float)) \
            or not 0 < float(meta.get("prior", 20.0)) <= 1e9:
        raise SpadesBidTablesError(f"{path}: Spades bid tables with negative counts or a bad "
                                   "prior")
    return SpadesBidTables(counts, meta)


def load_belief(path: str, groups=None):
    """The `search.spades_bid_tables.SpadesBidBelief` of the tables file `path` (its default
    hand groups unless `groups` names some)."""
    import os

    from search.spades_bid_tables import DEFAULT_BELIEF, SpadesBidBelief

    return SpadesBidBelief(load(path), tuple(groups or DEFAULT_BELIEF),
                           name=os.path.basename(path))


def split_bids_belief(text: str) -> tuple[str, str | None]:
    """(`text` with `belief=bids:FILE` written `belief=bids`, FILE or None) of a search spec
    `search[...,belief=bids:FILE,...]:BASE`: the tables file Spades' search weighs its worlds
    by (the options' parser knows `bids` without a file, Setback's)."""
    head, bracket, rest = text.partition("[")
    options, close, tail = rest.partition("]")
    if not bracket or not close:
        return text, None
    items, path = [], None
    for item in options.split(","):
        name, eq, value = item.partition("=")
        kind, colon, file = value.strip().partition(":")
        if name.strip().lower() == "belief" and eq and colon and kind.lower() == "bids":
            item, path = f"{name}=bids", file.strip()
        items.append(item)
    return f"{head}[{','.join(items)}]{tail}", path
