"""Euchre's card-location model (its declaration games/euchre/search/card_location.py through
the game-generic search/card_location.py, issue 47 part 2): the hard facts on its
probabilities, the world weights against a slow Python sum, the exact uniform marginals
against uniform draws, a model trained seconds on a game whose play reveals hidden cards
beating uniform, Euchre's and Setback's models refused by each other's search in one line,
`learn belief --game euchre` resuming bit for bit, and Euchre search with `belief=model`
playing legal moves on worlds that agree with the view.

Positions come from short games of fast Python players (`generate_games`), so the model tests
need no strategy table; the search test uses tests/test_euchre_search.py's random table."""

from __future__ import annotations

import numpy as np
import pytest

from games.euchre import state as E
from games.euchre.cards import effective_suit, power
from games.euchre.rules import ALONE_MOVE, PARTNER_MOVE, PASS_MOVE
from games.rng import new_rng
from play.belief_data import generate_games, phase_of, split_by_deal
from search.card_location import (HOLDERS, UNDEALT, CardLocationModel, ModelFileError,
                                  game_features, load_model, model_bytes, view_record,
                                  world_log_weights)
from search.card_location_training import TrainingState, row_log_losses, train_epoch, \
    uniform_log_loss, uniform_probs
from games.euchre.search.worlds import cards_played_by, consistent_worlds, constraints
from tests.cli_runner import run_cli
from tests.test_card_location import RandomCards as RandomMoves  # any game's legal moves

from test_euchre_search import _check_world, blueprint  # noqa: F401 (the module's fixture)

K = game_features("euchre")


class LowFirst:
    """A player whose play gives its cards away: it passes (a stuck dealer names the lowest
    suit it may), plays with its partner, and discards and plays its lowest card (by power in
    its effective suit, trumps above the rest), so once it has played a card of a suit it
    holds no lower card of that suit."""

    name = "low-first"

    def choose(self, view):
        legal = [int(m) for m in view.legal_moves()]
        if PASS_MOVE in legal:
            return PASS_MOVE
        if ALONE_MOVE in legal:
            return PARTNER_MOVE
        if min(legal) >= PASS_MOVE:
            return min(legal)
        trump = int(view.state[E.TRUMP])
        return min(legal, key=lambda c: (power(c, trump, effective_suit(c, trump)), c))


@pytest.fixture(scope="module")
def games():
    """Positions of 3 Euchre games of random players (lone hands, stuck dealers, every
    phase)."""
    return generate_games([(RandomMoves(1), RandomMoves(2))], seed=5, first=0, count=3,
                          game="euchre")


def small_model(seed=0, fit=0):
    """An untrained Euchre network (random weights and pair weights): the facts must hold
    whatever the weights."""
    state = TrainingState.create((16, 16), seed, game="euchre")
    state.pair[:] = np.random.default_rng(seed).normal(0, 2, state.pair.size)
    return CardLocationModel(state.mlp, state.pair, "euchre", {}, fit)


def log_probs(model, data, i, fit):
    """The model's log-probabilities at row i of `data` (its recorded public record)."""
    return model.record_log_probs(data["states"][i], int(data["seats"][i]), data["records"][i],
                                  data["tricks_won"][i], (0, 0), fit)


@pytest.mark.parametrize("fit", [0, 20])
def test_probabilities_sum_to_one_over_the_seats_that_may_hold_each_card(games, fit):
    model = small_model(fit=fit)
    needs = np.zeros(3, np.int64)
    voids = np.zeros(3, np.int64)
    checked_void = checked_full = 0
    for i in np.linspace(0, games["seats"].size - 1, 300).astype(int):
        state, seat = games["states"][i], int(games["seats"][i])
        out = log_probs(model, games, i, fit)
        unseen = constraints(state, seat, True, needs, voids)
        p = np.exp(out)
        trump = int(state[E.TRUMP])
        for card in range(K.n_cards):
            if not unseen >> card & 1:
                assert (out[card] == 0.0).all()  # seen cards (the upcard too) add nothing
                continue
            assert p[card].sum() == pytest.approx(1.0, abs=1e-12)
            assert p[card, UNDEALT] > 0  # the kitty may hold any hidden card
            suit = effective_suit(card, trump) if trump >= 0 else card // 6
            for k in range(3):
                void = voids[k] >> suit & 1
                if void or needs[k] == 0:
                    assert p[card, k] == 0.0 and out[card, k] == -np.inf
                    checked_void += bool(void)
                    checked_full += needs[k] == 0
                else:
                    assert p[card, k] > 0
    assert checked_void > 30 and checked_full > 30  # the positions did test both facts


