"""A Euchre strategy database as the policy arrays rollout search reads (`db/policy_arrays.py`,
`games/policy_table.py`): its key strings parsed by the Euchre codec
(`abstraction/euchre/codec.py`) into the integer keys `abstraction/euchre/keys.py` builds,
which the abstract game's `decision` writes. Part of Euchre's plug-in; the reading itself
(batches, progress, sorting) is `db.policy_arrays.read_arrays`, shared with Setback.
"""

from __future__ import annotations

import os

from db.errors import DatabaseError
from db.policy_arrays import PolicyArrays, read_arrays


def euchre_arrays_of_store(store, progress: bool = True) -> PolicyArrays:
    """The `PolicyArrays` of a Euchre strategy database (`db.euchre_player`'s store). A
    database of another game or abstraction, or a key the codec cannot read, is refused in one
    line (`DatabaseError`). `layout` is the abstraction's name; nothing is bootstrap."""
    from abstraction.euchre.codec import KeyTextError, check_header, text_key

    game = store.metadata.get("game")
    if game != "euchre":
        raise DatabaseError(f"{store.path}: a strategy database for game {game!r}, "
                            "not 'euchre'")
    try:
        name, _ = check_header(store.metadata)
    except KeyTextError as exc:
        raise DatabaseError(f"{store.path}: {exc}") from None
    # key by key: a KeyTextError is the ValueError read_arrays refuses in one line
    return read_arrays(store, lambda texts, memo: [text_key(text) for text in texts], name,
                       "euchre", None, progress)


def load_euchre_policy_arrays(spec: str) -> PolicyArrays:
    """The `PolicyArrays` of a Euchre policy named as a Euchre player is: `db:PATH` or a bare
    path of a database built from a Euchre export. Anything else, a missing file, or a
    database of another game is refused in one line (`DatabaseError`)."""
    from db.database import StrategyDatabase

    text = str(spec).strip()
    path = text[3:].strip() if text.lower().startswith("db:") else text
    if not path or not os.path.isfile(path):
        raise DatabaseError(f"{path or text!r}: no such strategy database (a Euchre policy "
                            "is db:PATH)")
    store = StrategyDatabase(path)
    try:
        return euchre_arrays_of_store(store)
    finally:
        store.close()
