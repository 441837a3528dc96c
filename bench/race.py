"""The algorithms race (issue 11): which `train baseline --algorithm` gives the strongest player
for the CPU time spent? And, across key layouts (issue 27, `--abstractions`), which
`train baseline --abstraction` does?

Every entrant trains a baseline from an empty table on the same seed (so the same deals, in the
same order), in its own process, `--parallel` at a time. Its clock is the CPU time of its
process spent in training (checkpoint writing and exports are left out). At each of
`--snapshots` (CPU minutes) the run is exported and loaded into a database of its own; each
snapshot then plays `--games` duplicate pairs (2 games each, cards swapped) against the
heuristic player, and against vanilla cfr's snapshot of the same CPU time. The bootstrap stage
is left out for every entrant: the players bid with the baseline's auction keys.

Prints one table, writes `race.json` (every figure) and `race.png` (win rate with its 95%
interval against CPU minutes) in `--out`. A race that stopped part-way is resumed by the same
command: finished entrants and finished tournaments are read back, not redone.

    python bench/race.py                                    # 30 CPU-min per entrant
    python bench/race.py --minutes 15 --snapshots 2,5,10,15 --algorithms cfr,es-mccfr
    python bench/race.py --minutes 120 --snapshots 20,40,60,90,120 --algorithms es-mccfr \
        --without-cfr                                       # one entrant, two CPU-hours
    python bench/race.py --minutes 120 --snapshots 20,40,60,90,120 --algorithms es-mccfr \
        --without-cfr --abstractions reference,bidder,contract   # the layouts race

`--from-runs NAME=DIR,...` builds the same table and picture from runs already trained with
`setback-cfr train baseline --eval-every M` (their eval.csv: the win rate against the heuristic
at each evaluation; their log.csv: info sets and resident memory, sampled at every checkpoint),
nothing trained or played; `--project-minutes M` adds each run's info sets and memory after M
CPU-minutes, from a power law fitted to its last evaluations (growth keeps slowing, so the
projection errs high). Every later run is set beside the first at the evaluations they share
(its difference, and whether it fell below the first by more than its own interval):

    python bench/race.py --from-runs reference=runs/L,bidder=runs/bidder,contract=runs/contract \
        --project-minutes 20160 --out race-layouts       # a week of both cores
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

ALGORITHMS = ("cfr", "cfr+", "lcfr", "dcfr", "es-mccfr")
REFERENCE = "reference"  # the layout of the entrants named by their algorithm alone
TOURNAMENT_SEED = 7  # the deals of every tournament (common to all entrants)


def two_rates(text: str) -> tuple[float, float]:
    """--lines: two win rates in per cent, comma-separated."""
    try:
        rates = tuple(float(x) for x in text.split(","))
    except ValueError:
        rates = ()
    if len(rates) != 2:
        raise argparse.ArgumentTypeError("two win rates in per cent, e.g. 70,74")
    return rates


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0,
                        help="CPU minutes of training per entrant (default 30)")
    parser.add_argument("--snapshots", default=None,
                        help="CPU minutes of the snapshots, comma-separated (default "
                        "2,5,10,20,30 cut at --minutes, plus --minutes itself)")
    parser.add_argument("--algorithms", default=",".join(ALGORITHMS),
                        help=f"entrants, comma-separated (default {','.join(ALGORITHMS)}); "
                        "cfr is trained too unless --without-cfr (the others play its "
                        "snapshots)")
    parser.add_argument("--games", type=int, default=1000,
                        help="duplicate pairs per tournament (default 1000: 2,000 games)")
    parser.add_argument("--parallel", type=int, default=2,
                        help="entrants trained at once, and tournament workers (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="training seed (default 0)")
    parser.add_argument("--batch", type=int, default=1,
                        help="--batch of every entrant (default 1)")
    parser.add_argument("--without-cfr", action="store_true",
                        help="do not train vanilla cfr beside the entrants, and play no games "
                        "against its snapshots (a long run of one entrant)")
    parser.add_argument("--linear-weighting", action="store_true",
                        help="es-mccfr entrant with linear weighting")
    parser.add_argument("--abstractions", default=REFERENCE,
                        help="key layouts, comma-separated (default reference): every algorithm "
                        "is raced under each (games/setback/abstraction/layouts.py)")
    parser.add_argument("--out", default="race-out", help="directory (default ./race-out)")
    parser.add_argument("--from-runs", default=None, metavar="NAME=DIR,...",
                        help="no training: the table and picture of runs trained with `train "
                        "baseline --eval-every` (their eval.csv and log.csv)")
    parser.add_argument("--project-minutes", type=float, default=None, metavar="M",
                        help="with --from-runs: project each run's info sets and memory to M "
                        "CPU-minutes (a power law through its last evaluations)")
    parser.add_argument("--from-minutes", type=float, default=0.0, metavar="M",
                        help="with --from-runs: leave out the evaluations before M CPU-minutes "
                        "(e.g. those of a short run that a long one resumed)")
    parser.add_argument("--lines", type=two_rates, default=None, metavar="A,B",
                        help="with --from-runs: the two win rates (%%) the picture draws lines "
                        "at (default 70,75)")
    args = parser.parse_args(argv)
    if args.from_runs is not None:
        try:
            args.from_runs = [(n.strip(), d.strip()) for n, _, d in
                              (item.partition("=") for item in args.from_runs.split(","))]
        except ValueError:
            args.from_runs = []
        if not args.from_runs or any(not n or not d for n, d in args.from_runs):
            parser.error("--from-runs takes NAME=DIR pairs, comma-separated")
        missing = [d for _, d in args.from_runs if not os.path.exists(os.path.join(d,
                                                                                   "eval.csv"))]
        if missing:
            parser.error(f"{missing[0]}: no eval.csv (train it with --eval-every)")
    elif args.project_minutes is not None or args.from_minutes or args.lines is not None:
        parser.error("--project-minutes, --from-minutes and --lines need --from-runs")
    from games.setback.abstraction import layouts

    args.abstractions = [a for a in args.abstractions.split(",") if a]
    unknown = [a for a in args.abstractions if a not in layouts.names()]
    if unknown or not args.abstractions:
        parser.error(f"unknown abstraction {unknown[0] if unknown else ''!r} (choose from "
                     f"{', '.join(layouts.names())})")
    args.algorithms = [a for a in args.algorithms.split(",") if a]
    bad = [a for a in args.algorithms if a not in ALGORITHMS]
    if bad:
        parser.error(f"unknown algorithm {bad[0]!r} (choose from {', '.join(ALGORITHMS)})")
    if "cfr" not in args.algorithms and not args.without_cfr:
        args.algorithms.insert(0, "cfr")
    if args.snapshots is None:
        marks = [m for m in (2, 5, 10, 20, 30) if m < args.minutes] + [args.minutes]
    else:
        marks = sorted({float(m) for m in args.snapshots.split(",")})
    args.marks = [float(m) for m in marks]
    return args


def entrant_name(algorithm: str, abstraction: str = REFERENCE) -> str:
    """ALGORITHM under the reference layout (the names races had before layouts), else
    ALGORITHM@LAYOUT."""
    return algorithm if abstraction == REFERENCE else f"{algorithm}@{abstraction}"


def entrants(args) -> list[tuple[str, str]]:
    """(algorithm, abstraction) of every entrant: each algorithm under each layout, cfr (the
    yardstick the others play) under the reference layout only."""
    out = [("cfr", REFERENCE)] if "cfr" in args.algorithms and not args.without_cfr else []
    for abstraction in args.abstractions:
        out += [(a, abstraction) for a in args.algorithms if (a, abstraction) not in out
                and not (a == "cfr" and not args.without_cfr)]
    return out


def row_entrant(row: dict) -> str:
    """A row's entrant name (rows of races before layouts have only the algorithm)."""
    return row.get("entrant", row["algorithm"])


