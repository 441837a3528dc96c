"""A game's key codec for the database, looked up in the game registry (`key_codec`)."""

from __future__ import annotations

from db.errors import DatabaseError


def codec_for(game) -> object:
    """The key codec of the registered game `game` (`games/registry.py`'s `key_codec` entry
    point); `DatabaseError` (one line) for a game this program does not know."""
    from games import registry

    try:
        return registry.get(str(game)).load("key_codec")
    except registry.UnknownGameError as exc:
        raise DatabaseError(str(exc)) from None
