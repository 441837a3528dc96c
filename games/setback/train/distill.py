"""Setback's declaration to `train distill` (the stage is `train/distill.py`'s): its network's
features and slots (`games/setback/search/net.py`), the base table played from the base run's
export (`strategy:DIR/base.strategy`), `net:FILE` and `search[OPTIONS]:net:FILE`
(`games/setback/play/net_player.py`: later rounds' search rolls out with the network), and the
table's probabilities read from its player's explanation for the imitation phase.
"""

from __future__ import annotations

import os

from games.setback.search.net import MAX_HISTORY, MAX_LEGAL
from games.setback.state import STATE_SIZE
from train.distill import BASE_FILE, DistillGame, export_strategy


def base_spec(run_path: str) -> str:
    """The base table's player: the strategy file exported into the run directory."""
    return f"strategy:{os.path.join(run_path, BASE_FILE)}"


def export_base(base_run: str, run_path: str) -> None:
    """Export the base run into DIR/base.strategy unless it is there."""
    export_strategy(base_run, run_path)


def net_player(net, name: str):
    """`net:` on a network in memory (the gate's player)."""
    from games.setback.play.net_player import NetPlayer

    return NetPlayer(net, name=name)


def table_policy(player, view) -> tuple:
    """(the strategy player's move, its table's (move, probability) at the view; none when
    the key is missing), from the player's explanation."""
    trace = player.explain(view)
    actions = [(a["move"], a["prob"]) for a in trace["actions"]] if trace.get("found") else []
    return int(trace["move"]), actions


DISTILL = DistillGame(
    name="setback", features="games.setback.search.net", state_size=STATE_SIZE,
    max_history=MAX_HISTORY, max_legal=MAX_LEGAL, base_spec=base_spec,
    export_base=export_base, net_player=net_player, table_policy=table_policy)
