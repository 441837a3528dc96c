"""Search over deals: perfect-information Monte Carlo (PIMC) on sampled worlds, rollouts, beliefs.
A game's own search is in its place (`games/<game>/search/`: Setback's exact solver, its worlds).

- `world_sampler.py`: the one world sampler of every game: the hidden cards dealt to the other
  seats, uniform over the layouts consistent with what a game declares public
  (`games/<game>/public.py`); `games/setback/search/sampler.py`: Setback's use of it.
- `inference.py`: weighting sampled worlds by how likely a policy was to make the moves seen.

Only `games/` is used: the rules are the engine's, never re-implemented here.
"""

import numba_cache  # noqa: F401  (first: numba's cache keyed on all sources)
