"""`setback-cfr bid-tables`: count what the auction says about the hands from self-play deals
(`play/bid_tables.py`), and show one sequence's tables as text and a PNG heatmap; with --game
spades, Spades' tables (`play/spades_bid_data.py`, `search/spades_bid_tables.py`)."""

from __future__ import annotations

from cli.arguments import add_command, add_game_option, non_negative_int, positive_int, seed
from cli.errors import UserError

HELP = """Bid-inference tables from self-play auctions.

Build: deal N seeded random deals, bid each by PLAYER at all four seats (at game score 0-0), let
the high bidder pitch (which fixes trump), and count for every bid sequence how often each seat
(relative to the bidder) held each card: before the pitch by suit-strength order and rank,
after it relative to trump (trump ranks, off-suit ranks) and pitch rank. Counts and smoothed
probabilities (a prior worth --prior deals towards the next coarser context: sequence ->
bidder's seat and bid -> bid -> all deals -> uniform) go to --out, written atomically.
`heuristic` bidders run compiled; any other player (db:PATH, strategy:PATH, random) is asked
through Python, one decision at a time.

Show: --show FILE prints, for one sequence, each seat's probability of holding each trump rank
and its expected trump length, and with --png writes a heatmap (rows: seats, columns: cards).
Sequences are the four bids in auction order, dealer's left first and dealer last, each P (or 0),
2, 3 or 4: e.g. P,2,P,3.

Spades (--game spades): deal N seeded deals (at 0 to 0) whose auctions are bid by the population
--bidders (SPEC[,SPEC...]: the dealer's team and the other take every ordered pairing), and count
for every bid in its context (place in the bidding, partner's bid, opponents' bids' sum) the
bidder's spade count, spade honours, side aces and kings, voids (and with --tricks, the hand
played out, its tricks taken), smoothed with a prior worth --prior positions; the next
--heldout deals measure the tables' log-loss of the bidders' features against uniform from
every observer seat (docs/games/spades.md). --show FILE prints, for the bids before a bidder
(--sequence, in auction order, e.g. 3,Nil; empty for the first bidder), what each bid says."""


