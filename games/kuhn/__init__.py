"""Kuhn poker, identical to OpenSpiel's `kuhn_poker`, on the CFR game interface."""

from games.kuhn.game import GAME

__all__ = ["GAME"]
