"""The exported average strategy: key strings with their action probabilities, in msgpack.

A strategy file is a stream of msgpack objects:

1. a header map: `magic` "setback-cfr/strategy", `version` (FORMAT_VERSION; newer is refused),
   `game`, `abstraction`, `abstraction_version`, `stage`, `iterations`, `seed`, `threshold`,
   `n_keys`, and any further settings the writer adds;
2. chunks, each a map `{"keys": [str, ...], "n_actions": <uint8 bytes>, "probs": <float32
   little-endian bytes>}`: key i has `n_actions[i]` probabilities, in the abstraction's
   canonical action order, laid end to end in `probs`;
3. a footer map `{"end": true, "n_keys": N, "checksum": <BLAKE2b-128 of the header's msgpack
   bytes, then every chunk's key bytes, n_actions and probs in order>}`.

Format 2 added the header's bytes to the checksum, so a flipped bit anywhere in the file is
detected; format 1 files (checksum over the chunks only) are still read.

Keys are written in the order given (export sorts them, so the same table gives the same file
byte for byte). Files are written atomically; any unreadable file raises `CfrFileError` with
one line.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import Iterable, Iterator

import msgpack
import numpy as np

from cfr.atomic_file import atomic_writer
from cfr.errors import CfrFileError

MAGIC = "setback-cfr/strategy"
FORMAT_VERSION = 2
HEADER_FIELDS = ("game", "abstraction", "abstraction_version", "stage", "iterations", "seed",
                 "threshold", "n_keys")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# What each header field must be for the file to be usable (the types the writers store).
_HEADER_TYPES = {
    "game": lambda v: isinstance(v, str),
    "stage": lambda v: isinstance(v, str),
    "iterations": lambda v: _is_int(v) and v >= 0,
    "n_keys": lambda v: _is_int(v) and v >= 0,
    "threshold": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
}


@dataclass
class StrategyChunk:
    """A run of keys with their probabilities: key i owns probs[offsets[i]:offsets[i+1]]."""

    keys: list[str]
    n_actions: np.ndarray  # uint8
    probs: np.ndarray  # float32

    @property
    def offsets(self) -> np.ndarray:
        """Start of each key's probabilities in `probs`, plus the end."""
        out = np.zeros(len(self.keys) + 1, dtype=np.int64)
        np.cumsum(self.n_actions, out=out[1:])
        return out

    def items(self) -> Iterator[tuple[str, np.ndarray]]:
        """(key, probabilities) pairs."""
        offsets = self.offsets
        for i, key in enumerate(self.keys):
            yield key, self.probs[offsets[i]:offsets[i + 1]]


def _hash_chunk(h, chunk: StrategyChunk) -> None:
    if chunk.keys:  # every key followed by a NUL byte, hashed in one call
        h.update(("\0".join(chunk.keys) + "\0").encode())
    h.update(chunk.n_actions.tobytes())
    h.update(chunk.probs.astype("<f4", copy=False).tobytes())


def write_strategy(path: str, header: dict, chunks: Iterable[StrategyChunk]) -> int:
    """Write a strategy file atomically; return the number of keys written.

    `header` must hold the HEADER_FIELDS except `n_keys`, which is counted here and checked
    against the footer by readers.
    """
    missing = [f for f in HEADER_FIELDS if f != "n_keys" and f not in header]
    if missing:
        raise ValueError(f"strategy header lacks {', '.join(missing)}")
    chunks = list(chunks)
    n_keys = sum(len(c.keys) for c in chunks)
    head = msgpack.packb({"magic": MAGIC, "version": FORMAT_VERSION, **header,
                          "n_keys": n_keys}, use_bin_type=True)
    h = hashlib.blake2b(head, digest_size=16)
    with atomic_writer(path, suffix=".strategy") as out:
        out.write(head)
        for chunk in chunks:
            n_actions = np.ascontiguousarray(chunk.n_actions, dtype=np.uint8)
            probs = np.ascontiguousarray(chunk.probs, dtype="<f4")
            if int(n_actions.sum()) != probs.size or len(chunk.keys) != n_actions.size:
                raise ValueError("strategy chunk: keys, n_actions and probs disagree")
            chunk = StrategyChunk(list(chunk.keys), n_actions, probs)
            _hash_chunk(h, chunk)
            out.write(msgpack.packb({"keys": chunk.keys, "n_actions": n_actions.tobytes(),
                                     "probs": probs.tobytes()}, use_bin_type=True))
        out.write(msgpack.packb({"end": True, "n_keys": n_keys, "checksum": h.digest()},
                                use_bin_type=True))
    return n_keys


