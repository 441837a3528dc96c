"""`POST /api/decide` and `setback-cfr decide --game euchre`: one seat's Euchre position (the
upcard, the seat's five cards as dealt, the moves it saw, the dealer's discard written "?" for
every other seat) reads back as the `SeatView` a real table gives that seat, at every phase
and from every seat, and gets the move the bot itself makes from that view (the heuristic, a
policy network, a search); a position no deal reaches, or one showing what the seat cannot
see, is refused in one line (422 from the server, exit status 2 from the command)."""

import json
import random

import numpy as np
import pytest

from decide_positions import assert_refused
from games.euchre import state as S
from games.euchre import table_view as EUCHRE
from games.euchre.api import Hand, format_move
from games.euchre.view import HIDDEN, SeatView
from play.player_spec import make_player
from test_distill_euchre import _write_net
from web.game_tables import web_game
from web.position import PositionError, decision, position_view
from web.position_checks import decision_reply

pytest.importorskip("fastapi")
from cli_runner import run_cli  # noqa: E402
from web_helpers import client  # noqa: E402

Bots = web_game("euchre").load("bots")  # Euchre's bots class (web.bots.bots_for)
PHASES = {"order", "name", "discard", "alone", "lead", "follow"}


def random_positions(n: int, seed: int) -> list[tuple]:
    """`n` (position, hand): random Euchre hands played by random legal moves (a call passes
    seven times in ten, so the second round and the stuck dealer come up) to a random
    decision, sent as the seat to act sees it, beside the real hand at that point."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        dealer = rng.choice("WNES")
        hand = Hand.random(rng.randrange(2**32), dealer)
        dealt = {seat: hand.hand(seat) for seat in "WNES"}
        discard = None  # the index of the dealer's discard among the moves
        for _ in range(rng.randrange(30)):
            if hand.is_over:
                break
            legal = hand.legal_moves()
            if hand.phase == "discard":
                discard = len(hand.moves)
            passing = hand.phase in ("order", "name") and "P" in legal and rng.random() < 0.7
            hand.play("P" if passing else rng.choice(legal))
        if hand.is_over:
            continue
        seat, moves = hand.to_act, list(hand.moves)
        if discard is not None and seat != dealer:
            moves[discard] = "?"
        position = {"dealer": dealer, "upcard": hand.upcard,
                    "score": {"NS": rng.randrange(10), "EW": rng.randrange(10)},
                    "hands": {seat: dealt[seat]}, "moves": moves}
        out.append((position, hand))
    return out


def true_view(position, hand):
    """The view the seat to act gets at a real table at that point of `hand`."""
    score = position["score"]
    return SeatView.of(hand.state, hand.dealer, (score["EW"], score["NS"]), hand.history)


def test_every_position_reads_back_as_the_seats_real_view():
    seen, hidden, shown, alone = set(), 0, 0, 0
    for position, hand in random_positions(600, 1):
        view, seat = position_view(position, EUCHRE)
        real = true_view(position, hand)
        assert seat == hand.to_act
        assert np.array_equal(view.state, real.state), position
        assert view.history == real.history and view.seat == real.seat
        assert view.dealer == real.dealer and view.score == real.score
        assert view.legal_moves().tolist() == real.legal_moves().tolist()
        seen.add((hand.phase, view.seat))  # the seat relative to the dealer
        hidden += HIDDEN in view.history  # the dealer's discard, unseen
        shown += bool(real.state[S.DISCARD] >= 0)  # the dealer's discard, seen by the dealer
        alone += hand.alone is True
    assert {phase for phase, _ in seen} == PHASES
    assert {seat for phase, seat in seen if phase in ("lead", "follow", "order", "name")} \
        == {0, 1, 2, 3}
    assert hidden > 20 and shown > 5 and alone > 20


@pytest.fixture(scope="module")
def euchre_net(tmp_path_factory):
    """An untrained Euchre policy network file (`net:`)."""
    from games.euchre.search import net as features

    return _write_net(tmp_path_factory.mktemp("net") / "euchre.net", features)


@pytest.mark.parametrize("spec", ["heuristic", "net"])
def test_the_decision_is_the_bots_own_choice_from_the_real_view(spec, euchre_net):
    spec = f"net:{euchre_net}" if spec == "net" else spec
    bots, player = Bots(spec), make_player(spec, game="euchre")
    for position, hand in random_positions(150, 2):
        got = decision(bots, position, EUCHRE)
        real = true_view(position, hand)
        assert got["seat"] == hand.to_act and got["legal"] == hand.legal_moves()
        assert got["move"] == format_move(player.choose(real)), position
        assert got["explanation"]["move"] == got["move"]


def test_a_search_decides_as_from_the_real_view(euchre_net):
    """A search (seeded from the position) gives the answer it gives from the real view."""
    bots = Bots(f"search[worlds=4]:net:{euchre_net}")
    for position, hand in random_positions(6, 3):
        real = true_view(position, hand)
        assert decision(bots, position, EUCHRE) == \
            decision_reply(bots, real, hand.to_act, format_move)


# West and North pass, East orders hearts up, South (the dealer) picks the ten up and discards;
# East plays with its partner; West leads the ace of spades, North plays the king: East acts.
HAND_E = ["9C", "JD", "AD", "JS", "QS"]
HAND_S = ["9D", "TD", "QD", "KD", "AH"]  # a hand South may have been dealt
ORDERED = ["P", "P", "H", "?", "partner"]
NO_BOWER = ["9C", "TC", "AD", "JS", "QS"]  # East without the left bower (nor a heart)


def euchre(moves, hands=None, **fields):
    """A position of the hand dealt by South, upcard TH, East holding `HAND_E`."""
    return {"dealer": "S", "upcard": "TH", "hands": {"E": HAND_E} if hands is None else hands,
            "moves": moves, **fields}


BAD_POSITIONS = {
    "no upcard": ({"dealer": "S", "hands": {"E": HAND_E}, "moves": []},
                  "the position has no 'upcard'"),
    "a bad upcard": (euchre([], upcard="ZZ"), "upcard: bad card 'ZZ'"),
    "an upcard not a card": (euchre([], upcard=7), '"upcard" must be the card turned up'),
    "the upcard in the hand shown": (euchre([], upcard="JD"),
                                     "duplicate card JD (the upcard is in the hand shown"),
    "the discard shown to another seat": (euchre(["P", "P", "H", "9D"]),
                                          "S's discard is seen by S alone: write \"?\""),
    "the dealer's own discard hidden": (
        euchre(["P", "P", "H", "?"], {"S": HAND_S}), "S sees its own discard: give it"),
    "the dealer discards the upcard": (euchre(["P", "P", "H", "TH"], {"S": HAND_S}),
                                       "illegal move TH for S (discard); legal: 9D TD QD KD AH"),
    "the dealer discards a card it lacks": (euchre(["P", "P", "H", "AS"], {"S": HAND_S}),
                                            "illegal move AS for S (discard)"),
    "the ordered-up upcard played by another seat": (euchre(ORDERED + ["TH"]),
                                                     "TH is known to be in S's hand"),
    "the turned-down upcard played": (euchre(["P"] * 4 + ["C", "partner", "TH"]),
                                      "TH is in no hand: it is out of play"),
    "a card of the seat's own played by another": (euchre(ORDERED + ["AD"]),
                                                   "AD is in E's own hand"),
    "the stuck dealer passes": (euchre(["P"] * 7 + ["P"]),
                                "illegal move P for S (name); legal: C D S"),
    "an order-up of another suit": (euchre(["D"]), "illegal move D for W (order); legal: P H"),
    "a card before trump is named": (euchre(["9S"]), "bad move '9S' in the order phase"),
    "the partner of a lone maker shows its hand": (
        euchre(["P"] * 4 + ["C", "alone"]), "shows E's hand, but W is to act"),
    "the left bower after showing no trump": (
        euchre(ORDERED + ["AH", "9S", "QS", "KH", "9D", "JD"], {"E": NO_BOWER}),
        "move 10 ('JD'): N showed earlier that it holds no hearts"),
    "a score past the game": (euchre([], score={"NS": 10, "EW": 0}), '"score" must look like'),
    "an unknown field": (euchre([], trump="H"),
                         'unknown field \'trump\': a position has "dealer", "upcard", "hands"'),
    "a hand of four": (euchre([], {"E": HAND_E[:4]}), "a hand must hold 5 cards"),
}


@pytest.fixture(scope="module")
def decide_client(tmp_path_factory):
    """One Euchre app for the refusals (none changes anything)."""
    with client(tmp_path_factory.mktemp("decide") / "g.db", game="euchre") as c:
        yield c


@pytest.mark.parametrize("name", list(BAD_POSITIONS))
def test_bad_positions_are_refused_in_one_line(name, decide_client, tmp_path, capsys):
    spec, message = BAD_POSITIONS[name]
    assert_refused(EUCHRE, decide_client, spec, message, tmp_path, capsys, "--game", "euchre")


def test_the_left_bower_follows_trump_in_the_void_checks():
    """Hearts trump: North shows it has no diamonds, yet the jack of diamonds (the left bower,
    a heart now) is still North's to play; a printed diamond is not (and the jack is not once
    North shows no hearts: `BAD_POSITIONS`)."""
    trick = ORDERED + ["KD", "9S", "AD", "QH", "TH", "9H"]  # South trumps, leads the upcard
    view, seat = position_view(euchre(trick + ["JD"], {"E": NO_BOWER}), EUCHRE)
    assert seat == "E" and [format_move(m) for m in view.legal_moves()] == ["9C", "TC", "JS",
                                                                           "QS"]
    with pytest.raises(PositionError, match="move 11 .'TD'.: N showed earlier that it holds "
                                            "no diamonds"):
        position_view(euchre(trick + ["TD"], {"E": NO_BOWER}), EUCHRE)


def test_the_server_and_the_command_answer_a_euchre_position(tmp_path, capsys):
    positions = random_positions(12, 4)
    bots = Bots("heuristic")
    with client(tmp_path / "g.db", game="euchre") as c:
        answers = [c.post("/api/decide", json=p) for p, _ in positions]
        doc = c.get("/openapi.json").json()
        example = doc["paths"]["/api/decide"]["post"]["requestBody"]["content"][
            "application/json"]["example"]
        documented = c.post("/api/decide", json=example)
        refused = c.post("/api/decide", json=euchre(ORDERED + ["TH"]))
        malformed = c.post("/api/decide", content=b"{oops")
    for r, (position, _) in zip(answers, positions):
        assert r.status_code == 200, r.text
        assert r.json() == json.loads(json.dumps(decision(bots, position, EUCHRE)))
    assert documented.status_code == 200, documented.text
    assert documented.json()["seat"] == "E" and documented.json()["legal"] == ["JC", "TS"]
    assert example["upcard"] == "AS" and "?" in example["moves"]  # the left bower follows
    schema = doc["components"]["schemas"]["Position"]
    assert "upcard" in schema["required"] and "upcard" in schema["properties"]
    assert refused.status_code == 422 and list(refused.json()) == ["error"]
    assert "TH is known to be in S's hand" in refused.json()["error"] and "\n" not in refused.text
    assert malformed.status_code == 400

    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(example))
    bad.write_text(json.dumps(euchre(["P", "P", "H", "9D"])))
    status, out, err = run_cli(capsys, ["decide", good, "--game", "euchre"])
    assert status == 0 and err == ""
    assert json.loads(out) == documented.json()
    status, out, err = run_cli(capsys, ["decide", bad, "--game", "euchre", "--bots", "heuristic"])
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "S's discard is seen by S alone" in err
    status, out, err = run_cli(capsys, ["decide", good, "--game", "euchre", "--bots", "chess"])
    assert status == 2 and out == "" and err.count("\n") == 1
