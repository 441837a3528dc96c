"""Random positions for `POST /api/decide`, shared by tests/test_decide.py and
bench/web_load.py: random deals played by random legal moves to a random decision, seen from
the seat to act (its hand as dealt, nothing else)."""

from __future__ import annotations

import random

from games.setback.api import Deal, parse_move


def random_positions(n: int, seed: int, score: dict | None = None) -> list[tuple]:
    """`n` (position, deal, history): the position as the seat to act sends it, the real deal
    at that point and its moves as engine moves. `score`: every position's game score (default:
    a random one each, from -6 to 10)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        dealer = rng.choice("WNES")
        deal = Deal.random(rng.randrange(2**32), dealer=dealer)
        dealt = {seat: deal.hand(seat) for seat in "WNES"}
        history, stop = [], rng.randrange(34)
        while not deal.is_over and len(history) < stop:
            move = rng.choice(deal.legal_moves())
            history.append(parse_move(move, deal.phase))
            deal.play(move)
        if deal.is_over:
            continue
        position = {"dealer": dealer,
                    "score": dict(score) if score is not None else
                    {"EW": rng.randrange(-6, 11), "NS": rng.randrange(-6, 11)},
                    "hands": {deal.to_act: dealt[deal.to_act]}, "moves": list(deal.moves)}
        out.append((position, deal, history))
    return out


def assert_refused(look, client, spec, message: str, tmp_path, capsys, *options) -> None:
    """`spec` is refused in one line holding `message` by the reader of the game declared by
    `look` (`PositionError`), by the server of `client` (422, `{"error"}`) and by `decide FILE
    *options` (exit status 2, nothing printed)."""
    import json

    import pytest

    from cli_runner import run_cli
    from web.position import PositionError, position_view

    with pytest.raises(PositionError) as caught:
        position_view(spec, look)
    assert message in str(caught.value) and "\n" not in str(caught.value)
    r = client.post("/api/decide", json=spec)
    assert r.status_code == 422 and list(r.json()) == ["error"], r.text
    assert message in r.json()["error"] and "\n" not in r.text
    path = tmp_path / "p.json"
    path.write_text(json.dumps(spec))
    status, out, err = run_cli(capsys, ["decide", path, *options])
    assert status == 2 and out == "" and err.count("\n") == 1 and message in err
