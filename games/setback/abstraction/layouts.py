"""The key layouts of the abstraction, as a choice: name -> module, with the recorded name and
version (issue 27).

A layout decides which situations share an info set. `reference` is the spec's
(`../shared/spec/abstraction.md`), character for character; the others refine its playout key
with fields the acting seat knows, and leave the auction, establish and bootstrap keys and
every abstract action as they are (so the action lists, the cards and the bootstrap stage are
the reference's).

| name | module | recorded as | what its playout key adds |
|--|--|--|--|
| `reference` | `layout_reference.py` | `setback-reference` v1 | nothing: the spec's key |
| `bidder` | `layout_bidder.py` | `setback-bidder` v1 | my team bid or defends, and the bid |
| `contract` | `layout_contract.py` | `setback-contract` v1 | `bidder`, the contract's standing |

(the contract's standing: the points the bidder's team holds for certain, and whether the
defenders' certain points have already set it)

Refinement: `bidder` and `contract` only add fields to the playout key, so each of their keys
refines exactly one key of the layouts their `refines` lists (`contract` refines `bidder` and
`reference`, `bidder` refines `reference`; every layout refines itself); `refinement.py` maps
a fine key to its coarse key, which is what a warm start across layouts seeds from
(`games/setback/train/warm_start.py`).

This module is plain data (no numba): the command line lists the names without compiling
anything. `load(name)` imports the layout's module, which supplies:
- `abstract_decision(state, moves_out) -> (n, situation, tokens, key)` (numba): the abstract
  actions as moves in canonical order, and the key when n >= 2 (as `decision.py`);
- `decision(state, actions_out, key_out) -> n` (numba, the `cfr/game.py` signature): the
  abstract game's decision member, so each layout is a game of its own;
- `key_text(key) -> str` and `text_key(text) -> int`: its lossless codec; optionally
  `text_keys(texts, memo) -> list[int]`, many stored strings at once, faster (every layout
  here has one).

Runs record the layout in their settings (`abstraction`, `abstraction_version`: the recorded
name and version below), strategy files in their header, databases in their metadata; a
run, file or database that records none is `reference` (the only layout before this choice).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from games.setback.abstraction.version import ABSTRACTION_NAME, ABSTRACTION_VERSION


class LayoutError(ValueError):
    """An unknown layout, or two layouts mixed (one line, for the user)."""


@dataclass(frozen=True)
class Layout:
    """One key layout: its command-line name, module, and the name and version it is recorded
    under (bump the version whenever its keys change)."""

    name: str
    module: str
    abstraction: str
    version: int
    summary: str
    refines: tuple[str, ...] = ()  # coarser layouts whose keys each of this one's keys refines


LAYOUTS = {
    "reference": Layout("reference", "games.setback.abstraction.layout_reference", ABSTRACTION_NAME,
                        ABSTRACTION_VERSION, "the spec's keys (abstraction.md)"),
    "bidder": Layout("bidder", "games.setback.abstraction.layout_bidder", "setback-bidder", 1,
                     "playout keys add my side (bidding or defending) and the bid",
                     refines=("reference",)),
    "contract": Layout("contract", "games.setback.abstraction.layout_contract",
                       "setback-contract", 1,
                       "bidder, plus the bidder's certain points and whether it is set",
                       refines=("bidder", "reference")),
}
DEFAULT = "reference"


def names() -> tuple[str, ...]:
    """The layouts' command-line names, in registry order."""
    return tuple(LAYOUTS)


def layout(name: str) -> Layout:
    """The layout called `name`; LayoutError (one line) for an unknown name."""
    try:
        return LAYOUTS[name]
    except KeyError:
        raise LayoutError(f"unknown abstraction layout {name!r} (known: "
                          f"{', '.join(LAYOUTS)})") from None


def recorded(abstraction, version) -> Layout:
    """The layout a run, strategy file or database records (`abstraction`, `abstraction_version`;
    no name: `reference`, older than the choice); LayoutError for a name or version this program
    does not know."""
    if abstraction is None:
        abstraction = LAYOUTS[DEFAULT].abstraction
        version = LAYOUTS[DEFAULT].version if version is None else version
    for entry in LAYOUTS.values():
        if abstraction in (entry.abstraction, entry.name):  # the short name too (older files)
            if entry.version != version:
                raise LayoutError(f"abstraction version {version!r}, but this program's keys "
                                  f"are version {entry.version} (layout {entry.name})")
            return entry
    raise LayoutError(f"unknown abstraction {abstraction!r} (this program knows "
                      f"{', '.join(e.abstraction for e in LAYOUTS.values())})")


def of_header(header: dict) -> Layout:
    """The layout recorded in a header, settings or metadata dict (its `abstraction` and
    `abstraction_version`)."""
    return recorded(header.get("abstraction"), header.get("abstraction_version"))


def same(first: Layout, second: Layout, what: str) -> None:
    """Refuse (LayoutError, one line) two different layouts where `what` needs one."""
    if first != second:
        raise LayoutError(f"{what}: layout {second.name} ({second.abstraction} "
                          f"v{second.version}) where {first.name} ({first.abstraction} "
                          f"v{first.version}) is needed; keys of two layouts never mix")


def refines(fine: str, coarse: str) -> bool:
    """Whether every key of layout `fine` refines exactly one key of layout `coarse` (the
    same decision's coarse key is a function of its fine key): a layout refines itself and
    the layouts its `refines` names (`refinement.py` maps the keys)."""
    return fine == coarse or coarse in layout(fine).refines


def check_refines(fine: str, coarse: str, what: str) -> None:
    """Refuse (LayoutError, one line) a pair where `fine`'s keys do not refine `coarse`'s."""
    if not refines(fine, coarse):
        finer = [name for name in LAYOUTS if refines(name, coarse)]
        raise LayoutError(f"{what}: {fine} keys do not refine {coarse} keys (the layouts "
                          f"whose keys refine {coarse}: {', '.join(finer)})")


def load(name: str):
    """The module of the layout `name` (compiles its kernels on first import)."""
    return importlib.import_module(layout(name).module)
