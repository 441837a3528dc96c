"""Setback's part of the database layer (`db/`): `keys.py`."""