def test_world_log_weights_equal_a_slow_python_sum_and_worlds_keep_the_facts(games):
    from games.euchre.view import SeatView

    model = small_model(seed=3, fit=5)
    rng = new_rng(11)
    checked = 0
    for i in np.linspace(0, games["seats"].size - 1, 25).astype(int):
        state, seat = games["states"][i], int(games["seats"][i])
        moves = games["moves"][i]
        view = SeatView(state, seat, 0, (0, 0), tuple(int(m) for m in moves[moves != -2]))
        lp = model.log_probs_view(view)
        assert np.array_equal(lp, log_probs(model, games, i, 5))  # the view's record is the row's
        worlds = np.zeros((20, E.STATE_SIZE), np.int64)
        assert consistent_worlds(state, seat, cards_played_by(view), rng, True, worlds) == 20
        out = np.empty(20)
        world_log_weights(lp, worlds, seat, out)
        hidden = constraints(state, seat, True, np.zeros(3, np.int64), np.zeros(3, np.int64))
        for w_index, world in enumerate(worlds):
            slow = 0.0
            for card in range(K.n_cards):
                if not hidden >> card & 1:
                    continue
                column = UNDEALT  # the kitty: no seat holds it (the hidden discard included)
                for k in range(3):
                    if int(world[E.HAND + (seat + 1 + k) % 4]) >> card & 1:
                        column = k
                slow += lp[card, column]
            assert out[w_index] == pytest.approx(slow, rel=1e-12, abs=1e-9)
            assert np.isfinite(out[w_index])  # consistent worlds never break the facts
            checked += 1
    assert checked == 25 * 20


def test_uniform_marginals_are_exact_against_uniform_draws(games):
    from games.euchre.view import SeatView

    rng = new_rng(7)
    probs = np.empty((K.n_cards, HOLDERS))
    late = np.nonzero(games["states"][:, E.SHOWN_VOIDS] != 0)[0]
    for i in list(np.linspace(0, games["seats"].size - 1, 4).astype(int)) + [late[0], late[-1]]:
        state, seat = games["states"][i], int(games["seats"][i])
        moves = games["moves"][i]
        view = SeatView(state, seat, 0, (0, 0), tuple(int(m) for m in moves[moves != -2]))
        uniform_probs(K, state, seat, probs)
        worlds = np.zeros((20000, E.STATE_SIZE), np.int64)
        consistent_worlds(state, seat, cards_played_by(view), rng, True, worlds)
        for k in range(3):
            other = (seat + 1 + k) % 4
            freq = np.array([((worlds[:, E.HAND + other] >> c) & 1).mean()
                             for c in range(K.n_cards)])
            upcard = int(state[E.UPCARD])
            freq[upcard] = probs[upcard, k]  # the upcard is public: no row of its own
            assert np.abs(freq - probs[:, k]).max() < 0.02  # 20,000 draws: s.e. <= 0.0035
        hidden = probs.sum(axis=1) > 0
        assert probs[hidden].sum(axis=1) == pytest.approx(1.0)


