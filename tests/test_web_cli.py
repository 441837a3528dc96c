"""`setback-cfr serve`: its bad settings are one line and status 2; the games file's format is
checked; the command really serves the page and the API on a loopback port."""

import json
import os
import socket
import subprocess
import sys
import time

import pytest

pytest.importorskip("fastapi")

from cli_runner import run_cli  # noqa: E402
from web.store import FORMAT_VERSION, GameStore, StoreError, default_games_path  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.parametrize("argv, message", [
    (["--bots", "chess"], "unknown player 'chess'"),
    (["--bots", "db:/no/such.db"], "no such strategy database"),
    (["--delay-ms", "-5"], "--delay-ms must be at least 0"),
    (["--games", "__file__"], "not a setback-cfr games file"),
])
def test_bad_settings_are_one_line_and_status_2(tmp_path, capsys, argv, message):
    argv = [str(tmp_path / "g.db") if a == "__file__" else a for a in argv]
    if "--games" in argv:
        (tmp_path / "g.db").write_text("not a database, just text\n" * 10)
    else:
        argv += ["--games", str(tmp_path / "g.db")]
    status, out, err = run_cli(capsys, ["serve", *argv])
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_a_games_file_of_a_newer_format_is_refused(tmp_path):
    path = str(tmp_path / "g.db")
    store = GameStore(path)
    with store.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE web_meta SET value = ? WHERE name = 'format_version'",
                             (json.dumps(FORMAT_VERSION + 1),))
    store.close()
    with pytest.raises(StoreError, match="newer than this program reads"):
        GameStore(path)
    GameStore(str(tmp_path / "fresh.db")).close()  # a new file is created with its folder


def test_the_default_games_file_is_under_the_users_data_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_games_path() == str(tmp_path / "setback-cfr" / "games.db")
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_games_path().endswith(os.path.join(".local", "share", "setback-cfr",
                                                      "games.db"))


def test_serve_serves_the_page_and_the_api(tmp_path):
    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--bots", "random", "--port", str(port),
         "--games", str(tmp_path / "g.db"), "--delay-ms", "0"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None, server.stdout.read()
            try:
                page = httpx.get(f"http://127.0.0.1:{port}/", timeout=120)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "serve did not start"
                time.sleep(0.2)
        assert page.status_code == 200 and "<title>Setback" in page.text
        assert httpx.get(f"http://127.0.0.1:{port}/static/table.js", timeout=120).status_code == 200
        config = httpx.get(f"http://127.0.0.1:{port}/api/config", timeout=120).json()
        assert config == {"bots": "random", "delay_ms": 0}
        created = httpx.post(f"http://127.0.0.1:{port}/api/games", json={"seed": 1}, timeout=120)
        assert created.status_code == 201 and created.json()["view"]["to_act"] == "S"
    finally:
        server.terminate()
        out, _ = server.communicate(timeout=30)
    assert f"http://127.0.0.1:{port}/" in out and "random" in out
