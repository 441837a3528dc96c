"""The bid tables layer every game shares (`play/bid_table_file.py`, `cli/bid_tables.py`), for
every game that declares bid tables (`games/<game>/bid_tables.py`): a build through the command
reads back equal; a truncated, empty, flipped, reshaped or newer file, and another game's, are
refused in one line; a version-1 file under the game's own header still reads; the belief is
read from the file; the other games' options are refused in one line."""

from __future__ import annotations

import hashlib
import os

import msgpack
import numpy as np
import pytest
from cli_runner import run_cli

from cli.bid_tables import declarations
from play.bid_table_file import MAGIC, BidTablesError, load_belief, tables_model

GAMES = tuple(declarations())


def test_the_games_with_bid_tables_are_declared():
    assert {"setback", "spades"} <= set(GAMES)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """{game: the path of tables built by the command}: 40 deals bid by the heuristic."""
    folder = tmp_path_factory.mktemp("tables")
    paths = {}
    for game in GAMES:
        paths[game] = str(folder / f"{game}.tables")
        extra = ["--heldout", "0"] if "heldout" in declarations()[game].BUILD_OPTIONS else []
        status = run_cli_plain(["bid-tables", "--game", game, "--bidders", "heuristic",
                                "--deals", "40", "--seed", "3", "--out", paths[game],
                                "--no-progress", *extra])
        assert status == 0
    return paths


def run_cli_plain(argv) -> int:
    """The command's exit status, its output left to the terminal (a module fixture has no
    capsys)."""
    from cli.main import main

    try:
        return main([str(a) for a in argv])
    except SystemExit as exc:
        return exc.code


def _document(path: str) -> dict:
    with open(path, "rb") as handle:
        return msgpack.unpackb(handle.read(), raw=False)


def _write(path: str, document: dict) -> str:
    with open(path, "wb") as handle:
        handle.write(msgpack.packb(document, use_bin_type=True))
    return path


@pytest.mark.parametrize("game", GAMES)
def test_the_file_reads_back_what_was_built(game, built):
    model = tables_model(game)
    tables = model.load(built[game])
    document = _document(built[game])
    assert document["magic"] == MAGIC and document["game"] == game
    assert tables.meta["deals"] == 40 and tables.meta["seed"] == 3
    for name, array in tables.arrays().items():
        blob = document["arrays"][name]
        assert np.array_equal(array, np.frombuffer(blob["data"], "<" + blob["dtype"])
                              .reshape(blob["shape"])), name
        assert array.any(), name


@pytest.mark.parametrize("game", GAMES)
def test_a_damaged_newer_or_other_games_file_is_refused_in_one_line(game, built, tmp_path):
    model = tables_model(game)
    raw = open(built[game], "rb").read()
    document = _document(built[game])
    newer = dict(document, version=99)
    name = next(iter(document["arrays"]))
    blob = document["arrays"][name]
    reshaped = dict(document, arrays=dict(document["arrays"],
                                          **{name: dict(blob, shape=[1, -1])}))
    cases = {"truncated": raw[: len(raw) // 2], "empty": b"",
             "flipped": raw[:-40] + bytes([raw[-40] ^ 1]) + raw[-39:],
             "newer": msgpack.packb(newer, use_bin_type=True),
             "reshaped": msgpack.packb(reshaped, use_bin_type=True)}
    for kind, data in cases.items():
        (tmp_path / kind).write_bytes(data)
    for other in GAMES:
        if other != game:
            cases[other] = built[other]
    for kind in cases:
        path = cases[kind] if kind in GAMES else str(tmp_path / kind)
        with pytest.raises(BidTablesError) as info:
            model.load(path)
        message = str(info.value).replace(path, "FILE")
        assert "\n" not in message, kind
        assert ("newer" in message) == (kind == "newer"), kind
        if kind in GAMES:
            assert f"of the game {kind!r}, not {game!r}" in message
    with pytest.raises(BidTablesError, match="no such bid tables file"):
        load_belief(str(tmp_path / "missing"), game)


@pytest.mark.parametrize("game", GAMES)
def test_a_version_one_file_under_the_games_header_still_reads(game, built, tmp_path):
    model = tables_model(game)
    document = _document(built[game])
    old = dict(document, version=1, magic=declarations()[game].V1_MAGIC)
    if old["magic"] == MAGIC:
        del old["game"]  # the one header's files named no game before version 2
    if list(document["arrays"]) == ["counts"]:  # one array once had a layout of its own
        data = document["arrays"]["counts"]["data"]
        old = {key: value for key, value in old.items() if key != "arrays"}
        old.update(shape=document["arrays"]["counts"]["shape"], counts=data,
                   checksum=hashlib.blake2b(data, digest_size=16).hexdigest())
    path = _write(str(tmp_path / "old.tables"), old)
    again, now = model.load(path), model.load(built[game])
    for name, array in now.arrays().items():
        assert np.array_equal(again.arrays()[name], array), name


@pytest.mark.parametrize("game", GAMES)
def test_the_belief_is_read_from_the_file(game, built):
    belief = load_belief(built[game], game)
    assert belief.name == os.path.basename(built[game])


@pytest.mark.parametrize("game", GAMES)
def test_another_games_options_are_refused_in_one_line(game, built, capsys):
    others = {option: owner for owner, decl in declarations().items() if owner != game
              for option in {**decl.BUILD_OPTIONS, **decl.SHOW_OPTIONS}
              if option not in {**declarations()[game].BUILD_OPTIONS,
                                **declarations()[game].SHOW_OPTIONS}}
    for option, owner in others.items():
        spec = {**declarations()[owner].BUILD_OPTIONS, **declarations()[owner].SHOW_OPTIONS}
        value = [] if spec[option].get("action") == "store_true" else ["2"]
        status, out, err = run_cli(capsys, ["bid-tables", "--game", game, "--show", built[game],
                                            f"--{option}", *value])
        assert status == 2 and out == "" and err.count("\n") == 1
        assert f"--{option} goes with --game {owner}" in err
    status, _, err = run_cli(capsys, ["bid-tables", "--game", game, "--show", built[game],
                                      "--deals", "5"])
    assert status == 2 and "--show reads a tables file" in err
    status, _, err = run_cli(capsys, ["bid-tables", "--game", game, "--bidders", "heuristic",
                                      "--deals", "5"])
    assert status == 2 and f"--bidders {declarations()[game].BIDDERS}" in err
