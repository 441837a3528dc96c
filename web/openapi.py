"""The OpenAPI 3.1 document of `setback-cfr serve`'s API, served at `/openapi.json` (and shown
by Swagger UI at `/docs`).

Written here by hand rather than derived by FastAPI: the routes are plain Starlette routes
(FastAPI's per-request parameter machinery cost a tenth of a move's server time), so FastAPI
knows nothing of them. The document is built once when the app is made, from the routes the
app registered (`document(routes)`): a route without an entry here, or an entry without its
route, is an error at start-up (and in `tests/test_web_owners.py`), so the two cannot drift.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

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


POSITION_EXAMPLE = {
    "dealer": "S", "score": {"EW": 9, "NS": 8},
    "hands": {"E": ["AH", "TS", "6H", "2C", "JD", "QS"]},
    "moves": ["3", "P", "P", "P", "AS", "4S"],
}

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
        "description": "A game to 11 with the caller at South; the bots play until it is "
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
                "move": {"type": "string", "description": "a card (AS, TH, 10H) or a bid "
                                                          "(P, 2, 3, 4)"},
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
        "summary": "One finished deal as `setback-cfr replay` input",
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
            "schema": _ref("Position"), "example": POSITION_EXAMPLE}}},
        "responses": {"200": _json(_ref("Decision"), "the decision"),
                      "400": ERROR, "413": ERROR, "422": ERROR},
    },
}

def _position(words: str, size: int, score: str, moves: str) -> dict:
    """The schema of a `/api/decide` position: the seat to act's `size` (`words`) cards as
    dealt, the moves (`moves` says what they are), the optional game score (`score`)."""
    return {
        "type": "object", "required": ["dealer", "hands", "moves"],
        "additionalProperties": False,
        "properties": {
            "dealer": SEAT,
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
    "Deal": {
        "type": "object", "description": "a deal as `setback-cfr replay` input",
        "required": ["dealer", "hands", "moves"],
        "properties": {"dealer": SEAT, "score": _ref("Score"),
                       "hands": {"type": "object", "additionalProperties": {
                           "type": "array", "items": CARD, "minItems": 6, "maxItems": 6}},
                       "moves": {"type": "array", "items": {"type": "string"}}}},
    "Position": _position("six", 6, "the game score before this deal (default 0-0)",
                          "the bids (P, 2, 3, 4) then the cards, in order"),
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


SPADES_MOVES = "the bids (Nil, 1..13) then the cards, in order"
GAME_WORDS = {"setback": ("Setback", "11"), "euchre": ("Euchre", "10"),
              "spades": ("Spades", "500")}  # title, target
DECIDING_GAMES = ("setback", "spades")  # the games whose server answers POST /api/decide
# What differs in another game's document beyond its title and target: its moves' words and
# its deal's replay input.
GAME_MOVES = {"euchre": "a card (JD, 9H, 10S), P (pass), a suit letter C, D, H or S (order up "
                        "the upcard's suit, or name trump), alone or partner",
              "spades": "a card (TS, 2C, 10H) or a bid (Nil, 1..13)"}
# A game's example position for /api/decide (Setback's is OPERATIONS' own).
GAME_POSITIONS = {"spades": {
    "dealer": "S", "score": {"NS": 120, "EW": -35},
    "hands": {"E": ["AS", "KS", "9S", "4S", "AH", "QH", "7H", "3H", "KD", "8D", "2D", "JC",
                    "5C"]},
    "moves": ["3", "Nil"]}}  # West and North have bid: East to act
GAME_SCHEMAS = {"euchre": {"Deal": {
    "type": "object", "description": "a hand as `setback-cfr replay --game euchre` input",
    "required": ["dealer", "hands", "upcard", "moves"],
    "properties": {"dealer": SEAT, "upcard": CARD,
                   "hands": {"type": "object", "additionalProperties": {
                       "type": "array", "items": CARD, "minItems": 5, "maxItems": 5}},
                   "moves": {"type": "array", "items": {"type": "string"},
                             "description": "the calls (P, suit letters), the dealer's discard, "
                                            "alone or partner, then the cards, in order"}}}},
                "spades": {"Deal": {
    "type": "object", "description": "a hand as `setback-cfr replay --game spades` input",
    "required": ["dealer", "hands", "moves"],
    "properties": {"dealer": SEAT, "score": _ref("Score"),
                   "hands": {"type": "object", "additionalProperties": {
                       "type": "array", "items": CARD, "minItems": 13, "maxItems": 13}},
                   "moves": {"type": "array", "items": {"type": "string"},
                             "description": SPADES_MOVES}}},
    "Position": _position("13", 13, "the game score before this hand (default 0-0): the bags "
                          "are its last digit", SPADES_MOVES)}}


def document(routes, bots: str = "", game: str = "setback") -> dict:
    """The OpenAPI document for the API routes `routes` ((method, path) pairs, as registered)
    of a server of `game`; raises ValueError if a route is undocumented or a documented one is
    missing (`/api/decide` is documented for the games that offer it only)."""
    routes = set(routes)
    documented = {op: entry for op, entry in OPERATIONS.items()
                  if op[1] != "/api/decide" or game in DECIDING_GAMES}
    title, target = GAME_WORDS.get(game, (game, "its target"))
    if game != "setback":  # the words of another game's table
        documented = {op: _reworded(entry, title, target, GAME_MOVES.get(game))
                      for op, entry in documented.items()}
    if game in GAME_POSITIONS and ("POST", "/api/decide") in documented:
        documented["POST", "/api/decide"]["requestBody"]["content"]["application/json"][
            "example"] = GAME_POSITIONS[game]
    missing, extra = routes - set(documented), set(documented) - routes
    if missing or extra:
        raise ValueError(f"the OpenAPI document and the routes differ: undocumented "
                         f"{sorted(missing)}, documented but absent {sorted(extra)}")
    paths: dict = {}
    for method, path in sorted(routes, key=lambda r: (r[1], r[0])):
        tag = {"/api/decide": "bots", "/api/config": "server"}.get(path, "games")
        paths.setdefault(path, {})[method.lower()] = {"tags": [tag], **documented[method, path]}
    try:
        release = version("setback-cfr")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        release = "0"
    return {
        "openapi": "3.1.0",
        "info": {"title": "setback-cfr", "version": release,
                 "description": f"Play {title} against trained bots"
                                + (", and ask them for a decision" if game in DECIDING_GAMES
                                   else "") + f". This server's bots: {bots}. Each browser's games "
                                "belong to the owner token in its HttpOnly `setback_owner` "
                                "cookie, given on its first request. Every refusal is a 4xx "
                                "with one line of JSON, {\"error\": \"...\"}."},
        "paths": paths,
        "tags": [{"name": "bots", "description": "one decision, for other programs"},
                 {"name": "games", "description": "the page's games: the caller's own"},
                 {"name": "server", "description": "the server's settings"}],
        "components": {
            "schemas": {**SCHEMAS, **GAME_SCHEMAS.get(game, {})},
            "responses": {"Error": _json(_ref("Error"), "refused, with one line")}},
    }


def _reworded(entry: dict, title: str, target: str, moves: str | None) -> dict:
    """`entry` with Setback's words (the game to 11, `setback-cfr replay`, its moves) in
    another game's: its title and target, `replay --game` and `moves` (when given)."""
    import json

    entry = json.loads(json.dumps(entry))  # a copy: OPERATIONS stays Setback's
    body = entry.get("requestBody", {}).get("content", {}).get("application/json", {})
    move = body.get("schema", {}).get("properties", {}).get("move")
    if moves is not None and move is not None:
        move["description"] = moves
    text = json.dumps(entry)
    for old, new in (("game to 11", f"game to {target}"), ("Setback", title),
                     ("setback-cfr replay", f"setback-cfr replay --game {title.lower()}")):
        text = text.replace(old, new)
    return json.loads(text)
