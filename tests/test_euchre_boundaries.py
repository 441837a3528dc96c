"""The Euchre plug-in beyond the layer rules `test_package_boundaries.py` checks for
`games/euchre` (nothing above the rules, every public function documented): the plug-in and
the registry import no other game's package, the registry no game at all at import time, and
the registry (a single module, outside the packages listed there) keeps the same layer and
docstring rules."""

from __future__ import annotations

import ast
import pathlib

import pytest
from test_package_boundaries import imported_names, undocumented

ROOT = pathlib.Path(__file__).resolve().parent.parent
ABOVE_THE_RULES = ("cfr", "abstraction", "train", "db", "cli", "play", "search", "web")
# the rules: the top level of Euchre's place (its layer subpackages obey their layers' rules,
# test_package_boundaries.py)
FILES = sorted((ROOT / "games" / "euchre").glob("*.py")) + [ROOT / "games" / "registry.py"]


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
    missing = undocumented([ROOT / "games" / "registry.py"])  # games/euchre: the other test's
    assert not missing, missing
