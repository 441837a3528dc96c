"""Spades' part of the database layer (`db/`): `player.py`."""
