"""The card-location model (search/card_location.py on Setback's declaration,
games/setback/search/card_location.py; issue 47 part 2): the hard facts on its
probabilities, `world_log_weights` against a slow Python sum, the exact uniform marginals
against uniform draws, the model file refused in one line, a model trained a few seconds on a
game whose play reveals hidden cards beating uniform, and `learn belief` resuming bit for bit.

Positions come from short games of fast Python players (`generate_games`), so the tests need
no strategy table."""

from __future__ import annotations

import numpy as np
import pytest

from games.rng import new_rng
from games.setback import state as S
from games.setback.rules import BID_MOVE
from play.belief_data import (generate_games, parse_population, phase_of, split_by_deal)
from games.setback.search.card_location import GAME, N_CARDS, RECORD, public_record
from search.card_location import (HOLDERS, UNDEALT, CardLocationModel, ModelFileError,
                                  load_model, model_bytes, world_log_weights)
from search.card_location_training import (TrainingState, row_log_losses, train_epoch,
                                           uniform_log_loss, uniform_probs)
from games.setback.search.sampler import constraints, sample_worlds
from games.setback.search.worlds import consistent_worlds
from tests.cli_runner import run_cli


class LowFirst:
    """A player whose play gives its cards away: it follows suit whenever it can (never trumps
    instead) and plays the lowest rank it may, so once it has played a card of a suit it holds
    no lower card of that suit. Nobody bids but the dealer, who bids Two."""

    name = "low-first"

    def choose(self, view):
        legal = [int(m) for m in view.legal_moves()]
        if legal[0] >= BID_MOVE:
            return legal[1] if view.seat == 0 and len(legal) > 1 else legal[0]
        state = view.state
        if state[S.N_IN_TRICK] > 0:
            led = int(state[S.TRICK]) // 13
            follow = [c for c in legal if c // 13 == led]
            legal = follow or legal
        return min(legal, key=lambda c: (c % 13, c))


class RandomCards:
    """Uniformly random legal moves from its own seeded generator."""

    name = "random-cards"

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def choose(self, view):
        legal = view.legal_moves()
        return int(legal[self.rng.integers(legal.size)])


@pytest.fixture(scope="module")
def games():
    """Positions of 6 games of random players (many deals, every phase)."""
    return generate_games([(RandomCards(1), RandomCards(2))], seed=5, first=0, count=6)


def small_model(seed=0, fit=0):
    """An untrained network (random weights, random pair weights): the facts must hold
    whatever the weights."""
    state = TrainingState.create((16, 16), seed)
    state.pair[:] = np.random.default_rng(seed).normal(0, 2, state.pair.size)
    return CardLocationModel(state.mlp, state.pair, "setback", {}, fit)


@pytest.mark.parametrize("fit", [0, 20])
def test_probabilities_sum_to_one_over_the_seats_that_may_hold_each_card(games, fit):
    model = small_model(fit=fit)
    rows = np.linspace(0, games["seats"].size - 1, 300).astype(int)
    needs = np.zeros(3, np.int64)
    voids = np.zeros(3, np.int64)
    checked_void = checked_full = 0
    for i in rows:
        state, seat = games["states"][i], int(games["seats"][i])
        out = model.record_log_probs(state, seat, games["records"][i], games["tricks_won"][i])
        unseen = constraints(state, seat, True, needs, voids)
        p = np.exp(out)
        for card in range(N_CARDS):
            if not unseen >> card & 1:
                assert (out[card] == 0.0).all()  # seen cards add nothing to a world
                continue
            assert p[card].sum() == pytest.approx(1.0, abs=1e-12)
            assert p[card, UNDEALT] > 0
            for k in range(3):
                void = voids[k] >> (card // 13) & 1
                if void or needs[k] == 0:
                    assert p[card, k] == 0.0 and out[card, k] == -np.inf
                    checked_void += bool(void)
                    checked_full += needs[k] == 0
                else:
                    assert p[card, k] > 0
    assert checked_void > 50 and checked_full > 50  # the positions did test both facts


def test_log_probs_of_a_view_needs_its_history(games):
    from games.setback.view import SeatView

    model = small_model()
    state = S.new_state()
    S.random_deal(new_rng(4), state)
    history = []
    from games.setback.rules import apply_move, legal_moves

    moves = np.empty(24, np.int64)
    for _ in range(9):  # the auction and a trick and a card
        n = legal_moves(state, moves)
        history.append(int(moves[n - 1]))
        apply_move(state, history[-1])
    view = SeatView.of(state, 0, (3, 5), history)
    out = model.log_probs_view(view)
    assert out.shape == (N_CARDS, HOLDERS)
    record = np.zeros((RECORD, 4), np.int64)
    tricks = np.zeros(4, np.int64)
    public_record(np.array(history), len(history), record, tricks)
    assert int(np.bitwise_or.reduce(record[0])) == int(state[S.PLAYED]) and tricks.sum() == 1
    with pytest.raises(ValueError, match="history"):
        model.log_probs(view.state, view.seat, history[:4])


def test_world_log_weights_equal_a_slow_python_sum(games):
    model = small_model(seed=3, fit=5)
    rng = new_rng(11)
    checked = 0
    for i in np.linspace(0, games["seats"].size - 1, 25).astype(int):
        state, seat = games["states"][i], int(games["seats"][i])
        lp = model.record_log_probs(state, seat, games["records"][i], games["tricks_won"][i],
                                    (1, 2))
        worlds = np.zeros((20, S.STATE_SIZE), np.int64)
        drawn, _ = consistent_worlds(state, seat, rng, True, worlds)
        worlds = worlds[:drawn]
        out = np.empty(drawn)
        world_log_weights(lp, worlds, seat, out)
        for w_index, world in enumerate(worlds):
            slow = 0.0
            for card in range(N_CARDS):
                bit = 1 << card
                if int(world[S.HAND + seat]) & bit or int(world[S.PLAYED]) & bit:
                    continue
                column = UNDEALT
                for k in range(3):
                    if int(world[S.HAND + (seat + 1 + k) % 4]) & bit:
                        column = k
                slow += lp[card, column]
            assert out[w_index] == pytest.approx(slow, rel=1e-12, abs=1e-9)
            assert np.isfinite(out[w_index])  # consistent worlds never break the facts
            checked += 1
    assert checked >= 25 * 5


def test_a_world_against_the_facts_weighs_minus_infinity(games):
    model = small_model()
    i = int(np.nonzero(games["states"][:, S.SHOWN_VOIDS] != 0)[0][0])
    state, seat = games["states"][i], int(games["seats"][i])
    lp = model.record_log_probs(state, seat, games["records"][i], games["tricks_won"][i])
    world = np.zeros((1, S.STATE_SIZE), np.int64)
    consistent_worlds(state, seat, new_rng(2), True, world)
    voids = int(state[S.SHOWN_VOIDS])
    for other in range(4):
        if other == seat:
            continue
        for suit in range(4):
            if voids >> (4 * other + suit) & 1 and int(world[0, S.HAND + other]):
                undealt = ((1 << 52) - 1) & ~int(world[0, S.HAND + 0] | world[0, S.HAND + 1] |
                                                 world[0, S.HAND + 2] | world[0, S.HAND + 3] |
                                                 world[0, S.PLAYED])
                card_bits = undealt & (0x1FFF << (13 * suit))
                if not card_bits:
                    continue
                low = card_bits & -card_bits
                hand = int(world[0, S.HAND + other])
                give = hand & -hand
                world[0, S.HAND + other] = np.int64((hand & ~give) | low)
                out = np.empty(1)
                world_log_weights(lp, world, seat, out)
                assert out[0] == -np.inf
                return
    pytest.skip("no void with an undealt card of its suit in this position")


def test_uniform_marginals_are_exact_against_uniform_draws(games):
    rng = new_rng(7)
    probs = np.empty((N_CARDS, HOLDERS))
    for i in np.linspace(0, games["seats"].size - 1, 6).astype(int):
        state, seat = games["states"][i], int(games["seats"][i])
        uniform_probs(GAME, state, seat, probs)
        hands = np.zeros((20000, 4), np.int64)
        assert sample_worlds(state, seat, rng, True, hands) == 20000
        for k in range(3):
            other = (seat + 1 + k) % 4
            freq = np.array([((hands[:, other] >> c) & 1).mean() for c in range(N_CARDS)])
            # binomial standard error at 20,000 draws is at most 0.0035
            assert np.abs(freq - probs[:, k]).max() < 0.02
        hidden = probs.sum(axis=1) > 0
        assert probs[hidden].sum(axis=1) == pytest.approx(1.0)


def test_a_model_trained_seconds_on_a_revealing_game_beats_uniform():
    data = generate_games([(LowFirst(), LowFirst())], seed=3, first=0, count=40)
    train, held = split_by_deal(data, 0.25, seed=0)
    state = TrainingState.create((32, 32), 0)
    for _ in range(3):
        train_epoch(state, data, train, 0, 128, 3e-3)
    late = held[phase_of(data["states"][held]) >= 2]  # tricks 3-6: the play has spoken
    uni, cards = uniform_log_loss(data, late)
    mod, cards2 = row_log_losses(state.mlp, state.pair, data, late, fit=20)
    assert (cards == cards2).all()
    uniform, model = uni.sum() / cards.sum(), mod.sum() / cards.sum()
    print(f"late positions: uniform {uniform:.4f}, model {model:.4f} nats a hidden card")
    assert model < 0.93 * uniform
    # the weight it learnt for "the seat played a higher card of this suit" rules the card out
    from games.setback.search.card_location import P_HIGHER

    assert state.pair[P_HIGHER] < -1.0


def test_model_files_of_another_game_newer_or_damaged_are_refused_in_one_line(tmp_path):
    model = small_model()
    path = tmp_path / "m.model"
    path.write_bytes(model_bytes(model))
    again = load_model(str(path), "setback")
    assert all((a == b).all() for a, b in zip(again.mlp.parameters(), model.mlp.parameters()))
    assert (again.pair_weights == model.pair_weights).all()
    problems = {}
    with pytest.raises(ModelFileError) as exc:
        load_model(str(path), "euchre")
    problems["game"] = str(exc.value)
    data = path.read_bytes()
    newer = tmp_path / "newer.model"
    newer.write_bytes(data.replace(b'"version": 1', b'"version": 2', 1))
    foreign = tmp_path / "foreign.model"
    foreign.write_bytes(data.replace(b'"game": "setback"', b'"game": "euchre"', 1))
    damaged = tmp_path / "damaged.model"
    damaged.write_bytes(data[:-40] + bytes(40))
    other = tmp_path / "other.model"
    other.write_bytes(b"PK\x03\x04 not a model")
    for name, p in (("newer", newer), ("foreign", foreign), ("damaged", damaged),
                    ("other", other), ("missing", tmp_path / "none.model")):
        with pytest.raises(ModelFileError) as exc:
            load_model(str(p), "setback")
        problems[name] = str(exc.value)
    assert "euchre" in problems["game"] and "euchre" in problems["foreign"]
    assert "version 2" in problems["newer"] and "checksum" in problems["damaged"]
    assert all("\n" not in text and text for text in problems.values()), problems


def test_parse_population_keeps_a_spec_with_commas_whole():
    assert parse_population("db:a.db,bid=heuristic,search[worlds=5,think=3]:db:a.db,random") \
        == ["db:a.db,bid=heuristic", "search[worlds=5,think=3]:db:a.db", "random"]
    assert parse_population("strategy:a.msgpack,b.msgpack") == ["strategy:a.msgpack,b.msgpack"]


BELIEF = ["learn", "belief", "--players", "random", "--games", "2", "--chunk", "1",
          "--epochs", "3", "--hidden", "8,8", "--batch", "512", "--no-progress"]


def test_learn_belief_resumes_bit_for_bit(tmp_path, capsys, monkeypatch):
    import cli.learn as learn

    whole = tmp_path / "whole.model"
    status, out, err = run_cli(capsys, BELIEF + ["--out", whole])
    assert status == 0, err
    assert "uniform" in out and (tmp_path / "whole-curve.png").is_file()
    cut = tmp_path / "cut.model"
    monkeypatch.setattr(learn, "_STOP_AFTER_EPOCH", lambda epoch: epoch == 1)
    status, _, err = run_cli(capsys, BELIEF + ["--out", cut])
    assert status == 130 and "rerun the same command" in err
    assert not cut.exists()
    monkeypatch.setattr(learn, "_STOP_AFTER_EPOCH", None)
    status, _, err = run_cli(capsys, BELIEF + ["--out", cut])
    assert status == 0, err
    a, b = load_model(str(whole)), load_model(str(cut))
    assert all((x == y).all() for x, y in zip(a.mlp.parameters(), b.mlp.parameters()))
    assert (a.pair_weights == b.pair_weights).all()
    assert a.meta["best_epoch"] == b.meta["best_epoch"]
    # another seed on the same run directory is refused in one line
    status, _, err = run_cli(capsys, BELIEF + ["--out", cut, "--seed", "4"])
    assert status == 2 and "seed" in err and err.count("\n") == 1


def test_learn_belief_refuses_bad_players_and_another_game(tmp_path, capsys):
    status, _, err = run_cli(capsys, BELIEF + ["--out", tmp_path / "m", "--players",
                                               "nosuch:x"])
    assert status == 2 and err.count("\n") == 1
    # a run directory started for Setback is refused to --game euchre (Euchre has its own
    # features now: tests/test_card_location_euchre.py)
    status, _, err = run_cli(capsys, BELIEF + ["--out", tmp_path / "m", "--game", "euchre"])
    assert status == 2 and "game" in err and err.count("\n") == 1


def test_public_record_names_who_played_led_and_let_pass_each_card():
    from games.setback.search.card_location import R_DUCKED, R_LED, R_PLAYED

    spade = lambda rank: 39 + rank - 2  # noqa: E731 (the rank's spade: 2..14)
    # everyone passes but the dealer (seat 0), who bids Two and leads the Five of spades
    history = [52, 52, 52, 54, spade(5), spade(13), spade(2), 27,
               # seat 1 took it with the King; it leads a Heart; seat 2 discards a Diamond
               28, 13]
    record = np.zeros((RECORD, 4), np.int64)
    tricks = np.zeros(4, np.int64)
    public_record(np.array(history), len(history), record, tricks)
    assert list(tricks) == [0, 1, 0, 0]
    assert record[R_LED, 0] == 1 << spade(5) and record[R_LED, 1] == 1 << 28
    assert record[R_PLAYED, 2] == (1 << spade(2)) | (1 << 13)
    # seat 2 followed under the King while the other side won: it let the Ace pass; then it
    # neither followed Hearts nor trumped: it let every trump pass
    assert record[R_DUCKED, 2] == 0x1FFF << 39
    assert record[R_DUCKED, 3] == 0  # its partner was winning: its discard says nothing
    assert record[R_DUCKED, 0] == 0 and record[R_DUCKED, 1] == 0


def test_learn_belief_refuses_a_damaged_checkpoint_or_chunk_in_one_line(tmp_path, capsys):
    out = tmp_path / "m.model"
    status, _, err = run_cli(capsys, BELIEF + ["--out", out, "--epochs", "1"])
    assert status == 0, err
    checkpoint = tmp_path / "m.model.run" / "checkpoint.npz"
    checkpoint.write_bytes(checkpoint.read_bytes()[:100])
    status, _, err = run_cli(capsys, BELIEF + ["--out", out])
    assert status == 2 and "checkpoint" in err and err.count("\n") == 1
    checkpoint.unlink()
    (tmp_path / "m.model.run" / "chunk-0000000.npz").write_bytes(b"not numpy")
    status, _, err = run_cli(capsys, BELIEF + ["--out", out])
    assert status == 2 and "not a belief data file" in err and err.count("\n") == 1


def test_each_game_declares_its_card_location_features_in_its_place():
    """The registry names each game's declaration (`card_location`), in the game's place; the
    shared module reads it from there and refuses a game without one in one line."""
    from games import registry
    from search.card_location import game_features

    games = registry.names(("card_location",))
    assert games == ("setback", "euchre")
    for game in games:
        k = game_features(game)
        assert k.name == game and k.encode.__module__ == f"games.{game}.search.card_location"
    with pytest.raises(ValueError) as exc:
        game_features("spades")
    assert str(exc.value) == "card-location models exist for setback, euchre, not spades"
