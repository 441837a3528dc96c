"""The bid tables' file, one format for every game (the tables themselves are a game's:
`games/<game>/bid_tables.py` names the module that counts, shows and reads them).

A msgpack map: `magic` (MAGIC), `version` (FORMAT_VERSION; a newer one is refused), `game` (the
registered game whose auctions were counted: another game's file is refused), `meta` (the build
settings and any measures), `arrays` ({name: {dtype, shape, data}}, little-endian) and a
BLAKE2b checksum over the arrays' names and bytes; written atomically. Every way a file cannot
be used raises `BidTablesError` in one line.

Version 1 was one format a game: a game whose version-1 files had their own header names it
(`V1_MAGIC` in its declaration) and is read as before: today's layout without the `game` key,
or a single `counts` array checksummed alone.
"""

from __future__ import annotations

import hashlib
import importlib

import numpy as np

from cfr.errors import CfrFileError
from games.registry import declaration, declarations

MAGIC = "setback-cfr/bid-tables"
FORMAT_VERSION = 2


class BidTablesError(CfrFileError):
    """A tables file that cannot be used, or a bad request of the tables (one line)."""


def save_tables(path: str, game: str, meta: dict, arrays: dict) -> None:
    """Write the tables of `game` (`arrays` by name, integer or float) to `path` atomically."""
    import msgpack

    from cfr.atomic_file import atomic_writer

    blobs, digest = {}, hashlib.blake2b(digest_size=16)
    for name, array in arrays.items():
        a = np.ascontiguousarray(array)
        data = a.astype(a.dtype.newbyteorder("<")).tobytes()
        digest.update(name.encode() + b"\0" + data)
        blobs[name] = {"dtype": a.dtype.str.lstrip("<>|="), "shape": list(a.shape), "data": data}
    document = {"magic": MAGIC, "version": FORMAT_VERSION, "game": game, "meta": dict(meta),
                "arrays": blobs, "checksum": digest.hexdigest()}
    with atomic_writer(path) as handle:
        handle.write(msgpack.packb(document, use_bin_type=True))


def _read(path: str) -> dict:
    """The file's msgpack map (BidTablesError when unreadable or not a map)."""
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
        raise BidTablesError(f"{path}: not a bid tables file, or truncated or corrupt") from None
    if not isinstance(document, dict):
        raise BidTablesError(f"{path}: not a bid tables file (no {MAGIC!r} header)")
    return document


def _file_game(path: str, document: dict) -> str:
    """The game whose tables the file holds (a version-1 file's from its game's header)."""
    magic, owner = document.get("magic"), document.get("game")
    if document.get("version") == 1:
        for name, decl in declarations("bid_tables").items():  # under its game's own header
            if getattr(decl, "V1_MAGIC", None) == magic:
                return name
    if magic != MAGIC:
        raise BidTablesError(f"{path}: not a bid tables file (no {MAGIC!r} header)")
    return owner


def _legacy_counts(document: dict) -> dict:
    """A version-1 file with one `counts` array (checksummed alone) in today's layout."""
    data = document.get("counts")
    if "arrays" in document or not isinstance(data, bytes):
        return document
    if document.get("checksum") != hashlib.blake2b(data, digest_size=16).hexdigest():
        document["checksum"] = None  # refused as corrupt below
        return document
    blob = {"dtype": "i8", "shape": document.get("shape"), "data": data}
    digest = hashlib.blake2b(b"counts\0" + data, digest_size=16).hexdigest()
    return dict(document, arrays={"counts": blob}, checksum=digest)


def load_tables(path: str, game: str, shapes: dict) -> tuple[dict, dict]:
    """(meta, arrays) of the tables file `path` of `game`, whose arrays are `shapes` ({name:
    shape}; int64 or float64 as stored); anything else raises BidTablesError (one line)."""
    document = _read(path)
    owner = _file_game(path, document)
    if owner != game:
        raise BidTablesError(f"{path}: bid tables of the game {owner!r}, not {game!r} (build "
                             f"them with bid-tables --game {game})")
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise BidTablesError(f"{path}: bad format version {version!r}")
    if version > FORMAT_VERSION:
        raise BidTablesError(f"{path}: bid tables format {version} is newer than this program "
                             f"reads ({FORMAT_VERSION}); upgrade setback-cfr")
    document = _legacy_counts(document)
    blobs, meta = document.get("arrays"), document.get("meta")
    if not isinstance(blobs, dict) or not isinstance(meta, dict):
        raise BidTablesError(f"{path}: bid tables file without arrays or settings")
    arrays, digest = {}, hashlib.blake2b(digest_size=16)
    for name, shape in shapes.items():
        blob = blobs.get(name)
        try:
            dtype = np.dtype("<" + blob["dtype"])
            if dtype.kind not in "if":
                raise ValueError
            a = np.frombuffer(blob["data"], dtype=dtype).reshape(blob["shape"])
        except Exception:  # noqa: BLE001 - any malformed entry is the same error
            raise BidTablesError(f"{path}: bid tables array {name!r} is malformed") from None
        if a.shape != tuple(shape):
            raise BidTablesError(f"{path}: bid tables array {name!r} has shape {a.shape}, "
                                 f"expected {tuple(shape)}")
        digest.update(name.encode() + b"\0" + blob["data"])
        arrays[name] = a.astype(np.int64 if dtype.kind == "i" else np.float64)
    if document.get("checksum") != digest.hexdigest():
        raise BidTablesError(f"{path}: bid tables checksum mismatch (the file is corrupt)")
    return meta, arrays


def load_counts(path: str, game: str, tables_class):
    """`game`'s tables of one `counts` array (`tables_class(counts, meta)`, its `shape()`, e.g.
    a `search.feature_bid_tables.FeatureBidTables`) of the file `path`; negative counts or a
    bad prior raise BidTablesError too."""
    meta, arrays = load_tables(path, game, {"counts": tables_class.shape()})
    counts = arrays["counts"]
    prior = meta.get("prior", 20.0)
    if (counts < 0).any() or not isinstance(prior, (int, float)) or not 0 < float(prior) <= 1e9:
        raise BidTablesError(f"{path}: {game.capitalize()} bid tables with negative counts or a "
                             "bad prior")
    return tables_class(counts, meta)


def tables_model(game: str):
    """The module of `game`'s tables (its declaration's `MODEL`): `load(path)`, `belief(tables,
    name, **options)`, and the command's `check_bidders`, `build_tables`, `summary`, `show`."""
    decl = declaration(game, "bid_tables")
    if decl is None:
        raise BidTablesError(f"the game {game!r} has no bid tables")
    return importlib.import_module(decl.MODEL)


def load_belief(path: str, game: str, **options):
    """The belief of `game`'s search read from the tables file `path` (its model's `belief`,
    named after the file); BidTablesError when the file is missing or cannot be used."""
    import os

    if not os.path.isfile(path):
        raise BidTablesError(f"{path}: no such bid tables file")
    model = tables_model(game)
    return model.belief(model.load(path), os.path.basename(path), **options)
