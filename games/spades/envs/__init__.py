"""Spades in the field's toolkits (the `envs/` layer, over the rules and the world sampler): `pyspiel.py`."""
