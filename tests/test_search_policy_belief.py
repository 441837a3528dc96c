"""`search[belief=policy]` (issue 47, part 1): every world of a pool weighed by the blueprint's
probability of every move the modelled seats made, bids, calls and cards, in both games.

The weights are checked against slow Python replays (Setback:
`games.setback.search.inference.log_weight` with `games.setback.play.policy_model.PolicyModel`, the
older, independent reading of a table as a model of the players; Euchre: the database read key by
key); the resampled worlds against the view and every public fact; the decisions against the thread
count. The blueprint is the random table of tests/test_search_rollout.py (no strength is claimed
for it); Euchre's are in tests/test_euchre_policy_belief.py."""

import math

import numpy as np
import pytest

from games.setback.db.policy_arrays import load_policy_arrays
from games.rng import new_rng
from games.setback import public, rules
from games.setback import state as S
from games.setback.api import Deal, format_move
from games.setback.cards import suit_mask
from games.setback.scoring import is_exhausted
from games.setback.view import SeatView
from play.player_spec import make_player
from play.likelihood import ALL_SEATS, world_log_weights
from play.search_options import FLOOR
from search.likelihood import BIDS, POLICY
from games.setback.search.worlds import consistent_worlds
from games.setback.train.baseline import layout_game

from test_search_rollout import blueprint  # noqa: F401  (the module's fixture, rebuilt here)


def played_deals(n_deals: int, seed: int):
    """(deal's start state, dealer, history, state now) at every decision of `n_deals` deals
    played with random legal moves."""
    rng = np.random.default_rng(seed)
    out = []
    for d in range(n_deals):
        deal = Deal.random(seed * 1000 + d)
        start, history = deal.state.copy(), []
        while not deal.is_over:
            now = deal.state.copy()
            out.append((start, deal.dealer, list(history), now))
            legal = SeatView.of(now, deal.dealer, history=history).legal_moves()
            move = int(legal[int(rng.integers(legal.size))])
            history.append(move)
            deal.play(format_move(move))
    return out


def slow_log_weight(world, history, observer, model, modelled_parity):
    """The blueprint's log-probability of the modelled seats' moves in `world`, replayed in
    Python (`games.setback.search.inference.others_moves`) and read through `PolicyModel`; the
    opponents only when `modelled_parity` is 1."""
    from games.setback.search.inference import cards_played_by, others_moves

    played = cards_played_by(history)
    hands = [int(world[S.HAND + s]) for s in range(4)]
    total = 0.0
    for _, state, move in others_moves(hands, played, history, observer):
        if is_exhausted(state):  # the abstract game's deal is over: the table has no keys
            break
        seat = int(state[S.TO_ACT])
        if modelled_parity and (seat - observer) % 2 == 0:
            continue
        total += math.log(max(model(state, move), FLOOR))
    return total


@pytest.mark.parametrize("evidence", ["others", "opponents"])
def test_setback_policy_weights_equal_a_slow_python_replay(blueprint, evidence):  # noqa: F811
    """A world's weight is the product of the table's probabilities of the moves seen (a move
    no abstract action plays, or below the floor: the floor; a missing key: uniform)."""
    from games.setback.db.player import DatabasePlayer
    from games.setback.play.policy_model import PolicyModel
    from games.setback.search.inference import cards_played_by

    arrays = load_policy_arrays("db:" + blueprint["db"])
    functions = layout_game(arrays.layout).addresses
    player = DatabasePlayer(blueprint["db"])
    model = PolicyModel(player.db, use_bootstrap=False)
    states = np.zeros((6, S.STATE_SIZE), np.int64)
    checked = floors = 0
    for _, _, history, now in played_deals(12, 7)[::3]:
        if not history:
            continue
        seat = int(now[S.TO_ACT])
        drawn, _ = consistent_worlds(now, seat, new_rng(len(history)), True, states)
        assert drawn == states.shape[0]
        h = np.array(history, np.int64)
        modelled = sum(1 << s for s in range(4) if s != seat and
                       (evidence == "others" or (s - seat) % 2))
        out = np.zeros(drawn)
        world_log_weights(public, rules.apply_move, S.TO_ACT, functions, POLICY, states,
                          cards_played_by(h), h, modelled, arrays, FLOOR, out, 0, drawn)
        for w in range(drawn):
            expected = slow_log_weight(states[w], h, seat, model, evidence == "opponents")
            assert out[w] == pytest.approx(expected, rel=1e-6, abs=1e-6)
            checked += expected != 0.0
            floors += expected <= math.log(FLOOR) + 1e-9
    assert checked >= 100
    assert floors > 0  # random moves include cards the table would never play as such


