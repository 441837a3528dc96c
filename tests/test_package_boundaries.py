"""The data flow of architecture.md, checked on the source: `cfr/` is game-agnostic, the
abstraction depends on `games/` only, a game's rules know nothing above them; and every
public function and class of those packages is documented.

A game's files are in one place, `games/<game>/` (docs/design.md): its top level is the rules and
the declarations (the `games` layer), and its subpackages mirror the layers
(`games/<game>/abstraction/`, `search/`, `train/`, `db/`, `play/`, `envs/`, `cli/`), each obeying
its layer's rule: a module's layer, and the layer of every module it imports, is its top-level
package, except inside a game's place, where it is the layer subpackage's (`layer_of`)."""

from __future__ import annotations

import ast
import pathlib

import pytest

from games import registry

ROOT = pathlib.Path(__file__).resolve().parent.parent
# the layer subpackages of a game's place, `games/<game>/<layer>/`
GAME_LAYERS = ("abstraction", "search", "train", "db", "play", "envs", "cli")
# layer -> the layers it must not import
FORBIDDEN = {
    "cfr": ("games", "abstraction", "train", "db", "cli", "play"),
    "abstraction": ("cfr", "train", "db", "cli", "play"),
    # the rules (every game's top level, the scaffold, the registry): nothing above them
    "games": ("cfr", "abstraction", "train", "db", "cli", "play", "search", "envs", "web"),
    "search": ("cfr", "abstraction", "train", "db", "cli", "play"),
    # the toolkit adapters wrap the rules (and the sampler); the players may use them, not
    # the other way round
    "envs": ("cfr", "abstraction", "train", "db", "cli", "play", "web"),
    # the database and the players sit above the trainer's neighbours, below the commands
    "db": ("train", "cli", "play", "web"),
    "play": ("train", "cli", "web"),
}


def layer_of(module: str) -> str:
    """The layer of the dotted `module`: its top-level package, or inside a game's place
    (`games.<game>.<layer>...`, `<layer>` one of `GAME_LAYERS`) that layer subpackage's."""
    parts = module.split(".")
    if parts[0] == "games" and len(parts) >= 3 and parts[2] in GAME_LAYERS:
        return parts[2]
    return parts[0]


def module_name(path: pathlib.Path) -> str:
    """The dotted name of a source file of the project."""
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


# `games/` as checked here: every registered game's place and the scaffold they share (the
# poker games bind themselves to `cfr.game`, the proof of the solver, not a plug-in)
CHECKED = ("cfr", "abstraction", "search", "envs", "db", "play",
           *(f"games/{name}" for name in (*registry.GAMES, "scaffold")))
MODULES = [(layer_of(module_name(path)), path)
           for package in CHECKED for path in sorted((ROOT / package).rglob("*.py"))
           if layer_of(module_name(path)) in FORBIDDEN]
# the modules whose every public function and class has a docstring: all of MODULES but the
# shared `db/` and `play/` (their nested helpers are not all documented yet)
DOCUMENTED = [path for _, path in MODULES if path.relative_to(ROOT).parts[0] not in ("db", "play")]


def imported_names(tree: ast.AST) -> list[str]:
    """Every module name a parsed file imports."""
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append(node.module or "")
    return names


@pytest.mark.parametrize("layer, path", MODULES,
                         ids=[str(p.relative_to(ROOT)) for _, p in MODULES])
def test_imports_follow_the_data_flow(layer, path):
    for name in imported_names(ast.parse(path.read_text())):
        assert layer_of(name) not in FORBIDDEN[layer], f"{path.name} imports {name}"


def test_no_player_imports_the_trainer():
    """`play/` sits above `train/`'s neighbours, not on top of it: the abstract game a rollout
    walks is bound by `cfr.binding` (as the trainer binds it), never imported from `train/`."""
    players = [path for package in ("play", "games")
               for path in sorted((ROOT / package).rglob("*.py"))
               if layer_of(module_name(path)) == "play"]
    problems = [f"{path.relative_to(ROOT)} imports {name}" for path in players
                for name in imported_names(ast.parse(path.read_text()))
                if layer_of(name) == "train"]
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
    missing = undocumented(DOCUMENTED)
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
