"""The FastAPI application of `setback-cfr serve`: the page and a small JSON API, for one game
(`web.game_tables`: Setback, the default, or Euchre; the routes are the same, the game's table,
bots and page come from its adapter).

    GET  /                                  the page (web.page: static/table.html filled from
                                            the game's declaration; table.js, style.css)
    GET  /api/config                        {"bots", "delay_ms"}
    GET  /api/games                         the caller's recent games, newest first
    POST /api/games            {"seed"?}    a new game -> 201 {"game", "events", "view"}
    GET  /api/games/{id}                    {"game", "view"}
    POST /api/games/{id}/moves {"move", "version"?, "seat"?}   -> {"events", "view"}
    GET  /api/games/{id}/hint               what the bots would play for you, and why
    GET  /api/games/{id}/replay             a finished game: each deal as `replay` input
    GET  /api/games/{id}/deals/{n}/replay   one finished deal as `setback-cfr replay` input
    POST /api/decide           a position   the bots' move for one seat, and why (every game
                                            that declares a position reader)
    GET  /healthz                           {"status": "ok", "backlog", "workers"}: cheap,
                                            never behind the bots
    GET  /metrics                           the Prometheus text format (`web.metrics`)
    GET  /openapi.json, /docs               the API described (OpenAPI 3.1), and browsable

Every refusal is a 4xx with one line of JSON, `{"error": "..."}`, and changes nothing; so is
a 503 (with Retry-After) when the bots' backlog is full (`web.pool`).

Each browser's games are its own (`web.guard`: an owner token in a cookie). A game belongs to
the owner who started it: the list shows only the caller's games, and another owner's game
answers 404 exactly as an unknown one does; game IDs carry 128 random bits. Games stored
before owners existed have none: with `claim_unowned` (the default of a server on loopback,
where one person plays) they are listed to every caller and the first owner to open one
makes it theirs; otherwise they stay hidden. An owner may start `games_per_minute` games in
any minute (429 beyond). Request bodies over 64 KiB get 413 before they are read whole.

The bots think on a pool of worker threads (`web.pool`): the event loop parses, validates,
finds the game and answers; a move with the bots' replies and its saving, a new game's first
moves and its saving, a hint and `/api/decide` run on a worker. The saving is the worker's,
not the loop's, because every SQLite call lets go of the GIL: on the loop, each one then
waited for the GIL behind the workers' Python (up to the 5 ms switch interval each), and so
did every cheap request queued behind it. A move is still saved before its reply.

A game's requests take turns (`BotPool.turn`), so its moves are applied strictly one after
another, in the order they came; a request made from a state the game has left (the `version`
it sends is stale: another tab) gets 409. The store's version column does the same across
processes sharing one games file. When the backlog is full, a request that needs the bots is
refused with 503 and Retry-After before anything is done.
"""

from __future__ import annotations

import json
import math
import os
import secrets
import weakref
from collections import OrderedDict
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from games.registry import PROGRAM
from web.game_tables import DEFAULT_WEB_GAME, web_game
from web.guard import Guard, StartLimit
from web.metrics import ROUTE_KEY, Metrics, ServerMetrics, TimedBots, route_template
from web.openapi import document as openapi_document
from web.page import build_page
from web.pool import DEFAULT_MAX_BACKLOG, DEFAULT_MAX_WAIT, BotPool, Busy
from web.store import GameStore, StoreConflict
from web.table_errors import Conflict, TableError

STATIC = os.path.join(os.path.dirname(__file__), "static")
MAX_SEED = (1 << 63) - 1
LIVE_GAMES = 2000  # games kept in memory; the others are rebuilt from the file on demand


try:  # a move's reply is a few kilobytes of nested events: orjson writes it ten times faster
    import orjson

    def _dumps(data) -> bytes:
        return orjson.dumps(data)
except ImportError:  # pragma: no cover - the web extra installs it
    def _dumps(data) -> bytes:
        return json.dumps(data, separators=(",", ":")).encode()


def reply(data, status: int = 200) -> Response:
    """`data` as a JSON response (written directly: FastAPI's generic encoder is slow)."""
    return Response(_dumps(data), status_code=status, media_type="application/json")