def check_setback_world(world, view_state, seat):
    """Every way `world` must agree with `seat`'s view and the public facts: the seat's own
    hand, every public field, hand sizes, no card twice or already played, the voids shown."""
    assert world[S.HAND + seat] == view_state[S.HAND + seat]
    for field in range(S.STATE_SIZE):
        if field not in range(S.HAND, S.DEALT + 4):
            assert world[field] == view_state[field], field
    seen = 0
    for other in range(4):
        held = int(world[S.HAND + other])
        assert bin(held).count("1") == bin(int(view_state[S.HAND + other])).count("1")
        assert held & seen == 0 and held & int(view_state[S.PLAYED]) == 0
        seen |= held
        for suit in range(4):
            if (int(view_state[S.SHOWN_VOIDS]) >> (4 * other + suit)) & 1:
                assert held & int(suit_mask(suit)) == 0


def test_setback_policy_worlds_agree_with_the_view_and_every_public_fact(blueprint):  # noqa: F811
    player = make_player(f"search[worlds=12,belief=policy,threads=1]:db:{blueprint['db']}")
    assert (player.temper, player.pool, player.floor) == (0.25, 20, FLOOR)
    positions = 0
    for start, dealer, history, now in played_deals(10, 3)[::2]:
        view = SeatView.of(now, dealer, history=history)
        if view.legal_moves().size < 2 or not history:
            continue
        worlds = player._worlds(view, new_rng(len(history)))
        assert worlds.shape == (12, S.STATE_SIZE)
        for world in worlds:
            check_setback_world(world, now, view.seat)
        positions += 1
    assert positions >= 20 and player.stats["weighted"] == positions
    assert 1.0 <= player.stats["ess"] / positions <= 12 * 20
    player.close()


def test_setback_policy_decisions_are_the_same_for_one_and_two_threads(blueprint):  # noqa: F811
    """The weights are split among the search's threads by slices: the same seed gives the same
    worlds, values and moves whatever the number of threads."""
    spec = "search[worlds=16,pool=8,belief=policy,threads={}]:db:" + blueprint["db"]
    one, two = make_player(spec.format(1), seed=4), make_player(spec.format(2), seed=4)
    compared = 0
    for start, dealer, history, now in played_deals(6, 9)[::4]:
        view = SeatView.of(now, dealer, history=history)
        if view.legal_moves().size < 2 or not history:
            continue
        a, b = one.decide(view), two.decide(view)
        assert a["move"] == b["move"] and a["moves"] == b["moves"]
        compared += 1
    assert compared >= 5
    one.close()
    two.close()


def test_the_policy_belief_reads_the_cards_the_bids_belief_ignores(blueprint):  # noqa: F811
    """Once cards are played they weigh the worlds too: on the same pool, the policy weights
    rank the worlds otherwise than the bids-only weights at most play positions."""
    from games.setback.search.inference import cards_played_by
    arrays = load_policy_arrays("db:" + blueprint["db"])
    functions = layout_game(arrays.layout).addresses
    states = np.zeros((32, S.STATE_SIZE), np.int64)
    differ = positions = 0
    for _, _, history, now in played_deals(8, 5)[::2]:
        if int(now[S.PHASE]) == S.PHASE_AUCTION or int(now[S.N_IN_TRICK]) + \
                int(now[S.TRICK_NUMBER]) < 2:
            continue
        seat = int(now[S.TO_ACT])
        consistent_worlds(now, seat, new_rng(1), True, states)
        h = np.array(history, np.int64)
        played = cards_played_by(h)
        bids, policy = np.zeros(32), np.zeros(32)
        world_log_weights(public, rules.apply_move, S.TO_ACT, functions, BIDS, states, played,
                          h, ALL_SEATS, arrays, FLOOR, bids)
        everyone_else = sum(1 << s for s in range(4) if s != seat)
        world_log_weights(public, rules.apply_move, S.TO_ACT, functions, POLICY, states, played,
                          h, everyone_else, arrays, FLOOR, policy)
        positions += 1
        differ += not np.allclose(bids - bids.max(), policy - policy.max())
    assert positions >= 10 and differ >= positions * 0.8


def test_exploit_plays_local_best_response_against_the_table(blueprint, capsys):  # noqa: F811
    """`setback-cfr exploit`: the search player modelling the target exactly (its policy as the
    belief, untempered, the opponents' moves as evidence) plays duplicate games against it."""
    import json

    from cli.exploit import lbr_spec
    from cli.main import main

    target = "db:" + blueprint["db"]
    assert lbr_spec(target, 8, 4) == ("search[worlds=8,pool=4,threads=1,belief=policy,"
                                      f"temper=1,evidence=opponents]:{target}")
    status = main(["exploit", "--against", target, "--pairs", "2", "--worlds", "4", "--pool",
                   "2", "--seed", "3", "--json", "--no-progress"])
    out = json.loads(capsys.readouterr().out)
    assert status == 0 and out["games"] == 4 and out["duplicate"]
    assert out["lbr"].startswith("search[worlds=4,pool=2,") and out["player_b"] == "db:r.db"
    with pytest.raises(SystemExit) as refused:
        main(["exploit", "--against", blueprint["db"]])
    assert refused.value.code == 2
    assert "the target is a database" in capsys.readouterr().err


