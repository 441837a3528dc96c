"""The Euchre plug-in keeps the layer rules of `test_package_boundaries.py` (which lists the
packages it knows): `games/euchre` and the registry import nothing above the rules (no cfr,
abstraction, train, db, cli, play, search, web), the plug-in imports no other game, and every
public function and class in them is documented."""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
ABOVE_THE_RULES = ("cfr", "abstraction", "train", "db", "cli", "play", "search", "web")
FILES = sorted((ROOT / "games" / "euchre").rglob("*.py")) + [ROOT / "games" / "registry.py"]


def imported_names(tree: ast.AST) -> list[str]:
    """Every module name a parsed file imports."""
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append(node.module or "")
    return names


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_imports_stay_below_the_rules_and_inside_the_game(path):
    for name in imported_names(ast.parse(path.read_text())):
        assert name.split(".")[0] not in ABOVE_THE_RULES, f"{path.name} imports {name}"
        if name.startswith("games."):
            # shared helpers only: the plug-in never reaches into another game's package,
            # and the registry reaches into none at import time
            assert name.split(".")[1] in ("euchre", "bits", "rng") and path.name != \
                "registry.py", f"{path.name} imports {name}"


def test_every_module_and_public_function_is_documented():
    missing = []
    for path in FILES:
        tree = ast.parse(path.read_text())
        if not ast.get_docstring(tree):
            missing.append(f"{path.relative_to(ROOT)} (module)")
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                if not ast.get_docstring(node):
                    missing.append(f"{path.relative_to(ROOT)}:{node.name}")
    assert not missing, missing
