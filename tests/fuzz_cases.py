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
            lines = self.err.splitlines()
            if not lines or "error:" not in lines[-1] or "Traceback" in self.err:
                return f"status {self.status} without a one-line error: {self.err!r}"
            if lines[-1].startswith("setback-cfr: error:") and len(lines) != 1:
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
