"""Setback's strategies as the flat arrays rollout search and best responses read
(`db.policy_arrays.PolicyArrays`): a database or strategy files of any key layout
(`games/setback/abstraction/layouts.py`), its key strings parsed by the layout's codec into the
integer keys the layout's `decision` kernel builds, its bootstrap (score-aware auction) keys
kept apart. The reading itself (batches, progress, sorting) is `db.policy_arrays.read_arrays`,
every game's.
"""

from __future__ import annotations

import os

from db.errors import DatabaseError
from db.key_kind import BOOTSTRAP, key_kinds
from db.policy_arrays import PolicyArrays, read_arrays
from games.setback.abstraction import layouts

CHECK_EVERY = 1_000  # every so many keys of a bulk parse are checked with the exact `text_key`


def arrays_of_store(store, layout, progress: bool = True) -> PolicyArrays:
    """The `PolicyArrays` of a Setback database player's store whose keys are of `layout` (a
    `layouts.Layout`), its bootstrap keys apart. Keys the layout's codec cannot parse are
    refused in one line."""
    module = layouts.load(layout.name)
    return read_arrays(store, lambda texts, memo: _parse(module, texts, memo), layout.name,
                       "setback", lambda texts: key_kinds(texts) == BOOTSTRAP, progress)


def _parse(module, texts: list[str], memo: dict) -> list[int]:
    """The integer keys of `texts` by the layout `module`'s codec: its bulk `text_keys` where it
    has one (checked against the exact `text_key` on every CHECK_EVERY-th key), else key by
    key."""
    bulk = getattr(module, "text_keys", None)
    if bulk is None:
        return [int(module.text_key(text)) for text in texts]
    ints = bulk(texts, memo)
    for i in range(0, len(texts), CHECK_EVERY):
        if module.text_key(texts[i]) != ints[i]:
            raise ValueError(f"{texts[i]!r} reads as two keys")
    return ints


def load_policy_arrays(spec: str) -> PolicyArrays:
    """The `PolicyArrays` of a policy named as a player is: `db:PATH`, `strategy:PATH[,PATH]`,
    or a bare path (a database, else a strategy file). Anything else, a missing file, or a
    strategy of another game is refused in one line (`DatabaseError`)."""
    text = str(spec).strip()
    lower = text.lower()
    if lower.startswith("db:"):
        kind, rest = "db", text[3:]
    elif lower.startswith("strategy:"):
        kind, rest = "strategy", text[9:]
    elif os.path.isfile(text):
        kind, rest = ("strategy" if text.endswith((".msgpack", ".strategy")) else "db"), text
    else:
        raise DatabaseError(f"{text!r}: a policy is db:PATH or strategy:PATH[,PATH...]")
    if kind == "db":
        from db.database import StrategyDatabase

        if not os.path.isfile(rest.strip()):
            raise DatabaseError(f"{rest.strip()}: no such strategy database")
        store = StrategyDatabase(rest.strip())
        if store.metadata.get("game") != "setback":
            store.close()
            raise DatabaseError(f"{store.path}: a strategy database for game "
                                f"{store.metadata.get('game')!r}, not 'setback'")
        layout = layouts.of_header(store.metadata)
    else:
        from games.setback.db.strategy_store import StrategyStore

        store = StrategyStore([p.strip() for p in rest.split(",") if p.strip()])
        layout = store.layout
    try:
        return arrays_of_store(store, layout)
    finally:
        store.close()


def arrays_of_player(player, progress: bool = True) -> PolicyArrays:
    """The `PolicyArrays` of a `DatabasePlayer` (a database or strategy files), in its layout."""
    return arrays_of_store(player.db, player.layout, progress)
