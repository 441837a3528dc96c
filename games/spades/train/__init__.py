"""Spades's part of the training layer (`train/`): `game.py`."""
