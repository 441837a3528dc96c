"""Checkpoints: a msgpack header, then the info-set table's arrays as raw bytes.

A checkpoint file is one msgpack map (the header) immediately followed by the five table
arrays, raw little-endian, in the order keys, meta, offsets, regrets, strategy (regrets and
strategy cut to the used n_values). Header fields:
    magic        "setback-cfr/checkpoint"
    version      FORMAT_VERSION (a reader refuses newer versions)
    game         the game's name
    algorithm    cfr, cfr+, lcfr, dcfr or es-mccfr
    settings     every hyper-parameter and setting (`Solver.settings()`: flags, alpha, beta,
                 gamma, simultaneous, sampled_chance, seed, dtype; for es-mccfr also
                 linear_weighting, prune_threshold, prune_probability, sum_visits)
    iteration    iterations completed
    rng          {"kind": "splitmix64-counter", "seed", "counter"}: the whole generator state
    table        {"key_words", "dtype", "count", "n_values", "capacity", "value_capacity",
                  "memory_bytes"}
    arrays       [[name, numpy dtype string, byte count], ...] in file order
    checksum     BLAKE2b-128 of the five arrays' bytes, in that order
    extra        the caller's own counters (a training stage's running payoff, seconds, ...)
From format 3 the header is followed by the BLAKE2b-128 of its own msgpack bytes (16 raw
bytes) before the arrays, so a flipped bit anywhere in the file is detected: in the header by
this digest, in the arrays by `checksum`. Formats 1 and 2 (no header digest) are still read.
The arrays are written straight from the table's memory and read straight into new arrays,
so saving or loading a multi-GB table never holds a second copy of it in memory. Format 1
(one msgpack map holding the arrays as bin fields, which needed two to three copies) is still
read.
Written atomically: a temporary file in the same directory, flushed and fsynced, renamed over
the target, then the directory fsynced. Any unreadable file raises `CfrFileError` with one line.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import msgpack
import numpy as np

from cfr.atomic_file import atomic_writer
from cfr.errors import CfrFileError
from cfr.table import InfoSetTable

MAGIC = "setback-cfr/checkpoint"
FORMAT_VERSION = 3
_DIGEST_SIZE = 16
_ARRAYS = ("keys", "meta", "offsets", "regrets", "strategy")
_MAX_HEADER = 1 << 20  # bytes: a header is a few hundred; more means a foreign file


@dataclass
class Checkpoint:
    """What a checkpoint holds: the header fields and the restored table."""

    game: str
    algorithm: str
    settings: dict
    iteration: int
    rng: dict
    table: InfoSetTable
    extra: dict


def _digest(arrays) -> bytes:
    """BLAKE2b-128 of the arrays' bytes in order (hashed in place, no copy)."""
    h = hashlib.blake2b(digest_size=16)
    for a in arrays:
        h.update(memoryview(a).cast("B"))
    return h.digest()


def _file_arrays(table: InfoSetTable) -> list[np.ndarray]:
    """The five arrays as written: little-endian, contiguous, values cut to n_values."""
    n = table.n_values
    le = table.dtype.newbyteorder("<")
    return [
        np.ascontiguousarray(table.keys.astype("<u8", copy=False)),
        np.ascontiguousarray(table.meta),
        np.ascontiguousarray(table.offsets.astype("<u4", copy=False)),
        np.ascontiguousarray(table.regrets[:n].astype(le, copy=False)),
        np.ascontiguousarray(table.strategy[:n].astype(le, copy=False)),
    ]


def save(path: str, game: str, algorithm: str, settings: dict, iteration: int,
         table: InfoSetTable, extra: dict | None = None) -> None:
    """Write a checkpoint of `table` after `iteration` iterations to `path`, atomically.

    `extra` (msgpack-able) is stored as is and returned by `load` in `Checkpoint.extra`."""
    arrays = _file_arrays(table)
    header = {
        "magic": MAGIC,
        "version": FORMAT_VERSION,
        "game": game,
        "algorithm": algorithm,
        "settings": settings,
        "iteration": int(iteration),
        "rng": {"kind": "splitmix64-counter", "seed": int(settings.get("seed", 0)),
                "counter": int(iteration)},
        "table": {
            "key_words": table.key_words,
            "dtype": table.dtype.name,
            "count": table.count,
            "n_values": table.n_values,
            "capacity": table.capacity,
            "value_capacity": table.value_capacity,
            "memory_bytes": table.memory_bytes(),
        },
        "arrays": [[name, a.dtype.str, int(a.nbytes)] for name, a in zip(_ARRAYS, arrays)],
        "checksum": _digest(arrays),
        "extra": dict(extra or {}),
    }
    packed = msgpack.packb(header, use_bin_type=True)
    with atomic_writer(path, suffix=".ckpt") as handle:
        handle.write(packed)
        handle.write(hashlib.blake2b(packed, digest_size=_DIGEST_SIZE).digest())
        for a in arrays:
            handle.write(memoryview(a).cast("B"))


