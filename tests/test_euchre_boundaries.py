"""The Euchre plug-in beyond the layer rules `test_package_boundaries.py` checks for
`games/euchre` (nothing above the rules, every public function documented): the plug-in and
the registry import no other game's package, the registry no game at all at import time, and
the registry (a single module, outside the packages listed there) keeps the same layer and
docstring rules."""

from __future__ import annotations

import ast
import pathlib

import pytest
from test_package_boundaries import imported_names

ROOT = pathlib.Path(__file__).resolve().parent.parent
ABOVE_THE_RULES = ("cfr", "abstraction", "train", "db", "cli", "play", "search", "web")
FILES = sorted((ROOT / "games" / "euchre").rglob("*.py")) + [ROOT / "games" / "registry.py"]


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_imports_stay_below_the_rules_and_inside_the_game(path):
    for name in imported_names(ast.parse(path.read_text())):
        assert name.split(".")[0] not in ABOVE_THE_RULES, f"{path.name} imports {name}"
        if name.startswith("games."):
            # shared helpers only: the plug-in never reaches into another game's package,
            # and the registry reaches into none at import time
            # (the scaffold: what every four-seat plug-in shares, no game of its own)
            assert name.split(".")[1] in ("euchre", "bits", "rng", "scaffold") and path.name != \
                "registry.py", f"{path.name} imports {name}"


def test_every_module_and_public_function_is_documented():
    missing = []
    for path in (ROOT / "games" / "registry.py",):  # games/euchre: test_package_boundaries
        tree = ast.parse(path.read_text())
        if not ast.get_docstring(tree):
            missing.append(f"{path.relative_to(ROOT)} (module)")
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                if not ast.get_docstring(node):
                    missing.append(f"{path.relative_to(ROOT)}:{node.name}")
    assert not missing, missing