class StrategyReader:
    """Read a strategy file: `header` at once, then `chunks()` streams the keys, verifying the
    footer's count and checksum at the end."""

    def __init__(self, path: str):
        self.path = path
        try:
            self._file = open(path, "rb")
        except OSError as exc:
            raise CfrFileError(f"{path}: cannot open strategy file ({exc.strerror})") from None
        self._unpacker = msgpack.Unpacker(self._file, raw=False, max_buffer_size=2**31 - 1)
        head = self._next("header")
        if not isinstance(head, dict) or head.get("magic") != MAGIC:
            self.close()
            raise CfrFileError(f"{path}: not a setback-cfr strategy file")
        version = head.get("version")
        if not _is_int(version) or version < 1:
            self.close()
            raise CfrFileError(f"{path}: corrupt strategy header (version {version!r})")
        if version > FORMAT_VERSION:
            self.close()
            raise CfrFileError(f"{path}: strategy format version {version} is newer than this "
                               f"program reads ({FORMAT_VERSION}); upgrade setback-cfr")
        missing = [f for f in HEADER_FIELDS if f not in head]
        if missing:
            self.close()
            raise CfrFileError(f"{path}: corrupt strategy header (no {', '.join(missing)})")
        bad = [f for f, ok in _HEADER_TYPES.items() if not ok(head[f])]
        if bad:
            self.close()
            raise CfrFileError(f"{path}: corrupt strategy header (bad {', '.join(bad)})")
        # Format 2's checksum starts with the header's own bytes.
        self._head_bytes = (os.pread(self._file.fileno(), self._unpacker.tell(), 0)
                            if version >= 2 else b"")
        self.header = head

    def _next(self, what: str):
        try:
            return next(self._unpacker)
        except StopIteration:
            raise CfrFileError(f"{self.path}: truncated strategy file (no {what})") from None
        except (msgpack.ExtraData, msgpack.FormatError, msgpack.StackError, ValueError,
                TypeError, MemoryError) as exc:
            raise CfrFileError(f"{self.path}: corrupt strategy file ({type(exc).__name__})") \
                from None

    def chunks(self) -> Iterator[StrategyChunk]:
        """Yield the chunks in file order; raise `CfrFileError` on truncation or corruption."""
        h = hashlib.blake2b(self._head_bytes, digest_size=16)
        seen = 0
        try:
            while True:
                doc = self._next("footer")
                if not isinstance(doc, dict):
                    raise CfrFileError(f"{self.path}: corrupt strategy file (bad record)")
                if doc.get("end") is True:
                    if doc.get("n_keys") != seen or doc.get("n_keys") != self.header["n_keys"]:
                        raise CfrFileError(f"{self.path}: corrupt strategy file (key count)")
                    if doc.get("checksum") != h.digest():
                        raise CfrFileError(f"{self.path}: corrupt strategy file (checksum "
                                           "mismatch)")
                    if self._file.read(1) or self._unpacker.tell() != self._file.tell():
                        raise CfrFileError(f"{self.path}: corrupt strategy file (trailing "
                                           "bytes after the footer)")
                    return
                try:
                    keys = doc["keys"]
                    n_actions = np.frombuffer(doc["n_actions"], dtype=np.uint8)
                    probs = np.frombuffer(doc["probs"], dtype="<f4")
                except (KeyError, TypeError, ValueError):
                    raise CfrFileError(f"{self.path}: corrupt strategy file (bad chunk)") \
                        from None
                if (not isinstance(keys, list) or len(keys) != n_actions.size
                        or int(n_actions.sum()) != probs.size):
                    raise CfrFileError(f"{self.path}: corrupt strategy file (chunk sizes)")
                if not all(isinstance(k, str) for k in keys):
                    raise CfrFileError(f"{self.path}: corrupt strategy file (a key is not "
                                       "text)")
                chunk = StrategyChunk(keys, n_actions, probs)
                _hash_chunk(h, chunk)
                seen += len(keys)
                yield chunk
        finally:
            self.close()

    def close(self) -> None:
        """Close the underlying file."""
        self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def read_strategy(path: str) -> tuple[dict, dict[str, np.ndarray]]:
    """Read a whole strategy file into memory: (header, {key: float32 probabilities})."""
    reader = StrategyReader(path)
    table: dict[str, np.ndarray] = {}
    for chunk in reader.chunks():
        for key, probs in chunk.items():
            table[key] = probs
    return reader.header, table
