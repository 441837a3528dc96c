"""MkDocs hook: writes docs/reference/cli.md at build time from the argparse parsers.

`cli.main.build_parser()` is walked (every command and subcommand, as `--help` shows them), so
the page lists every command and every option of the program being documented and cannot drift
from it. The page exists only in the built site (it is generated, never committed).
"""

from __future__ import annotations

import argparse
import os

from mkdocs.structure.files import File

PAGE = "reference/cli.md"


def _usage_and_help(parser: argparse.ArgumentParser) -> str:
    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "80"  # the same wrapping on every machine, narrow enough for a page
    try:
        return parser.format_help()
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous


def _options(parser: argparse.ArgumentParser) -> list[tuple[str, str]]:
    rows = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) or action.help == argparse.SUPPRESS:
            continue
        names = ", ".join(f"`{s}`" for s in action.option_strings) or f"`{action.dest}`"
        text = (action.help or "").replace("%(default)s", str(action.default))
        text = text.replace("%(prog)s", parser.prog).replace("|", "\\|").replace("\n", " ")
        text = text.replace("[", "\\[").replace("]", "\\]")  # no markdown reference links
        rows.append((names, text))
    return rows


def _title(page: str) -> str:
    """The first heading of docs/`page` (the page's title), or the page's path."""
    path = os.path.join(os.path.dirname(os.path.dirname(__file__)), page)
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("# "):
                    return line[2:].strip().replace("|", "\\|")
    except OSError:
        pass
    return page


def cli_reference_markdown() -> str:
    """The command line reference page, as markdown."""
    from cli.main import build_parser, docs_page, subcommands

    parser = build_parser()
    out = ["# Command line reference", "",
           "Generated at build time from the program's own parsers "
           "(`docs/hooks/cli_reference.py` walks `cli.main.build_parser()`), so every command "
           "and every option of `setback-cfr --help` is here. Each command's `--help` ends with "
           "the page that explains it.", "",
           "| command | explained in |", "|--|--|"]
    commands = [((), parser), *subcommands(parser)]
    for path, _ in commands[1:]:
        name = " ".join(path)
        anchor = "setback-cfr-" + "-".join(path)
        page = docs_page(name)
        out.append(f"| [`{name}`](#{anchor}) | [{_title(page)}](../{page}) |")
    out.append("")
    for path, sub in commands:
        title = " ".join(("setback-cfr",) + path)
        anchor = "-".join(("setback-cfr",) + path)
        out += [f"## `{title}` {{#{anchor}}}", ""]
        if sub.description:
            first = sub.description.strip().split("\n\n")[0].replace("\n", " ")
            out += [first.replace("[", "\\[").replace("]", "\\]"), ""]
        rows = _options(sub)
        if rows:
            out += ["| option | meaning |", "|--|--|"]
            out += [f"| {n} | {t} |" for n, t in rows]
            out.append("")
        out += ["```text", _usage_and_help(sub).rstrip(), "```", ""]
    return "\n".join(out)


def on_files(files, config):
    """Add the generated page to the site's files."""
    files.append(File.generated(config, PAGE, content=cli_reference_markdown()))
    return files
