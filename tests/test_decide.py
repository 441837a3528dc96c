"""`POST /api/decide` and `setback-cfr decide`: one seat's position (replay JSON with only its
hand) gets the move `DatabasePlayer` makes in that seat's place in the real deal, with the same
probabilities and explanation; a position that hides the seat's own hand, shows another's, or
that no deal reaches is refused with one line (422 / status 2)."""

import json
import random

import numpy as np
import pytest

import decide_positions
from games.setback.db.player import DatabasePlayer
from games.setback import table_view as SETBACK
from games.setback.api import format_move
from games.setback.view import SeatView
from test_db_player import make_db
from web.game_tables import WEB_GAMES, web_game
from web.position import PositionError
from web.position import decision as any_decision
from web.position import position_view as any_position_view

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from cli_runner import run_cli  # noqa: E402
from web.app import create_app  # noqa: E402

SCORE = {"EW": 7, "NS": -2}
Bots = web_game("setback").load("bots")  # Setback's bots class (web.bots.bots_for)


def position_view(spec):
    """The Setback reader's view of `spec` (`web.position`, driven by Setback's declaration)."""
    return any_position_view(spec, SETBACK)


def decision(bots, spec):
    """The Setback reader's decision for `spec`."""
    return any_decision(bots, spec, SETBACK)


def random_positions(n, seed):
    """`n` (position, deal, history) at the score `SCORE` (`decide_positions`)."""
    return decide_positions.random_positions(n, seed, SCORE)


def true_view(deal, history):
    """The view the seat to act gets in the real deal."""
    return SeatView.of(deal.state, deal.dealer, (SCORE["EW"], SCORE["NS"]), history)


@pytest.fixture(scope="module")
def trained_db(tmp_path_factory):
    """A database holding two thirds of the keys the random positions ask for (bootstrap and
    baseline), with random probabilities: found keys, missing keys and fallbacks all occur."""
    tmp = tmp_path_factory.mktemp("decide")
    probe = DatabasePlayer(make_db(tmp, {"0": [1.0, 0, 0, 0]},
                                   {"x./0/-1/0/zzzz": [1.0, 0, 0, 0]}, name="probe.db"))
    rng = np.random.default_rng(3)
    keys = {"baseline": {}, "bootstrap": {}}
    for _, deal, history in random_positions(300, 1):
        x = probe.explain(true_view(deal, history))
        for look in x["lookups"]:
            if rng.random() < 2 / 3:
                stage = "bootstrap" if look["kind"] == "bootstrap" else "baseline"
                n = len(x["actions"])
                keys[stage][look["key"]] = list(rng.dirichlet(np.ones(n)))
    probe.close()
    return make_db(tmp, keys["baseline"], keys["bootstrap"], name="trained.db")


def test_the_view_rebuilt_from_one_hand_is_the_real_seats_view():
    for spec, deal, history in random_positions(300, 2):
        view, seat = position_view(spec)
        real = true_view(deal, history)
        assert seat == deal.to_act
        assert view.seat == real.seat and view.dealer == real.dealer
        assert view.score == real.score and view.history == real.history
        a, b = view.state.copy(), real.state.copy()
        a[31] = b[31] = 0  # EXHAUSTED: a real view's flag depends on the hidden hands
        assert np.array_equal(a, b)


def test_decide_agrees_with_the_database_player_on_random_positions(trained_db, tmp_path):
    player = DatabasePlayer(trained_db)
    reasons = set()
    with TestClient(create_app(f"db:{trained_db}", str(tmp_path / "g.db"), delay_ms=0)) as c:
        for spec, deal, history in random_positions(250, 7):
            r = c.post("/api/decide", json=spec)
            assert r.status_code == 200, r.text
            got = r.json()
            x = player.explain(true_view(deal, history))
            assert got["seat"] == deal.to_act
            assert got["move"] == format_move(x["move"])
            assert got["legal"] == deal.legal_moves()
            probs = [a["prob"] for a in x["actions"]]
            assert list(got["probabilities"].values()) == probs
            assert list(got["probabilities"]) == [a["action"] for a in x["actions"]]
            assert got["explanation"]["key"] == x["key"]
            assert got["explanation"]["lookups"] == x["lookups"]
            assert got["explanation"]["reason"] == x["reason"]
            reasons.add(x["reason"])
    assert reasons == {"found", "fallback", "forced"}


