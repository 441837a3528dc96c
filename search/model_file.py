"""The file format of the learned models (the card-location model, the policy network): a magic
line, a JSON header, the arrays as .npz.

The header holds the format's name and version, what the model is for (its game, feature
layout and sizes, set by the caller) and a SHA-256 of the payload with its length. `read`
refuses in one line (the caller's error type) a missing file, another kind of file, a damaged
header, another version, another game, or a payload whose checksum does not match; the caller
checks the rest of its header (layout, sizes) itself.
"""

from __future__ import annotations

import hashlib
import io
import json
import os

import numpy as np


def model_bytes(magic: bytes, header: dict, arrays: dict) -> bytes:
    """The file's bytes: `magic`, `header` (with the payload's checksum and length added), the
    `arrays` (name -> array) as .npz."""
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    payload = buffer.getvalue()
    full = {**header, "sha256": hashlib.sha256(payload).hexdigest(),
            "payload_bytes": len(payload)}
    return magic + json.dumps(full, sort_keys=True).encode() + b"\n" + payload


def read(path: str, magic: bytes, fmt: str, version: int, game: str, what: str, writer: str,
         error) -> tuple[dict, dict]:
    """(header, arrays) of the model file `path`, checked as the module docstring says; `what`
    names the kind in messages ("card-location model"), `writer` the command that writes
    such files, `error` the exception type raised (one line)."""
    if not os.path.isfile(path):
        raise error(f"{path}: no such {what} file")
    with open(path, "rb") as handle:
        data = handle.read()
    if not data.startswith(magic):
        raise error(f"{path}: not a setback-cfr {what} file ({writer} writes them)")
    end = data.find(b"\n", len(magic))
    try:
        header = json.loads(data[len(magic):end].decode())
        if header.get("format") != fmt or end < 0:
            raise ValueError
    except (ValueError, UnicodeDecodeError, AttributeError):
        raise error(f"{path}: damaged {what} header") from None
    if header.get("version") != version:
        raise error(f"{path}: {what} format version {header.get('version')}; this program "
                    f"reads version {version}")
    if header.get("game") != game:
        raise error(f"{path}: a {what} of {header.get('game')}, not {game}")
    payload = data[end + 1:]
    if len(payload) != header.get("payload_bytes") or \
            hashlib.sha256(payload).hexdigest() != header.get("sha256"):
        raise error(f"{path}: damaged {what} (checksum mismatch)")
    try:
        with np.load(io.BytesIO(payload), allow_pickle=False) as f:
            arrays = {name: f[name] for name in f.files}
    except (ValueError, OSError):
        raise error(f"{path}: damaged {what} arrays") from None
    return header, arrays
