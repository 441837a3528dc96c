"""What `setback-cfr serve` measures, in the Prometheus text format at `/metrics`
(prometheus_client; a registry per application, so two servers in one process, as in the
tests, keep their own counts).

    setback_web_requests_total{method, route, status}        requests answered
    setback_web_request_seconds{method, route}               their latency (histogram)
    setback_web_shed_total{route}                            503s: the backlog was full
    setback_web_backlog                                      requests admitted to the bots
    setback_web_bot_workers                                  the pool's threads
    setback_web_bot_wait_seconds                             a job's wait for a free worker
    setback_web_bot_job_seconds                              a job's time on a worker
    setback_web_bot_decision_seconds                         one bot decision

`route` is the route's template (`/api/games/{game_id}/moves`), never the path itself: a
label per game would grow without bound. `Metrics` is a plain ASGI middleware (as
`web.guard.Guard`), outermost, so it counts every reply, the Guard's 413s included.
"""

from __future__ import annotations

import time

from prometheus_client import (CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge,
                               Histogram, generate_latest)

from games.registry import PROGRAM_WORD

# Seconds: a cheap request takes a millisecond, a move of search bots a tenth of a second,
# a shed-free backlog up to a second.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                   10.0)


PREFIX = PROGRAM_WORD  # every metric name's first word: the program's
ROUTE_KEY = f"{PREFIX}.route"  # where an API route writes its template in the request's scope


def route_template(scope) -> str:
    """The template of the route that served `scope` ("unmatched" if none did): the one the
    API route wrote under `ROUTE_KEY`, else the one the router recorded, else the mount's
    (the static files: its root path)."""
    mount = scope.get("root_path") if "endpoint" in scope else None
    return (scope.get(ROUTE_KEY) or getattr(scope.get("route"), "path", None) or mount
            or "unmatched")


class ServerMetrics:
    """The metrics of one application, in their own registry."""

    def __init__(self):
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.requests = Counter(f"{PREFIX}_web_requests", "HTTP requests answered",
                                ("method", "route", "status"), registry=r)
        self.latency = Histogram(f"{PREFIX}_web_request_seconds",
                                 "HTTP request latency, from its start to its reply's last byte",
                                 ("method", "route"), buckets=LATENCY_BUCKETS, registry=r)
        self.shed = Counter(f"{PREFIX}_web_shed", "requests answered 503: the bots' backlog was "
                            "full", ("route",), registry=r)
        self.backlog = Gauge(f"{PREFIX}_web_backlog", "requests admitted to the bot pool and not "
                             "yet answered", registry=r)
        self.workers = Gauge(f"{PREFIX}_web_bot_workers", "the bot pool's threads", registry=r)
        self.wait = Histogram(f"{PREFIX}_web_bot_wait_seconds", "a job's wait for a free bot "
                              "worker", buckets=LATENCY_BUCKETS, registry=r)
        self.job = Histogram(f"{PREFIX}_web_bot_job_seconds", "a job's time on a bot worker (a "
                             "move and the bots' replies, a hint, a decision)",
                             buckets=LATENCY_BUCKETS, registry=r)
        self.decision = Histogram(f"{PREFIX}_web_bot_decision_seconds", "one bot decision",
                                  buckets=LATENCY_BUCKETS, registry=r)

    def watch_pool(self, pool) -> None:
        """Read the pool's backlog and workers when scraped; time its jobs."""
        self.backlog.set_function(lambda: pool.backlog)
        self.workers.set(pool.workers)

        def on_job(wait: float, seconds: float) -> None:
            self.wait.observe(wait)
            self.job.observe(seconds)

        pool.on_job = on_job

    def exposition(self) -> tuple[bytes, str]:
        """(body, content type) of the `/metrics` reply."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST


class TimedBots:
    """A game's bots (`web.bots.Bots`) whose every decision is timed into `histogram`; the
    tables and `/api/decide` see the same `decide`, `spec` and `name`."""

    def __init__(self, bots, histogram):
        self.bots = bots
        self.spec = bots.spec
        self.name = bots.name
        self.histogram = histogram

    def ready(self) -> None:
        """The bots' `ready`: this thread's player made."""
        self.bots.ready()

    def decide(self, view, seed: int):
        """The bots' `decide`, timed."""
        started = time.perf_counter()
        try:
            return self.bots.decide(view, seed)
        finally:
            self.histogram.observe(time.perf_counter() - started)


class Metrics:
    """ASGI middleware counting and timing every HTTP request into `metrics`
    (`ServerMetrics`), by method, route template and status."""

    def __init__(self, app, metrics: ServerMetrics):
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = [500]  # what a crash before any reply is counted as

        async def send_counted(message):
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_counted)
        finally:
            template = route_template(scope)
            method = scope.get("method", "")
            self.metrics.requests.labels(method, template, str(status[0])).inc()
            self.metrics.latency.labels(method, template).observe(
                time.perf_counter() - started)
