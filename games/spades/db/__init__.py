"""Spades's part of the database layer (`db/`): `player.py`."""
