"""What every request of `setback-cfr serve` passes through before a route sees it.

`Guard` is a plain ASGI middleware (a Starlette `BaseHTTPMiddleware` costs a task and a
stream per request; this costs a scan of the request's few headers):

- **The owner**: a browser's games belong to the random token in its `setback_owner` cookie
  (256 bits, HttpOnly, SameSite=Strict, a year long). A request without a valid one is given a
  new token, in `scope["owner"]` for the route and in a `Set-Cookie` on the reply, so its first
  request already makes it an owner.
- **Body size**: a body over `MAX_BODY` bytes is refused with 413 before it is read whole: at
  once from its Content-Length, or, for a chunked body, as soon as the bytes read pass the
  limit (what was read is then handed to the route as the body).
- **Headers on every reply**: a Content-Security-Policy allowing scripts, styles, images and
  requests from the page's own origin only (no inline script, no eval, no other origin, no
  framing), `X-Content-Type-Options: nosniff` and `Referrer-Policy: same-origin`.

`StartLimit` counts the games each owner started in the last minute (429 beyond the limit).
"""

from __future__ import annotations

import re
import secrets
import time
from collections import deque

from games.registry import PROGRAM_WORD

COOKIE = f"{PROGRAM_WORD}_owner"
COOKIE_AGE = 365 * 24 * 3600
MAX_BODY = 64 * 1024
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; "
       "form-action 'self'; frame-ancestors 'none'")
_TOKEN = re.compile(rb"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32)
_COOKIE_PREFIX = COOKIE.encode() + b"="
_SECURITY_HEADERS = [(b"content-security-policy", CSP.encode()),
                     (b"x-content-type-options", b"nosniff"),
                     (b"referrer-policy", b"same-origin")]
_TOO_LARGE = (b'{"error":"the request body is over %d KiB: a request of this API is a few '
              b'hundred bytes"}' % (MAX_BODY // 1024))


def new_owner() -> str:
    """A fresh owner token: 256 random bits, URL-safe text."""
    return secrets.token_urlsafe(32)


def owner_from_cookie(header: bytes) -> str | None:
    """The valid owner token in a Cookie header's value, or None."""
    for part in header.split(b";"):
        part = part.strip()
        if part.startswith(_COOKIE_PREFIX):
            value = part[len(_COOKIE_PREFIX):]
            if _TOKEN.fullmatch(value):
                return value.decode()
    return None


class Guard:
    """The ASGI middleware described in the module docstring, around `app`."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        owner, length, chunked = None, None, False
        for name, value in scope["headers"]:
            if name == b"cookie":
                owner = owner or owner_from_cookie(value)
            elif name == b"content-length":
                length = int(value) if value.isdigit() else None
            elif name == b"transfer-encoding":
                chunked = True
        fresh = owner is None
        if fresh:
            owner = new_owner()
        scope["owner"] = owner
        cookie = (f"{COOKIE}={owner}; Path=/; Max-Age={COOKIE_AGE}; HttpOnly; "
                  "SameSite=Strict").encode() if fresh else None

        async def send_guarded(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ())) + _SECURITY_HEADERS
                if cookie is not None:
                    headers.append((b"set-cookie", cookie))
                message["headers"] = headers
            await send(message)

        if length is not None and length > MAX_BODY:
            await _refuse_too_large(send_guarded)
            return
        if chunked and length is None:
            receive = await _bounded_body(receive)
            if receive is None:
                await _refuse_too_large(send_guarded)
                return
        await self.app(scope, receive, send_guarded)


async def _bounded_body(receive):
    """Read a chunked body up to `MAX_BODY` bytes: a `receive` that hands it on, or None once
    it passes the limit (the rest is never read)."""
    messages, size = [], 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        size += len(message.get("body", b""))
        if size > MAX_BODY:
            return None
        if not message.get("more_body", False):
            break
    queue = deque(messages)

    async def replay():
        return queue.popleft() if queue else await receive()

    return replay


async def _refuse_too_large(send) -> None:
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(_TOO_LARGE)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": _TOO_LARGE})


class StartLimit:
    """At most `per_minute` new games per owner in any 60 seconds (`allow(owner)`)."""

    WINDOW = 60.0

    def __init__(self, per_minute: int, clock=time.monotonic):
        if int(per_minute) < 1:
            raise ValueError(f"games a minute must be at least 1, not {per_minute}")
        self.per_minute = int(per_minute)
        self.clock = clock
        self._starts: dict[str, deque] = {}
        self._swept = clock()

    def allow(self, owner: str) -> float | None:
        """None if `owner` may start a game now (counted), else the seconds until it may."""
        now = self.clock()
        if now - self._swept > self.WINDOW:  # forget the owners quiet for a minute
            self._starts = {o: q for o, q in self._starts.items() if now - q[-1] < self.WINDOW}
            self._swept = now
        starts = self._starts.setdefault(owner, deque())
        while starts and now - starts[0] >= self.WINDOW:
            starts.popleft()
        if len(starts) >= self.per_minute:
            return self.WINDOW - (now - starts[0])
        starts.append(now)
        return None