def test_a_model_trained_seconds_on_a_revealing_game_beats_uniform():
    data = generate_games([(LowFirst(), LowFirst())], seed=3, first=0, count=8, game="euchre")
    train, held = split_by_deal(data, 0.25, seed=0)
    state = TrainingState.create((32, 32), 0, game="euchre")
    for _ in range(3):
        train_epoch(state, data, train, 0, 128, 3e-3)
    late = held[phase_of(data["states"][held], "euchre") >= 2]  # tricks 3-5: the play spoke
    uni, cards = uniform_log_loss(data, late, "euchre")
    mod, cards2 = row_log_losses(state.mlp, state.pair, data, late, fit=20, game="euchre")
    assert (cards == cards2).all() and cards.sum() > 500
    uniform, model = uni.sum() / cards.sum(), mod.sum() / cards.sum()
    print(f"late positions: uniform {uniform:.4f}, model {model:.4f} nats a hidden card")
    assert model < 0.92 * uniform  # measured: 0.974 against 1.118 (-13 %)
    # the weight it learnt for "the seat played a higher card of this suit" rules the card out
    from games.euchre.search.card_location import P_HIGHER

    assert state.pair[P_HIGHER] < -1.0


def test_models_of_the_other_game_are_refused_in_one_line(tmp_path, blueprint):  # noqa: F811
    from games.euchre.play.tournament import EuchreSpecError, make_euchre_player
    from games.setback.play.search_player import SearchPlayer
    from tests.test_card_location import small_model as setback_model

    euchre = tmp_path / "e.model"
    euchre.write_bytes(model_bytes(small_model()))
    setback = tmp_path / "s.model"
    setback.write_bytes(model_bytes(setback_model()))
    again = load_model(str(euchre), "euchre")
    assert all((a == b).all() for a, b in zip(again.mlp.parameters(),
                                               small_model().mlp.parameters()))
    with pytest.raises(ModelFileError) as exc:
        load_model(str(euchre), "setback")
    assert "of euchre, not setback" in str(exc.value) and "\n" not in str(exc.value)
    with pytest.raises(ValueError) as exc:  # what Setback's search reads its model with
        SearchPlayer._load_model(str(euchre))
    assert "of euchre, not setback" in str(exc.value) and "\n" not in str(exc.value)
    with pytest.raises(EuchreSpecError) as exc:
        make_euchre_player(f"search[belief=model:{setback}]:db:{blueprint['db']}")
    assert "of setback, not euchre" in str(exc.value) and "\n" not in str(exc.value)
    layout = tmp_path / "layout.model"  # another feature layout of the same game
    layout.write_bytes(euchre.read_bytes().replace(b'"euchre-v1"', b'"euchre-v0"', 1))
    with pytest.raises(ModelFileError, match="feature layout 'euchre-v0'"):
        load_model(str(layout), "euchre")


def test_euchre_search_with_the_model_plays_legal_moves_on_worlds_that_agree(
        tmp_path, blueprint):  # noqa: F811
    from games.euchre.rules import legal_moves
    from games.euchre.view import SeatView
    from games.euchre.play.tournament import make_euchre_player
    from test_euchre_search import random_positions

    path = tmp_path / "e.model"
    path.write_bytes(model_bytes(small_model(seed=4, fit=5)))
    db = blueprint["db"]
    alone = make_euchre_player(f"search[worlds=6,pool=4,threads=1,belief=model:{path}]:db:{db}")
    both = make_euchre_player(f"search[worlds=6,pool=4,threads=1,temper=0.5,"
                              f"belief=model+policy:{path}]:db:{db}")
    policy = make_euchre_player(f"search[worlds=6,pool=4,threads=1,belief=policy]:db:{db}")
    buffer = np.zeros(8, np.int64)
    checked = 0
    from games.euchre.abstraction.abstract_game import is_settled

    for state, history in random_positions(8, 29)[::4]:
        view = SeatView.of(state, 0, (2, 5), history)
        n = legal_moves(state, buffer)
        if n < 2 or not history or is_settled(state):
            continue
        pool = np.zeros((24, E.STATE_SIZE), np.int64)
        consistent_worlds(view.state, view.seat, cards_played_by(view), new_rng(7), True, pool)
        h = np.asarray(view.history, np.int64)
        model = np.zeros(24)
        world_log_weights(alone.model.log_probs_view(view), pool, view.seat, model)
        evidence = policy.pool_log_weights(view, pool, h) / 0.25  # policy's own temper
        assert np.allclose(alone.pool_log_weights(view, pool, h), model)
        assert np.allclose(both.pool_log_weights(view, pool, h), model + 0.5 * evidence)
        for world in alone._worlds(view, new_rng(len(history))):
            _check_world(world, state, history, view.seat)
        for player in (alone, both):
            assert player.choose(view) in buffer[:n]
        checked += 1
    assert checked >= 8 and alone.stats["weighted"] >= checked
    for player in (alone, both, policy):
        player.close()


