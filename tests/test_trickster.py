"""The Trickster Cards bots host (`play/trickster_host.py`, `play/trickster_host/*.cs`) and its
players, tested offline against a tiny C# bot of our own (`tests/trickster_tiny_bot.cs`) built
with the same host classes: the host's inputs on hand-made positions, view-only inputs, the
options read back from the running bot, illegal, crashed, silent and garbage-answering bots,
and the one-line refusals (no Mono, no checkout, a bot that does not compile)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from games.setback import state as S
from games.setback.cards import parse_hand
from games.setback.rules import BID_MOVE, apply_move
from games.setback.view import SeatView
from play import trickster_host as host
from games.setback.play import trickster as pitch
from games.spades.play import trickster as spades

TINY = Path(__file__).resolve().parent / "trickster_tiny_bot.cs"
HAVE_MONO = bool(shutil.which("mcs") and shutil.which("mono"))
# CI installs Mono (.ci/run): there the tests must run, never skip.
needs_mono = pytest.mark.skipif(not HAVE_MONO and not os.environ.get("CI"),
                                reason="Mono (mcs, mono) is not installed")


@pytest.fixture(scope="module")
def tiny_exe(tmp_path_factory):
    """The host compiled with the tiny bot."""
    return host.compile_host([TINY], tmp_path_factory.mktemp("tiny") / "tiny.exe")


def tiny_pitch(exe, timeout=5.0):
    return pitch.TricksterPitchPlayer(exe, "Trickster.Bots.TinyPitchBot", timeout=timeout,
                                      name="tiny:pitch")


def tiny_spades(exe, timeout=5.0):
    return spades.TricksterSpadesPlayer(exe, "Trickster.Bots.TinySpadesBot", timeout=timeout,
                                        name="tiny:spades")


def setback_deal(hands_by_rel, moves, dealer=3, score=(0, 0)):
    """A Setback state from the hands (text, by seat relative to the dealer) after `moves`
    (bids as ints 0/2/3/4, cards as text), and the view of the seat to act."""
    state = np.zeros(S.STATE_SIZE, dtype=np.int64)
    S.reset_deal(state, np.array([parse_hand(h.split()) for h in hands_by_rel],
                                 dtype=np.int64))
    history = []
    for move in moves:
        m = BID_MOVE + move if isinstance(move, int) else parse_hand([move]).bit_length() - 1
        apply_move(state, m)
        history.append(m)
    return state, SeatView.of(state, dealer, score, history)


# dealer 0, left 1, partner 2, right 3 (relative); dealer South: 0=S 1=W 2=N 3=E
HANDS = ["AH KH 2C 3C 4D 5D", "QH 2H 7S 8S 9C TC", "JH 3H 4S 5S 6C 7C", "TH 4H 9D TD JD QD"]


def test_desugar_wide_tuples_writes_one_declaration_a_name():
    source = ("var (a, b, c, d, e, f, g, h) = (new X(this, s.p), s.t, s.l, s.c, s.pl, "
              "s.i && !r, s.ct, s.tt);\nvar (x, y) = (1, 2);")
    out = host.desugar_wide_tuples(source)
    assert out.startswith("var a = new X(this, s.p); var b = s.t;")
    assert "var f = s.i && !r;" in out and "var h = s.tt;" in out
    assert out.endswith("var (x, y) = (1, 2);")  # seven or fewer: left to mcs


def test_bot_inputs_come_from_the_seats_view_only():
    """Two deals that agree on a seat's view (its hand and every move) but not on the hidden
    hands give the bot identical inputs: in the auction (West, first to bid) and in play
    (South, after West pitched QH and North and East followed)."""
    west_acts = [HANDS[0], HANDS[1], "JH 3H 9D TD 6C 7C", "TH 4H 4S 5S JD QD"]
    south_acts = [HANDS[0], "QH 2H 9D TD 9C TC", HANDS[2], "TH 4H 7S 8S JD QD"]
    for moves, phase, swapped in (([], "bid", west_acts),
                                  ([2, 0, 0, 0, "QH", "JH", "TH"], "card", south_acts)):
        state_a, view_a = setback_deal(HANDS, moves)
        state_b, view_b = setback_deal(swapped, moves)
        assert not np.array_equal(state_a, state_b)  # the deals differ...
        assert pitch.bot_state(view_a, phase) == pitch.bot_state(view_b, phase)  # ...not the inputs


@needs_mono
def test_the_running_bot_is_given_identical_states_for_such_deals(tiny_exe):
    """The same, read back from the host: the state objects the bot receives are equal."""
    moves = [2, 0, 0, 0, "QH", "JH", "TH"]
    south_acts = [HANDS[0], "QH 2H 9D TD 9C TC", HANDS[2], "TH 4H 7S 8S JD QD"]
    player = tiny_pitch(tiny_exe)
    try:
        seen = [player.process.ask({"op": "inspect", "kind": "card",
                                    "state": pitch.bot_state(setback_deal(h, moves)[1], "card")},
                                   "test")["state"] for h in (HANDS, south_acts)]
    finally:
        player.close()
    assert seen[0] == seen[1]
    assert [p["Hand"] for p in seen[0]["players"]] == ["0U" * 5, "0U" * 5, "0U" * 5,
                                                       "2C3C4D5DKHAH"]


@needs_mono
def test_host_fills_void_trick_winner_and_legal_cards(tiny_exe):
    """On a hand-made position the host gives the bot what it expects: East failed to follow
    clubs (a void), the trick's winner so far and its seat, the legal cards, the others'
    hands as unknown cards."""
    # West bids 2 and pitches QH, North JH, East TH, South AH (South wins); South leads 2C,
    # West TC, North 7C, East 9D (void in clubs, no trump: West wins); West leads 2H, North
    # 3H, and East is to play.
    moves = [2, 0, 0, 0, "QH", "JH", "TH", "AH", "2C", "TC", "7C", "9D", "2H", "3H"]
    _, view = setback_deal(HANDS, moves)
    player = tiny_pitch(tiny_exe)
    try:
        inputs = pitch.bot_state(view, "card")
        answer = player.process.ask({"op": "inspect", "kind": "card", "state": inputs}, "test")
    finally:
        player.close()
    seen = answer["state"]
    by_seat = {p["Seat"]: p for p in seen["players"]}
    east, west, north, south = 2, 0, 1, 3
    assert seen["player"]["Seat"] == east
    assert by_seat[east]["VoidSuits"] == ["Clubs"]
    assert all(by_seat[s]["VoidSuits"] == [] for s in (west, north, south))
    assert seen["trick"] == ["2H", "3H"]
    assert seen["cardTakingTrick"] == "3H" and seen["trickTaker"]["Seat"] == north
    assert seen["isPartnerTakingTrick"] is False
    assert seen["legalCards"] == ["4H"]  # holds trump, trump led: must follow
    assert seen["trumpSuit"] == "Hearts"
    assert by_seat[west]["Hand"] == "0U" * 3 and by_seat[south]["Hand"] == "0U" * 4
    assert by_seat[east]["Hand"] == "TDJDQD4H"  # by suit C D H S, then rank
    assert seen["cardsPlayed"] == ["QH", "JH", "TH", "AH", "2C", "TC", "7C", "9D"]
    assert by_seat[west]["Bid"] == pitch.PITCHING + 20 + 3  # pitched 2 in hearts (Suit 3)
    assert by_seat[north]["Bid"] == pitch.NOT_PITCHING
    assert by_seat[west]["CardsTaken"] == "2CTC7C9D" and by_seat[south]["HandScore"] == 1


@needs_mono
def test_options_are_read_back_from_the_running_bot(tiny_exe):
    state, view = setback_deal(HANDS, [])
    player = tiny_pitch(tiny_exe)
    try:
        assert player.choose(view) == BID_MOVE + 2  # the tiny bot bids the lowest offered
        seen = player.seen_options
    finally:
        player.close()
    for name, value in pitch.OPTIONS.items():
        assert seen[name] == value, name
    assert seen["gameCode"] == "Pitch"
    sp = tiny_spades(tiny_exe)
    try:
        from games.spades.match import play_game

        play_game({"W": sp, "E": sp, "N": spades_heuristic(), "S": spades_heuristic()}, 5,
                  max_hands=1)
        seen = sp.seen_options
    finally:
        sp.close()
    for name, value in spades.OPTIONS.items():
        assert seen[name] == value, name
    assert seen["BagsThreshold"] == 10


def spades_heuristic():
    from games.spades.play.heuristic import SpadesHeuristicPlayer

    return SpadesHeuristicPlayer()


@needs_mono
def test_tiny_bots_play_whole_games_through_the_tournament_loop(tiny_exe):
    from games.setback.play.heuristic import HeuristicPlayer
    from play.tournament import run_tournament

    player = tiny_pitch(tiny_exe)
    try:
        rows = run_tournament([player, HeuristicPlayer()], 2, seed=1, duplicate=True,
                              progress=False)
        assert len(rows) == 4
        sp = tiny_spades(tiny_exe)
        rows = run_tournament([sp, spades_heuristic()], 2, seed=1, duplicate=True,
                              progress=False, game="spades", hands=True)
        assert len(rows) == 4
        assert player.process.decisions > 0 and sp.process.decisions > 0
    finally:
        player.close()
        sp.close()


def _first_card_decision(exe, mode, monkeypatch, timeout=5.0):
    """Ask the tiny bot in TINY_BOT_MODE `mode` for West's first card; the exception and the
    seconds it took."""
    monkeypatch.setenv("TINY_BOT_MODE", mode)
    _, view = setback_deal(HANDS, [2, 0, 0, 0])
    player = tiny_pitch(exe, timeout=timeout)
    started = time.monotonic()
    try:
        with pytest.raises(host.TricksterBotError) as caught:
            player.choose(view)
    finally:
        player.close()
    return caught.value, time.monotonic() - started


@needs_mono
def test_an_illegal_suggestion_stops_with_the_position_and_inputs(tiny_exe, monkeypatch):
    from games.setback.errors import SetbackError

    error, _ = _first_card_decision(tiny_exe, "illegal", monkeypatch)
    text = str(error)
    assert isinstance(error, SetbackError)  # the command line's one-line report, status 2
    assert "\n" not in text and "illegal at W trick 1 []" in text
    assert "its inputs: {" in text and '"legalCards":["9C","TC"]' in text  # it pitched clubs


@needs_mono
@pytest.mark.parametrize("mode, words", [("crash", "exit status 3"),
                                         ("hang", "did not answer within 1 s"),
                                         ("garbage", "answered garbage 'this is not json'"),
                                         ("throw", "tiny bot gives up")])
def test_a_failing_bot_ends_the_match_in_one_line_in_time(tiny_exe, monkeypatch, mode, words):
    error, seconds = _first_card_decision(tiny_exe, mode, monkeypatch, timeout=1.0)
    text = str(error)
    assert "\n" not in text and words in text, text
    assert "tiny:pitch" in text and "at W trick 1 []" in text
    assert seconds < 10


@needs_mono
def test_a_failing_bot_stops_a_forked_tournament(tiny_exe, monkeypatch):
    from games.setback.play.heuristic import HeuristicPlayer
    from play.tournament import run_tournament

    monkeypatch.setenv("TINY_BOT_MODE", "crash")
    player = tiny_pitch(tiny_exe, timeout=2.0)
    started = time.monotonic()
    with pytest.raises(host.TricksterBotError, match="process ended without an answer"):
        run_tournament([player, HeuristicPlayer()], 4, seed=1, workers=2, chunk=1,
                       progress=False)
    assert time.monotonic() - started < 30


def test_setup_errors_are_one_line_saying_what_to_do(monkeypatch, tmp_path):
    from play.player_spec import PlayerSpecError, make_player

    monkeypatch.delenv("TRICKSTER_BOTS", raising=False)
    monkeypatch.setattr(host.shutil, "which", lambda name: f"/usr/bin/{name}")
    with pytest.raises(PlayerSpecError, match="TRICKSTER_BOTS is not set: clone"):
        make_player("trickster:pitch")
    monkeypatch.setenv("TRICKSTER_BOTS", str(tmp_path))
    with pytest.raises(PlayerSpecError, match="holds no TricksterBots/Bots/BaseBot.cs"):
        make_player("trickster:pitch")
    with pytest.raises(PlayerSpecError, match="trickster:pitch"):
        make_player("trickster:euchre")
    monkeypatch.setattr(host.shutil, "which", lambda name: None)
    with pytest.raises(PlayerSpecError, match="mcs is not installed: install Mono"):
        make_player("trickster:pitch")
    from games.euchre.play.tournament import EuchreSpecError, make_euchre_player

    with pytest.raises(EuchreSpecError, match="does not compile with Mono's mcs"):
        make_euchre_player("trickster:euchre")
    from games.spades.play.tournament import SpadesSpecError, make_spades_player

    with pytest.raises(SpadesSpecError, match="mcs is not installed"):
        make_spades_player("trickster:spades")


@needs_mono
def test_a_bot_that_does_not_compile_is_refused_in_one_line(tmp_path, monkeypatch):
    bots = tmp_path / "TricksterBots" / "Bots"
    (bots / "Pitch").mkdir(parents=True)
    (bots / "BaseBot.cs").write_text("namespace Trickster.Bots { class Broken { int x = } }\n")
    (bots / "PlayersCollectionBase.cs").write_text("")
    (bots / "Pitch" / "PitchBot.cs").write_text("")
    monkeypatch.setenv("TRICKSTER_BOTS", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with pytest.raises(host.TricksterSetupError) as caught:
        host.built_host(pitch.BOT)
    text = str(caught.value)
    assert "\n" not in text and "does not compile with mcs" in text and "BaseBot.cs" in text


@needs_mono
def test_the_build_is_cached_per_checkout(tmp_path, monkeypatch):
    bots = tmp_path / "TricksterBots" / "Bots"
    (bots / "Pitch").mkdir(parents=True)
    (bots / "BaseBot.cs").write_text("namespace Trickster.Bots { public class B { } }\n")
    (bots / "PlayersCollectionBase.cs").write_text("")
    (bots / "Pitch" / "PitchBot.cs").write_text(TINY.read_text())
    monkeypatch.setenv("TRICKSTER_BOTS", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    exe = host.built_host(pitch.BOT)
    stamp = exe.stat().st_mtime_ns
    assert host.built_host(pitch.BOT) == exe and exe.stat().st_mtime_ns == stamp
    assert exe.is_relative_to(tmp_path / "cache" / "setback-cfr" / "trickster")
    (bots / "BaseBot.cs").write_text("namespace Trickster.Bots { public class C { } }\n")
    assert host.built_host(pitch.BOT) != exe  # another checkout: another build


def test_the_command_line_refuses_without_a_checkout_in_one_line():
    env = {k: v for k, v in os.environ.items() if k != "TRICKSTER_BOTS"}
    result = subprocess.run([sys.executable, "-m", "cli.main", "tournament", "--ew",
                             "trickster:pitch", "--ns", "heuristic", "--games", "1",
                             "--no-progress"], capture_output=True, text=True, env=env,
                            cwd=Path(__file__).resolve().parent.parent)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "TRICKSTER_BOTS is not set" in lines[0], result.stderr


def test_spades_inputs_name_who_played_what_and_who_took_it():
    from games.spades import state as SS
    from games.spades.match import play_game

    seen = []

    class Recorder:
        name = "recorder"

        def __init__(self):
            self.inner = spades_heuristic()

        def choose(self, view):
            seen.append(view)
            return self.inner.choose(view)

    play_game({s: Recorder() for s in "WNES"}, 11, max_hands=1)
    view = next(v for v in seen if int(v.state[SS.TRICK_NUMBER]) == 3
                and int(v.state[SS.N_IN_TRICK]) == 2)
    inputs = spades.bot_state(view, "card")
    assert len(inputs["cardsPlayed"]) == 12 and len(inputs["trick"]) == 2
    assert sum(len(p["playedCards"]) for p in inputs["players"]) == 14
    assert sum(len(p["cardsTaken"]) for p in inputs["players"]) == 12 * 2
    assert sum(p["handScore"] for p in inputs["players"]) == 3
    me = inputs["seat"]
    assert [p["hand"].count("0U") for p in inputs["players"] if p["seat"] != me] != []
    assert json.dumps(inputs)  # plain JSON
