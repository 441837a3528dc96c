"""Setback in the field's toolkits (the `envs/` layer, over the rules and the world sampler):
its PettingZoo AEC environment (`aec.py`)."""
