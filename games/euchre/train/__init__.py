"""Euchre's part of the training layer (`train/`): `evaluation.py`, `game.py`."""
