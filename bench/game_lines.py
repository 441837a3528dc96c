"""What a game costs in lines of product code, layer by layer (issue 55's measure).

A checkout's product files are every file of its packages (`games/`, `abstraction/`, `cfr/`,
`train/`, `db/`, `play/`, `search/`, `envs/`, `web/` with its static files, `cli/`); tests,
benchmarks and docs are not product. A game owns, two ways of counting:

* **named** (the way issues 49 and 55 counted Euchre's 4,011 and Spades' 4,327 lines): its
  place (`games/NAME/`, with its layer subpackages; in a checkout from before issue 55 also
  `abstraction/NAME/`) and every product file named after it (`web/static/NAME.*`, ...; before
  issue 55 `play/NAME_*.py`, `envs/*NAME*`);
* **bound**: its own packages plus every module its registry entry lists as allowed to import
  them (`GameEntry.plugin`, kept honest by tests/test_game_imports.py), plus its static files.
  This is the count that sees Setback, whose modules mostly carry no game's name; a module
  bound to two games counts for both.

A file's layer is its top-level package, or inside a game's place its layer subpackage
(`games/NAME/play/x.py` counts in `play`), so a tree before and after issue 55 compare.

"Shared" is every product file no game owns by either count. Each figure is given as all
lines (what `wc -l` says, the issues' unit) and as code lines (Python without blank lines,
comments or docstrings; other files without blank lines).

    python bench/game_lines.py                       # this checkout
    python bench/game_lines.py --tree ../base --tree .   # before and after, side by side
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import io
import pathlib
import re
import runpy
import sys
import tokenize

PACKAGES = ("games", "abstraction", "cfr", "train", "db", "play", "search", "envs", "web", "cli")
SKIP_DIRS = {"__pycache__", "trickster_host"}  # the C# host is Trickster's bots' glue, not ours
SKIP_SUFFIXES = {".pyc", ".png", ".ico"}


def product_files(tree: pathlib.Path) -> list[pathlib.Path]:
    """Every product file of the checkout at `tree`, as paths relative to it, sorted."""
    found = []
    for package in PACKAGES:
        for path in sorted((tree / package).rglob("*")):
            rel = path.relative_to(tree)
            if (path.is_file() and not SKIP_DIRS.intersection(rel.parts)
                    and path.suffix not in SKIP_SUFFIXES):
                found.append(rel)
    return found


def code_lines(text: str, python: bool) -> int:
    """Lines holding code: for Python, lines with a token that is neither a comment nor part
    of a docstring; for other files, the lines that are not blank."""
    if not python:
        return sum(1 for line in text.splitlines() if line.strip())
    docstrings: set[int] = set()
    try:
        module = ast.parse(text)
    except SyntaxError:
        return sum(1 for line in text.splitlines() if line.strip())
    for node in ast.walk(module):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                docstrings.update(range(body[0].lineno, body[0].end_lineno + 1))
    lines: set[int] = set()
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
            tokenize.ENCODING, tokenize.ENDMARKER}
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type not in skip:
            lines.update(n for n in range(token.start[0], token.end[0] + 1) if n not in docstrings)
    return len(lines)


def module_name(rel: pathlib.Path) -> str | None:
    """The dotted module name of a Python file (`games/setback/play/oracle.py` ->
    `games.setback.play.oracle`)."""
    if rel.suffix != ".py":
        return None
    parts = rel.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def named_after(rel: pathlib.Path, game: str) -> bool:
    """Whether a product file belongs to `game` by its place or its name."""
    text = rel.as_posix()
    if text.startswith((f"games/{game}/", f"abstraction/{game}/")):
        return True
    return rel.parts[0] not in ("games", "abstraction") and re.search(game, rel.name) is not None


def layer_of(rel: pathlib.Path) -> str:
    """The layer a product file counts in: its top-level package, or inside a game's place
    (`games/NAME/LAYER/...`) that layer subpackage."""
    parts = rel.parts
    if parts[0] == "games" and len(parts) > 3 and parts[2] in PACKAGES:
        return parts[2]
    return parts[0]


def bound_to(rel: pathlib.Path, game: str, entry) -> bool:
    """Whether a product file belongs to `game` by its registry entry's plug-in list (its
    packages and the modules allowed to import them), or is a static file named after it."""
    name = module_name(rel)
    if name is None:
        return named_after(rel, game)
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in entry.plugin)


def count(tree: pathlib.Path) -> dict:
    """Per game and per layer, the named and bound counts (all lines, code lines), the shared
    files' lines and the total, for the checkout at `tree`."""
    registry = runpy.run_path(str(tree / "games" / "registry.py"))
    games = {name: entry for name, entry in registry["GAMES"].items()}
    sizes = {}
    for rel in product_files(tree):
        text = (tree / rel).read_text(errors="replace")
        sizes[rel] = (len(text.splitlines()), code_lines(text, rel.suffix == ".py"))
    result = {"games": {}, "shared": [0, 0], "total": [0, 0]}
    owned = set()
    for game, entry in games.items():
        per = {"named": {}, "bound": {}}
        for rel, (lines, code) in sizes.items():
            for how, test in (("named", named_after(rel, game)), ("bound", bound_to(rel, game, entry))):
                if test:
                    layer = per[how].setdefault(layer_of(rel), [0, 0])
                    layer[0] += lines
                    layer[1] += code
                    owned.add(rel)
        result["games"][game] = per
    for rel, (lines, code) in sizes.items():
        result["total"][0] += lines
        result["total"][1] += code
        if rel not in owned:
            result["shared"][0] += lines
            result["shared"][1] += code
    return result


def total(layers: dict) -> list[int]:
    """The sum over layers of (all lines, code lines)."""
    return [sum(v[0] for v in layers.values()), sum(v[1] for v in layers.values())]


def report(trees: list[pathlib.Path]) -> str:
    """A markdown table: a row per game, count and layer, a column per checkout."""
    counts = [count(tree) for tree in trees]
    head = "| game | count | layer | " + " | ".join(f"`{t}` lines (code)" for t in trees) + " |"
    rows = [head, "|" + "--|" * 3 + "--:|" * len(trees)]
    games = sorted({g for c in counts for g in c["games"]})
    for game in games:
        for how in ("named", "bound"):
            layers = sorted({layer for c in counts for layer in c["games"].get(game, {}).get(how, {})},
                            key=PACKAGES.index)
            for layer in layers + ["**all**"]:
                cells = []
                for c in counts:
                    per = c["games"].get(game, {}).get(how, {})
                    value = total(per) if layer == "**all**" else per.get(layer, [0, 0])
                    cells.append(f"{value[0]:,} ({value[1]:,})")
                rows.append(f"| {game} | {how} | {layer} | " + " | ".join(cells) + " |")
    for label in ("shared", "total"):
        rows.append(f"| {label} | | | " + " | ".join(f"{c[label][0]:,} ({c[label][1]:,})"
                                                  for c in counts) + " |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    """Print the table for each `--tree` (default: this checkout)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", action="append", type=pathlib.Path,
                        help="a checkout's root (repeat to compare; default: this one)")
    args = parser.parse_args(argv)
    trees = args.tree or [pathlib.Path(__file__).resolve().parents[1]]
    for tree in trees:
        if not (tree / "games" / "registry.py").is_file():
            parser.error(f"{tree} is not a checkout of this project (no games/registry.py)")
    print(report(trees))
    return 0


if __name__ == "__main__":
    sys.exit(main())