def test_the_command_line_gives_the_apis_answer(trained_db, tmp_path, capsys):
    bots = Bots(f"db:{trained_db}")
    for i, (spec, _, _) in enumerate(random_positions(5, 11)):
        path = tmp_path / f"p{i}.json"
        path.write_text(json.dumps(spec))
        status, out, err = run_cli(capsys, ["decide", path, "--bots", f"db:{trained_db}"])
        assert status == 0, err
        assert json.loads(out) == json.loads(json.dumps(decision(bots, spec)))


def worked(**change):
    """The worked deal of abstraction.md up to East's decision, from East's side."""
    spec = {"dealer": "S", "score": {"EW": 9, "NS": 8},
            "hands": {"E": ["AH", "TS", "6H", "2C", "JD", "QS"]},
            "moves": ["3", "P", "P", "P", "AS", "4S"]}
    spec.update(change)
    return spec


BAD_POSITIONS = {
    "no hand at all": (worked(hands={}), "hides the hand of E"),
    "another seat's hand only": (worked(hands={"N": ["QH", "TH", "5D", "9C", "4S", "8C"]}),
                                 "shows N's hand, but E is to act"),
    "the seat's hand and another's": (
        worked(hands={"E": ["AH", "TS", "6H", "2C", "JD", "QS"],
                      "W": ["AS", "JS", "7S", "2S", "KH", "3D"]}), "shows 2 hands"),
    "a short hand": (worked(hands={"E": ["AH", "TS"]}), "hand E"),
    "a bad card": (worked(hands={"E": ["AH", "TS", "6H", "2C", "JD", "ZZ"]}), "bad card"),
    "an unknown seat": (worked(hands={"X": []}), "unknown seat"),
    "an illegal bid": (worked(moves=["3", "2"]), "illegal move 2"),
    "a card played twice": (worked(moves=["3", "P", "P", "P", "AS", "AS"]),
                            "AS was played already"),
    "the seat's own card played by another": (worked(moves=["3", "P", "P", "P", "AS", "QS"]),
                                              "in E's own hand"),
    "a suit shown void, played later": (
        worked(moves=["3", "P", "P", "P", "AS", "4S", "TS", "2H", "KS", "4C", "QS", "3S"]),
        "S showed earlier that it holds no spades"),
    "the deal is over": (worked(moves=["P", "P", "P", "P"]), "the deal is over"),
    "a move that is not a move": (worked(moves=["3", None]), "a move is a string"),
    "an unknown field": (worked(seat="E"), "unknown field 'seat'"),
    "a bad score": (worked(score={"EW": "x", "NS": 0}), '"score" must look like'),
    "no moves": ({"dealer": "S", "hands": {"W": []}}, "has no 'moves'"),
}


@pytest.mark.parametrize("name", list(BAD_POSITIONS))
def test_bad_positions_are_refused_in_one_line(name, tmp_path, capsys):
    spec, message = BAD_POSITIONS[name]
    with TestClient(create_app("heuristic", str(tmp_path / "g.db"), delay_ms=0)) as c:
        decide_positions.assert_refused(SETBACK, c, spec, message, tmp_path, capsys,
                                        "--bots", "heuristic")


def test_a_position_no_deal_fits_is_refused():
    """E holds 2D..7D. West shows it lacks spades (trump), clubs and hearts on the first three
    tricks, so its last cards must be diamonds; by trick 5 every other diamond is played, and
    no deal gives West its last card."""
    moves = ["P", "2", "P", "P", "AS", "2D", "2S", "8D", "AC", "3D", "2C", "9D",
             "AH", "4D", "2H", "TD", "JD", "5D", "QD", "KD", "AD", "3S"]
    spec = {"dealer": "S", "hands": {"E": ["2D", "3D", "4D", "5D", "6D", "7D"]}, "moves": moves}
    with pytest.raises(PositionError, match="no deal fits these moves"):
        position_view(spec)
    # N's JD lead leaves QD, KD and AD unseen: exactly West's three cards, a deal that fits.
    assert position_view(dict(spec, moves=moves[:17]))[1] == "E"


