"""What every plug-in game's key codec (`games/NAME/abstraction/codec.py`: its keys as text and
back) shares: the one-line error for a text no key writes, the header check against the game's
abstraction, a key's action names padded to its count, and the codec object the registry's
`key_codec` entry names (what the database, the loader and the exporter read). Plain Python.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np


class KeyTextError(ValueError):
    """A key text that no key of the game's abstraction writes."""


def check_abstraction(header: dict, name: str, version: int, title: str) -> tuple[str, int]:
    """The (abstraction, version) a run, strategy file or database records (`header`), checked
    against this program's abstraction `name` version `version` of the game `title`;
    `KeyTextError` (one line) for another."""
    found, found_version = header.get("abstraction"), header.get("abstraction_version")
    if found != name or found_version != version:
        raise KeyTextError(f"abstraction {found!r} version {found_version!r}, but this "
                           f"program's {title} keys are {name!r} version {version}")
    return found, found_version


def header_check(name: str, version: int, title: str):
    """A game codec's `check_header(header)`: `check_abstraction` against its abstraction
    `name` version `version` (the game's `abstraction/version.py`), game `title`."""

    def check_header(header: dict) -> tuple[str, int]:
        """The header's (abstraction, version), checked against this program's."""
        return check_abstraction(header, name, version, title)

    return check_header


def field(value: int, shift: int, width: int) -> int:
    """The `width`-bit field of `value` at bit `shift` (a key's body, a summary)."""
    return (value >> shift) & ((1 << width) - 1)


def token_text(token: int) -> str:
    """The text of a trick-play token (the plug-in games' play keys): `T`/`S` (trump or a side
    suit), the unseen higher cards (0..3), `+`/`-` (beats the trick so far or not)."""
    return ("T" if token >> 3 & 1 else "S") + str(token >> 1 & 3) + ("+" if token & 1 else "-")


def letter_kind(letters: str):
    """A codec's `key_kind(text)`: the index in `letters` of the text's first letter (a kind a
    letter, in the order of its kind names), `len(letters)` (unknown) for none of them."""

    def key_kind(text: str) -> int:
        """The kind index of a key text, unknown when it is none of them."""
        return letters.index(text[0]) if text and text[0] in letters else len(letters)

    return key_kind


def strict_text_key(parse, key_text, title: str):
    """A codec's `text_key(text)` over its parser `parse(text) -> key or None`: the key, once
    `key_text` writes it back as `text` exactly (a field out of its range or a text not in
    canonical form is refused); otherwise `KeyTextError` "bad TITLE key", or the parser's own
    `KeyTextError` where it says more. A parser may fail with IndexError or ValueError."""

    def text_key(text: str) -> int:
        """The uint64 key of a key text; `KeyTextError` (one line) for text no key writes."""
        try:
            key = parse(str(text))
            if key is not None and key_text(key) == text:
                return key
        except KeyTextError:
            raise
        except (IndexError, ValueError):
            pass
        raise KeyTextError(f"bad {title} key {text!r}")

    return text_key


def padded(names: list[str], n_actions: int) -> list[str]:
    """A key's first `n_actions` action names, `?i` where the key does not tell."""
    names = names[:n_actions]
    return names + [f"?{i}" for i in range(len(names), n_actions)]


def key_codec(game: str, kind_names: tuple, stage_kinds: dict, key_kind, key_text,
              action_names, check_header) -> SimpleNamespace:
    """The codec object of `game`'s keys: its kinds' names (`unknown`, one past them, for a
    text of none), which kinds a stage's export holds, `key_kinds(texts)` (uint8, by
    `key_kind(text)`), `action_names(text, n)`, `check_header(header)`, `key_text(key)`."""

    def key_kinds(texts: list[str]) -> np.ndarray:
        """The kinds of many key texts (uint8)."""
        return np.fromiter((key_kind(t) for t in texts), dtype=np.uint8, count=len(texts))

    return SimpleNamespace(game=game, kind_names=kind_names, unknown=len(kind_names),
                           stage_kinds=stage_kinds, key_kinds=key_kinds,
                           action_names=action_names, check_header=check_header,
                           key_text=key_text)