def snapshot_path(out: str, algorithm: str, minutes: float, ext: str) -> str:
    """The file of an entrant's snapshot (`algorithm` is the entrant's name)."""
    return os.path.join(out, f"{algorithm}-{minutes:g}min.{ext}")


def peak_rss_bytes() -> int:
    """This process's peak resident memory (each entrant trains in a fresh process)."""
    import resource

    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024  # KiB on Linux


def train_entrant(job) -> list[dict]:
    """Train one entrant (in its own process) to every mark; export each snapshot. Returns
    (and writes to ENTRANT.json) one row per snapshot."""
    algorithm, abstraction, args = job
    name = entrant_name(algorithm, abstraction)
    from games.setback.train.baseline import baseline_stage
    from train.export import export_run
    from train.run_directory import RunDirectory
    from train.runner import Trainer

    done_file = os.path.join(args.out, f"{name}.json")
    if os.path.exists(done_file):
        with open(done_file) as handle:
            return json.load(handle)
    run = os.path.join(args.out, f"{name}-run")
    if os.path.exists(run):  # an entrant stopped part-way starts again: its clock is lost
        import shutil

        shutil.rmtree(run)
    sampling = None
    if algorithm == "es-mccfr" and args.linear_weighting:
        import dataclasses

        from train.game_plugin import new_run_sampling

        sampling = dataclasses.replace(new_run_sampling(), linear=True)
    stage = baseline_stage(args.seed, args.batch, "simultaneous", algorithm, sampling,
                           abstraction)
    used = 0.0  # CPU seconds of training so far
    rows = []
    for mark in args.marks:
        # a trainer per snapshot, resuming from the last one's checkpoint (bit for bit the run
        # trained in one go), built before the clock starts so that loading is not training
        # (it also kept the race clear of bd2cce3's warm-up bug, fixed in 8f58a69)
        trainer = Trainer(RunDirectory(run), stage, checkpoint_every=1e12, show_progress=False)
        start = time.process_time()
        before = used
        clock = {"now": used}

        def until():
            clock["now"] = before + time.process_time() - start
            return clock["now"] >= 60.0 * mark

        summary = trainer.run(2**62, until=until)
        used = clock["now"]
        strategy = snapshot_path(args.out, name, mark, "strategy")
        export_run(run, strategy)
        rows.append({"algorithm": algorithm, "abstraction": abstraction, "entrant": name,
                     "minutes": mark, "cpu_seconds": used,
                     "deals": summary["iteration"], "infosets": summary["infosets"],
                     "table_bytes": summary["memory_bytes"],
                     "bytes_per_infoset": summary["memory_bytes"] / max(1, summary["infosets"]),
                     "peak_rss_bytes": peak_rss_bytes(),
                     "payoff": summary["payoff"], "strategy": strategy})
        print(f"  {name:9s} {mark:5g} CPU-min: {summary['iteration']:,} deals, "
              f"{summary['infosets']:,} info sets", flush=True)
    with open(done_file, "w") as handle:
        json.dump(rows, handle, indent=1)
    return rows