def test_the_layout_check_agrees_with_the_samplers_count():
    """`layout_exists` (Hall's condition) says yes exactly when `games.setback.search.sampler`
    counts at least one layout, on real positions given random voids (so that many have none)."""
    from games.setback import state as S
    from games.setback.search.sampler import log_layouts
    from web.position import layout_exists

    rng = random.Random(8)
    answers = set()
    for spec, deal, _ in random_positions(400, 9):
        if deal.phase == "bid":
            continue
        seat = int(deal.state[S.TO_ACT])
        for _ in range(5):
            state = deal.state.copy()
            state[S.SHOWN_VOIDS] = rng.getrandbits(16) & rng.getrandbits(16) & ~(0xF << 4 * seat)
            exists = layout_exists(state, seat, SETBACK.public)
            assert exists == bool(np.isfinite(log_layouts(state, seat, True))), spec
            answers.add(exists)
    assert answers == {True, False}


def test_malformed_requests_are_400(tmp_path):
    with TestClient(create_app("heuristic", str(tmp_path / "g.db"), delay_ms=0)) as c:
        assert c.post("/api/decide", content=b'{"dealer":').status_code == 400
        r = c.post("/api/decide", content=b"[1, 2]")
        assert r.status_code == 400 and "JSON object" in r.json()["error"]
        good = c.post("/api/decide", json=worked())
    assert good.status_code == 200
    assert good.json()["seat"] == "E" and good.json()["move"] in ("TS", "QS")
    assert good.json()["explanation"]["key"] == "...+0At4t..0TTTQ"


DECIDING = sorted(name for name, game in WEB_GAMES.items() if game.decide)


@pytest.mark.parametrize("name", DECIDING)
def test_every_games_position_reads_back_as_the_seats_real_view(name):
    """The one reader (`web.position`) over every game that answers positions: random hands
    played by random legal moves to a random point, sent as the seat to act would (its hand
    as dealt, the game's setup beside it, every move, "?" for one of a phase only its maker
    sees, `HIDDEN_PHASES`), give that seat's real view: the same legal moves and history, the
    same seat to act; and each move refused when it is another seat's card already played."""
    import importlib

    look = importlib.import_module(f"games.{name}.table_view")
    rng = random.Random(4)
    checked = 0
    for attempt in range(400):
        if attempt >= 60 and checked > 20:  # a short hand (Euchre's) ends more often
            break
        dealer = rng.choice("WNES")
        face = look.Face.random(rng.randrange(2**32), dealer)
        dealt = {seat: face.hand(seat) for seat in "WNES"}
        hidden = {}  # index -> seat of the moves only their maker sees
        for _ in range(rng.randrange(60)):
            if face.is_over:
                break
            if face.phase in look.HIDDEN_PHASES:
                hidden[len(face.moves)] = face.to_act
            face.play(rng.choice(face.legal_moves()))
        if face.is_over:
            continue
        seat = face.to_act
        moves = ["?" if hidden.get(i, seat) != seat else move for i, move in enumerate(face.moves)]
        spec = {"dealer": dealer, **(look.setup_of(face) or {}), "hands": {seat: dealt[seat]},
                "moves": moves}
        view, letter = any_position_view(spec, look)
        real = look.SeatView.of(face.state, face.dealer, (0, 0), face.history)
        assert letter == seat
        assert view.legal_moves().tolist() == real.legal_moves().tolist()
        assert list(view.history) == list(real.history)
        assert np.array_equal(view.state, real.state) or look.HIDDEN_FIELDS
        cards = [card for trick in face.tricks for card in trick.cards]  # played, in order
        if cards:  # a card played twice is refused, whoever plays it the second time
            with pytest.raises(PositionError, match="played already|illegal move"):
                any_position_view(dict(spec, moves=spec["moves"] + [cards[0]]), look)
        checked += 1
    assert checked > 20