def read_header(path: str) -> tuple[dict, int]:
    """The checkpoint's header and the file offset where its arrays start (`CfrFileError`
    for a missing, foreign, truncated or newer file)."""
    try:
        handle = open(path, "rb")
    except OSError as exc:
        raise CfrFileError(f"{path}: cannot read checkpoint ({exc.strerror or exc})") from None
    with handle:
        start = handle.read(64)
        unpacker = msgpack.Unpacker(raw=False, max_buffer_size=_MAX_HEADER)
        unpacker.feed(start)
        try:
            while True:
                try:
                    doc = unpacker.unpack()
                    break
                except msgpack.OutOfData:
                    more = handle.read(1 << 16)
                    if not more:
                        raise
                    unpacker.feed(more)
            offset = unpacker.tell()
            if isinstance(doc, dict) and doc.get("magic") == MAGIC \
                    and _is_int(doc.get("version")) and 3 <= doc["version"] <= FORMAT_VERSION:
                handle.seek(0)
                packed = handle.read(offset)
                stored = handle.read(_DIGEST_SIZE)
                if hashlib.blake2b(packed, digest_size=_DIGEST_SIZE).digest() != stored:
                    raise CfrFileError(f"{path}: checkpoint is corrupt (header checksum "
                                       "mismatch)" if len(stored) == _DIGEST_SIZE else
                                       f"{path}: checkpoint is truncated or corrupt")
                offset += _DIGEST_SIZE
        except CfrFileError:
            raise
        except msgpack.BufferFull:
            # A header over 1 MiB: a format-1 file (arrays inside the map), or garbage.
            handle.seek(0)
            doc, offset = _format_1(path, handle.read())
        except Exception:
            if _looks_like_ours(start):
                raise CfrFileError(f"{path}: checkpoint is truncated or corrupt") from None
            raise CfrFileError(f"{path}: not a setback-cfr checkpoint") from None
    if not isinstance(doc, dict) or doc.get("magic") != MAGIC:
        raise CfrFileError(f"{path}: not a setback-cfr checkpoint")
    version = doc.get("version")
    if not _is_int(version) or version < 1:
        raise CfrFileError(f"{path}: checkpoint is corrupt (bad format version {version!r})")
    if version > FORMAT_VERSION:
        raise CfrFileError(f"{path}: checkpoint format version {version} is newer than this "
                           f"program reads (up to {FORMAT_VERSION}); upgrade setback-cfr")
    return doc, offset


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _format_1(path: str, data: bytes) -> tuple[dict, int]:
    """Parse a whole format-1 file (one msgpack map)."""
    try:
        doc = msgpack.unpackb(data, raw=False)
    except Exception:
        if _looks_like_ours(data[:64]):
            raise CfrFileError(f"{path}: checkpoint is truncated or corrupt") from None
        raise CfrFileError(f"{path}: not a setback-cfr checkpoint") from None
    if not isinstance(doc, dict) or doc.get("version") != 1:
        raise CfrFileError(f"{path}: checkpoint is corrupt (oversized header)")
    return doc, len(data)


