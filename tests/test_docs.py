"""The documentation (issue 39): the README stays short and starts with the two commands, the
site in docs/ builds strictly (every internal link and image resolves) in under a minute, its
command line reference lists every command and option of `--help`, every command's `--help`
ends with a page that explains it, and the tutorial's code runs as written."""

from __future__ import annotations

import argparse
import html
import os
import pathlib
import re
import subprocess
import sys
import time
from importlib import metadata

import pytest

from cli.main import build_parser, docs_page, main, subcommands

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
TUTORIAL = DOCS / "games" / "adding-a-game.md"
BUILD_SECONDS = 60
QUICKSTART = "pip install -e . && setback-cfr quickstart --minutes 5"
TEST_COMMAND = ("python3 -m pip install -q -e '.[test]' "
                "&& python3 -m pytest -q -n auto --dist loadfile")


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """(info string, content) of every ``` fenced block of a markdown text, in order."""
    return [(m.group(1).strip(), m.group(2))
            for m in re.finditer(r"^```([^\n]*)\n(.*?)^```", text, re.M | re.S)]


def commands() -> list[tuple[str, argparse.ArgumentParser]]:
    """Every (sub)command of the program as ("train baseline", its parser)."""
    return [(" ".join(path), parser) for path, parser in subcommands(build_parser())]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site built by `mkdocs build --strict`, and the seconds it took."""
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    pytest.importorskip("mkdocstrings")
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(out), "--config-file", str(ROOT / "mkdocs.yml")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    seconds = time.monotonic() - start
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return out, seconds


def test_the_readme_is_short_and_starts_with_the_two_commands():
    text = README.read_text()
    assert len(text.splitlines()) <= 250
    blocks = fenced_blocks(text)
    assert [content.strip() for _, content in blocks[:2]] == [QUICKSTART, TEST_COMMAND]
    assert TEST_COMMAND in (ROOT / ".ci" / "run").read_text()  # what CI runs, exactly


def test_the_readme_links_resolve():
    text = README.read_text()
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    assert targets
    missing = [t for t in targets if "://" not in t and not (ROOT / t).exists()]
    assert not missing, missing
    # the in-page links, by GitHub's heading anchors (lower case, punctuation dropped, - for space)
    anchors = {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
               for h in re.findall(r"^#+ (.+)$", text, re.M)}
    assert not [a for a in re.findall(r"\]\(#([^)]+)\)", text) if a not in anchors]


def test_the_site_builds_strictly_in_under_a_minute(site):
    _, seconds = site
    assert seconds < BUILD_SECONDS, f"mkdocs build --strict took {seconds:.0f} s"


def test_the_cli_reference_lists_every_command_and_option(site):
    out, _ = site
    page = html.unescape(re.sub(r"<[^>]+>", "", (out / "reference" / "cli" / "index.html")
                                .read_text()))
    missing = []
    for name, parser in [("", build_parser())] + commands():
        if f"setback-cfr {name}".strip() not in page:
            missing.append(f"command {name!r}")
        for action in parser._actions:
            if action.help == argparse.SUPPRESS:
                continue
            missing += [f"{name}: {s}" for s in action.option_strings if s not in page]
    assert not missing, missing


def test_every_command_help_ends_with_a_page_that_names_it():
    problems = []
    for name, parser in [("", build_parser())] + commands():
        page = docs_page(name)
        path = DOCS / page
        if not path.is_file():
            problems.append(f"{name!r}: no page docs/{page}")
            continue
        if name and name not in path.read_text():
            problems.append(f"{name!r}: docs/{page} never names it")
        if not parser.format_help().rstrip().endswith(f"Documentation: docs/{page}"):
            problems.append(f"{name!r}: --help does not end with its page")
    assert not problems, problems


def test_version_comes_from_the_package_metadata(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"setback-cfr {metadata.version('setback-cfr')}"


def test_the_tutorial_runs_in_a_clean_directory(tmp_path):
    """Blocks titled with a path inside a package are written; the top-level scripts are then
    run in the order the page shows them, in an empty temporary directory."""
    blocks = [(info, content) for info, content in fenced_blocks(TUTORIAL.read_text())
              if info.startswith("python")]
    scripts = []
    for info, content in blocks:
        title = re.search(r'title="([^"]+)"', info)
        assert title, f"a python block without a title: {content[:80]!r}"
        path = tmp_path / title.group(1)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)
        if "/" not in title.group(1):
            scripts.append(path.name)
    assert scripts == ["step1_play.py", "step2_train.py", "step3_solve.py", "step4_search.py",
                       "step5_tournament.py", "step6_table.py"]
    for script in scripts:
        proc = subprocess.run([sys.executable, script], cwd=tmp_path, capture_output=True,
                              text=True, timeout=600)
        assert proc.returncode == 0, f"{script}:\n{proc.stdout[-2000:]}{proc.stderr[-3000:]}"
        assert proc.stdout.strip(), script