def register(subparsers) -> None:
    """Add the `bid-tables` subcommand."""
    parser = add_command(
        subparsers, "bid-tables",
        "count bid-inference tables from self-play auctions, or show them", HELP)
    parser.add_argument("--bidders", metavar="PLAYER", default=None,
                        help="the player bidding (and pitching) at all four seats: heuristic "
                             "(compiled, fast), db:PATH, strategy:PATH[,PATH...] or random; "
                             "Spades: a population SPEC[,SPEC...] of Spades players (heuristic, "
                             "ismcts[:SIMS],pyspiel, db:PATH, random)")
    parser.add_argument("--deals", type=positive_int, default=None, metavar="N",
                        help="deals to count (required to build)")
    parser.add_argument("--seed", type=seed, default=0, metavar="S",
                        help="seed of the deals (default 0)")
    parser.add_argument("--out", metavar="FILE", help="where to write the tables")
    parser.add_argument("--workers", type=positive_int, default=1, metavar="K",
                        help="worker processes (default 1; the counts do not depend on it)")
    parser.add_argument("--prior", type=_prior, default=20.0, metavar="K",
                        help="smoothing prior strength in deals (default 20, at most 1e9)")
    parser.add_argument("--heldout", type=non_negative_int, default=None, metavar="M",
                        help="Spades: deals after the N counted, held out to measure the "
                             "tables' log-loss against uniform (default 1000; 0: none)")
    parser.add_argument("--tricks", action="store_true",
                        help="Spades: play every deal out and count the bidder's tricks taken "
                             "too (slower)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.add_argument("--show", metavar="FILE", help="print one sequence of a tables file")
    parser.add_argument("--sequence", metavar="BIDS",
                        help="with --show: the sequence, as P,2,P,3 (default: the most "
                             "frequent sequence with a bidder); Spades: the bids before the "
                             "bidder in auction order, as 3,Nil (default: none, the first "
                             "bidder)")
    parser.add_argument("--pitch", metavar="RANK",
                        help="with --show: the pitch rank (2-9, T, J, Q, K, A; default: "
                             "averaged over the pitches seen)")
    parser.add_argument("--png", metavar="PATH",
                        help="with --show: also write a heatmap of the sequence to PATH (*.png)")
    parser.add_argument("--json", action="store_true", help="with --show: print JSON")
    parser.set_defaults(func=run)
    add_game_option(parser, "bid-tables", ("setback", "spades"), needs=("tournament",),
                    reason="the tables are of Setback's and Spades' auctions")


def _prior(text: str) -> float:
    import argparse

    from cli.arguments import positive_float

    value = positive_float(text)
    if value > 1e9:
        raise argparse.ArgumentTypeError(f"must be at most 1e9: {text}")
    return value


def run(args) -> int:
    """Build or show (see HELP): Setback's tables, or with --game spades Spades'."""
    spades = args.game == "spades"
    extra = ("heldout", "tricks") if spades else ()
    for option in ("heldout", "tricks"):
        if not spades and getattr(args, option) not in (None, False):
            raise UserError(f"--{option} goes with --game spades")
    if args.show is not None:
        if args.out or args.bidders or args.deals or any(getattr(args, o) not in (None, False)
                                                         for o in extra):
            raise UserError("--show reads a tables file: give no --bidders, --deals"
                            + "".join(f", --{o}" for o in extra) + " or --out")
        for option in ("pitch", "png") if spades else ():
            if getattr(args, option) is not None:
                raise UserError(f"--{option} is for Setback's tables, not --game spades")
        return show_spades(args) if spades else show(args)
    for option in ("sequence", "pitch", "png"):
        if getattr(args, option) is not None:
            raise UserError(f"--{option} goes with --show FILE")
    if not args.bidders or args.deals is None or not args.out:
        raise UserError(f"building needs --bidders {'SPEC[,SPEC...]' if spades else 'PLAYER'}, "
                        "--deals N and --out FILE (or --show FILE to read one)")
    return build_spades(args) if spades else build(args)


def build(args) -> int:
    """Count, smooth and write the tables; print a summary line."""
    import os
    import time

    from play.player_spec import PlayerSpecError, make_player
    from play.bid_tables import BidTables

    spec = args.bidders.strip()
    if spec.lower().startswith(("pimc", "pimc-pi")):
        raise UserError("--bidders: a pimc player bids with its bid= player; name that one")
    try:
        player = make_player(spec, args.seed)  # fail fast on a bad spec, in one line
    except PlayerSpecError as exc:
        raise UserError(str(exc)) from None
    if hasattr(player, "close"):
        player.close()
    directory = os.path.dirname(os.path.abspath(args.out))
    if not os.path.isdir(directory):
        raise UserError(f"--out {args.out!r}: no such directory {directory!r}")
    if os.path.isdir(args.out):
        raise UserError(f"--out {args.out!r} is a directory")
    start = time.perf_counter()
    tables = BidTables.build(spec, args.deals, args.seed, args.workers, args.prior,
                             progress=not args.no_progress)
    seconds = time.perf_counter() - start
    tables.meta["seconds"] = round(seconds, 3)
    tables.save(args.out)
    bid = int(tables.post_deals.sum())
    print(f"bid tables: {args.deals:,} deals bid by {spec} (seed {args.seed}), {bid:,} with a "
          f"bidder, {int((tables.pre_deals > 0).sum())} sequences seen, in {seconds:.1f} s "
          f"({args.deals / max(seconds, 1e-9):,.0f} deals/s, {args.workers} worker(s)) -> "
          f"{args.out}")
    return 0


SEAT_NAMES = ("bidder", "left", "partner", "right", "not dealt")
RANKS = "23456789TJQKA"


def show(args) -> int:
    """Print (and draw) one sequence of a tables file."""
    import json
    import os

    import numpy as np

    from play.bid_tables import (
        BidTables, BidTablesError, parse_sequence, sequence_info, sequence_text)

    if not os.path.isfile(args.show):
        raise UserError(f"--show {args.show!r}: no such file")
    tables = BidTables.load(args.show)
    if args.sequence is not None:
        seq = parse_sequence(args.sequence)
    else:
        seen = tables.post_deals.sum(axis=1)
        if seen.sum() == 0:
            raise BidTablesError(f"{args.show}: no deal with a bidder was counted")
        seq = int(np.argmax(seen))
    _, bidder, high = sequence_info(seq)
    if bidder < 0:
        raise UserError(f"--sequence {sequence_text(seq)}: everybody passed, so there is no "
                        "pitch and no trump to show")
    pitch = None
    if args.pitch is not None:
        text = args.pitch.strip().upper()
        text = "T" if text == "10" else text
        if len(text) != 1 or text not in RANKS:
            raise UserError(f"--pitch {args.pitch!r}: expected a rank 2-9, T, J, Q, K or A")
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
    if args.json:
        print(json.dumps(result))
        return 0
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
    print("\n".join(lines))
    return 0


def write_heatmap(probs, result: dict, path: str) -> str:
    """A heatmap PNG of one sequence (rows: seats and not dealt; columns: trump then off-suit
    ranks)."""
    if not path.lower().endswith(".png"):
        raise UserError(f"--png {path!r}: the heatmap is a PNG file (name it *.png)")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise UserError(f"--png needs matplotlib ({exc})") from None
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
        raise UserError(f"--png {path!r}: cannot write the PNG ({exc})") from None
    finally:
        plt.close(fig)
    return path


# --- Spades (--game spades) -------------------------------------------------------------------
def build_spades(args) -> int:
    """Count, smooth, measure and write Spades' tables; print a summary and the held-out
    figures."""
    import os
    import time

    from tqdm import tqdm

    from play.player_spec import PlayerSpecError
    from play.spades_bid_data import build as build_tables, close_population, make_population
    from play.spades_bid_data import save

    try:
        close_population(make_population(args.bidders, args.seed)[1])  # fail fast, one line
    except (PlayerSpecError, ValueError) as exc:
        raise UserError(f"--bidders: {exc}") from None
    directory = os.path.dirname(os.path.abspath(args.out))
    if not os.path.isdir(directory):
        raise UserError(f"--out {args.out!r}: no such directory {directory!r}")
    if os.path.isdir(args.out):
        raise UserError(f"--out {args.out!r} is a directory")
    heldout = 1000 if args.heldout is None else args.heldout
    start = time.perf_counter()
    with tqdm(total=args.deals + heldout, unit="deal", disable=args.no_progress,
              leave=False) as bar:
        tables = build_tables(args.bidders, args.deals, args.seed, heldout, args.prior,
                              args.tricks, args.workers, bar.update)
    seconds = time.perf_counter() - start
    tables.meta["seconds"] = round(seconds, 3)
    save(tables, args.out)
    lines = [f"Spades bid tables: {args.deals:,} deals bid by {args.bidders} (seed {args.seed}"
             f"{', played out' if args.tricks else ''}), {args.deals * 4:,} bids, in "
             f"{seconds:.1f} s ({args.workers} worker(s)) -> {args.out}"]
    lines += heldout_lines(tables.meta)
    print("\n".join(lines))
    return 0


def heldout_lines(meta: dict) -> list[str]:
    """The held-out figures of a Spades tables' `meta` as text lines."""
    figures = meta.get("heldout")
    if not figures:
        return []
    lines = [f"held out: {meta.get('heldout_deals', 0):,} deals, {figures['predictions']:,} "
             "predictions (observer, bidder); log-loss in nats a prediction:",
             f"  {'feature':14}{'uniform':>9}{'tables':>9}{'cut':>8}"]
    for name, row in figures.items():
        if isinstance(row, dict):
            lines.append(f"  {name:14}{row['uniform']:9.4f}{row['tables']:9.4f}"
                         f"{100 * row['cut']:7.1f}%")
    return lines


def show_spades(args) -> int:
    """Print what each bid says after the bids before it (`--sequence`), from a tables file."""
    import json
    import os

    import numpy as np

    from play.spades_bid_data import SpadesBidTablesError, load
    from search.spades_bid_tables import GROUPS, OFFSET, SIZE, context

    if not os.path.isfile(args.show):
        raise UserError(f"--show {args.show!r}: no such file")
    tables = load(args.show)
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
    if args.json:
        print(json.dumps(result))
        return 0
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
    lines += heldout_lines(tables.meta)
    print("\n".join(lines))
    return 0
