"""The OpenAPI 3.1 document of `setback-cfr serve`'s API, served at `/openapi.json` (and shown
by Swagger UI at `/docs`).

Written here by hand rather than derived by FastAPI: the routes are plain Starlette routes
(FastAPI's per-request parameter machinery cost a tenth of a move's server time), so FastAPI
knows nothing of them. The document is built once when the app is made, from the routes the
app registered (`document(routes)`): a route without an entry here, or an entry without its
route, is an error at start-up (and in `tests/test_web_owners.py`), so the two cannot drift.
What is a game's own (its name and target, its moves' words, a deal's replay input, a
position's example) is its declaration's `API` (games/<game>/table_view.py); the words here
hold `<title>`, `<target>`, `<moves>` and `<replay>` in their place.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from games.registry import PROGRAM
from web.guard import COOKIE

ERROR = {"$ref": "#/components/responses/Error"}
GAME_ID = {"name": "game_id", "in": "path", "required": True,
           "description": "the game's ID (32 hex digits: 128 random bits)",
           "schema": {"type": "string"}}


def _json(schema: dict, description: str, example=None) -> dict:
    content = {"schema": schema}
    if example is not None:
        content["example"] = example
    return {"description": description, "content": {"application/json": content}}


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


OPERATIONS = {
    ("GET", "/api/config"): {
        "summary": "The server's bots and the page's pace",
        "responses": {"200": _json({"type": "object", "properties": {
            "bots": {"type": "string"}, "delay_ms": {"type": "integer"}}}, "the settings")},
    },
    ("GET", "/api/games"): {
        "summary": "The caller's recent games, newest first",
        "description": "Only the games the caller's owner cookie started (and, on a server "
                       "that lets them be claimed, games from before owners existed).",
        "responses": {"200": _json({"type": "object", "properties": {
            "games": {"type": "array", "items": _ref("GameSummary")}}}, "up to 50 games")},
    },
    ("POST", "/api/games"): {
        "summary": "Start a game",
        "description": "A game to <target> with the caller at South; the bots play until it is "
                       "South's turn. An owner may start a limited number of games a minute.",
        "requestBody": {"required": False, "content": {"application/json": {"schema": {
            "type": "object", "additionalProperties": False, "properties": {
                "seed": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1,
                         "description": "the game's seed (default: random)"}}}}}},
        "responses": {"201": _json({"type": "object", "properties": {
            "game": {"type": "string"}, "seed": {"type": "integer"},
            "events": {"type": "array", "items": _ref("Event")},
            "view": _ref("View")}}, "the new game, the bots' first moves and South's view"),
            "400": ERROR, "413": ERROR,
            "429": {"description": "too many new games this minute (see Retry-After)",
                    "headers": {"Retry-After": {"schema": {"type": "integer"}}},
                    "content": {"application/json": {"schema": _ref("Error")}}}},
    },
    ("GET", "/api/games/{game_id}"): {
        "summary": "A game's view from South",
        "parameters": [GAME_ID],
        "responses": {"200": _json({"type": "object", "properties": {
            "game": {"type": "string"}, "view": _ref("View")}}, "the game"),
            "404": ERROR},
    },
    ("POST", "/api/games/{game_id}/moves"): {
        "summary": "South's move; the bots reply",
        "description": "Saved before the reply. A stale `version` (another tab) gets 409.",
        "parameters": [GAME_ID],
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "required": ["move"], "additionalProperties": False,
            "properties": {
                "move": {"type": "string", "description": "<moves>"},
                "version": {"type": "integer", "description": "the view's version the move "
                                                              "was made from"},
                "seat": {"type": "string", "description": "S if given"}}},
            "example": {"move": "AS", "version": 3}}}},
        "responses": {"200": _json({"type": "object", "properties": {
            "events": {"type": "array", "items": _ref("Event")}, "view": _ref("View")}},
            "what happened up to South's next decision"),
            "400": ERROR, "404": ERROR, "409": ERROR, "413": ERROR, "422": ERROR},
    },
    ("GET", "/api/games/{game_id}/hint"): {
        "summary": "What the bots would play for South now, and why",
        "parameters": [GAME_ID],
        "responses": {"200": _json(_ref("Explanation"), "the bots' explanation"),
                      "404": ERROR, "409": ERROR},
    },
    ("GET", "/api/games/{game_id}/replay"): {
        "summary": "A finished game: its seed, score and each deal as replay input",
        "parameters": [GAME_ID],
        "responses": {"200": _json({"type": "object", "properties": {
            "game": {"type": "string"}, "seed": {"type": "integer"},
            "bots": {"type": "string"}, "status": {"type": "string"},
            "winner": {"type": ["string", "null"]}, "score": _ref("Score"),
            "deals": {"type": "array", "items": _ref("Deal")}}}, "the game"),
            "404": ERROR, "409": ERROR},
    },
    ("GET", "/api/games/{game_id}/deals/{number}/replay"): {
        "summary": "One finished deal as `<replay>` input",
        "parameters": [GAME_ID, {"name": "number", "in": "path", "required": True,
                                 "description": "the deal's number, from 0",
                                 "schema": {"type": "integer", "minimum": 0}}],
        "responses": {"200": _json(_ref("Deal"), "the deal"),
                      "400": ERROR, "404": ERROR},
    },
    ("POST", "/api/decide"): {
        "summary": "The bots' move for one seat's position",
        "description": "For programs (a card room, a chat bot, another engine): the position "
                       "is the replay JSON of the deal so far with only the hand of the seat "
                       "to act, as dealt. The answer is the move of the server's bots, its "
                       "probability per abstract action (null for rule-based bots or a key "
                       "the strategy lacks) and the explanation the page's Hint panel "
                       "shows. A position that hides the acting seat's hand, shows another "
                       "seat's, or that no deal can reach is refused with 422. Needs no "
                       "cookie; the same position always gets the same answer.",
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": _ref("Position")}}},
        "responses": {"200": _json(_ref("Decision"), "the decision"),
                      "400": ERROR, "413": ERROR, "422": ERROR},
    },
}

def _position(words: str, size: int, score: str, moves: str, setup=()) -> dict:
    """The schema of a `/api/decide` position: the seat to act's `size` (`words`) cards as
    dealt, the moves (`moves` says what they are), the optional game score (`score`), the
    cards of the game's `setup` beside the hands (a card turned up)."""
    return {
        "type": "object", "required": ["dealer", *setup, "hands", "moves"],
        "additionalProperties": False,
        "properties": {
            "dealer": SEAT, **{name: CARD for name in setup},
            "score": {"allOf": [_ref("Score")], "description": score},
            "hands": {"type": "object", "minProperties": 1, "maxProperties": 1,
                      "description": f"the seat to act's {words} cards as dealt; no other hand",
                      "additionalProperties": {"type": "array", "items": CARD,
                                               "minItems": size, "maxItems": size}},
            "moves": {"type": "array", "items": {"type": "string"}, "description": moves}}}