class ApiError(Exception):
    """A refusal: HTTP `status`, a one-line message and any headers of the reply."""

    def __init__(self, status: int, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status = status
        self.headers = headers


def create_app(bots: str = "heuristic", games: str = "games.db", delay_ms: int = 600,
               games_per_minute: int = 10, claim_unowned: bool = True,
               game: str = DEFAULT_WEB_GAME, bot_workers: int | None = None,
               max_wait: float = DEFAULT_MAX_WAIT,
               max_backlog: int = DEFAULT_MAX_BACKLOG) -> FastAPI:
    """The application for the game `game` (`web.game_tables`): bots of that game's player
    spec `bots`, games kept in the file `games` (which may hold other games' too: this server
    lists and opens its game's only), the page showing each bot move `delay_ms` milliseconds
    after the previous one; each owner may start `games_per_minute` games a minute;
    `claim_unowned`: games from before owners are shown to every owner, and the first to open
    one owns it (else they stay hidden). The bots think on `bot_workers` threads (default
    the usable CPUs); a request for them is refused with 503 when the backlog would make it
    wait over `max_wait` seconds or exceed `max_backlog` requests (`web.pool`)."""
    adapter = web_game(game)
    Table = adapter.load("table")
    RulesError = adapter.load("error")
    metrics = ServerMetrics()
    players = TimedBots(adapter.load("bots")(bots), metrics.decision)
    store = GameStore(games)
    live: OrderedDict[str, Table] = OrderedDict()
    pool = BotPool(bot_workers, max_wait, max_backlog)
    pool.warm(players.ready)  # each worker's player made now, not in a person's first move
    metrics.watch_pool(pool)
    starts = StartLimit(games_per_minute)

    @asynccontextmanager
    async def lifespan(_app):
        """Stop the bot workers when the server stops."""
        yield
        pool.close()

    app = FastAPI(title=PROGRAM, docs_url=None, redoc_url=None, openapi_url=None,
                  lifespan=lifespan)
    app.add_middleware(Guard)
    app.add_middleware(Metrics, metrics=metrics)  # outermost: the Guard's 413s are counted
    weakref.finalize(app, pool.close)  # an app dropped without its lifespan (a test's)
    app.state.pool = pool
    app.state.metrics = metrics
    app.state.store = store
    app.state.live = live
    app.state.bots_name = players.name
    app.state.game = adapter.name
    app.state.api_routes = []  # (method, path) of every API route, for the OpenAPI document

    # --- errors: one line of JSON --------------------------------------------------
    @app.exception_handler(ApiError)
    async def api_error(_request, exc: ApiError):
        """A refusal of ours: its status and one line."""
        return JSONResponse({"error": str(exc)}, status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RulesError)
    async def position_error(_request, exc: Exception):
        """A position `/api/decide` refuses (the rules' own error): 422 and one line."""
        return JSONResponse({"error": str(exc).replace("\n", " ")}, status_code=422)

    @app.exception_handler(Busy)
    async def busy(request, exc: Busy):
        """The bots' backlog is full: 503, Retry-After and one line; nothing was done."""
        metrics.shed.labels(route_template(request.scope)).inc()
        return JSONResponse({"error": str(exc)}, status_code=503,
                            headers={"Retry-After": str(exc.retry_after)})

    @app.exception_handler(TableError)
    async def table_error(_request, exc: TableError):
        """A move the game refuses: its status and one line."""
        return JSONResponse({"error": str(exc)}, status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request, exc: StarletteHTTPException):
        """Unknown pages and wrong methods, as one line of JSON."""
        message = exc.detail if exc.status_code != 404 else f"no such page: {request.url.path}"
        return JSONResponse({"error": str(message)}, status_code=exc.status_code)

    # --- the games ------------------------------------------------------------------
    def remember(table: Table) -> Table:
        """Keep `table` among the live games (the least recently used leave first)."""
        live[table.id] = table
        live.move_to_end(table.id)
        while len(live) > LIVE_GAMES:
            live.popitem(last=False)
        return table

    def game(request: Request) -> Table:
        """The caller's game named in the path, live or rebuilt from the file; 404 if there
        is none, or if it is another owner's (the same reply: an ID reveals nothing)."""
        game_id, owner = request.path_params["game_id"], request.scope["owner"]
        table = live.get(game_id)
        if table is None:
            stored = store.load(game_id)
            if stored is not None and stored["game"] != adapter.name:
                if stored["owner"] == owner:  # the caller's, but a game of another server
                    raise ApiError(404, f"no {adapter.title} game {game_id!r}: it is a game "
                                        f"of {stored['game']} (serve --game {stored['game']})")
                stored = None  # never claimed here, and as unknown as any other
            if stored is None or not mine(stored["owner"], owner, game_id):
                raise ApiError(404, f"no game {game_id!r}")
            return remember(Table.restore(game_id, stored["seed"], players, stored["deals"],
                                          stored["version"], owner))
        if not mine(table.owner, owner, game_id):
            raise ApiError(404, f"no game {game_id!r}")
        table.owner = owner
        live.move_to_end(game_id)
        return table

    def mine(game_owner: str | None, owner: str, game_id: str) -> bool:
        """Whether a game owned by `game_owner` is `owner`'s; a game from before owners
        becomes theirs here when `claim_unowned` allows (and nobody claimed it first)."""
        if game_owner == owner:
            return True
        return game_owner is None and claim_unowned and store.claim(game_id, owner)

    async def body(request: Request) -> dict:
        """The request's JSON object ({} when empty); 400 for anything else."""
        raw = await request.body()
        if not raw.strip():
            return {}
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise ApiError(400, f"malformed JSON: {str(exc).splitlines()[0]}") from None
        if not isinstance(data, dict):
            raise ApiError(400, "the request body must be a JSON object")
        return data

    # --- routes ---------------------------------------------------------------------
    def api(path: str, method: str = "GET"):
        """Register the coroutine `handler(request, data)` for `method path`, `data` being the
        request's JSON object (POST) or {} (GET). Plain Starlette routes: the handlers read
        their own parameters, and FastAPI's per-request parameter machinery cost a tenth of a
        move's server time. A handler that reads or changes a game does it in the game's turn
        (`in_turn`); one that asks the bots goes through the pool (`pool.run`)."""
        def register(handler):
            async def endpoint(request: Request):
                request.scope[ROUTE_KEY] = path  # the metrics' label (`web.metrics`)
                data = await body(request) if method == "POST" else {}
                return await handler(request, data)

            app.add_route(path, endpoint, methods=[method], name=handler.__name__)
            app.state.api_routes.append((method, path))
            return handler
        return register

    def in_turn(request: Request):
        """The turn of the game named in the request's path (`BotPool.turn`)."""
        return pool.turn(request.path_params["game_id"])

    the_page = build_page(STATIC, adapter.load("page"))

    @app.get("/", include_in_schema=False)
    async def page():
        """The page (built once, when the app is made)."""
        return Response(the_page, media_type="text/html; charset=utf-8")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/healthz", include_in_schema=False)
    async def healthz():
        """Alive: answered on the loop at once, whatever the bots are doing."""
        return reply({"status": "ok", "backlog": pool.backlog, "workers": pool.workers})

    @app.get("/metrics", include_in_schema=False)
    async def metrics_page():
        """The server's metrics in the Prometheus text format (`web.metrics`)."""
        data, content_type = metrics.exposition()
        return Response(data, media_type=content_type)

    @api("/api/config")
    async def config(_request: Request, _data: dict):
        """The bots' name and the page's pace."""
        return reply({"bots": players.name, "delay_ms": int(delay_ms)})

    @api("/api/games")
    async def list_games(request: Request, _data: dict):
        """The caller's recent games, newest first."""
        return reply({"games": store.games(request.scope["owner"], claim_unowned,
                                           game=adapter.name)})

    @api("/api/games", "POST")
    async def new_game(request: Request, data: dict):
        """Start a game (seed optional); the bots play until South's turn (on a worker)."""
        owner = request.scope["owner"]
        unknown = set(data) - {"seed"}
        if unknown:
            raise ApiError(400, f"unknown field {sorted(unknown)[0]!r}: a new game takes "
                                "only an optional \"seed\"")
        seed = data.get("seed")
        if seed is None:
            seed = secrets.randbelow(MAX_SEED)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise ApiError(400, f"bad seed {seed!r}: expected an integer 0..2**63-1")

        def deal(game_id: str):
            """On a worker: the game dealt, the bots' moves until South's turn, stored."""
            table, events = Table.new(game_id, seed, players, owner)
            payload = _dumps({"game": game_id, "seed": seed, "events": events,
                              "view": table.view()})
            store.create(table)
            return table, payload

        async def job():
            wait = starts.allow(owner)  # counted only once admitted: a 503 starts nothing
            if wait is not None:
                raise ApiError(429, f"at most {starts.per_minute} new games a minute: try "
                                    f"again in {math.ceil(wait)} s",
                               {"Retry-After": str(math.ceil(wait))})
            table, payload = await pool.offload(deal, secrets.token_hex(16))
            remember(table)
            return Response(payload, status_code=201, media_type="application/json")

        return await pool.run(None, job)

    @api("/api/games/{game_id}")
    async def get_game(request: Request, _data: dict):
        """A game's view from South (after the moves of the game in progress)."""
        async with in_turn(request):
            table = game(request)
            return reply({"game": table.id, "view": table.view()})

    @api("/api/games/{game_id}/moves", "POST")
    async def move(request: Request, data: dict):
        """South's move and the bots' replies (on a worker), saved before the reply."""
        if "move" not in data:
            raise ApiError(400, 'the body needs a "move", e.g. {"move": "AS", "version": 3}')
        unknown = set(data) - {"move", "version", "seat"}
        if unknown:
            raise ApiError(400, f"unknown field {sorted(unknown)[0]!r}: a move takes "
                                "\"move\", \"version\" and \"seat\"")
        version = data.get("version")
        if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
            raise ApiError(400, f"bad version {version!r}: expected an integer")

        def play(table):
            """On a worker: the move, the bots' replies and their saving; the reply's body."""
            from_version, first_deal = table.version, len(table.records) - 1
            events = table.play(data["move"], version=version, seat=data.get("seat"))
            payload = _dumps({"events": events, "view": table.view()})
            store.save(table, from_version, first_deal)
            return payload

        async def job():
            table = game(request)
            try:
                payload = await pool.offload(play, table)
            except TableError:
                raise  # refused before anything changed
            except StoreConflict:
                live.pop(table.id, None)  # another writer won: its state is the file's
                raise Conflict(f"game {table.id} was changed elsewhere: reload it") from None
            except Exception:
                live.pop(table.id, None)  # a bot failed, or the save: the file's state is the
                raise  # game's
            return Response(payload, media_type="application/json")

        return await pool.run(request.path_params["game_id"], job)

    @api("/api/games/{game_id}/hint")
    async def hint(request: Request, _data: dict):
        """What the bots would play for South now, and why (on a worker)."""
        async def job():
            return reply(await pool.offload(game(request).hint))

        return await pool.run(request.path_params["game_id"], job)

    @api("/api/games/{game_id}/replay")
    async def replay(request: Request, _data: dict):
        """A finished game: its seed, score and each deal as `replay` input."""
        async with in_turn(request):
            table = game(request)
            game_id = table.id
            if table.status != "over":
                raise ApiError(409, f"game {game_id} is not over: its deals are downloadable "
                                    "once it is")
            return reply(table.replay())

    @api("/api/games/{game_id}/deals/{number}/replay")
    async def replay_deal(request: Request, _data: dict):
        """One finished deal as `setback-cfr replay` input."""
        game_id, text = request.path_params["game_id"], request.path_params["number"]
        if not (text.isascii() and text.isdigit()):
            raise ApiError(400, f"bad deal number {text!r}: expected 0, 1, 2, ...")
        async with in_turn(request):
            table, number = game(request), int(text)
            if not number < len(table.records) or table.records[number].result is None:
                raise ApiError(404, f"game {game_id} has no finished deal {number}")
            return reply(table.records[number].replay_spec())

    if adapter.decide:
        decision = adapter.load("decide")

        @api("/api/decide", "POST")
        async def decide(_request: Request, data: dict):
            """The bots' move for one seat's position (replay JSON with that seat's hand
            only), its probabilities per abstract action and the Hint panel's explanation
            (read and decided on a worker)."""
            async def job():
                return reply(await pool.offload(decision, players, data))

            return await pool.run(None, job)

    # --- the API described ----------------------------------------------------------
    described = _dumps(openapi_document(app.state.api_routes, players.name,
                                         adapter.load("api"), adapter.decide))

    @app.get("/openapi.json", include_in_schema=False)
    async def openapi():
        """The OpenAPI document of the API (built once, when the app is made)."""
        return Response(described, media_type="application/json")

    @app.get("/docs", include_in_schema=False)
    async def docs():
        """The API's documentation page (Swagger UI, served from this server)."""
        if SWAGGER is None:
            raise ApiError(404, "the API page needs the web extra's fastapi-offline: pip install "
                                "-e '.[web]' (the document itself is at /openapi.json)")
        return FileResponse(os.path.join(STATIC, "docs.html"))

    if SWAGGER is not None:
        app.mount("/docs/assets", StaticFiles(directory=SWAGGER), name="docs-assets")

    return app


def _swagger_assets() -> str | None:
    """The folder of Swagger UI's script and style sheet (package fastapi-offline), or None."""
    try:
        import fastapi_offline
    except ImportError:
        return None
    folder = os.path.join(os.path.dirname(fastapi_offline.__file__), "static")
    return folder if os.path.isfile(os.path.join(folder, "swagger-ui-bundle.js")) else None


SWAGGER = _swagger_assets()
