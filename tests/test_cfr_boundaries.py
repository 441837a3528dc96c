"""`cfr/` is game-agnostic: it imports nothing from games/, abstraction/, train/ or db/."""

from __future__ import annotations

import ast
import pathlib

import pytest

CFR = pathlib.Path(__file__).resolve().parent.parent / "cfr"
FORBIDDEN = ("games", "abstraction", "train", "db", "cli")


@pytest.mark.parametrize("path", sorted(CFR.glob("*.py")), ids=lambda p: p.name)
def test_cfr_module_imports_only_allowed_packages(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        for name in names:
            assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"


def test_every_public_function_has_a_docstring():
    missing = []
    for path in sorted(CFR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                if not ast.get_docstring(node):
                    missing.append(f"{path.name}:{node.name}")
    assert not missing, missing