def database_of(row: dict, out: str) -> str:
    """The snapshot's strategy database (built once)."""
    from db.loader import load_strategies

    path = snapshot_path(out, row_entrant(row), row["minutes"], "db")
    if not os.path.exists(path):
        load_strategies([row["strategy"]], path, progress=False)
    return path


def play(a: str, b: str, args) -> dict:
    """Duplicate tournament of databases/players a (reported) against b."""
    from cli.tournament import tournament

    s = tournament(a, b, args.games, TOURNAMENT_SEED, True, args.parallel, 200, False)
    return {"win_rate": s.win_rate, "ci_low": s.ci_low, "ci_high": s.ci_high,
            "games": s.games, "bids": s.bids_a, "made": s.made_a, "bids_b": s.bids_b,
            "made_b": s.made_b}


def evaluate(rows: list[dict], args) -> None:
    """Fill each row's tournaments (read back from race.json when already played)."""
    results_file = os.path.join(args.out, "race.json")
    played = {}
    if os.path.exists(results_file):
        with open(results_file) as handle:
            for row in json.load(handle)["rows"]:
                played[(row_entrant(row), row["minutes"])] = row
    cfr_db = {row["minutes"]: database_of(row, args.out) for row in rows
              if row_entrant(row) == "cfr"}
    for row in rows:
        old = played.get((row_entrant(row), row["minutes"]), {})
        if old.get("games") == args.games:
            row.update({k: old[k] for k in ("vs_heuristic", "vs_cfr", "games") if k in old})
            continue
        db = database_of(row, args.out)
        start = time.perf_counter()
        row["vs_heuristic"] = play(f"db:{db}", "heuristic", args)
        if row_entrant(row) != "cfr" and row["minutes"] in cfr_db:
            row["vs_cfr"] = play(f"db:{db}", f"db:{cfr_db[row['minutes']]}", args)
        row["games"] = args.games
        print(f"  played {row_entrant(row)} at {row['minutes']:g} min "
              f"({time.perf_counter() - start:.0f} s): vs heuristic "
              f"{100 * row['vs_heuristic']['win_rate']:.1f}%", flush=True)
        save(rows, args)


