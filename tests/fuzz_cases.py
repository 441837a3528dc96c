"""Fuzzed inputs for every boundary of the program, shared by tests/test_fuzz_*.py and
bench/fuzz.py (which runs the same generators for many more cases).

Each boundary is a hypothesis strategy of inputs plus an `Outcome` check: the program must
either accept the input (status 0) or refuse it with the documented status and one line on
stderr, never a traceback, and never change a file it was only meant to read.

`run_main` runs the command line in-process (no interpreter start-up per case), capturing
stdout and stderr itself, so it works inside `@given` and outside pytest alike.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import traceback
from dataclasses import dataclass

from hypothesis import strategies as st

from cli.main import main

WORKED = {
    "dealer": "S",
    "hands": {
        "S": ["9H", "4H", "KC", "8D", "6S", "3C"],
        "W": ["AS", "JS", "7S", "2S", "KH", "3D"],
        "N": ["QH", "TH", "5D", "9C", "4S", "8C"],
        "E": ["AH", "TS", "6H", "2C", "JD", "QS"],
    },
    "moves": ["3", "P", "P", "P", "AS", "4S", "TS", "6S", "KH", "QH", "AH", "4H"],
}


@dataclass
class Outcome:
    """What one command did: its exit status and what it printed (traceback text if it
    raised anything but SystemExit)."""

    status: int | None
    out: str
    err: str
    traceback: str | None = None

    def problem(self, allowed=(0, 2)) -> str | None:
        """Why this outcome breaks the rules (None when it keeps them): a traceback, an
        undocumented status, or an error that is not one `setback-cfr: error:` line (argparse's
        own refusals print the usage first and end in one `error:` line)."""
        if self.traceback is not None:
            return "traceback:\n" + self.traceback
        if self.status not in allowed:
            return f"status {self.status!r} (allowed {allowed}); stderr {self.err!r}"
        if self.status != 0:
            lines = self.err.rstrip("\n").split("\n") if self.err else []
            if not lines or "error:" not in lines[-1] or "Traceback" in self.err:
                return f"status {self.status} without a one-line error: {self.err!r}"
            if (lines[-1].startswith("setback-cfr: error:") and len(lines) != 1
                    and not lines[0].startswith("usage:")):
                return f"more than one line on stderr: {self.err!r}"
        return None


def run_main(argv, stdin_text: str | None = None) -> Outcome:
    """Run `setback-cfr argv` in this process; capture its status and output."""
    out, err = io.StringIO(), io.StringIO()
    saved_stdin = None
    if stdin_text is not None:
        import sys

        saved_stdin, sys.stdin = sys.stdin, io.StringIO(stdin_text)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main([str(a) for a in argv])
            except SystemExit as exc:
                status = exc.code
            except BaseException:  # noqa: BLE001 - the point is to catch what leaks
                return Outcome(None, out.getvalue(), err.getvalue(), traceback.format_exc())
    finally:
        if saved_stdin is not None:
            import sys

            sys.stdin = saved_stdin
    return Outcome(status if isinstance(status, int) else 1, out.getvalue(), err.getvalue())


def snapshot(*paths) -> dict:
    """Bytes of every file under `paths` (files or directories), to prove nothing changed."""
    files = {}
    for path in paths:
        path = str(path)
        if os.path.isdir(path):
            for root, _, names in os.walk(path):
                for name in names:
                    full = os.path.join(root, name)
                    with open(full, "rb") as handle:
                        files[full] = handle.read()
        elif os.path.exists(path):
            with open(path, "rb") as handle:
                files[path] = handle.read()
    return files


# ---- JSON values ---------------------------------------------------------------------------
SCALARS = st.one_of(
    st.none(), st.booleans(),
    st.integers(), st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12),
)
JSON = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=6), inner, max_size=6)),
    max_leaves=20)
CARD_TOKENS = st.one_of(
    st.sampled_from([f"{r}{s}" for r in "23456789TJQKA" for s in "CDHS"] + ["10H", "1S", "AX",
                                                                             "", " as ", "ZZ"]),
    st.integers(min_value=-5, max_value=60), st.integers(), st.none(), st.booleans(),
    st.floats(), st.text(max_size=4), st.lists(st.text(max_size=2), max_size=2))
MOVE_TOKENS = st.one_of(st.sampled_from(["P", "2", "3", "4", "5", "p", "AS", "4S", "TS", "10S",
                                         "QH", "", "pass"]), CARD_TOKENS)


@st.composite
def replay_specs(draw):
    """A replay input: the worked deal with fields replaced, removed, added or mangled, or an
    arbitrary JSON value."""
    kind = draw(st.integers(0, 6))
    if kind == 0:
        return draw(JSON)
    spec = json.loads(json.dumps(WORKED))
    if kind == 1:  # a top-level field replaced by anything, or removed
        name = draw(st.sampled_from(["dealer", "hands", "moves", "score"]))
        if draw(st.booleans()):
            spec.pop(name, None)
        else:
            spec[name] = draw(JSON)
    elif kind == 2:  # one hand replaced by anything (null, a number, a string, ...)
        seat = draw(st.sampled_from(["W", "N", "E", "S", "X", "w", ""]))
        spec["hands"][seat] = draw(st.one_of(JSON, st.lists(CARD_TOKENS, max_size=8)))
    elif kind == 3:  # one card replaced
        seat = draw(st.sampled_from("WNES"))
        spec["hands"][seat][draw(st.integers(0, 5))] = draw(CARD_TOKENS)
    elif kind == 4:  # the moves replaced by plausible and implausible tokens
        spec["moves"] = draw(st.lists(MOVE_TOKENS, max_size=30))
    elif kind == 5:  # a prefix of the moves, plus a score of any shape
        spec["moves"] = spec["moves"][:draw(st.integers(0, len(spec["moves"])))]
        spec["score"] = draw(st.one_of(
            JSON, st.fixed_dictionaries({"EW": st.integers(), "NS": st.integers()}),
            st.fixed_dictionaries({"EW": st.integers(-5, 12), "NS": st.integers(-5, 12)})))
    else:  # extra fields anywhere
        spec[draw(st.text(max_size=8))] = draw(JSON)
        spec["hands"][draw(st.text(max_size=3))] = draw(JSON)
    return spec


@st.composite
def replay_texts(draw):
    """Replay input as raw bytes: valid JSON of a fuzzed spec, truncated JSON, huge numbers,
    deep nesting, or bytes that are not UTF-8."""
    kind = draw(st.integers(0, 4))
    text = json.dumps(draw(replay_specs())).encode()
    if kind == 0:
        return text
    if kind == 1:
        return text[:draw(st.integers(0, max(0, len(text) - 1)))]
    if kind == 2:
        big = draw(st.sampled_from(["1" * 5000, "1e999999", "-1e999999", "NaN", "Infinity",
                                    "9" * 400]))
        return json.dumps(WORKED).replace('"3"', big, 1).encode()
    if kind == 3:
        depth = draw(st.integers(1000, 200_000))
        return b"[" * depth + b"]" * draw(st.sampled_from([0, depth]))
    data = bytearray(json.dumps(WORKED).encode())
    for _ in range(draw(st.integers(1, 4))):
        data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0x80, 0xFF))
    return bytes(data)


# ---- binary files: truncations and bit flips -------------------------------------------------
@st.composite
def damaged(draw, original: bytes):
    """`original` truncated at some offset, or with 1..8 random bits flipped, or with bytes
    inserted or appended."""
    kind = draw(st.integers(0, 3))
    data = bytearray(original)
    if kind == 0:
        return bytes(data[:draw(st.integers(0, len(data) - 1))])
    if kind == 1:
        for _ in range(draw(st.integers(1, 8))):
            at = draw(st.integers(0, len(data) - 1))
            data[at] ^= 1 << draw(st.integers(0, 7))
        if data == original:  # the same bit flipped twice: flip one more
            data[0] ^= 1
        return bytes(data)
    if kind == 2:  # a flip in the first bytes (the header), where parsing is most fragile
        at = draw(st.integers(0, min(len(data), 600) - 1))
        data[at] ^= 1 << draw(st.integers(0, 7))
        return bytes(data)
    at = draw(st.integers(0, len(data)))
    return bytes(data[:at]) + draw(st.binary(min_size=1, max_size=16)) + bytes(data[at:])


# ---- run.json edited by hand -----------------------------------------------------------------
@st.composite
def run_settings_docs(draw, original: dict):
    """A run.json document with a field changed, removed or added (or not an object at all)."""
    kind = draw(st.integers(0, 4))
    doc = json.loads(json.dumps(original))
    if kind == 0:
        return draw(JSON)
    if kind == 1:
        name = draw(st.sampled_from(["format", "version", "stage", "settings"]))
        if draw(st.booleans()):
            doc.pop(name)
        else:
            doc[name] = draw(JSON)
    elif kind == 2:
        name = draw(st.sampled_from(sorted(doc["settings"]) + ["extra"]))
        if draw(st.booleans()):
            doc["settings"].pop(name, None)
        else:
            doc["settings"][name] = draw(st.one_of(JSON, st.integers(-3, 2**70)))
    elif kind == 3:
        doc["version"] = draw(st.one_of(st.integers(-3, 5), st.floats(), st.text(max_size=3)))
    else:
        doc["stage"] = draw(st.one_of(st.sampled_from(["bootstrap", "", "Baseline"]), JSON))
    return doc


# ---- command-line options --------------------------------------------------------------------
NONSENSE = st.one_of(
    st.sampled_from(["-1", "0", "-0", "nan", "inf", "-inf", "1e400", "1e-400", "", " ", "x",
                     "0x10", "1.5", "99999999999999999999999", "-99999999999999999999",
                     "18446744073709551616", "1_000", "--", "/nonexistent/file", "/",
                     "a\x00b", "é"]),
    st.integers().map(str), st.floats().map(str), st.text(max_size=6))


# ---- boundaries: a setup, a strategy of cases, and one check per case ------------------------
class Boundary:
    """One input boundary: `setup(workdir)` makes its valid inputs once, `cases()` is the
    hypothesis strategy of damaged inputs, `check(case)` runs one and returns the rule it
    broke (None when it kept them all)."""

    name = ""

    def setup(self, workdir: str) -> None:
        self.workdir = workdir

    def cases(self):
        raise NotImplementedError

    def check(self, case) -> str | None:
        raise NotImplementedError


def _refused_unchanged(outcome: Outcome, before: dict, after: dict, allowed=(0, 2)):
    problem = outcome.problem(allowed)
    if problem is None and outcome.status != 0 and before != after:
        changed = sorted(set(before) ^ set(after) | {k for k in before
                                                       if before.get(k) != after.get(k)})
        problem = f"refused with status {outcome.status} but changed {changed}"
    return problem


def _tiny_baseline(workdir: str) -> str:
    """A one-deal baseline run (seed 2: a small first deal) in `workdir`/base."""
    run = os.path.join(workdir, "base")
    if not os.path.exists(os.path.join(run, "checkpoint.ckpt")):
        outcome = run_main(["train", "baseline", "--run", run, "--iterations", "1", "--seed",
                            "2", "--algorithm", "cfr", "--no-progress"])
        assert outcome.status == 0, outcome
    return run


class ReplayBoundary(Boundary):
    """`setback-cfr replay FILE` on fuzzed JSON values and raw bytes."""

    name = "replay JSON"

    def cases(self):
        return st.one_of(replay_specs().map(lambda s: json.dumps(s).encode()), replay_texts())

    def check(self, data: bytes):
        path = os.path.join(self.workdir, "deal.json")
        with open(path, "wb") as handle:
            handle.write(data)
        return run_main(["replay", path]).problem()


class CheckpointBoundary(Boundary):
    """A damaged checkpoint: `checkpoint.load` refuses it in one line (`CfrFileError`), and
    `export` / `train baseline` on a run holding it exit 2 with one line, changing no file."""

    name = "checkpoint"

    def setup(self, workdir):
        super().setup(workdir)
        from cfr.solver import Solver
        from games.kuhn import GAME as KUHN

        self.small = os.path.join(workdir, "kuhn.ckpt")
        solver = Solver(KUHN, "cfr")
        solver.iterate(3)
        solver.save(self.small)
        with open(self.small, "rb") as handle:
            self.small_bytes = handle.read()
        self.run = _tiny_baseline(workdir)
        with open(os.path.join(self.run, "checkpoint.ckpt"), "rb") as handle:
            self.run_bytes = handle.read()

    def cases(self):
        return st.one_of(damaged(self.small_bytes).map(lambda d: ("load", d)),
                         damaged(self.run_bytes).map(lambda d: ("cli", d)))

    def check(self, case):
        kind, data = case
        from cfr import checkpoint
        from cfr.errors import CfrFileError

        if kind == "load":
            path = os.path.join(self.workdir, "damaged.ckpt")
            with open(path, "wb") as handle:
                handle.write(data)
            try:
                checkpoint.load(path)
            except CfrFileError as exc:
                return None if "\n" not in str(exc) else f"two lines: {exc}"
            except Exception:  # noqa: BLE001
                return "traceback:\n" + traceback.format_exc()
            return "a damaged checkpoint was accepted"
        path = os.path.join(self.run, "checkpoint.ckpt")
        with open(path, "wb") as handle:
            handle.write(data)
        out = os.path.join(self.workdir, "out.strategy")
        if os.path.exists(out):
            os.unlink(out)
        try:
            before = snapshot(self.run)
            for argv in (["export", "--run", self.run, "--out", out],
                         ["train", "baseline", "--run", self.run, "--iterations", "1",
                          "--no-progress"]):
                outcome = run_main(argv)
                if outcome.status == 0:
                    return f"{argv[0]} accepted a damaged checkpoint"
                problem = _refused_unchanged(outcome, before, snapshot(self.run))
                if problem or os.path.exists(out):
                    return problem or "export wrote a file from a damaged checkpoint"
            return None
        finally:
            with open(path, "wb") as handle:
                handle.write(self.run_bytes)


class StrategyBoundary(Boundary):
    """A damaged strategy file: reading it raises `CfrFileError` (one line); `db load` exits
    2 and writes no database."""

    name = "strategy file"

    def setup(self, workdir):
        super().setup(workdir)
        from games.setback.db.synthetic import write_synthetic_strategy

        self.source = os.path.join(workdir, "good.strategy")
        write_synthetic_strategy(self.source, "baseline", 300, seed=3)
        with open(self.source, "rb") as handle:
            self.good = handle.read()

    def cases(self):
        return damaged(self.good)

    def check(self, data):
        from cfr.errors import CfrFileError
        from cfr.strategy_file import read_strategy

        path = os.path.join(self.workdir, "damaged.strategy")
        with open(path, "wb") as handle:
            handle.write(data)
        try:
            read_strategy(path)
            return "a damaged strategy file was accepted"
        except CfrFileError as exc:
            if "\n" in str(exc):
                return f"two lines: {exc}"
        except Exception:  # noqa: BLE001
            return "traceback:\n" + traceback.format_exc()
        db = os.path.join(self.workdir, "from-damaged.db")
        if os.path.exists(db):
            os.unlink(db)
        outcome = run_main(["db", "load", path, "--db", db, "--no-progress"])
        if outcome.status == 0 or os.path.exists(db):
            return "db load accepted a damaged strategy file"
        return outcome.problem()


class DatabaseBoundary(Boundary):
    """A damaged, truncated, foreign or wrong-schema database: `db info` and `db query`
    answer (status 0: SQLite keeps no checksums, so a flipped bit inside a probability is
    not detectable) or refuse in one line (status 2), and never change the file."""

    name = "database"
    FOREIGN_SQL = [
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)",
        "CREATE TABLE metadata (name TEXT, value TEXT); INSERT INTO metadata VALUES "
        "('format', '\"setback-cfr/strategy-db\"')",
        "CREATE TABLE metadata (name TEXT PRIMARY KEY, value TEXT); INSERT INTO metadata "
        "VALUES ('format', 'not json')",
        "CREATE TABLE metadata (name TEXT PRIMARY KEY, value TEXT); INSERT INTO metadata "
        "VALUES ('format', '\"setback-cfr/strategy-db\"'), ('schema_version', '\"1\"')",
        "CREATE TABLE strategy (key TEXT)",
    ]

    def setup(self, workdir):
        super().setup(workdir)
        from db.loader import load_strategies
        from games.setback.db.synthetic import write_synthetic_strategy

        source = os.path.join(workdir, "db-source.strategy")
        write_synthetic_strategy(source, "baseline", 300, seed=4)
        good = os.path.join(workdir, "good.db")
        load_strategies([source], good, progress=False)
        with open(good, "rb") as handle:
            self.good = handle.read()
        import sqlite3

        self.foreign = []
        for i, sql in enumerate(self.FOREIGN_SQL):
            path = os.path.join(workdir, f"foreign{i}.db")
            with sqlite3.connect(path) as conn:
                conn.executescript(sql)
            with open(path, "rb") as handle:
                self.foreign.append(handle.read())
        # a real database whose metadata was edited (wrong schema version, wrong types)
        import shutil

        self.edited = []
        for name, value in (("schema_version", "99"), ("schema_version", '"x"'),
                            ("abstraction_version", "2"), ("format", "null"),
                            ("n_keys", '"many"'), ("kind_counts", "[1]")):
            path = os.path.join(workdir, "edited.db")
            shutil.copyfile(good, path)
            with sqlite3.connect(path) as conn:
                conn.execute("UPDATE metadata SET value = ? WHERE name = ?", (value, name))
            conn.close()
            with open(path, "rb") as handle:
                self.edited.append(handle.read())

    def cases(self):
        return st.one_of(damaged(self.good), st.sampled_from(self.foreign),
                         st.sampled_from(self.edited))

    def check(self, data):
        path = os.path.join(self.workdir, "damaged.db")
        with open(path, "wb") as handle:
            handle.write(data)
        for argv in (["db", "info", "--db", path], ["db", "query", "--db", path, "0AJx2"],
                     ["db", "info", "--db", path, "--json"]):
            outcome = run_main(argv)
            with open(path, "rb") as handle:
                if handle.read() != data:
                    return f"{' '.join(argv[:2])} changed the database"
            problem = outcome.problem()
            if problem:
                return problem
        return None


class RunSettingsBoundary(Boundary):
    """run.json edited by hand: `train status`, `export` and a resume answer or refuse in one
    line, and a refusal changes no file."""

    name = "run.json"

    def setup(self, workdir):
        super().setup(workdir)
        self.run = _tiny_baseline(workdir)
        self.settings_path = os.path.join(self.run, "run.json")
        with open(self.settings_path, "rb") as handle:
            self.original_bytes = handle.read()
        self.original = json.loads(self.original_bytes)
        self.checkpoint_bytes = open(os.path.join(self.run, "checkpoint.ckpt"), "rb").read()
        self.log_bytes = open(os.path.join(self.run, "log.csv"), "rb").read()

    def cases(self):
        return run_settings_docs(self.original)

    def check(self, doc):
        with open(self.settings_path, "w", encoding="utf-8") as handle:
            json.dump(doc, handle)
        out = os.path.join(self.workdir, "run.strategy")
        try:
            for argv in (["train", "status", "--run", self.run],
                         ["train", "status", "--run", self.run, "--json"],
                         ["export", "--run", self.run, "--out", out],
                         ["train", "baseline", "--run", self.run, "--iterations", "1",
                          "--no-progress"]):
                before = snapshot(self.run)
                outcome = run_main(argv)
                problem = _refused_unchanged(outcome, before, snapshot(self.run))
                if problem:
                    return f"{' '.join(argv[:2])}: {problem}"
            return None
        finally:
            for name, data in (("run.json", self.original_bytes),
                               ("checkpoint.ckpt", self.checkpoint_bytes),
                               ("log.csv", self.log_bytes)):
                with open(os.path.join(self.run, name), "wb") as handle:
                    handle.write(data)


class CliBoundary(Boundary):
    """Every option and positional argument of every subcommand given a nonsense value, the
    rest of the command small and valid. A value its option's type refuses must give status 2
    (argparse's usage and one `error:` line); a value it accepts is run when that is cheap
    (paths, names, keys, small settings) and must then end in 0, 2 or, for an output that
    cannot be written, 1, each with one line. Counts (games, deals, iterations, minutes ...)
    that the type accepts are legitimate and may be long: they are counted, not run."""

    name = "CLI options"
    # Options whose accepted values can make a command run for long.
    EXPENSIVE = {"--games", "--max-deals", "--deals", "--iterations", "--report-every",
                 "--minutes", "--workers", "--seed", "--batch", "--positions",
                 "--worlds", "--bootstrap", "--epochs", "--sds-samples",
                 "--sds-worlds", "--pairs", "--pool", "--chunk",
                 "--heldout", "--rounds", "--imitate", "--gate-pairs", "--window",
                 "--eval-every", "--eval-games"}  # (when above 2)

    def setup(self, workdir):
        super().setup(workdir)
        import argparse

        from cli.main import build_parser
        from db.loader import load_strategies
        from games.setback.db.synthetic import write_synthetic_strategy

        run = _tiny_baseline(workdir)
        deal = os.path.join(workdir, "deal.json")
        with open(deal, "w") as handle:
            json.dump(WORKED, handle)
        strategy = os.path.join(workdir, "base.strategy")
        assert run_main(["export", "--run", run, "--out", strategy]).status == 0
        small = os.path.join(workdir, "small.strategy")
        write_synthetic_strategy(small, "baseline", 200, seed=5)
        db = os.path.join(workdir, "s.db")
        load_strategies([small], db, progress=False)
        not_a_file = os.path.join(workdir, "a-directory")
        os.makedirs(not_a_file, exist_ok=True)
        data = os.path.join(workdir, "learn.npz")
        assert run_main(["learn", "generate", "--deals", "1", "--seed", "4", "--out", data,
                         "--no-progress"]).status == 0
        model = os.path.join(workdir, "m.nn")
        assert run_main(["learn", "train", "--data", data, "--labels", "playout", "--hidden",
                         "4,4", "--epochs", "1", "--validation", "0", "--out", model,
                         "--no-progress"]).status == 0
        position = os.path.join(workdir, "position.json")
        with open(position, "w") as handle:  # the worked deal from East's side, to decide
            json.dump(dict(WORKED, hands={"E": WORKED["hands"]["E"]},
                           moves=WORKED["moves"][:6]), handle)
        deals = os.path.join(workdir, "deals.jsonl")  # each seat a whole suit: solved at once
        with open(deals, "w") as handle:
            handle.write(json.dumps({"hands": {seat: [r + suit for r in "AKQJT98765432"]
                                               for seat, suit in zip("NESW", "SHDC")}}) + "\n")
        self.base = {
            ("replay",): ["replay", deal],
            ("dd-table",): ["dd-table", deals],
            ("train", "distill"): ["train", "distill", "--run", "rd", "--from", run, "--games", "1",
                                   "--chunk", "1", "--imitate", "0", "--searcher",
                                   "search[worlds=2]", "--hidden", "4x4", "--epochs", "1",
                                   "--gate-pairs", "0", "--rounds", "1", "--no-progress"],
            ("simulate",): ["simulate", "--games", "2", "--max-deals", "3", "--no-progress"],
            ("solve",): ["solve", "kuhn", "--iterations", "2"],
            ("census",): ["census", "--deals", "1", "--no-progress"],
            ("train", "baseline"): ["train", "baseline", "--run", "r", "--iterations", "0",
                                    "--no-progress"],
            ("train", "bootstrap"): ["train", "bootstrap", "--baseline", strategy, "--run",
                                     "rb", "--iterations", "0", "--no-progress"],
            ("train", "status"): ["train", "status", "--run", run],
            ("train", "best-response"): ["train", "best-response", "--against",
                                         f"strategy:{strategy}", "--run", "rbr",
                                         "--iterations", "0", "--no-progress"],
            ("export",): ["export", "--run", run, "--out", "o.strategy"],
            ("db", "load"): ["db", "load", small, "--db", "x.db", "--no-progress"],
            ("db", "query"): ["db", "query", "--db", db, "0AJx2"],
            ("db", "info"): ["db", "info", "--db", db],
            ("tournament",): ["tournament", "--ew", "random", "--ns", "random", "--games", "1",
                              "--max-deals", "2", "--png", "none", "--no-progress"],
            ("quickstart",): ["quickstart"],
            ("solve-deal",): ["solve-deal", deal],
            ("inference",): ["inference", "--policy", f"db:{db}", "--positions", "1",
                             "--worlds", "2"],
            ("bid-tables",): ["bid-tables", "--bidders", "heuristic", "--deals", "2", "--out",
                              "bt.tables", "--no-progress"],
            # Two bad settings, so that no single fuzzed value can start a server.
            ("serve",): ["serve", "--games", not_a_file, "--delay-ms", "-1"],
            ("decide",): ["decide", position, "--bots", "heuristic"],
            ("learn", "generate"): ["learn", "generate", "--deals", "1", "--out", "g.npz",
                                    "--no-progress"],
            ("learn", "train"): ["learn", "train", "--data", data, "--labels", "playout",
                                 "--hidden", "4,4", "--epochs", "1", "--validation", "0",
                                 "--out", "t.nn", "--no-progress"],
            ("learn", "evaluate"): ["learn", "evaluate", "--model", model, "--data", data,
                                    "--no-progress"],
            ("exploit",): ["exploit", "--against", f"db:{db}", "--pairs", "1", "--worlds", "2",
                           "--pool", "1", "--no-progress"],
            ("learn", "belief"): ["learn", "belief", "--players", "random", "--games", "1",
                                  "--epochs", "1", "--hidden", "4,4", "--out", "b.model",
                                  "--no-progress"],
            ("rating",): ["rating", "random", "heuristic", "--games", "1", "--max-deals", "2",
                          "--bootstrap", "2", "--store", "ratings.db", "--no-progress"],
        }
        self.targets = []  # (command path, action)

        def walk(parser, path):
            for action in parser._actions:
                if isinstance(action, argparse._SubParsersAction):
                    for name, sub in action.choices.items():
                        walk(sub, path + (name,))
                elif path and action.nargs != 0 and not isinstance(action, argparse._HelpAction):
                    self.targets.append((path, action))

        walk(build_parser(), ())
        missing = {path for path, _ in self.targets} - set(self.base)
        assert not missing, f"no base command for {missing}"

    def cases(self):
        return st.tuples(st.integers(0, len(self.targets) - 1), NONSENSE)

    def _expensive(self, path, action, value) -> bool:
        """Whether an accepted value may make the command run long (not run then)."""
        if path == ("quickstart",):
            return True
        option = action.option_strings[-1] if action.option_strings else None
        if option == "--ray":
            return True  # starts a Ray cluster (tests/test_train_ray.py covers it)
        if option == "--hidden":
            return True  # "H1,H2": the network's size, as long to train as it is wide
        if option not in self.EXPENSIVE:
            return False
        if option == "--seed":
            return path == ("census",)  # a seed picks the deal the census walks
        try:
            number = float(action.type(value) if action.type else value)
        except Exception:  # noqa: BLE001
            return False
        return 2 < number < 2**63  # zero, negative or beyond int64: refused at once

    def _accepted(self, action, value) -> bool:
        try:
            converted = action.type(value) if action.type else value
        except Exception:  # noqa: BLE001 - argparse turns any type error into status 2
            return False
        return action.choices is None or converted in action.choices

    def confined(self, value: str) -> str:
        """`value`, or, when it names a path outside the working directory, the same path
        re-rooted inside it: a command that may create or write a path (`train --run /x`,
        `train --run /mnt`, an empty folder) must not do it on the machine running the
        fuzzer. What the outside path was is copied in: a folder (holding a file if the
        original holds any), a file's first MiB; other kinds (devices) are left out."""
        try:
            full = os.path.abspath(value)
            home = os.path.abspath(self.workdir)
            if os.path.commonpath([full, home]) == home:
                return value
        except (ValueError, OSError):  # a NUL byte: no path at all
            return value
        inside = os.path.join(self.workdir, "outside", full.lstrip(os.sep))
        if os.path.lexists(inside) or not os.path.lexists(full):
            return inside
        try:
            if os.path.isdir(full):
                os.makedirs(inside, exist_ok=True)
                if os.listdir(full):
                    open(os.path.join(inside, "a-file"), "w").close()
            elif os.path.isfile(full):
                os.makedirs(os.path.dirname(inside), exist_ok=True)
                with open(full, "rb") as source, open(inside, "wb") as copy:
                    copy.write(source.read(1 << 20))
        except OSError:  # unreadable: an empty folder stands for it
            os.makedirs(inside, exist_ok=True)
        return inside

    def check(self, case):
        index, value = case
        value = self.confined(value)
        path, action = self.targets[index]
        argv = list(self.base[path])
        if action.option_strings:
            option = action.option_strings[-1]
            if option in argv:
                at = argv.index(option)
                argv[at + 1:at + 2] = [value]
            else:
                argv += [option, value]
        else:  # a positional: replace the first one of the base command
            positionals = [i for i, a in enumerate(argv) if i >= len(path)
                           and not a.startswith("-") and (i == 0 or not argv[i - 1].startswith("--")
                                                          or argv[i - 1] in ("--no-progress",))]
            if positionals:
                argv[positionals[0]] = value
            else:
                argv.append(value)
        accepted = self._accepted(action, value)
        if accepted and self._expensive(path, action, value):
            return None  # a legitimate count: not run
        outcome = run_main(argv)
        if not accepted and outcome.status != 2:
            return f"{argv}: refused value ended in status {outcome.status}"
        return outcome.problem((0, 1, 2))


BOUNDARIES = [ReplayBoundary, CheckpointBoundary, StrategyBoundary, DatabaseBoundary,
              RunSettingsBoundary, CliBoundary]
