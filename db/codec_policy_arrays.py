"""A strategy database of a game whose keys an abstraction's codec reads (`games/<game>/abstraction/
codec.py`: `check_header`, `text_key`, `KeyTextError` a ValueError) as the policy arrays rollout
search reads (`db/policy_arrays.py`, `games/policy_table.py`): its key strings parsed by the
codec into the integer keys the abstract game's `decision` writes. One function for every such
game (issue 55, item 2: each game had its near-copy); it names no game, the caller
hands it the game's name and codec. The reading itself (batches, progress, sorting) is
`db.policy_arrays.read_arrays`, shared with every game.
"""

from __future__ import annotations

import os

from db.errors import DatabaseError
from db.policy_arrays import PolicyArrays, read_arrays


def codec_arrays_of_store(store, game: str, codec, progress: bool = True) -> PolicyArrays:
    """The `PolicyArrays` of a strategy database of `game` (a database player's store), its
    keys read by `codec`. A database of another game or abstraction, or a key the codec cannot
    read, is refused in one line (`DatabaseError`). `layout` is the abstraction's name; nothing
    is bootstrap."""
    found = store.metadata.get("game")
    if found != game:
        raise DatabaseError(f"{store.path}: a strategy database for game {found!r}, "
                            f"not {game!r}")
    try:
        name, _ = codec.check_header(store.metadata)
    except ValueError as exc:  # the codec's KeyTextError
        raise DatabaseError(f"{store.path}: {exc}") from None
    # key by key: a KeyTextError is the ValueError read_arrays refuses in one line
    return read_arrays(store, lambda texts, memo: [codec.text_key(text) for text in texts],
                       name, game, None, progress)


def load_codec_policy_arrays(spec: str, game: str, codec) -> PolicyArrays:
    """The `PolicyArrays` of a policy of `game` named as its database player is: `db:PATH` or
    a bare path of a database built from an export of `game`. Anything else, a missing file,
    or a database of another game is refused in one line (`DatabaseError`)."""
    from db.database import StrategyDatabase

    text = str(spec).strip()
    path = text[3:].strip() if text.lower().startswith("db:") else text
    if not path or not os.path.isfile(path):
        raise DatabaseError(f"{path or text!r}: no such strategy database (a "
                            f"{game.capitalize()} policy is db:PATH)")
    store = StrategyDatabase(path)
    try:
        return codec_arrays_of_store(store, game, codec)
    finally:
        store.close()
