"""Euchre's declaration to `train distill` (the stage is `train/distill.py`'s): its network's
features and slots (`games/euchre/search/net.py`), the base table played as its database
(`db:DIR/base.db`, loaded once from the base run's export `DIR/base.strategy`: round 0's
searcher is `search[OPTIONS]:db:DIR/base.db`), `net:FILE` and `search[OPTIONS]:net:FILE`
(`games/euchre/play/net_player.py`: later rounds' search rolls out with the network), and the
table's probabilities read from the database for the imitation phase.
"""

from __future__ import annotations

import os

import numpy as np

from games.euchre.search.net import MAX_HISTORY, MAX_LEGAL
from games.euchre.state import STATE_SIZE
from train.distill import DistillGame, export_strategy

BASE_DB = "base.db"


def base_spec(run_path: str) -> str:
    """The base table's player: the database of the base run's export."""
    return f"db:{os.path.join(run_path, BASE_DB)}"


def export_base(base_run: str, run_path: str) -> None:
    """Export the base run into DIR/base.strategy and load it into DIR/base.db, each unless it
    is there (the load replaces the database only once it is complete)."""
    from db.loader import load_strategies

    strategy = export_strategy(base_run, run_path)
    path = os.path.join(run_path, BASE_DB)
    if not os.path.exists(path):
        load_strategies([strategy], path, progress=False)


def net_player(net, name: str):
    """`net:` on a network in memory (the gate's player)."""
    from games.euchre.play.net_player import EuchreNetPlayer

    return EuchreNetPlayer(net, name=name)


def table_policy(player, view) -> tuple:
    """(the database player's move, the stored probabilities of its key's abstract actions on
    their moves; none when the key is missing or the decision is forced)."""
    move = int(player.choose(view))
    moves = np.zeros(64, np.int64)
    n, _, key = player.abstract_decision(view.state, moves)
    hit = player.db.lookup(player.key_text(int(key))) if n >= 2 else None
    if hit is None or hit[0].size != n:
        return move, []
    return move, [(int(moves[i]), float(p)) for i, p in enumerate(hit[0])]


DISTILL = DistillGame(
    name="euchre", features="games.euchre.search.net", state_size=STATE_SIZE,
    max_history=MAX_HISTORY, max_legal=MAX_LEGAL, base_spec=base_spec,
    export_base=export_base, net_player=net_player, table_policy=table_policy)
