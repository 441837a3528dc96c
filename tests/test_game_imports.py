"""The import rule of the game plug-ins (issues 29 and 55): a game's files are in one place,
`games/<game>/` (its registry entry's `packages`: the rules at its top level, its abstraction,
search, training, database, players and toolkit adapters in the layer subpackages of that
place). Outside its place, the registry, tests/ and bench/, a module imports a game's place only
if it is listed in that game's plug-in list (`games/registry.py`: `SETBACK_PLUGIN`, ...: what is
still bound to the game outside its place, each entry with its reason); `cfr/` imports no game
at all. Every import in a file counts, at load time or inside a function (parsed with ast, as
test_package_boundaries.py does)."""

from __future__ import annotations

import ast
import pathlib
from fnmatch import fnmatchcase

from games import registry

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("cfr", "games", "abstraction", "train", "db", "play", "search", "cli", "web", "envs")
EXEMPT = ("games.registry",)  # names every game, imports none (test_euchre_boundaries.py)


def project_modules() -> dict[str, pathlib.Path]:
    """Every module of the installed packages, by dotted name (a package by its own name)."""
    files = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            files[name.removesuffix(".__init__")] = path
    return files


def imports_of(path: pathlib.Path) -> list[tuple[int, str]]:
    """(line, module name) of every import in the file; `from P import m` also yields P.m
    (it may import the submodule m)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.lineno, node.module))
            out += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
    return out


def shown(path: pathlib.Path) -> str:
    """The path relative to the repository (as given when outside it)."""
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def inside(name: str, package: str) -> bool:
    """Whether the dotted `name` is `package` or inside it."""
    return name == package or name.startswith(package + ".")


def violations(modules: dict[str, pathlib.Path], games) -> list[str]:
    """One line per import of a game's package from outside that game's plug-in."""
    found = []
    for module, path in modules.items():
        if module in EXEMPT:
            continue
        for entry in games:
            if any(fnmatchcase(module, p) for p in entry.plugin):
                continue
            for line, name in imports_of(path):
                package = next((p for p in entry.packages if inside(name, p)), None)
                if package is not None:
                    found.append(f"{shown(path)}:{line} imports {name}, but is not "
                                 f"in the {entry.name} plug-in (games/registry.py)")
                    break
    return found


def test_only_a_games_plug_in_imports_its_packages():
    problems = violations(project_modules(), registry.GAMES.values())
    assert not problems, "\n".join(problems)


def test_cfr_imports_no_game():
    modules = project_modules()
    bad = [f"{path.relative_to(ROOT)}:{line} imports {name}"
           for module, path in modules.items() if inside(module, "cfr")
           for line, name in imports_of(path)
           if inside(name, "games") or inside(name, "abstraction")]
    assert not bad, "\n".join(bad)


def test_the_declared_plug_ins_are_real():
    """Every declared module exists and, when named one by one, does import the game's
    packages (a stale name would mislead the reader about what is bound to the game), each
    game's packages exist, and no module outside `envs/` is bound to two games (the toolkit
    adapters there are bound to none now: each game declares its own)."""
    modules = project_modules()
    for entry in registry.GAMES.values():
        assert entry.packages and all(p in modules for p in entry.packages), entry.name
        for pattern in entry.plugin:
            assert any(fnmatchcase(m, pattern) for m in modules), \
                f"{entry.name}: no module matches {pattern!r}"
            if pattern in modules and modules[pattern].name != "__init__.py":
                assert any(inside(name, p) for _, name in imports_of(modules[pattern])
                           for p in entry.packages), \
                    f"{entry.name}: {pattern} is declared but imports none of {entry.packages}"
    both = [m for m in modules if len(registry.plugin_of(m)) > 1]
    assert all(inside(m, "envs") for m in both), both


def test_the_rule_catches_a_stray_import(tmp_path):
    """The checker itself: a module outside Euchre's place and plug-in list importing
    games.euchre (in a function, by `from games import euchre`) is named with its line, and so
    is a module of another game's place (no game reaches into another's); one inside its
    place is not."""
    stray = tmp_path / "stray.py"
    stray.write_text('"""x"""\n\n\ndef f():\n    from games import euchre\n    return euchre\n')
    fine = tmp_path / "fine.py"
    fine.write_text("from games.euchre.cards import SEAT_CHARS\n")
    problems = violations({"play.generic": stray, "games.euchre.play.thing": fine,
                           "games.spades.play.thing": fine}, [registry.get("euchre")])
    assert len(problems) == 2 and "stray.py:5 imports games.euchre" in problems[0]
    assert "fine.py:1 imports games.euchre.cards" in problems[1]
    assert all("euchre plug-in" in p for p in problems)


def test_a_games_place_is_its_one_package():
    """`GameEntry.packages` is the game's place, `games/<game>/`, and nothing else: its
    abstraction is `games/<game>/abstraction/` (the old `abstraction/<game>/` is gone)."""
    for entry in registry.GAMES.values():
        assert entry.packages == (f"games.{entry.name}",) == (entry.package,), entry.name
        assert not (ROOT / "abstraction" / entry.name).exists(), entry.name


def test_euchre_and_spades_have_everything_in_their_places():
    """The Euchre and Spades plug-in lists are empty: every module of theirs is in
    `games/euchre/` or `games/spades/`, and no module outside imports them."""
    assert registry.EUCHRE_PLUGIN == () and registry.SPADES_PLUGIN == ()
    assert registry.get("euchre").plugin == ("games.euchre", "games.euchre.*")
    assert registry.get("spades").plugin == ("games.spades", "games.spades.*")