def save(rows: list[dict], args) -> None:
    from cfr.atomic_file import atomic_path

    doc = {"settings": {k: v for k, v in vars(args).items()}, "rows": rows}
    with atomic_path(os.path.join(args.out, "race.json"), suffix=".json") as tmp:
        with open(tmp, "w") as handle:
            json.dump(doc, handle, indent=1)


def pct(result: dict | None) -> str:
    if not result:
        return "-"
    return (f"{100 * result['win_rate']:.1f} ({100 * result['ci_low']:.1f}-"
            f"{100 * result['ci_high']:.1f})")


def table(rows: list[dict]) -> str:
    """The race as text: one line per snapshot."""
    lines = [f"{'entrant':19s} {'CPU min':>7s} {'deals':>8s} {'info sets':>10s} "
             f"{'B/set':>5s} {'peak MiB':>8s}  {'vs heuristic %':22s} {'vs cfr %':22s} "
             f"{'bids made':>10s}"]
    for row in rows:
        h = row.get("vs_heuristic") or {}
        made = f"{h['made']}/{h['bids']}" if "bids" in h else "-"
        per_set = f"{row['bytes_per_infoset']:5.0f}" if "bytes_per_infoset" in row else "    -"
        peak = f"{row['peak_rss_bytes'] / 2**20:8.0f}" if "peak_rss_bytes" in row else "       -"
        lines.append(f"{row_entrant(row):19s} {row['cpu_seconds'] / 60:7.1f} {row['deals']:8,} "
                     f"{row['infosets']:10,} {per_set} {peak}  {pct(h):22s} "
                     f"{pct(row.get('vs_cfr')):22s} {made:>10s}")
    return "\n".join(lines)


