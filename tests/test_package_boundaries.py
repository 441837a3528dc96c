"""The data flow of architecture.md, checked on the source: `cfr/` is game-agnostic, the
abstraction depends on `games/` only, the Setback rules know nothing above them; and every
public function and class of those packages is documented."""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
# package -> the top-level packages it must not import
FORBIDDEN = {
    "cfr": ("games", "abstraction", "train", "db", "cli", "play"),
    "abstraction": ("cfr", "train", "db", "cli", "play"),
    "games/setback": ("cfr", "abstraction", "train", "db", "cli", "play"),
    "search": ("cfr", "abstraction", "train", "db", "cli", "play"),
    "games/euchre": ("cfr", "abstraction", "train", "db", "cli", "play", "search", "envs"),
    # the toolkit adapters wrap the rules (and the sampler); the players may use them, not
    # the other way round
    "envs": ("cfr", "abstraction", "train", "db", "cli", "play", "web"),
}
MODULES = [(package, path) for package in FORBIDDEN
           for path in sorted((ROOT / package).rglob("*.py"))]


def imported_names(tree: ast.AST) -> list[str]:
    """Every module name a parsed file imports."""
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append(node.module or "")
    return names


@pytest.mark.parametrize("package, path", MODULES,
                         ids=[str(p.relative_to(ROOT)) for _, p in MODULES])
def test_imports_follow_the_data_flow(package, path):
    for name in imported_names(ast.parse(path.read_text())):
        assert name.split(".")[0] not in FORBIDDEN[package], f"{path.name} imports {name}"


def test_every_module_and_public_function_has_a_docstring():
    missing = []
    for _, path in MODULES:
        tree = ast.parse(path.read_text())
        if not ast.get_docstring(tree):
            missing.append(f"{path.relative_to(ROOT)} (module)")
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                if not ast.get_docstring(node):
                    missing.append(f"{path.relative_to(ROOT)}:{node.name}")
    assert not missing, missing