CARD = {"type": "string", "description": "rank then suit: AS, TH, 9C", "pattern":
        "^([2-9TJQKA]|10)[CDHS]$"}
SEAT = {"type": "string", "enum": ["W", "N", "E", "S"]}
SCHEMAS = {
    "Error": {"type": "object", "required": ["error"], "additionalProperties": False,
              "properties": {"error": {"type": "string", "description": "one line"}}},
    "Score": {"type": "object", "required": ["EW", "NS"],
              "properties": {"EW": {"type": "integer"}, "NS": {"type": "integer"}}},
    "Action": {"type": "object", "properties": {
        "action": {"type": "string", "description": "the abstract action"},
        "move": {"type": "string", "description": "the card or bid it plays"},
        "prob": {"type": ["number", "null"]}}},
    "Explanation": {
        "type": "object", "description": "what the bot saw and chose (the Hint panel)",
        "properties": {
            "player": {"type": "string"}, "move": {"type": "string"},
            "reason": {"type": "string", "enum": ["found", "fallback", "forced", "rules"]},
            "kind": {"type": ["string", "null"]}, "key": {"type": ["string", "null"]},
            "found": {"type": ["boolean", "null"]},
            "lookups": {"type": "array", "items": {"type": "object"}},
            "actions": {"type": "array", "items": _ref("Action")},
            "chosen": {"type": ["integer", "null"]}}},
    "Decision": {
        "type": "object", "required": ["seat", "move", "legal", "probabilities",
                                       "explanation"],
        "properties": {
            "seat": SEAT, "move": {"type": "string"},
            "legal": {"type": "array", "items": {"type": "string"}},
            "probabilities": {"type": "object",
                              "additionalProperties": {"type": ["number", "null"]}},
            "explanation": _ref("Explanation")}},
    "GameSummary": {"type": "object", "properties": {
        "id": {"type": "string"}, "status": {"type": "string", "enum": ["playing", "over"]},
        "winner": {"type": ["string", "null"]}, "bots": {"type": "string"},
        "score": _ref("Score"), "deals": {"type": "integer"},
        "created": {"type": "integer"}, "updated": {"type": "integer"}}},
    "View": {"type": "object", "description": "everything South may see of the game",
             "properties": {
                 "game": {"type": "string"}, "version": {"type": "integer"},
                 "status": {"type": "string"}, "score": _ref("Score"),
                 "deal": {"type": "integer"}, "dealer": SEAT,
                 "phase": {"type": ["string", "null"]}, "to_act": {"type": ["string", "null"]},
                 "hand": {"type": "array", "items": CARD},
                 "legal": {"type": "array", "items": {"type": "string"}}}},
    "Event": {"type": "object", "properties": {
        "type": {"type": "string", "enum": ["move", "deal", "deal_over", "game_over"]},
        "view": _ref("View")}},
}


