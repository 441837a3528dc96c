"""`/metrics` and `/healthz` (issue 48): the Prometheus text format as prometheus_client's own
parser reads it, counting exactly the requests made (by route template, never by game ID), the
bots' decisions and the pool's jobs; each server its own registry; /healthz cheap and plain."""

import pytest

pytest.importorskip("fastapi")
from prometheus_client.parser import text_string_to_metric_families  # noqa: E402

from web_helpers import client, new_game, seeded_person  # noqa: E402


def samples(c) -> dict:
    """{(sample name, sorted labels): value} of the server's /metrics."""
    r = c.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(r.text) for s in family.samples}


def test_metrics_count_the_requests_the_decisions_and_the_jobs(tmp_path):
    with client(tmp_path / "g.db") as c:
        start = new_game(c, 3)
        game, view = start["game"], start["view"]
        person, replies = seeded_person(3), [start]
        for _ in range(4):
            assert c.get(f"/api/games/{game}/hint").status_code == 200
            r = c.post(f"/api/games/{game}/moves", json={"move": person(view),
                                                         "version": view["version"]})
            replies.append(r.json())
            view = r.json()["view"]
        assert c.post(f"/api/games/{game}/moves", json={"move": "nonsense"}).status_code == 422
        assert c.get("/nowhere").status_code == 404
        health = c.get("/healthz")
        got = samples(c)
    assert health.json() == {"status": "ok", "backlog": 0, "workers": got[
        ("setback_web_bot_workers", ())]}

    def requests(method, route, status):
        return got.get(("setback_web_requests_total", (("method", method), ("route", route),
                                                       ("status", status))), 0)

    moves = "/api/games/{game_id}/moves"
    assert requests("POST", "/api/games", "201") == 1
    assert requests("POST", moves, "200") == 4 and requests("POST", moves, "422") == 1
    assert requests("GET", "/api/games/{game_id}/hint", "200") == 4
    assert requests("GET", "unmatched", "404") == 1
    assert requests("GET", "/healthz", "200") == 1
    assert not any(game in str(key) for key in got)  # no label per game
    latency = got[("setback_web_request_seconds_count", (("method", "POST"), ("route", moves)))]
    assert latency == 5
    # Every bot move of the replies was one decision, and each hint one more.
    bot_moves = sum(1 for reply in replies for e in reply["events"]
                    if e["type"] == "move" and e["seat"] != "S")
    assert got[("setback_web_bot_decision_seconds_count", ())] == bot_moves + 4
    # Jobs on the pool: the new game, 4 hints, 4 moves and the refused one (refused there).
    assert got[("setback_web_bot_job_seconds_count", ())] == 10
    assert got[("setback_web_bot_wait_seconds_count", ())] == 10
    assert got[("setback_web_backlog", ())] == 0
    assert got.get(("setback_web_shed_total", (("route", moves),)), 0) == 0


def test_two_servers_in_one_process_keep_their_own_counts(tmp_path):
    with client(tmp_path / "a.db") as a, client(tmp_path / "b.db") as b:
        for _ in range(3):
            a.get("/healthz")
        b.get("/healthz")
        counted_a, counted_b = samples(a), samples(b)
    key = ("setback_web_requests_total", (("method", "GET"), ("route", "/healthz"),
                                          ("status", "200")))
    assert (counted_a[key], counted_b[key]) == (3, 1)