def test_public_record_names_who_played_and_led_each_card_and_took_each_trick():
    """Against a slow replay of random hands (lone hands, hidden discards): the cards each seat
    played and led and the tricks each took; a history short of the view's cards is refused."""
    from games.euchre.rules import apply_move
    from games.euchre.view import SeatView
    from games.euchre.search.card_location import R_LED, R_PLAYED
    from test_euchre_search import random_positions

    checked = 0
    for state, history in random_positions(30, 41)[::3]:
        if state[E.PHASE] != E.PHASE_PLAY or not state[E.PLAYED]:
            continue
        view = SeatView.of(state, 0, (0, 0), history)
        record, tricks = view_record(K, view.state, view.history)
        played, led = np.zeros(4, np.int64), np.zeros(4, np.int64)
        taken = np.zeros(4, np.int64)
        replay = E.new_state()
        E.reset_hand(replay, state[E.DEALT:E.DEALT + 4].copy(), state[E.UPCARD], 1)
        for move in history:
            if replay[E.PHASE] == E.PHASE_PLAY:
                seat = int(replay[E.TO_ACT])
                played[seat] |= 1 << move
                if replay[E.N_IN_TRICK] == 0:
                    led[seat] |= 1 << move
            done = int(replay[E.TRICK_NUMBER])
            apply_move(replay, move)
            if replay[E.TRICK_NUMBER] > done:
                taken[int(replay[E.LEADER])] += 1
        assert list(record[R_PLAYED]) == list(played) and list(record[R_LED]) == list(led)
        assert list(tricks) == list(taken)
        checked += 1
        last = view
    assert checked >= 20
    cards = [i for i, m in enumerate(last.history) if 0 <= m < 24]
    with pytest.raises(ValueError, match="history"):
        view_record(K, last.state, last.history[:cards[-1]])


BELIEF = ["learn", "belief", "--game", "euchre", "--players", "random", "--games", "2",
          "--chunk", "1", "--epochs", "3", "--hidden", "8,8", "--batch", "256", "--no-progress"]


def test_learn_belief_of_euchre_resumes_bit_for_bit(tmp_path, capsys, monkeypatch):
    import cli.learn as learn

    whole = tmp_path / "whole.model"
    status, out, err = run_cli(capsys, BELIEF + ["--out", whole])
    assert status == 0, err
    assert "uniform" in out and (tmp_path / "whole-curve.png").is_file()
    assert load_model(str(whole), "euchre").meta["options"]["game"] == "euchre"
    cut = tmp_path / "cut.model"
    monkeypatch.setattr(learn, "_STOP_AFTER_EPOCH", lambda epoch: epoch == 1)
    status, _, err = run_cli(capsys, BELIEF + ["--out", cut])
    assert status == 130 and "rerun the same command" in err
    monkeypatch.setattr(learn, "_STOP_AFTER_EPOCH", None)
    status, _, err = run_cli(capsys, BELIEF + ["--out", cut])
    assert status == 0, err
    a, b = load_model(str(whole), "euchre"), load_model(str(cut), "euchre")
    assert all((x == y).all() for x, y in zip(a.mlp.parameters(), b.mlp.parameters()))
    assert (a.pair_weights == b.pair_weights).all()
    # the run directory of a Euchre run is refused to a Setback rerun in one line
    status, _, err = run_cli(capsys, BELIEF[:2] + BELIEF[4:] + ["--out", cut])
    assert status == 2 and "game" in err and err.count("\n") == 1
