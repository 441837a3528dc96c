"""Checkpoints: one msgpack map, a header then the info-set table's arrays as raw bytes.

Layout (msgpack map):
    magic        "setback-cfr/checkpoint"
    version      FORMAT_VERSION (a reader refuses newer versions)
    game         the game's name
    algorithm    cfr, cfr+, lcfr or dcfr
    settings     every hyper-parameter and setting (`Solver.settings()`: flags, alpha, beta,
                 gamma, simultaneous, sampled_chance, seed, dtype)
    iteration    iterations completed
    rng          {"kind": "splitmix64-counter", "seed", "counter"}: the whole generator state
    table        {"key_words", "dtype", "count", "n_values", "capacity", "value_capacity",
                  "memory_bytes"}
    arrays       {"keys", "meta", "offsets", "regrets", "strategy"}: raw little-endian bytes
                 (regrets and strategy cut to the used n_values)
    checksum     BLAKE2b-128 of the five arrays' bytes, in that order
    extra        the caller's own counters (a training stage's running payoff, seconds, ...)
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
FORMAT_VERSION = 1
_ARRAYS = ("keys", "meta", "offsets", "regrets", "strategy")


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


def _digest(blobs: list[bytes]) -> bytes:
    h = hashlib.blake2b(digest_size=16)
    for b in blobs:
        h.update(b)
    return h.digest()


def save(path: str, game: str, algorithm: str, settings: dict, iteration: int,
         table: InfoSetTable, extra: dict | None = None) -> None:
    """Write a checkpoint of `table` after `iteration` iterations to `path`, atomically.

    `extra` (msgpack-able) is stored as is and returned by `load` in `Checkpoint.extra`."""
    n = table.n_values
    arrays = {
        "keys": table.keys.astype("<u8", copy=False).tobytes(),
        "meta": table.meta.tobytes(),
        "offsets": table.offsets.astype("<u4", copy=False).tobytes(),
        "regrets": table.regrets[:n].astype(table.dtype.newbyteorder("<"), copy=False).tobytes(),
        "strategy": table.strategy[:n].astype(table.dtype.newbyteorder("<"), copy=False).tobytes(),
    }
    doc = {
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
            "n_values": n,
            "capacity": table.capacity,
            "value_capacity": table.value_capacity,
            "memory_bytes": table.memory_bytes(),
        },
        "arrays": arrays,
        "checksum": _digest([arrays[k] for k in _ARRAYS]),
        "extra": dict(extra or {}),
    }
    data = msgpack.packb(doc, use_bin_type=True)
    with atomic_writer(path, suffix=".ckpt") as handle:
        handle.write(data)


def load(path: str) -> Checkpoint:
    """Read a checkpoint; raise `CfrFileError` (one line) if it is not a valid one."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise CfrFileError(f"{path}: cannot read checkpoint ({exc.strerror or exc})") from None
    try:
        doc = msgpack.unpackb(data, raw=False)
    except Exception:
        if _looks_like_ours(data):
            raise CfrFileError(f"{path}: checkpoint is truncated or corrupt") from None
        raise CfrFileError(f"{path}: not a setback-cfr checkpoint") from None
    if not isinstance(doc, dict) or doc.get("magic") != MAGIC:
        raise CfrFileError(f"{path}: not a setback-cfr checkpoint")
    version = doc.get("version")
    if not isinstance(version, int) or version < 1:
        raise CfrFileError(f"{path}: checkpoint is corrupt (bad format version {version!r})")
    if version > FORMAT_VERSION:
        raise CfrFileError(f"{path}: checkpoint format version {version} is newer than this "
                           f"program reads (up to {FORMAT_VERSION}); upgrade setback-cfr")
    try:
        return _restore(doc)
    except CfrFileError as exc:
        raise CfrFileError(f"{path}: checkpoint is corrupt ({exc})") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise CfrFileError(f"{path}: checkpoint is corrupt ({type(exc).__name__}: {exc})") from None


def _looks_like_ours(data: bytes) -> bool:
    """True when `data` opens like a checkpoint: a msgpack map whose first entry is our magic."""
    prefix = msgpack.packb("magic") + msgpack.packb(MAGIC)
    if not data or not (0x80 <= data[0] <= 0x8F or data[0] in (0xDE, 0xDF)):
        return False
    start = 1 if data[0] <= 0x8F else (3 if data[0] == 0xDE else 5)
    head = data[start:start + len(prefix)]
    return len(data) > start and prefix.startswith(head)


def _restore(doc: dict) -> Checkpoint:
    arrays = doc["arrays"]
    blobs = [arrays[k] for k in _ARRAYS]
    if not all(isinstance(b, bytes) for b in blobs):
        raise CfrFileError("array fields are not bytes")
    if _digest(blobs) != doc["checksum"]:
        raise CfrFileError("checksum mismatch")
    t = doc["table"]
    kw, count, n = int(t["key_words"]), int(t["count"]), int(t["n_values"])
    cap, vcap = int(t["capacity"]), int(t["value_capacity"])
    dtype = np.dtype(t["dtype"])
    if kw not in (1, 2) or dtype not in (np.dtype(np.float64), np.dtype(np.float32)):
        raise CfrFileError("bad table description")
    if cap <= 0 or cap & (cap - 1) or vcap < n or count > cap:
        raise CfrFileError("bad table sizes")
    table = InfoSetTable(key_words=kw, dtype=dtype, capacity=cap, value_capacity=vcap)
    table.keys = np.frombuffer(arrays["keys"], dtype="<u8").astype(np.uint64).reshape(cap, kw)
    table.meta = np.frombuffer(arrays["meta"], dtype=np.uint8).copy()
    table.offsets = np.frombuffer(arrays["offsets"], dtype="<u4").astype(np.uint32)
    regrets = np.frombuffer(arrays["regrets"], dtype=dtype.newbyteorder("<")).astype(dtype)
    strategy = np.frombuffer(arrays["strategy"], dtype=dtype.newbyteorder("<")).astype(dtype)
    if table.meta.shape[0] != cap or table.offsets.shape[0] != cap or len(regrets) != n \
            or len(strategy) != n or int(np.count_nonzero(table.meta)) != count:
        raise CfrFileError("array sizes disagree with the header")
    table.regrets[:n] = regrets
    table.strategy[:n] = strategy
    table.count, table.n_values = count, n
    return Checkpoint(
        game=str(doc["game"]),
        algorithm=str(doc["algorithm"]),
        settings=dict(doc["settings"]),
        iteration=int(doc["iteration"]),
        rng=dict(doc["rng"]),
        table=table,
        extra=dict(doc.get("extra", {})),
    )
