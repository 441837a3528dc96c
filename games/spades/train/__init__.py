"""Spades' part of the training layer (`train/`): `game.py`."""
