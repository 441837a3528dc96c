"""Leduc poker, identical to OpenSpiel's `leduc_poker`, on the CFR game interface."""

from games.leduc.game import GAME

__all__ = ["GAME"]
