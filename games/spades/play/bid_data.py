"""Positions for Spades' bid tables (`games/spades/search/bid_tables.py`): the auctions (and, if
asked, the play) of self-play deals of a population of Spades players, and the tables' file.

Deal i of seed s is `games.spades.state.random_hand` from `stream_seed(s, i)`, at a game score
of 0 to 0, dealt by seat `WNES`[i mod 4]. With P players named by specs
(`games.spades.play.tournament.make_spades_player`; the list is split as `play.belief_data.
parse_population` splits `--players`), the dealer's team is played by player i mod P and the
other by player (i div P) mod P, so every ordered pairing comes round. Each player is reseeded
from the deal's seed before it (`play.tournament.reseed`), so a deal's bids do not depend on
which worker or chunk played it. A build counts deals 0..N-1 and holds out the next M
(N..N+M-1) for the log-loss it reports.

File: the one bid tables format (`play/bid_table_file.py`), game "spades", one array
`counts` (int64, (contexts, bids, cells)) and `meta` (the build settings and held-out figures).
A file of another game or a damaged one raises `SpadesBidTablesError` (`BidTablesError`, one
line). The `bid-tables --game spades` command's part (`build_tables`, `summary`, `show`) is
here, its options and checks are the command's (`cli/bid_tables.py`).
"""

from __future__ import annotations

import numpy as np

from games import registry
from games.rng import new_rng, stream_seed
from games.scaffold.table import SEAT_CHARS
from games.scaffold.view import ask
from games.spades import state as S
from games.spades.rules import apply_move, is_legal
from games.spades.view import SeatView
from play.belief_data import close_population, parse_population
from play.bid_table_build import heldout_lines, run_deal_chunks
from play.bid_table_file import BidTablesError, load_counts, save_tables
from play.tournament import reseed
from games.spades.search.bid_tables import SpadesBidTables

SpadesBidTablesError = BidTablesError  # the name the search player catches


def make_population(text: str, seed: int) -> tuple[list[str], list]:
    """(specs, one (dealer's team, other team) pair of player objects per spec) of `text`; a
    bad spec raises its `SpadesSpecError` (one line)."""
    specs = parse_population(text)
    # the players through the registry: games.spades.play.tournament builds the search player,
    # which reads this module's tables (an import loop otherwise)
    make = registry.get("spades").load("tournament").make_player
    return specs, [(make(s, seed), make(s, seed)) for s in specs]


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
    """One worker's chunk: (spec text, seed, tricks, first, count) -> its deals."""
    text, seed, tricks, first, count = task
    _, players = make_population(text, seed)
    try:
        return generate_deals(players, seed, first, count, tricks)
    finally:
        close_population(players)


def generate(text: str, seed: int, first: int, count: int, tricks: bool = False,
             workers: int = 1, progress=None, chunk: int = 500) -> dict:
    """`generate_deals` of the population `text` in chunks of `chunk` deals, over `workers`
    processes (the same deals for any split: each deal reseeds its players)."""
    parts = list(run_deal_chunks(_chunk, (text, seed, tricks), first, count, chunk, workers,
                                 progress)) or [generate_deals([], seed, first, 0, tricks)]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def build(text: str, deals: int, seed: int = 0, heldout: int = 0, prior: float = 20.0,
          tricks: bool = False, workers: int = 1, progress=None) -> SpadesBidTables:
    """Count the tables on deals 0..deals-1 of `seed` and measure them on the next `heldout`
    (`games.spades.search.bid_tables.heldout_losses`, kept in `meta["heldout"]`)."""
    from games.spades.search.bid_tables import heldout_losses

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
    save_tables(path, "spades", tables.meta, tables.arrays())


def load(path: str) -> SpadesBidTables:
    """Read a Spades bid tables file; anything else raises SpadesBidTablesError (one line)."""
    return load_counts(path, "spades", SpadesBidTables)


def belief(tables: SpadesBidTables, name: str, groups=None):
    """The `games.spades.search.bid_tables.SpadesBidBelief` of `tables` (its default hand groups
    unless `groups` names some)."""
    from games.spades.search.bid_tables import SpadesBidBelief

    return SpadesBidBelief(tables, tuple(groups) if groups else None, name=name)


def load_belief(path: str, groups=None):
    """The `SpadesBidBelief` of the tables file `path` (`belief`)."""
    from play.bid_table_file import load_belief as load_game_belief

    return load_game_belief(path, "spades", groups=groups)


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