def load(path: str) -> Checkpoint:
    """Read a checkpoint; raise `CfrFileError` (one line) if it is not a valid one."""
    doc, offset = read_header(path)
    try:
        if doc["version"] == 1:
            return _restore_format_1(doc)
        return _restore(path, doc, offset)
    except CfrFileError as exc:
        raise CfrFileError(f"{path}: checkpoint is {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise CfrFileError(f"{path}: checkpoint is corrupt ({type(exc).__name__}: {exc})") \
            from None


def _looks_like_ours(data: bytes) -> bool:
    """True when `data` opens like a checkpoint: a msgpack map whose first entry is our magic."""
    prefix = msgpack.packb("magic") + msgpack.packb(MAGIC)
    if not data or not (0x80 <= data[0] <= 0x8F or data[0] in (0xDE, 0xDF)):
        return False
    start = 1 if data[0] <= 0x8F else (3 if data[0] == 0xDE else 5)
    head = data[start:start + len(prefix)]
    return len(data) > start and prefix.startswith(head)


def _table_description(doc: dict):
    t = doc["table"]
    kw, count, n = int(t["key_words"]), int(t["count"]), int(t["n_values"])
    cap, vcap = int(t["capacity"]), int(t["value_capacity"])
    dtype = np.dtype(t["dtype"])
    if kw not in (1, 2) or dtype not in (np.dtype(np.float64), np.dtype(np.float32)):
        raise CfrFileError("corrupt (bad table description)")
    if cap <= 0 or cap & (cap - 1) or vcap < n or count > cap:
        raise CfrFileError("corrupt (bad table sizes)")
    return kw, count, n, cap, vcap, dtype


def _checkpoint(doc: dict, table: InfoSetTable) -> Checkpoint:
    return Checkpoint(
        game=str(doc["game"]),
        algorithm=str(doc["algorithm"]),
        settings=dict(doc["settings"]),
        iteration=int(doc["iteration"]),
        rng=dict(doc["rng"]),
        table=table,
        extra=dict(doc.get("extra", {})),
    )


def _restore_format_1(doc: dict) -> Checkpoint:
    """A format-1 checkpoint: the arrays are bin fields of the header map itself."""
    kw, count, n, cap, vcap, dtype = _table_description(doc)
    blobs = [doc["arrays"][k] for k in _ARRAYS]
    if not all(isinstance(b, bytes) for b in blobs):
        raise CfrFileError("corrupt (array fields are not bytes)")
    h = hashlib.blake2b(digest_size=16)
    for b in blobs:
        h.update(b)
    if h.digest() != doc["checksum"]:
        raise CfrFileError("corrupt (checksum mismatch)")
    le = dtype.newbyteorder("<")
    table = InfoSetTable(key_words=kw, dtype=dtype, capacity=16, value_capacity=16)
    table.keys = np.frombuffer(blobs[0], dtype="<u8").astype(np.uint64).reshape(cap, kw)
    table.meta = np.frombuffer(blobs[1], dtype=np.uint8).copy()
    table.offsets = np.frombuffer(blobs[2], dtype="<u4").astype(np.uint32)
    table.regrets = np.zeros(vcap, dtype=dtype)
    table.strategy = np.zeros(vcap, dtype=dtype)
    table.regrets[:n] = np.frombuffer(blobs[3], dtype=le)
    table.strategy[:n] = np.frombuffer(blobs[4], dtype=le)
    if table.meta.shape[0] != cap or int(np.count_nonzero(table.meta)) != count:
        raise CfrFileError("corrupt (array sizes disagree with the header)")
    table.count, table.n_values = count, n
    return _checkpoint(doc, table)


def _restore(path: str, doc: dict, offset: int) -> Checkpoint:
    kw, count, n, cap, vcap, dtype = _table_description(doc)
    expected = {"keys": ("<u8", cap * kw), "meta": ("|u1", cap), "offsets": ("<u4", cap),
                "regrets": (dtype.newbyteorder("<").str, n),
                "strategy": (dtype.newbyteorder("<").str, n)}
    layout = [tuple(entry) for entry in doc["arrays"]]
    if [name for name, _, _ in layout] != list(_ARRAYS):
        raise CfrFileError("corrupt (bad array list)")
    # Read each array straight into its final, writable home: no second copy in memory.
    table = InfoSetTable(key_words=kw, dtype=dtype, capacity=16, value_capacity=16)
    table.keys = np.empty((cap, kw), dtype=np.dtype("<u8"))
    table.meta = np.empty(cap, dtype=np.uint8)
    table.offsets = np.empty(cap, dtype=np.dtype("<u4"))
    table.regrets = np.zeros(vcap, dtype=dtype.newbyteorder("<"))
    table.strategy = np.zeros(vcap, dtype=dtype.newbyteorder("<"))
    targets = [table.keys, table.meta, table.offsets, table.regrets[:n], table.strategy[:n]]
    with open(path, "rb") as handle:
        handle.seek(offset)
        for (name, dtype_str, nbytes), target in zip(layout, targets):
            want_dtype, items = expected[name]
            if np.dtype(dtype_str) != np.dtype(want_dtype) or \
                    int(nbytes) != items * np.dtype(want_dtype).itemsize:
                raise CfrFileError(f"corrupt (array {name} disagrees with the header)")
            if handle.readinto(memoryview(target).cast("B")) != int(nbytes):
                raise CfrFileError("truncated or corrupt")
        if handle.read(1):
            raise CfrFileError("corrupt (trailing bytes)")
    if _digest(targets) != doc["checksum"]:
        raise CfrFileError("corrupt (checksum mismatch)")
    if int(np.count_nonzero(table.meta)) != count:
        raise CfrFileError("corrupt (slot count disagrees with the header)")
    table.count, table.n_values = count, n
    return _checkpoint(doc, table)
