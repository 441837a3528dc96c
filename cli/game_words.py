"""The registered games' words in the commands' help (`registry.words`): each game declares
its own in `games/<game>/command_words.py`, and a command lists them, so the shared commands
name no game and a new game's help comes with its declaration."""

from __future__ import annotations

from games import registry  # plain data: imports no game


def declared(kind: str, games: tuple | None = None) -> dict:
    """{game: its words `kind`} of `games` (default every registered game) that declare them,
    in the registry's order (the default game first)."""
    found = {name: registry.words(name, kind) for name in (games or tuple(registry.GAMES))}
    return {name: text for name, text in found.items() if text is not None}


def title(name: str) -> str:
    """The game's word for itself in a sentence ("Euchre")."""
    return registry.words(name, "TITLE", name)


def either(names) -> str:
    """`a`, `a or b`, `a, b or c`: a list of choices in a sentence."""
    names = list(names)
    return " or ".join(names) if len(names) < 3 else f"{', '.join(names[:-1])} or {names[-1]}"
