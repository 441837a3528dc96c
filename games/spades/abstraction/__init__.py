"""The Spades abstraction: info-set keys, abstract actions and the abstract game.

- `keys.py`          one kernel for any hand state: the abstract actions and the uint64 key
                     (the key layout, documented as a table in its docstring); past the
                     learned tricks the heuristic's card (`games/spades/heuristic.py`)
- `abstract_game.py` abstract Spades as the six numba functions of the CFR game interface
- `codec.py`         uint64 key <-> readable text, key kinds and action names (edges only:
                     export, the database, tests)
- `version.py`       the abstraction's recorded name and version (plain data)
"""
