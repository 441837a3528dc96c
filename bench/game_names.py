"""Which modules outside the games' places still name a game (issue 55: "the shared layers name
no game").

`tests/test_game_imports.py` checks imports; this counts names. A module outside every game's
place (`games/<game>/`) and the registry names a game when a string literal (docstrings left
out), an identifier, an attribute, an argument or keyword name, or an imported name contains
a registered game's name ("setback", "euchre", "spades"), case-insensitive. The program's
own name `setback-cfr` is counted apart: a module that names Setback only through it is listed as such.

    python bench/game_names.py            # this checkout
    python bench/game_names.py ../base    # another checkout (its games' places as they were)
"""

from __future__ import annotations

import argparse
import ast
import collections
import pathlib
import re
import sys

from game_lines import PACKAGES  # the product packages, as the line count reads them

from games import registry

GAMES = tuple(registry.GAMES)
GAME_NAME = re.compile("|".join(GAMES), re.IGNORECASE)
PROGRAM = re.compile("setback-cfr", re.IGNORECASE)


def is_outside(rel: str) -> bool:
    """Whether the module (a path relative to the checkout) is outside every game's place, the
    registry, and (in a checkout from before the move) the games' abstraction packages."""
    places = tuple(f"games/{g}/" for g in GAMES) + tuple(f"abstraction/{g}/" for g in GAMES)
    return not rel.startswith(places) and rel != "games/registry.py"


def names_in(tree: ast.AST):
    """Every name-bearing text of a parsed module, docstrings left out."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                docstrings.add(id(body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                yield node.value
        elif isinstance(node, ast.Name):
            yield node.id
        elif isinstance(node, ast.Attribute):
            yield node.attr
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            yield node.name
        elif isinstance(node, ast.arg):
            yield node.arg
        elif isinstance(node, ast.keyword) and node.arg:
            yield node.arg
        elif isinstance(node, ast.alias):
            yield node.name
            yield node.asname or ""
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def naming_modules(root: pathlib.Path) -> tuple[dict, int]:
    """({module (path relative to `root`): (the games it names with their counts, how many of
    those are the program's name)} of the modules outside the games' places that name a game,
    and the number of modules outside the places)."""
    found, modules = {}, 0
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if not is_outside(rel):
                continue
            modules += 1
            hits, program = collections.Counter(), 0
            for text in names_in(ast.parse(path.read_text())):
                hits.update(m.group(0).lower() for m in GAME_NAME.finditer(text))
                program += len(PROGRAM.findall(text))
            if hits:
                found[rel] = (dict(hits), program)
    return found, modules


def main(argv=None) -> int:
    """Print the count, the games named, and the modules that name them most."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", nargs="?", default=".", help="the checkout (default .)")
    parser.add_argument("--top", type=int, default=15, help="modules listed (default 15)")
    args = parser.parse_args(argv)
    root = pathlib.Path(args.root)
    if not (root / "games").is_dir():
        parser.error(f"{args.root}: not a checkout of this project (no games/ folder)")
    found, modules = naming_modules(root)
    rows = sorted(((sum(hits.values()), rel, hits, program)
                   for rel, (hits, program) in found.items()), key=lambda r: (-r[0], r[1]))
    per_game = collections.Counter(g for row in rows for g in row[2])
    print(f"modules outside the games' places naming a game: {len(rows)} of {modules}")
    print("of which only through the program's name setback-cfr: "
          f"{sum(1 for r in rows if r[0] == r[3])}")
    print(f"modules naming each game: {dict(per_game)}")
    for count, rel, hits, program in rows[:args.top]:
        print(f"{count:4d} {rel} {hits}" + (f" (setback-cfr: {program})" if program else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