def plot(rows: list[dict], path: str, targets: tuple[float, float] = (65, 70)) -> None:
    """Win rate against CPU minutes per entrant (each entrant's points nudged sideways so that
    overlapping intervals stay readable), with the two target lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    against_cfr = any(r.get("vs_cfr") for r in rows)  # no right panel with --without-cfr
    panels = 2 if against_cfr else 1
    fig, axes = plt.subplots(1, panels, figsize=(6 * panels + 0.5 * (2 - panels), 4.5),
                             sharey=True, squeeze=False)
    left, right = axes[0][0], axes[0][-1]
    names = list(dict.fromkeys(row_entrant(r) for r in rows))
    colors = {a: f"C{i}" for i, a in enumerate(names)}  # one color per entrant, both sides
    span = max(r["cpu_seconds"] for r in rows) / 60
    for i, algorithm in enumerate(names):
        nudge = (i - (len(names) - 1) / 2) * span / 150
        mine = [r for r in rows if row_entrant(r) == algorithm]
        for axis, field in ((left, "vs_heuristic"), (right, "vs_cfr")):
            have = [r for r in mine if r.get(field)]
            if not have:
                continue
            x = [r["cpu_seconds"] / 60 + nudge for r in have]
            y = [100 * r[field]["win_rate"] for r in have]
            err = [[100 * (r[field]["win_rate"] - r[field]["ci_low"]) for r in have],
                   [100 * (r[field]["ci_high"] - r[field]["win_rate"]) for r in have]]
            axis.errorbar(x, y, yerr=err, marker="o", capsize=3, label=algorithm,
                          color=colors[algorithm])
    left.axhline(targets[0], color="grey", linestyle=":", linewidth=1)
    left.axhline(targets[1], color="grey", linestyle="--", linewidth=1)
    left.set_title(f"against the heuristic (lines at {targets[0]:g}%, {targets[1]:g}%)")
    if against_cfr:
        right.axhline(50, color="grey", linestyle=":", linewidth=1)
        right.set_title("against vanilla cfr's snapshot of the same CPU time")
    for axis in dict.fromkeys((left, right)):
        axis.set_xlabel("CPU minutes of training (baseline only)")
        axis.grid(alpha=0.3)
        if axis.get_legend_handles_labels()[0]:
            axis.legend()
    left.set_ylabel("win rate %, duplicate, 95% interval")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def read_csv(path: str) -> list[dict]:
    """Rows of a run's csv (comment lines skipped), numbers as floats where they parse."""
    import csv

    with open(path) as handle:
        lines = [line for line in handle if not line.startswith("#")]
    rows = []
    for raw in csv.DictReader(lines):
        row = {}
        for key, value in raw.items():
            try:
                row[key] = float(value)
            except (TypeError, ValueError):
                row[key] = value
        rows.append(row)
    return rows


def rows_from_run(name: str, run: str) -> list[dict]:
    """One race row per evaluation of a run trained with --eval-every: the win rate against
    the heuristic, info sets, and the largest resident memory the run logged up to then."""
    with open(os.path.join(run, "run.json")) as handle:
        settings = json.load(handle)["settings"]
    log = read_csv(os.path.join(run, "log.csv"))
    rows = []
    for ev in read_csv(os.path.join(run, "eval.csv")):
        if ev.get("opponent") != "heuristic":
            continue
        cpu = ev["train_cpu_seconds"]
        seen = [r["rss_bytes"] for r in log if r.get("cpu_seconds", 0) <= cpu + 1.0
                and isinstance(r.get("rss_bytes"), float)]
        peak = max(seen) if seen else None
        row = {"algorithm": settings.get("algorithm"), "abstraction": settings.get(
            "abstraction"), "entrant": name, "minutes": round(cpu / 60), "cpu_seconds": cpu,
            "deals": int(ev["iteration"]), "infosets": int(ev["infosets"]),
            "games": int(ev["games"]) // 2,
            "vs_heuristic": {"win_rate": ev["win_rate"], "ci_low": ev["ci_low"],
                             "ci_high": ev["ci_high"], "games": int(ev["games"])}}
        if peak:
            row["peak_rss_bytes"] = peak
            row["bytes_per_infoset"] = peak / max(1, row["infosets"])  # resident, all in
        rows.append(row)
    return rows


def project(rows: list[dict], minutes: float, fit_points: int = 3) -> dict:
    """Info sets and resident memory after `minutes` CPU-minutes: infosets = a * t**b through
    the last `fit_points` evaluations (least squares in log-log), memory at the run's last
    resident bytes per info set. Growth keeps slowing as the keys fill in, so the power law
    errs high."""
    import numpy as np

    have = [r for r in rows if r["infosets"] > 0][-fit_points:]
    t = np.log([r["cpu_seconds"] / 60 for r in have])
    n = np.log([r["infosets"] for r in have])
    b, log_a = np.polyfit(t, n, 1)
    infosets = float(np.exp(log_a) * minutes ** b)
    per_set = have[-1].get("bytes_per_infoset")
    return {"minutes": minutes, "exponent": float(b), "infosets": infosets,
            "bytes": infosets * per_set if per_set else None}


