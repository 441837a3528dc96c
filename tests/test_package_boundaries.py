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


def test_no_player_imports_the_trainer():
    """`play/` sits above `train/`'s neighbours, not on top of it: the abstract game a rollout
    walks is bound by `cfr.binding` (as the trainer binds it), never imported from `train/`."""
    problems = [f"{path.relative_to(ROOT)} imports {name}"
                for path in sorted((ROOT / "play").rglob("*.py"))
                for name in imported_names(ast.parse(path.read_text()))
                if name.split(".")[0] == "train"]
    assert not problems, problems


def undocumented(paths) -> list[str]:
    """The files of `paths` without a module docstring, and their public functions and classes
    without one."""
    missing = []
    for path in paths:
        tree = ast.parse(path.read_text())
        if not ast.get_docstring(tree):
            missing.append(f"{path.relative_to(ROOT)} (module)")
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                if not ast.get_docstring(node):
                    missing.append(f"{path.relative_to(ROOT)}:{node.name}")
    return missing


def test_every_module_and_public_function_has_a_docstring():
    missing = undocumented(path for _, path in MODULES)
    assert not missing, missing


def _module_graph() -> dict[str, set[str]]:
    """Every module of the project's packages -> the project modules it imports (at load time
    or inside a function: an import anywhere in the file counts)."""
    packages = ("cfr", "games", "abstraction", "train", "db", "play", "search", "cli", "web",
                "envs")
    files = {}
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            files[name.removesuffix(".__init__")] = path
    graph = {}
    for name, path in files.items():
        deps = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                deps |= {a.name for a in node.names if a.name in files}
            elif isinstance(node, ast.ImportFrom) and node.module:
                deps |= {node.module} & files.keys()
                deps |= {f"{node.module}.{a.name}" for a in node.names} & files.keys()
        graph[name] = deps - {name}
    return graph


def _loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import loops: strongly connected groups of two or more modules (Tarjan)."""
    index, low, stack, on_stack, loops = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                loops.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return loops


def test_no_import_loops():
    """No two modules import each other, directly or through others: a registry (the players'
    `play/player_spec.py`, the games' `games/registry.py`, the algorithm names of
    `train/algorithms.py`) names its kinds and never imports them."""
    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        assert _loops(_module_graph()) == []
    finally:
        sys.setrecursionlimit(limit)


def test_the_loop_finder_finds_a_loop():
    assert _loops({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