def test_a_learned_model_weighs_the_worlds_alone_or_under_the_policy(blueprint, tmp_path):  # noqa: F811,E501
    """`belief=model:FILE`: a world's log-weight is the model's log-probability of it
    (`world_log_weights`, untempered); `belief=model+policy:FILE` adds the policy's evidence
    times `temper`. The resampled worlds still agree with the view."""
    from search.card_location import CardLocationModel, model_bytes, world_log_weights
    from search.card_location_training import TrainingState

    state = TrainingState.create((16, 16), 3)
    state.pair[:] = np.random.default_rng(3).normal(0, 2, state.pair.size)
    path = tmp_path / "random.belief"
    path.write_bytes(model_bytes(CardLocationModel(state.mlp, state.pair, "setback", {}, 0)))
    db = blueprint["db"]
    alone = make_player(f"search[worlds=8,pool=4,threads=1,belief=model:{path}]:db:{db}")
    both = make_player(f"search[worlds=8,pool=4,threads=1,temper=0.5,"
                       f"belief=model+policy:{path}]:db:{db}")
    policy = make_player(f"search[worlds=8,pool=4,threads=1,belief=policy]:db:{db}")
    assert (alone.belief, both.belief, both.temper) == ("model", "model+policy", 0.5)
    checked = 0
    for start, dealer, history, now in played_deals(6, 13)[::3]:
        view = SeatView.of(now, dealer, history=history)
        if view.legal_moves().size < 2 or not history:
            continue
        pool = np.zeros((32, S.STATE_SIZE), np.int64)
        consistent_worlds(now, view.seat, new_rng(7), True, pool)
        h = np.asarray(view.history, np.int64)
        model = np.zeros(32)
        world_log_weights(alone.model.log_probs_view(view), pool, view.seat, model)
        evidence = policy.pool_log_weights(view, pool, h) / 0.25  # policy's own temper
        assert np.allclose(alone.pool_log_weights(view, pool, h), model)
        assert np.allclose(both.pool_log_weights(view, pool, h), model + 0.5 * evidence)
        for world in both._worlds(view, new_rng(len(history))):
            check_setback_world(world, now, view.seat)
        checked += 1
    assert checked >= 10 and both.stats["weighted"] == checked
    for player in (alone, both, policy):
        player.close()


def test_the_decision_says_where_the_jack_and_the_trumps_above_it_lie(blueprint):  # noqa: F811
    """`decide`'s `belief`: for the trump Jack, Queen, King and Ace the seat does not see, the
    share of the searched worlds in which each other seat holds it, and nobody (undealt)."""
    from games.setback.cards import ACE, JACK, make_card

    player = make_player(f"search[worlds=20,threads=1,belief=policy]:db:{blueprint['db']}")
    shown = 0
    for start, dealer, history, now in played_deals(6, 21)[::2]:
        view = SeatView.of(now, dealer, history=history)
        if view.legal_moves().size < 2:
            continue
        result = player.decide(view)
        trump = int(now[S.TRUMP])
        if trump < 0:
            assert result["belief"] == []
            continue
        seen = int(now[S.HAND + view.seat]) | int(now[S.PLAYED])
        expected = [make_card(r, trump) for r in range(JACK, ACE + 1)
                    if not seen >> make_card(r, trump) & 1]
        assert [b["card"] for b in result["belief"]] == expected
        for b in result["belief"]:
            assert sum(b["holders"]) == pytest.approx(1.0)
            held = [int(np.sum(player.last_worlds[:, S.HAND + (view.seat + k) % 4] >>
                               b["card"] & 1)) / 20 for k in (1, 2, 3)]
            assert b["holders"][:3] == pytest.approx(held)
            shown += 1
    assert shown >= 10
    player.close()


def test_the_why_panel_gets_the_belief_by_seat(blueprint, tmp_path):  # noqa: F811
    """`serve --bots search[belief=policy]...`: the hint of a searched card decision carries,
    for the trump Jack and the trumps above it that South does not see, the per cent of the
    worlds in which W, N, E hold it or nobody (undealt) does."""
    pytest.importorskip("fastapi")
    from web_helpers import client, new_game, play_to_the_end

    spec = f"search[worlds=8,threads=1,belief=policy,pool=2]:db:{blueprint['db']}"
    with client(tmp_path / "games.db", bots=spec) as c:
        game = new_game(c, 5)["game"]
        beliefs = []

        def choose(view):
            hint = c.get(f"/api/games/{game}/hint").json()
            beliefs.extend(hint.get("belief") or [])
            return view["legal"][0]

        play_to_the_end(c, game, choose, stop_after=14)
    assert beliefs
    for b in beliefs:
        assert isinstance(b["card"], str) and len(b["card"]) == 2 and b["card"][0] in "JQKA"
        assert set(b["percent"]) == {"W", "N", "E", "undealt"}
        assert sum(b["percent"].values()) == pytest.approx(100.0, abs=0.3)
