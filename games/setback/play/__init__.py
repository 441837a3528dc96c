"""Setback's players (the `play/` layer: above `db/`, `search/`, `abstraction/` and the rules, never
`train/`): `trickster.py`."""