def _deal(api: dict) -> dict:
    """The schema of a game's deal as replay input (`api["deal"]`: its noun, hand size, the
    setup beside the hands, whether it carries the score before it, its moves' words)."""
    deal = api["deal"]
    properties = {"dealer": SEAT, **({"score": _ref("Score")} if deal["score"] else {}),
                  **{name: CARD for name in deal["setup"]},
                  "hands": {"type": "object", "additionalProperties": {
                      "type": "array", "items": CARD, "minItems": deal["size"],
                      "maxItems": deal["size"]}},
                  "moves": {"type": "array", "items": {"type": "string"},
                            **({"description": deal["moves"]} if deal["moves"] else {})}}
    return {"type": "object", "description": f"a {deal['noun']} as `{api['replay']}` input",
            "required": ["dealer", "hands", *deal["setup"], "moves"], "properties": properties}


def document(routes, bots: str, api: dict, deciding: bool) -> dict:
    """The OpenAPI document for the API routes `routes` ((method, path) pairs, as registered)
    of a server of the game whose declaration's `API` is `api` (`deciding`: it answers
    `/api/decide`); raises ValueError if a route is undocumented or a documented one is
    missing (`/api/decide` is documented for the games that offer it only)."""
    routes = set(routes)
    documented = {op: _reworded(entry, api) for op, entry in OPERATIONS.items()
                  if op[1] != "/api/decide" or deciding}
    schemas = {**SCHEMAS, "Deal": _deal(api)}
    if deciding:
        position = api["position"]
        schemas["Position"] = _position(position["words"], api["deal"]["size"],
                                        position["score"], position["moves"],
                                        api["deal"]["setup"])
        documented["POST", "/api/decide"]["requestBody"]["content"]["application/json"][
            "example"] = position["example"]
    missing, extra = routes - set(documented), set(documented) - routes
    if missing or extra:
        raise ValueError(f"the OpenAPI document and the routes differ: undocumented "
                         f"{sorted(missing)}, documented but absent {sorted(extra)}")
    paths: dict = {}
    for method, path in sorted(routes, key=lambda r: (r[1], r[0])):
        tag = {"/api/decide": "bots", "/api/config": "server"}.get(path, "games")
        paths.setdefault(path, {})[method.lower()] = {"tags": [tag], **documented[method, path]}
    try:
        release = version(PROGRAM)
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        release = "0"
    return {
        "openapi": "3.1.0",
        "info": {"title": PROGRAM, "version": release,
                 "description": f"Play {api['title']} against trained bots"
                                + (", and ask them for a decision" if deciding else "")
                                + f". This server's bots: {bots}. Each browser's games "
                                f"belong to the owner token in its HttpOnly `{COOKIE}` "
                                "cookie, given on its first request. Every refusal is a 4xx "
                                "with one line of JSON, {\"error\": \"...\"}."},
        "paths": paths,
        "tags": [{"name": "bots", "description": "one decision, for other programs"},
                 {"name": "games", "description": "the page's games: the caller's own"},
                 {"name": "server", "description": "the server's settings"}],
        "components": {
            "schemas": schemas,
            "responses": {"Error": _json(_ref("Error"), "refused, with one line")}},
    }


def _reworded(entry: dict, api: dict) -> dict:
    """`entry` with the game's words in place of `<title>`, `<target>`, `<moves>` and
    `<replay>` (`api`)."""
    import json

    text = json.dumps(entry)  # a copy: OPERATIONS keeps its places
    for name in ("title", "target", "moves", "replay"):
        text = text.replace(f"<{name}>", json.dumps(api[name])[1:-1])
    return json.loads(text)
