"""Spades in the field's toolkits (the `envs/` layer, over the rules and the world sampler):
its PettingZoo AEC environment (`aec.py`) and a
seat's view as a state of OpenSpiel's own C++ game (`pyspiel.py`)."""