def against_first(rows: list[dict]) -> list[dict]:
    """Every later run's evaluations beside the first run's at the same CPU minutes: the
    difference in win-rate points and whether the later run fell below the first by more than
    its own interval (its upper bound under the first's rate), issue 38's test of a scheme
    against the reference. Runs of one seed evaluate on the same pairs (`train.evaluation`),
    but eval.csv keeps rates, not games, so this is not a paired difference."""
    names = list(dict.fromkeys(r["entrant"] for r in rows))
    first = {r["minutes"]: r["vs_heuristic"] for r in rows if r["entrant"] == names[0]}
    out = []
    for row in rows:
        base = first.get(row["minutes"])
        if row["entrant"] == names[0] or base is None:
            continue
        mine = row["vs_heuristic"]
        out.append({"entrant": row["entrant"], "against": names[0], "minutes": row["minutes"],
                    "difference": mine["win_rate"] - base["win_rate"],
                    "below_by_more_than_interval": mine["ci_high"] < base["win_rate"]})
    return out


def main_from_runs(args) -> int:
    """--from-runs: the table, race.json and race.png of runs already trained and evaluated."""
    rows = [row for name, run in args.from_runs for row in rows_from_run(name, run)
            if row["cpu_seconds"] >= 60 * args.from_minutes]
    if not rows:
        print(f"race.py: no evaluation at or after {args.from_minutes:g} CPU-minutes in "
              f"{', '.join(d for _, d in args.from_runs)}", file=sys.stderr)
        return 2
    doc = {"settings": {"from_runs": args.from_runs}, "rows": rows}
    lines = [table(rows), "(peak MiB and B/set: the largest resident memory the run logged "
             "by then, and that over the info sets)"]
    doc["against_first"] = against_first(rows)
    for c in doc["against_first"]:
        verdict = ("BELOW it by more than its interval" if c["below_by_more_than_interval"]
                   else "not below it by more than its interval")
        lines.append(f"{c['entrant']} at {c['minutes']:g} CPU-min: {100 * c['difference']:+.1f} "
                     f"points against {c['against']}, {verdict}")
    if args.project_minutes:
        doc["projections"] = {}
        for name, _ in args.from_runs:
            p = project([r for r in rows if r["entrant"] == name], args.project_minutes)
            doc["projections"][name] = p
            memory = f"{p['bytes'] / 2**30:.1f} GiB" if p["bytes"] else "-"
            lines.append(f"{name}: after {args.project_minutes:,.0f} CPU-min ~{p['infosets']:,.0f} "
                         f"info sets (power {p['exponent']:.3f}), ~{memory} resident")
    from cfr.atomic_file import atomic_path

    with atomic_path(os.path.join(args.out, "race.json"), suffix=".json") as tmp:
        with open(tmp, "w") as handle:
            json.dump(doc, handle, indent=1)
    png = os.path.join(args.out, "race.png")
    plot(rows, png, targets=args.lines or (70, 75))
    print("\n".join(lines))
    print(f"wrote {os.path.join(args.out, 'race.json')} and {png}")
    return 0


def main(argv=None) -> int:
    args = parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    if args.from_runs is not None:
        return main_from_runs(args)
    jobs = [(a, layout, args) for a, layout in entrants(args)]
    print(f"race: {', '.join(entrant_name(a, layout) for a, layout, _ in jobs)}; snapshots at "
          f"{args.marks} CPU-min; seed {args.seed}, batch {args.batch}; {args.parallel} at a "
          "time", flush=True)
    context = multiprocessing.get_context("spawn")  # each entrant a fresh process and clock
    with context.Pool(args.parallel, maxtasksperchild=1) as pool:
        rows = [row for entrant in pool.imap(train_entrant, jobs) for row in entrant]
    evaluate(rows, args)
    save(rows, args)
    png = os.path.join(args.out, "race.png")
    plot(rows, png)
    print(table(rows))
    print(f"wrote {os.path.join(args.out, 'race.json')} and {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
