"""`setback-cfr serve`: play Setback (or, with --game euchre or spades, Euchre or Spades) in the
browser against the bots (the `web` extra)."""

from __future__ import annotations

import gc
import os

from cli.errors import UserError
from cli.game_words import declared, either, title
from games import registry  # plain data: imports no game
from games.registry import PROGRAM

DEFAULT_DB = os.path.join("quickstart-run", "strategy.db")  # `setback-cfr quickstart`'s


def register(subparsers) -> None:
    """Add the `serve` subcommand."""
    from cli.arguments import positive_int

    games = registry.names(("tournament",))
    default = registry.DEFAULT_GAME
    tables = declared("SERVE_TABLE", games)
    bots = declared("SERVE_BOTS", games)
    parser = subparsers.add_parser(
        "serve", help=f"play {either(title(g) for g in tables)} in the browser against the bots",
        description="Serve a page where you play South in whole games against bots "
        "(North, your partner; East and West). "
        + " ".join(f"With --game {g}{' (the default)' if g == default else ''} the page is a "
                   f"{title(g)} table, {text}." for g, text in tables.items())
        + " Every game is kept "
        "in the --games file as its deals and moves; after a restart each unfinished game "
        "goes on where it stood. Each browser's games are its own (an owner cookie). Other "
        "programs ask the bots for one decision with POST /api/decide; the API is described "
        "at /openapi.json and /docs. The bots think on worker "
        "threads (--bot-workers); when they have more work than --max-wait-ms, requests for "
        "them get 503 with Retry-After and the page retries. GET /healthz answers at once, "
        "GET /metrics in the Prometheus text format. Needs the web extra: pip install -e '.[web]'.")
    parser.add_argument("--game", default=default, metavar="GAME",
                        help="the game of the table: " + either(
                            f"{g} ({'default; ' if g == default else ''}"
                            + ", ".join(w for w in (registry.words(g, "GOAL"),
                                                     registry.words(g, "RULES")) if w) + ")"
                            for g in tables))
    parser.add_argument("--bots", metavar="PLAYER", default=None,
                        help="the bots: " + "; ".join(
                            (text + f" (default: db:{DEFAULT_DB} if it exists, else heuristic)"
                             if g == default else f"with --game {g}: {text}")
                            for g, text in bots.items()))
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=positive_int, default=8000,
                        help="port to listen on (default 8000)")
    parser.add_argument("--games", metavar="FILE.db", default=None,
                        help="the SQLite file keeping every game (default "
                        f"$XDG_DATA_HOME/{PROGRAM}/games.db, i.e. "
                        f"~/.local/share/{PROGRAM}/games.db)")
    parser.add_argument("--delay-ms", type=int, default=700, metavar="MS",
                        help="pause between two bot moves on the page, in milliseconds "
                        "(default 700; 0 shows them at once)")
    parser.add_argument("--games-per-minute", type=positive_int, default=10, metavar="N",
                        help="new games one owner (browser) may start in any minute; more get "
                        "429 (default 10)")
    parser.add_argument("--bot-workers", type=positive_int, default=None, metavar="N",
                        help="threads the bots think on, outside the server's event loop "
                        "(default: the CPUs this process may use; a search bot's own "
                        "threads= come on top, see docs/playing/browser.md)")
    parser.add_argument("--max-wait-ms", type=positive_int, default=150, metavar="MS",
                        help="the bots' backlog bound: a request for the bots that would wait "
                        "longer than this for a worker (the requests ahead times the time "
                        "between two answers of the busy server) gets 503 with Retry-After, "
                        "and the page retries (default 150)")
    parser.add_argument("--max-backlog", type=positive_int, default=256, metavar="N",
                        help="requests waiting for or on the bots at most, whatever the "
                        "estimate; more get 503 (default 256)")
    parser.set_defaults(func=run)


def is_loopback(host: str) -> bool:
    """Whether `host` only listens on this machine (127.0.0.0/8, ::1, localhost)."""
    import ipaddress

    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_loopback
    except ValueError:
        return False


def default_bots(game: str = registry.DEFAULT_GAME) -> str:
    """The default game: the quickstart's database if it exists here, else the heuristic
    player; any other game: its heuristic player (the quickstart trains the default game)."""
    if game != registry.DEFAULT_GAME:
        return "heuristic"
    return f"db:{DEFAULT_DB}" if os.path.isfile(DEFAULT_DB) else "heuristic"


def build_app(bots: str | None, games: str | None, delay_ms: int, games_per_minute: int = 10,
              host: str = "127.0.0.1", game: str = registry.DEFAULT_GAME,
              bot_workers: int | None = None,
              max_wait_ms: int = 150, max_backlog: int = 256):
    """The web application for `game`, with every bad setting reported as a `UserError`.
    Games from before owners existed may be claimed only on a loopback `host` (one person's
    machine). The bots think on `bot_workers` threads (default the usable CPUs), with the
    backlog bounded by `max_wait_ms` and `max_backlog` (`web.pool`)."""
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ModuleNotFoundError:
        raise UserError("serve needs the web extra: pip install -e '.[web]'") from None
    from play.player_spec import PlayerSpecError
    from web.app import create_app
    from web.game_tables import UnknownWebGame, web_game
    from web.store import StoreError, default_games_path

    try:
        web_game(game)
    except UnknownWebGame as exc:
        raise UserError(str(exc)) from None
    if delay_ms < 0:
        raise UserError(f"--delay-ms must be at least 0, not {delay_ms}")
    try:
        return create_app(bots or default_bots(game), games or default_games_path(), delay_ms,
                          games_per_minute, claim_unowned=is_loopback(host), game=game,
                          bot_workers=bot_workers, max_wait=max_wait_ms / 1000,
                          max_backlog=max_backlog)
    except (PlayerSpecError, StoreError) as exc:  # every game's spec error is one
        raise UserError(str(exc)) from None


def run(args) -> int:
    """Serve until Ctrl-C."""
    app = build_app(args.bots, args.games, args.delay_ms, args.games_per_minute, args.host,
                    args.game, args.bot_workers, args.max_wait_ms, args.max_backlog)
    import uvicorn

    print(f"{PROGRAM}: playing {app.state.game} against {app.state.bots_name} at "
          f"http://{args.host}:{args.port}/  (games in {app.state.store.path}; "
          f"{app.state.pool.workers} bot workers; Ctrl-C stops)", flush=True)
    # What starting made (modules, numba's compiled code, the bots' database) is never
    # garbage: kept out of the collector's full passes, such a pass stops the server for
    # ~30 ms instead of ~90 (bench/web_load.py, 50 players).
    gc.freeze()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
