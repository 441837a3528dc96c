"""Search over Setback deals: an exact perfect-information solver and perfect-information Monte
Carlo (PIMC) on sampled worlds.

- `solver.py`: alpha-beta over the play of the cards with all four hands known, in numba.
- `world_sampler.py`: the one world sampler of every game: the hidden cards dealt to the other
  seats, uniform over the layouts consistent with what a game declares public
  (`games/<game>/public.py`); `sampler.py`: Setback's use of it.
- `inference.py`: weighting sampled worlds by how likely a policy was to make the moves seen.

Only `games/` is used: the rules are the engine's, never re-implemented here.
"""

import numba_cache  # noqa: F401  (first: numba's cache keyed on all sources)
