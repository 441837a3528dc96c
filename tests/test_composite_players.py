"""`PLAYER,bid=BIDDER` (games/setback/play/composite.py, play/player_spec.py): the composite bids
exactly like its bidder and plays the cards (the pitch included) exactly like its base player, for
every player kind; the tournament shows its whole spec; bad specs are one clear line."""

import numpy as np
import pytest

from db.loader import load_strategies
from games.setback.db.player import DatabasePlayer
from games.setback.db.synthetic import write_table
from games.setback import state as S
from games.setback.api import Deal, format_move
from games.setback.view import SeatView
from games.setback.play.composite import CompositePlayer
from play.player_spec import PlayerSpecError, make_player
from play.tournament import run_tournament


class EmptyStore:
    """A strategy store without keys (the database player's reading face)."""

    metadata = {"game": "setback"}
    has_bootstrap = False
    path = "empty"

    def lookup(self, key):
        return None

    def close(self):
        pass


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A baseline and a bootstrap strategy file holding random vectors for the keys the test
    positions ask (so the database player finds its moves instead of falling back), and
    their database."""
    rng = np.random.default_rng(5)
    asker = DatabasePlayer(EmptyStore(), use_bootstrap=True)
    table, boot = {}, {}
    for view in positions():
        trace = asker.explain(view)
        if trace["key"] is not None:
            table[trace["key"]] = rng.dirichlet(np.ones(len(trace["actions"])))
        first = trace["lookups"][0] if trace["lookups"] else {}
        if first.get("kind") == "bootstrap" and len(boot) < 40:  # some bids from the scores
            boot[first["key"]] = rng.dirichlet(np.ones(view.legal_moves().size))
    tmp = tmp_path_factory.mktemp("composite")
    base, more = str(tmp / "base.strategy"), str(tmp / "boot.strategy")
    write_table(base, "baseline", table)
    write_table(more, "bootstrap", boot)
    db = str(tmp / "s.db")
    load_strategies([base, more], db, progress=False)
    return {"base": base, "boot": more, "db": db}


def positions(n_deals=12, seed=7):
    """Views of every decision of `n_deals` random deals (random moves, varied scores)."""
    rng = np.random.default_rng(seed)
    views = []
    for d in range(n_deals):
        deal = Deal.random(seed * 100 + d)
        score = (int(rng.integers(-3, 11)), int(rng.integers(-3, 11)))
        while not deal.is_over:
            views.append(SeatView.of(deal.state.copy(), deal.dealer, score))
            legal = deal.legal_moves()
            deal.play(legal[int(rng.integers(len(legal)))])
    return views


def check_split(spec, base_spec, bid_spec, seed=3):
    """Every decision of `spec` equals the base's (card play) or the bidder's (auction);
    the parts are fresh players with the same seed, asked in the same order."""
    composite = make_player(spec, seed)
    base, bidder = make_player(base_spec, seed), make_player(bid_spec, seed)
    for part in (composite, base, bidder):
        if hasattr(part, "seed"):
            part.seed(seed)
    auction = card = 0
    for view in positions():
        got = composite.choose(view)
        if int(view.state[S.PHASE]) == S.PHASE_AUCTION:
            assert got == bidder.choose(view), (spec, view.state)
            auction += 1
        else:
            assert got == base.choose(view), (spec, view.state)
            card += 1
    assert auction > 20 and card > 100
    assert composite.name == spec
    return composite


@pytest.mark.parametrize("base,bidder", [
    ("random", "heuristic"), ("heuristic", "random"), ("db:{db}", "heuristic"),
    ("heuristic", "db:{db}"), ("strategy:{base},{boot}", "random"),
    ("random", "strategy:{base},{boot}"), ("heuristic", "pimc:2")])
def test_the_composite_bids_like_its_bidder_and_plays_like_its_base(files, base, bidder):
    base, bidder = base.format(**files), bidder.format(**files)
    player = check_split(f"{base},bid={bidder}", base, bidder)
    assert isinstance(player, CompositePlayer)


def test_the_pitch_is_card_play(files):
    """The high bidder's first lead (which names trump) is the base player's move."""
    composite = make_player("heuristic,bid=random", 0)
    deal = Deal.random(11)
    while deal.phase == "bid":
        deal.play("3" if "3" in deal.legal_moves() else "P")
    view = SeatView.of(deal.state, deal.dealer)
    assert int(view.state[S.TRUMP]) < 0  # the pitch
    assert composite.choose(view) == make_player("heuristic").choose(view)


def test_the_bidding_only_composite_of_a_player_with_itself_plays_the_same_games():
    """heuristic,bid=heuristic is the heuristic, game for game; the tournament names it by
    its whole spec and the decision counts of database parts add up."""
    players = (make_player("heuristic,bid=heuristic"), make_player("random", 5))
    same = (make_player("heuristic"), make_player("random", 5))
    rows = run_tournament(players, 3, seed=2, duplicate=True, progress=False)
    assert np.array_equal(rows, run_tournament(same, 3, seed=2, duplicate=True,
                                               progress=False))
    assert players[0].name == "heuristic,bid=heuristic"


def test_database_parts_report_their_counts_together(files):
    player = make_player(f"db:{files['db']},bid=db:{files['db']}")
    for view in positions(3):
        player.choose(view)
    assert player.counts["found"] > 0
    assert player.counts["decisions"] == (player.base.counts["decisions"]
                                          + player.bidder.counts["decisions"])
    assert player.bidder.counts["decisions"] > 0 and player.base.counts["decisions"] > 0
    player.close()


@pytest.mark.parametrize("spec,words", [
    ("heuristic,bid=", "bid= needs a player"),
    (",bid=heuristic", "bid= needs a player before it"),
    ("heuristic,bid=random,bid=heuristic", "without a bid= of its own"),
    ("heuristic,bid=nobody", "in bid= of 'heuristic,bid=nobody': unknown player 'nobody'"),
    ("nobody,bid=heuristic", "unknown player 'nobody'"),
    ("db:/no/such.db,bid=heuristic", "/no/such.db: no such strategy database"),
    ("heuristic,bid=db:/no/such.db", "in bid= of"),
    ("heuristic,bid=pimc:0", "WORLDS must be at least 1"),
])
def test_bad_composite_specs_are_one_clear_line(spec, words):
    with pytest.raises(PlayerSpecError) as info:
        make_player(spec)
    assert words in str(info.value)
    assert "\n" not in str(info.value)


def test_the_cli_refuses_a_bad_composite_in_one_line(capsys):
    from cli_runner import run_cli

    status, out, err = run_cli(capsys, ["tournament", "--ew", "heuristic,bid=nobody",
                                        "--ns", "random", "--games", "1", "--png", "none"])
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "unknown player 'nobody'" in err


def test_sds_names_go_to_the_sds_module():
    """`sds...` is dispatched to games.setback.play.sds (through the registry's `KINDS`)."""
    from games.setback.play.sds import SdsPlayer

    player = make_player("heuristic,bid=sds")
    assert player.name == "heuristic,bid=sds"
    assert isinstance(player.bidder, SdsPlayer)


def test_moves_are_legal_in_a_composite_game(files):
    player = make_player(f"random,bid=db:{files['db']}", 4)
    deal = Deal.random(3)
    while not deal.is_over:
        move = format_move(player.choose(SeatView.of(deal.state, deal.dealer)))
        assert move in deal.legal_moves()
        deal.play(move)
