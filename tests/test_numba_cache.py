"""`numba_cache`: numba's cache lives in a directory named by a digest of all the sources, so
a change in any module (numba alone would miss a callee's change in another file) means a
fresh cache, never stale machine code."""

import os
import pathlib
import subprocess
import sys
import time

import numba_cache

ROOT = pathlib.Path(numba_cache.__file__).resolve().parent


def make_tree(root: pathlib.Path) -> None:
    for package in numba_cache.PACKAGES:
        (root / package).mkdir(parents=True)
        (root / package / "__init__.py").write_text(f'"""{package}"""\n')
    (root / "games" / "rules.py").write_text("LIMIT = 3\n")


def test_the_digest_follows_every_file_of_every_package(tmp_path):
    make_tree(tmp_path)
    first = numba_cache.source_digest(tmp_path)
    assert numba_cache.source_digest(tmp_path) == first
    (tmp_path / "games" / "rules.py").write_text("LIMIT = 4\n")  # a callee's module
    second = numba_cache.source_digest(tmp_path)
    assert second != first
    (tmp_path / "search" / "new.py").write_text("")  # a new module
    assert numba_cache.source_digest(tmp_path) not in (first, second)


def run_python(code: str, env: dict) -> str:
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, check=True)
    return out.stdout.strip()


def test_numba_caches_under_the_digest_and_old_digests_are_pruned(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    base = tmp_path / "setback-cfr" / "numba"
    base.mkdir(parents=True)
    week = numba_cache.STALE_SECONDS
    for i in range(6):  # older trees' caches: two recent, four over a week old
        (base / f"old{i}").mkdir()
        age = 60 if i < 2 else week + 3600 * i
        os.utime(base / f"old{i}", (time.time() - age, time.time() - age))
    code = ("import games.setback.rules, numba.core.config as c, os; "
            "print(c.CACHE_DIR == os.environ['NUMBA_CACHE_DIR'], c.CACHE_DIR)")
    same, where = run_python(code, env).split()
    assert same == "True"
    assert pathlib.Path(where) == base / numba_cache.source_digest()
    # the new one and the three newest stay; of the rest only those a week old go
    kept = sorted(p.name for p in base.iterdir())
    assert kept == sorted([where.rsplit("/", 1)[1], "old0", "old1", "old2"])


def test_a_cache_dir_set_by_the_user_is_kept(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "mine")}
    assert run_python("import cfr, os; print(os.environ['NUMBA_CACHE_DIR'])", env) == \
        str(tmp_path / "mine")