# --- the `bid-tables --game spades` command's part (its options and checks: cli/bid_tables.py) --
def check_bidders(text: str, seed: int) -> None:
    """Refuse a bad `--bidders` population in one line before any deal is dealt."""
    close_population(make_population(text, seed)[1])


def build_tables(args, progress: bool) -> SpadesBidTables:
    """The tables of `bid-tables --game spades --bidders ... --deals ...` (`build`), the next
    `--heldout` deals (default 1000) measuring them."""
    from tqdm import tqdm

    heldout = 1000 if args.heldout is None else args.heldout
    with tqdm(total=args.deals + heldout, unit="deal", disable=not progress, leave=False) as bar:
        return build(args.bidders, args.deals, args.seed, heldout, args.prior, args.tricks,
                     args.workers, bar.update)


def summary(tables: SpadesBidTables, args, seconds: float) -> list[str]:
    """The lines a build prints: what was counted, then the held-out figures."""
    return [f"Spades bid tables: {args.deals:,} deals bid by {args.bidders} (seed {args.seed}"
            f"{', played out' if args.tricks else ''}), {args.deals * 4:,} bids, in "
            f"{seconds:.1f} s ({args.workers} worker(s)) -> {args.out}"] + heldout_lines(tables.meta)


def show(tables: SpadesBidTables, args) -> tuple[dict, list[str]]:
    """`bid-tables --game spades --show`: (the JSON result, the text lines) of what each bid
    says after the bids before it (`args.sequence`)."""
    from games.spades.search.bid_tables import GROUPS, OFFSET, SIZE, context

    text = (args.sequence or "").strip()
    before = [] if not text else [p.strip().upper() for p in text.split(",")]
    if len(before) > 3 or any(p != "NIL" and not (p.isdigit() and 1 <= int(p) <= 13)
                              for p in before):
        raise SpadesBidTablesError(f"--sequence {text!r}: expected up to three bids before the "
                                   "bidder in auction order, each Nil or 1..13, as 3,Nil")
    order = [0 if p == "NIL" else int(p) for p in before]
    k = len(order)
    ctx = context(k, np.array(order + [0] * 4, np.int64))
    rows = {}
    for bid in range(14):
        n = int(tables.counts[ctx, bid, OFFSET[0]:OFFSET[0] + SIZE[0]].sum())
        if n == 0:
            continue
        p = {g: tables.prob[ctx, bid, OFFSET[i]:OFFSET[i] + SIZE[i]]
             for i, g in enumerate(GROUPS)}
        rows["Nil" if bid == 0 else str(bid)] = {
            "positions": n, "spades": float(p["spades"] @ np.arange(14)),
            "spade_ace": float(p["honours"][4:].sum()),
            "side_aces": float(p["aces"] @ np.arange(4)),
            "side_kings": float(p["kings"] @ np.arange(4)),
            "voids": float(p["voids"] @ np.arange(4)),
            "tricks": (float(p["tricks"] @ np.arange(14)) if tables.meta.get("tricks")
                       else None)}
    result = {"file": args.show, "place": k + 1, "before": before, "bids": rows,
              "meta": {key: tables.meta.get(key) for key in ("players", "deals", "seed",
                                                             "prior")}}
    shown = ",".join("Nil" if b == 0 else str(b) for b in order) or "no bid"
    lines = [f"bidder {k + 1} of 4 after {shown}: each bid's positions and the bidder's expected "
             "hand (smoothed); tables of "
             f"{tables.meta.get('deals', '?')} deals bid by "
             f"{','.join(tables.meta.get('players', ['?']))}",
             f"  {'bid':>4}{'positions':>10}{'spades':>8}{'P(AS)':>7}{'aces':>6}{'kings':>6}"
             f"{'voids':>6}{'tricks':>7}"]
    for bid, r in rows.items():
        tricks = "" if r["tricks"] is None else f"{r['tricks']:7.2f}"
        lines.append(f"  {bid:>4}{r['positions']:10,}{r['spades']:8.2f}{r['spade_ace']:7.2f}"
                     f"{r['side_aces']:6.2f}{r['side_kings']:6.2f}{r['voids']:6.2f}{tricks}")
    if not rows:
        lines.append("  (no bid counted in this context)")
    return result, lines + heldout_lines(tables.meta)
